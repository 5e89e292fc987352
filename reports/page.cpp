// One page per study (STUDY/REPORT.md): its verdicts first, then which method for which accuracy, then the
// evidence (convergence, error and cost, energy, reversal, stability), each with its plots.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "study/reader/accuracy.hpp"
#include "reports/markdown.hpp"
#include "reports/scan.hpp"
#include "reports/series.hpp"
#include "study/check/check.hpp"

namespace report {

const Plot* PageContext::plot(const Study& s, const std::string& suffix) const {
  const auto it = plots.find(s.name);
  if (it == plots.end()) return nullptr;
  for (const auto& p : it->second)
    if (p.name == s.name + "-" + suffix) return drawn.count(p.name) ? &p : nullptr;
  return nullptr;
}

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

std::string versus_markdown(const HeadToHead& h) {
  const std::string text = cell(versus_cell(h));
  return h.verdict == Versus::cheaper || h.verdict == Versus::dearer ? "**" + text + "**" : text;
}

std::string order_cell(const OrderRow* o) {
  if (!o) return "—";
  const std::string verdict = o->verdict == "fail" ? "**FAIL**" : o->verdict;
  const std::string in = o->arithmetic == "double" ? "" : ", in " + o->arithmetic;
  if (!std::isfinite(o->observed)) return o->verdict.empty() ? "no fit" : verdict + in;
  return fmt::format("{} ({}){}{}", fixed(o->observed), o->expected, verdict.empty() ? "" : " " + verdict, in);
}

std::vector<double> study_targets(const PageContext& c, const Study& s) {
  std::vector<double> t = c.targets.empty() ? default_targets(s) : c.targets;
  t.insert(t.end(), s.accuracy.begin(), s.accuracy.end());  // what the study asked for, answered whatever else is
  return sorted_targets(std::move(t));
}

std::vector<double> summary_targets(const std::vector<double>& user, const Results& r) {
  std::vector<double> t = user.empty() ? every_third(default_targets(r)) : user;
  for (const auto& s : r.studies) t.insert(t.end(), s.accuracy.begin(), s.accuracy.end());
  return sorted_targets(std::move(t));
}

namespace {

/// Where a study page's images live, seen from the page (STUDY/REPORT.md): one folder up.
std::string image(const PageContext& c, const Study& s, const std::string& suffix) {
  const Plot* p = c.plot(s, suffix);
  return p ? "![" + cell(p->title) + "](../plots/" + p->name + ".svg)\n\n" : std::string();
}

/// The gate's checks on this study (no baseline), as `study check` makes them; empty when it cannot judge these
/// results (written before `study check` existed).
std::vector<check::Outcome> gate_of(const Results& r, const Study& s) {
  try {
    check::Options o;
    o.studies = {s.name};
    return check::run_checks(r, nullptr, o).outcomes;
  } catch (const std::exception&) {
    return {};
  }
}

std::string status_cell(const check::Outcome& x) {
  return x.status == check::Outcome::pass ? "pass" : x.status == check::Outcome::fail ? "**FAIL**" : "undetermined";
}

/// Diverged runs, per integrator and reason: "euler: dt 0.5 (step 12, t = 6), dt 0.25 (step 31, t = 7.7): the state ...".
std::string diverged_runs(const Study& s) {
  std::string out;
  for (const auto& i : s.integrators) {
    std::map<std::string, std::string> by_reason;
    std::vector<std::string> order;
    for (const auto& r : s.runs) {
      if (r.integrator != i || r.status == "ok") continue;
      const std::string reason = r.reason.empty() ? "diverged" : r.reason;
      if (!by_reason.count(reason)) order.push_back(reason);
      auto& runs = by_reason[reason];
      runs += (runs.empty() ? "" : ", ") + fmt::format("dt {}", g(r.dt)) +
              (r.diverged_step >= 0 ? fmt::format(" (step {}, t = {})", r.diverged_step, g(r.diverged_t)) : "");
    }
    for (const auto& reason : order) out += "- " + i + ": " + by_reason[reason] + ": " + cell(reason) + "\n";
  }
  return out;
}

void verdicts(std::ostringstream& md, const Results& res, const Study& s) {
  const auto gate = gate_of(res, s);
  std::vector<std::string> metrics;
  for (const auto& x : gate)
    if (std::find(metrics.begin(), metrics.end(), x.metric) == metrics.end()) metrics.push_back(x.metric);
  md << "## Verdicts\n\n";
  if (!gate.empty()) {
    md << "What `study check` decides from these results (without a baseline): pass, **FAIL**, or undetermined when the data "
          "cannot decide (why, and what would decide it, below the table).\n\n| integrator | family |";
    for (const auto& m : metrics) md << " " << m << " |";
    md << " diverged runs |\n|---|---|";
    for (std::size_t k = 0; k < metrics.size(); ++k) md << "---|";
    md << "---|\n";
    // A method's cell in each metric's column: the gate's verdict, or "—" where it is not judged.
    auto verdict_cells = [&](const std::string& label) {
      for (const auto& m : metrics) {
        std::string c = "—";
        for (const auto& x : gate)
          if (x.integrator == label && x.metric == m) c = status_cell(x);
        md << " " << c << " |";
      }
    };
    for (const auto& d : s.declared) {
      md << "| " << cell(d.label) << " | " << family_name(d.family) << " |";
      verdict_cells(d.label);
      std::size_t diverged = 0, runs = 0;
      for (const auto& r : s.runs)
        if (r.integrator == d.label) ++runs, diverged += r.status != "ok";
      md << " " << (diverged ? fmt::format("{} of {}", diverged, runs) : "—") << " |\n";
    }
    // The adaptive pairs too: their tolerance proportionality, their runs that stopped before t_end.
    for (const auto& a : s.adaptive) {
      md << "| " << cell(a.label) << " | adaptive (embedded pair) |";
      verdict_cells(a.label);
      std::size_t stopped = 0, runs = 0;
      for (const auto& r : s.adaptive_runs)
        if (r.integrator == a.label) ++runs, stopped += r.status != "ok";
      md << " " << (stopped ? fmt::format("{} of {} stopped", stopped, runs) : "—") << " |\n";
    }
    md << "\n";
    std::string failed, undetermined;
    for (const auto& x : gate) {
      if (x.status == check::Outcome::fail)
        failed += fmt::format("- **{}, {}**: expected {}; observed {}{}{}\n", cell(x.integrator), x.metric, cell(x.expected), cell(x.observed),
                              x.window.empty() ? "" : " (" + cell(x.window) + ")", x.off.empty() ? "" : "; " + cell(x.off));
      else if (x.status == check::Outcome::undetermined)
        undetermined += fmt::format("- {}, {}: {}{}\n", cell(x.integrator), x.metric, cell(x.off),
                                    x.action.empty() ? "" : "; to decide: " + cell(x.action));
    }
    if (!failed.empty()) md << "<a id=\"failed\"></a>Failed checks:\n\n" << failed << "\n";
    if (!undetermined.empty()) md << "<a id=\"undetermined\"></a>Undetermined checks, and what would decide them:\n\n" << undetermined << "\n";
  } else {
    md << "(These results were written before `study check`: the orders below carry their verdicts.)\n\n";
  }
  const std::string diverged = diverged_runs(s);
  md << "<a id=\"diverged\"></a>" << (diverged.empty() ? "No run diverged.\n\n" : "Runs that diverged (integrator: step size, where, why):\n\n" + diverged + "\n");
}

/// The head-to-head table: every other method's cost over the chosen one's, per target, by force evaluations and by
/// wall time.
void versus(std::ostringstream& md, const Study& s, const PageContext& c, const std::vector<double>& targets) {
  const std::string asked = c.vs.empty() ? s.vs : c.vs;
  if (asked.empty()) return;
  const std::string vs = versus_label(s, asked);
  if (vs.empty()) {
    md << "Head to head: `" << cell(asked) << "` is not one of this study's methods (" << cell(join_names(s.work_methods())) << ").\n\n";
    return;
  }
  md << "<a id=\"versus\"></a>**Head to head against " << cell(vs) << "**: each method's cost to each target over " << cell(vs)
     << "'s, with the ratio's interval (the two costs' uncertainties as above, and by wall time their timing noise too): "
        "**cheaper** or **dearer** when the whole interval lies on one side of 1, a tie when it holds 1, \"cannot tell\" when "
        "an upper bound leaves it open, a cost's uncertainty is not known, or (by wall time) a time is one measurement; — where "
        << cell(vs) << " has no cost to the target.\n\n";
  for (const bool by_time : {false, true}) {
    if (by_time && !s.wants("walltime")) continue;
    md << "| " << (by_time ? "wall time" : "force evaluations") << " over " << cell(vs) << "'s |";
    for (double t : targets) md << " " << target_text(t) << " |";
    md << "\n|---|";
    for (std::size_t k = 0; k < targets.size(); ++k) md << "---:|";
    md << "\n| " << cell(vs) << "'s own |";
    std::vector<bool> reached;
    for (double t : targets) {
      const CostToAccuracy own = cost_to_reach(s, vs, t);
      reached.push_back(own.estimated());
      md << " " << cost_cell(own, by_time) << spread_text(own) << " |";
    }
    md << "\n";
    std::string notes;
    std::set<std::string> noted;
    for (const auto& m : s.work_methods()) {
      if (m == vs) continue;
      md << "| " << cell(m) << " |";
      for (std::size_t k = 0; k < targets.size(); ++k) {
        const double t = targets[k];
        if (!reached[k]) {
          md << " — |";
          continue;
        }
        const HeadToHead h = head_to_head(s, m, vs, t, by_time);
        md << " " << versus_markdown(h) << " |";
        if (!h.why.empty() && !noted.count(m)) noted.insert(m), notes += "- " + cell(m) + ", " + target_text(t) + ": " + cell(h.why) + "\n";
      }
      md << "\n";
    }
    md << "\n";
    if (!notes.empty()) md << "Where a cell is open, why (each method's first):\n\n" << notes << "\n";
  }
}

void accuracy(std::ostringstream& md, const Study& s, const PageContext& c) {
  if (!s.wants("global") || (s.runs.empty() && s.adaptive_work.empty())) return;
  const auto targets = study_targets(c, s);
  md << "<a id=\"accuracy\"></a>\n## Which method for which accuracy\n\n"
     << "The cost for each method to reach a relative global error, **interpolated** on its own log–log curve of error "
        "against cost between the two runs that bracket the target (never across a diverged run or a run outside the "
        "asymptotic range: error above 0.5 or within 10 times its noise floor); **≈** extrapolated from the fitted order (three decades "
        "at most below its last usable run, one above its first); **≤** an upper bound, the cost of the run that reached it "
        "when no estimate is allowed. The margin is the runner-up's cost over the winner's; a winner is named only when it "
        "exceeds the figures' uncertainty, the two costs' combined (interpolated: how far the curve's local slopes around "
        "the bracketing runs could move it; extrapolated: the fitted order's 99 % interval over the distance "
        "extrapolated), and by wall time also the timing noise of the two (the spread of their repeats, median over "
        "minimum); else it is a tie, \"within X %\" naming every method inside it. \"Cannot tell\" lists "
        "the methods that may be the cheapest when a bound, or a sweep that ended early, leaves it open.\n\n"
     << "| target | fewest force evaluations | least wall time |\n|---|---|---|\n";
  for (double t : targets) md << "| " << target_text(t) << " | " << winner_cell(s, t, false) << " | " << winner_cell(s, t, true) << " |\n";
  md << "\nForce evaluations to reach each target, per method:\n\n| method |";
  for (double t : targets) md << " " << target_text(t) << " |";
  md << "\n|---|";
  for (std::size_t k = 0; k < targets.size(); ++k) md << "---:|";
  md << "\n";
  std::map<std::string, std::string> why;  // the first reason a method did not reach a target
  for (const auto& i : s.work_methods()) {
    md << "| " << cell(i) << " |";
    for (double t : targets) {
      const auto cost = cost_to_reach(s, i, t);
      md << " " << cost_cell(cost, false) << " |";
      if (cost.how == Reach::not_reached && !why.count(i)) why[i] = target_text(t) + ": " + cost.why;
    }
    md << "\n";
  }
  md << "\n";
  if (!why.empty()) {
    md << "Where a method's curve ends, and why (its first target not reached):\n\n";
    for (const auto& i : s.work_methods())
      if (why.count(i)) md << "- " << cell(i) << ", " << cell(why[i]) << "\n";
    md << "\n";
  }
  versus(md, s, c, targets);
  md << "**Pareto front** (the runs no other run beats on both error and cost): by force evaluations, "
     << cell(describe_front(pareto_front(s, false)));
  if (s.wants("walltime")) md << "; by wall time, " << cell(describe_front(pareto_front(s, true)));
  md << ".\n\n" << image(c, s, "work") << image(c, s, "work-time");
  // Which step sizes each method ran, the smallest error it reached, and why its sweep stopped there.
  std::string rows;
  for (const auto& w : s.sweeps) {
    if (w.dts.empty()) continue;
    double smallest = INFINITY;
    for (const auto& r : s.runs)
      if (r.integrator == w.integrator && r.status == "ok" && r.global > 0) smallest = std::min(smallest, r.global);
    rows += fmt::format("| {} | {} | {}–{} | {} | {} |\n", cell(w.integrator), w.dts.size(), g(w.dts.front()), g(w.dts.back()), sci(smallest),
                        w.automatic || !w.stop.empty() ? cell(w.stop) : "the spec's step sizes");
  }
  if (!rows.empty())
    md << "Where each sweep ended" << (s.auto_runs > 0 ? " (dt = \"auto\": chosen per method while it ran)" : "") << ":\n\n"
       << "| method | runs | dt | smallest error | why it stopped |\n|---|---|---|---|---|\n" << rows << "\n";
}

void convergence(std::ostringstream& md, const Study& s, const PageContext& c) {
  if (s.orders.empty()) {
    // Errors measured at fewer step sizes than a fit needs: a study designed so, which says why it has no order checks.
    std::set<double> dts;
    for (const auto& r : s.runs) dts.insert(r.dt);
    if ((s.wants("global") || s.wants("local")) && !dts.empty() && dts.size() < 3)
      md << "## Convergence\n\nNo order is fitted, and none is checked: the study runs " << dts.size()
         << " step size(s), and an order's fit needs 3 (its local slopes tell a steady slope from a bending one).  The "
            "errors at each step size are in the tables and plots below.\n\n";
    return;
  }
  md << "## Convergence: observed against expected orders\n\n"
     << "Least-squares slopes of log error on log dt over an automatically chosen asymptotic window, with a 99 % interval; "
        "pass when the interval lies within 0.2 of the expected order, fail only when the window is asymptotic and the whole "
        "interval lies below, otherwise undetermined.  Where double round-off ended the range before an order settled, the same "
        "runs in long double, then float128, against the same certified reference decide it (\"in float128\"); accuracy and cost "
        "stay the double runs'."
     << (c.plot(s, "global") ? " In the plots each fitted order is drawn dashed over its window and "
                               "written beside it; FAIL and undetermined (?) are marked in the legend, failed lines drawn thick and "
                               "undetermined ones dotted; methods whose curves coincide within round-off share one line (\"a = b\"); "
                               "runs in long double (open circles) and float128 (open squares) beside the double line."
                             : "")
     << "\n\n"
     << "| integrator | global (at t_end) | max (over the run) | local (one step) | window of the global fit | R² |\n"
     << "|---|---|---|---|---|---|\n";
  for (const auto& i : s.integrators) {
    const OrderRow* og = find_order(s, i, "global");
    md << "| " << cell(i) << " | " << order_cell(og) << " | " << order_cell(find_order(s, i, "max")) << " | "
       << order_cell(find_order(s, i, "local")) << " | "
       << (og && std::isfinite(og->observed) ? fmt::format("dt {}–{}, {} points", g(og->dt_min), g(og->dt_max), og->points)
                                              : (og ? cell(og->reason) : "—"))
       << " | " << (og ? fixed(og->r2, 4) : "—") << " |\n";
  }
  md << "\n";
  // Methods given as coefficient tables: what the coefficients predict beside what was declared and measured.
  std::string tables;
  for (const auto& d : s.declared) {
    if (d.table.empty()) continue;
    const OrderRow* og = find_order(s, d.label, "global");
    tables += fmt::format("| {} | `{}` | {} | {} | {} | {} | {} |\n", cell(d.label), cell(d.table), d.declared_order,
                          d.predicted_order > 0 ? std::to_string(d.predicted_order) + (d.predicted_exact_order < d.predicted_order ? " (to its digits)" : "") +
                                                      (d.linear_order > 0 ? fmt::format("; {} on linear problems", d.linear_order) : "")
                                                : "—",
                          og && std::isfinite(og->observed) ? fixed(og->observed) : "—", cell(d.first_failing), cell(d.source));
  }
  if (!tables.empty())
    md << "Methods given as coefficient tables (`study method` explains each):\n\n"
       << "| method | table | declared order | predicted from the coefficients | measured global order | first failing condition | source |\n"
       << "|---|---|---|---|---|---|---|\n" << tables << "\n";
  std::string undecided;
  for (const auto& i : s.integrators)
    for (const std::string m : {"global", "max", "local"})
      if (const OrderRow* o = find_order(s, i, m); o && o->verdict == "undetermined")
        undecided += "- " + cell(i) + ", " + m + ": " + cell(o->reason) + (o->action.empty() ? "" : "; to decide: " + cell(o->action)) + "\n";
  if (!undecided.empty()) md << "Undetermined orders, and what would decide them:\n\n" << undecided << "\n";
  for (const std::string m : {"global", "max", "local"}) md << image(c, s, m);
}

void finest(std::ostringstream& md, const Study& s, const PageContext& c) {
  if (s.runs.empty()) return;
  md << "## Error, energy and cost at the finest step that ended well\n\n"
     << "| integrator | dt | global error | energy: max rel. | drift / time | behaviour | ns / step | evals / step |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& i : s.integrators) {
    const RunRow* r = finest_ok(s, i);
    if (!r) {
      md << "| " << cell(i) << " | every run diverged |  |  |  |  |  |  |\n";
      continue;
    }
    md << "| " << cell(i) << " | " << g(r->dt) << " | " << sci(r->global) << " | " << sci(r->energy_max) << " | " << sci(r->drift) << " | "
       << (r->behaviour.empty() ? "—" : r->behaviour) << " | " << fixed(r->ns_min, 1) << " | " << fixed(r->evals_per_step, 1) << " |\n";
  }
  md << "\n" << image(c, s, "energy-dt") << image(c, s, "energy") << image(c, s, "trajectory");
}

}  // namespace

/// "the figures' uncertainty of 3 %", "the timing noise and the figures' uncertainty of 12 %".
static std::string uncertainty_words(const Ranking& r) {
  if (std::isinf(r.bound())) return "the figures' unbounded uncertainty (an order interval that reaches 0)";
  const bool noise = r.by_time && std::isfinite(r.noise), spread = std::isfinite(r.uncertainty);
  return fmt::format("{} of {}", noise && spread ? "the timing noise and the figures' uncertainty" : noise ? "the timing noise" : "the figures' uncertainty",
                     percent(r.bound()));
}

std::string winner_cell(const Study& s, double target, bool by_time) {
  if (by_time && !s.wants("walltime")) return "not measured (the spec's metrics leave out walltime)";
  const Ranking r = rank(s, target, by_time);
  if (r.order.empty()) return "none reached it";
  const auto& w = r.order[0];
  std::string out = cell(w.integrator) + " " + cost_cell(w, by_time);
  if (!r.undecided.empty()) {  // an upper bound, or a sweep that ended early, leaves the order open: say who could win
    std::string open = out, ended;
    for (const auto& c : r.order)
      if (std::find(r.undecided.begin(), r.undecided.end(), c.integrator) != r.undecided.end())
        open += ", " + cell(c.integrator) + " " + cost_cell(c, by_time);
    bool adaptive = false;  // an adaptive method's sweep goes on to smaller tolerances, not steps
    for (const auto& c : r.none)
      if (std::find(r.undecided.begin(), r.undecided.end(), c.integrator) != r.undecided.end()) {
        ended += (ended.empty() ? "" : ", ") + cell(c.integrator);
        adaptive = adaptive || std::any_of(s.adaptive.begin(), s.adaptive.end(), [&](const auto& a) { return a.label == c.integrator; });
      }
    return "cannot tell: " + open +
           (ended.empty() ? "" : ", or " + ended + ", whose sweep ended before it (run it to smaller steps" + (adaptive ? " or tolerances)" : ")")) +
           (open.find("≤") != std::string::npos ? " (≤: an upper bound)" : "");
  }
  if (r.order.size() < 2) return out + " (the only one)";
  const auto& next = r.order[1];
  // A margin means something between two estimates; an upper bound (a run that reached the target) only bounds.
  if (w.how == Reach::at_most || next.how == Reach::at_most)
    return out + " (next: " + cell(next.integrator) + " " + cost_cell(next, by_time) + ")";
  if (r.tie()) {  // no winner inside the figures' uncertainty: every method within it, with its cost
    const std::string names = tie_list(r, [](const std::string& m) { return cell(m); });
    return fmt::format("within {}: {} (a tie: the runner-up +{}, against {})", percent(r.tied_within), names, percent(r.margin),
                       uncertainty_words(r));
  }
  if (r.margin < 1e-3) return out + " (the same as " + cell(next.integrator) + ")";
  return out + fmt::format(" (next: {}, +{}{})", cell(next.integrator), percent(r.margin),
                           std::isfinite(r.bound()) ? fmt::format(", beyond {}", uncertainty_words(r))
                                                    : "; the figures' uncertainty is not known");
}

/// Adaptive integrators: each one's tolerance proportionality, its plot, and every run.
void adaptive(std::ostringstream& md, const Study& s, const PageContext& c) {
  if (s.adaptive.empty()) return;
  md << "<a id=\"adaptive\"></a>\n## Adaptive integrators\n\nEach embedded pair under its step-size controller at every tolerance "
        "(eps_abs = eps_rel = tol), " << s.tolerances.size() << " tolerances, "
     << (s.adaptive_cut ? "each step that would pass an output time cut to land on it (tol.outputs = \"cut\", as Odeint's integrate_times)"
                        : "every step the controller's (the last cut to end on t_end), each output time inside a step observed by a step of "
                          "the pair to it from the step's start")
     << " (docs/adaptive.md). Tolerance proportionality: the slope of the largest error over the output times against the tolerance, "
        "fitted and judged as the orders are (99 % interval), against p / (min(p, p̂) + 1) of an error-per-step controller, or "
        "above it against the orders the study measured at fixed steps.\n\n"
     << "| method | controller | orders | expected slope | verdict | slope, 99 % interval | window | runs stopped early |\n"
        "|---|---|---|---:|---|---|---|---|\n";
  for (const auto& a : s.adaptive) {
    const ProportionalityRow* p = nullptr;
    for (const auto& x : s.proportionality)
      if (x.integrator == a.label) p = &x;
    const bool fitted = p && std::isfinite(p->observed);
    std::string stopped;
    for (const auto& r : s.adaptive_runs)
      if (r.integrator == a.label && r.status != "ok") stopped += (stopped.empty() ? "" : "; ") + fmt::format("tol {}: {}", g(r.tol), r.reason);
    md << "| " << cell(a.label) << " | " << a.controller << " | " << a.order << "(" << a.order_hat << ") | " << g(a.expected_slope) << " | "
       << (p ? (p->verdict == "fail" ? "**FAIL**" : p->verdict) : "—") << " | "
       << (fitted ? fmt::format("{:.2f} in [{:.2f}, {:.2f}]", p->observed, p->lo, p->hi) : "no fit") << " | "
       << (fitted ? fmt::format("tol {}..{}, {} points", g(p->tol_min), g(p->tol_max), p->window_points) : cell(p ? p->reason : "")) << " | "
       << (stopped.empty() ? "none" : cell(stopped)) << " |\n";
  }
  md << "\n" << image(c, s, "tolerance");
  if (const Plot* p = c.plot(s, "adaptive-energy"))  // each pair's energy error in time, at its tolerances
    md << "The energy error of each pair in time at its tolerances" << (s.conservative ? "" : " (against the reference's energy)")
       << ": a tighter tolerance lowers it; whether it grows in time is for the long energy run (energy_t_end with energy_tol) to "
          "judge.\n\n![" << cell(p->title) << "](../plots/" << p->name << ".svg)\n\n";
  md << "Every run: its error at t_end and the largest over the output times, steps accepted and rejected, force "
        "evaluations (the first step's estimate included), the smallest and largest step, the largest relative energy "
        "error over the output times" << (s.conservative ? "" : " (against the reference's energy)") << ", and the whole run's wall time "
        "(minimum of the repeats).\n\n| method | tol | status | error at t_end | largest error | largest energy error | accepted | rejected | "
        "force evaluations | steps | wall time (s) |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|\n";
  for (const auto& r : s.adaptive_runs)
    md << "| " << cell(r.integrator) << " | " << g(r.tol) << " | " << r.status << " | " << sci(r.global) << " | " << sci(r.max) << " | "
       << sci(r.energy_max) << " | " << r.accepted << " | " << r.rejected << " | " << g(r.force_evals) << " | "
       << (std::isfinite(r.h_min) ? g(r.h_min) + ".." + g(r.h_max) : "—") << " | " << sci(r.seconds_min) << " |\n";
  md << "\n";
}

std::string study_page(const Results& res, const Study& s, const PageContext& c) {
  std::ostringstream md;
  std::size_t diverged = 0;
  for (const auto& r : s.runs) diverged += r.status != "ok";
  const std::string point = point_text(s.scan);  // a scan's point: its values after the scan's title
  md << "# " << cell(s.title) << (point.empty() ? "" : " — " + cell(point)) << "\n\n"
     << "[← summary](../REPORT.md) · problem `" << s.problem << "`" << (s.params.empty() ? "" : " (")
     << [&] {
          std::string p;
          for (const auto& [k, v] : s.params) p += (p.empty() ? "" : ", ") + k + " = " + v;
          return cell(p);
        }()
     << (s.params.empty() ? "" : ")") << ", t_end = " << g(s.t_end) << (s.time_unit.empty() ? "" : " " + s.time_unit)
     << (s.dt_pattern.empty() ? "" : ", steps alternating dt (1 ± " + g(s.dt_amplitude) + ")")
     << (s.spec_file.empty() ? "" : ", spec `" + cell(s.spec_file) + "`") << "; " << s.integrators.size() << " integrators, "
     << s.runs.size() << " runs"
     << (s.adaptive.empty() ? "" : fmt::format(", {} adaptive pairs at {} tolerances, {} runs", s.adaptive.size(), s.tolerances.size(),
                                               s.adaptive_runs.size()))
     << (s.energy_long.empty() ? "" : fmt::format(", {} long energy runs", s.energy_long.size())) << (diverged ? fmt::format(" ([{} diverged](#diverged))", diverged) : "") << ". Reference: float128 "
     << "Bulirsch–Stoer at tolerance " << sci(s.ref_tol) << ", certified error bound " << (s.ref_bound > 0 ? sci(s.ref_bound) : "— (none needed)")
     << ". Errors are relative: the larger of |Δq|/Q and |Δv|/V, Q and V the largest |q| and |v| of the reference.\n\n";
  if (!s.scan.name.empty()) {
    md << "A point of a scan (" << cell(point) << ", " << s.scan.index + 1 << " of " << s.scan.count << "): [its page](../"
       << scan_page_file(s.scan.name) << ") draws every point."
       << (c.point_plots ? "" : " This page's plots are not drawn (`study report --point-plots` draws them for every point).") << "\n\n";
  }
  verdicts(md, res, s);
  accuracy(md, s, c);
  convergence(md, s, c);
  finest(md, s, c);
  adaptive(md, s, c);
  if (const Plot* p = c.plot(s, "reversal")) {
    md << "## Time reversal\n\nn steps of dt, then n of -dt: the distance from the start (relative to the largest |q|). "
          "Symmetric methods return to round-off; the others miss by their own error.\n\n"
       << "| integrator | gap at the largest dt | gap at the smallest dt |\n|---|---|---|\n";
    for (const auto& i : s.integrators) {
      const auto [coarse, fine] = sweep_ends(s, i, [](const RunRow& r) { return std::isfinite(r.reversal); });
      if (coarse)
        md << "| " << cell(i) << " | " << sci(coarse->reversal) << " (dt " << g(coarse->dt) << ") | " << sci(fine->reversal) << " (dt "
           << g(fine->dt) << ") |\n";
    }
    md << "\n![" << cell(p->title) << "](../plots/" << p->name << ".svg)\n\n";
  }
  if (!s.energy_long.empty()) {
    const bool pairs = std::any_of(s.energy_long.begin(), s.energy_long.end(), [](const LongRow& e) { return e.tol > 0; });
    md << "## Long energy run\n\n"
       << (pairs ? "A fixed-step method at its step dt; an adaptive pair under its controller at its tolerance (energy_tol), landing "
                   "on 121 log-uniform times, its mean step beside it. "
                 : "")
       << "Behaviour, by the rule `study check` applies: bounded where the growth exponent's 99 % interval lies below ½, "
          "drift where it lies above, round-off where the error stays within 100 ε √steps.\n\n"
       << "| integrator | dt | status | final relative energy error | largest | growth exponent a (error ∝ t^a), 99 % interval | behaviour |\n"
       << "|---|---|---|---|---|---|---|\n";
    for (const auto& e : s.energy_long)
      md << "| " << cell(e.integrator) << " | " << (e.tol > 0 ? "tol " + g(e.tol) + ", mean step " + g(e.dt) : g(e.dt)) << " | "
         << (e.reason.empty() ? e.status : cell(e.status + ": " + e.reason)) << " | " << sci(e.final_rel) << " | " << sci(e.max_rel) << " | "
         << fixed(e.growth) << (std::isfinite(e.growth_lo) ? " [" + fixed(e.growth_lo) + ", " + fixed(e.growth_hi) + "]" : "") << " | "
         << behaviour_word(long_run_behaviour(e)) << " |\n";
    md << "\na ≈ 0: bounded (symplectic methods on a compact energy surface); a ≈ ½: the random walk of round-off "
          "(Brouwer's law), no method error left; a ≈ 1: a linear drift; above 1: faster than linear (explicit Euler "
          "multiplies a harmonic energy by 1 + ω²h² per step).\n\n"
       << image(c, s, "energy-long");
  }
  if (!s.stability.empty()) {
    md << "## Linear stability on the harmonic oscillator\n\n| integrator | largest stable ωh (measured) | theory | basis of the theory | note |\n"
       << "|---|---|---|---|---|\n";
    for (const auto& x : s.stability)
      md << "| " << cell(x.integrator) << " | " << fixed(x.limit, 4) << " | " << (std::isinf(x.theory) ? "unbounded" : fixed(x.theory, 4)) << " | "
         << cell(x.theory_basis) << " | " << cell(x.note) << " |\n";
    md << "\n" << image(c, s, "stability");
  }
  md << "[← summary](../REPORT.md)\n";
  return md.str();
}

}  // namespace report
