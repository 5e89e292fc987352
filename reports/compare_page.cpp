// `study compare` and `study history`: tables and pages from loaded results.
#include "reports/compare_page.hpp"

#include <algorithm>
#include <functional>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "study/reader/accuracy.hpp"
#include "reports/markdown.hpp"
#include "reports/render.hpp"
#include "reports/series.hpp"
#include "study/common/atomic_file.hpp"

namespace report {
namespace {

namespace fs = std::filesystem;

std::string ratio_text(double r) {
  if (!std::isfinite(r)) return "—";
  return r >= 2 || r <= 0.5 ? fmt::format("×{:.3g}", r) : fmt::format("×{:.3f}", r);  // ×2676, not ×2676.000
}

/// The largest new / old error of a method, NaN when nothing was compared.
double worst_error(const check::MethodChange& m) {
  double w = NAN;
  for (const auto& [dt, r] : m.error_ratios) w = std::isnan(w) ? r : std::max(w, r);
  return w;
}

/// The cost to each target either folder estimates, old -> new (the ratio where both are estimates):
/// "1e-03: 3.97e+03 -> ≈3.33e+04 (×8.39); 1e-06: ...".
std::string costs_text(const check::MethodChange& m, const std::string& arrow) {
  std::string out;
  for (const auto& c : m.costs) {
    if (!c.old_cost.estimated() && !c.new_cost.estimated()) continue;
    out += (out.empty() ? "" : "; ") + target_text(c.target) + ": " + cost_cell(c.old_cost, false) + arrow + cost_cell(c.new_cost, false);
    const bool both = c.old_cost.estimated() && c.new_cost.estimated() && c.old_cost.how != Reach::at_most && c.new_cost.how != Reach::at_most;
    if (both && c.old_cost.evals > 0) out += " (" + ratio_text(c.new_cost.evals / c.old_cost.evals) + ")";  // a bound has no ratio
  }
  return out.empty() ? "—" : out;
}

std::string order_change(const check::MethodChange& m, const std::string& metric) {
  for (const auto& o : m.orders)
    if (o.metric == metric)
      return (std::isfinite(o.old_order) ? fixed(o.old_order) : "—") + " -> " + (std::isfinite(o.new_order) ? fixed(o.new_order) : "—");
  return "—";
}

/// The aspects judged worse, for one method: "error constant, time per step".
std::string worse_of(const check::Comparison& c, const check::MethodChange& m) {
  std::string out;
  for (const auto& x : c.verdict.outcomes)
    if (x.status == check::Outcome::fail && x.study == m.study && x.integrator == m.method) out += (out.empty() ? "" : ", ") + x.metric;
  return out;
}

std::string time_cell(const check::MethodChange& m) {
  if (!std::isfinite(m.time_ratio)) return "—";
  return ratio_text(m.time_ratio) + (std::isfinite(m.time_noise) ? fmt::format(" ±{:.0f} %", 100 * m.time_noise) : "");
}

std::string publish_plots(const Gnuplot* gnuplot, const fs::path& plots, const std::vector<std::string>& names, unsigned jobs,
                          PagesOutcome& out) {
  if (!gnuplot) {
    out.missing = names, out.problem = "plots were not drawn (--no-plots)";
    return out.problem;
  }
  if (const std::string why = gnuplot_problem(*gnuplot); !why.empty()) {
    out.missing = names, out.problem = why;
    return why;
  }
  const auto failed = draw_all(*gnuplot, plots, names, jobs);
  for (const auto& n : names) {
    if (!failed.count(n)) {
      out.plots.push_back(n);
      continue;
    }
    out.missing.push_back(n);
    if (out.problem.empty()) out.problem = "gnuplot failed on " + n + ".gp: " + failed.at(n);
  }
  out.failed = !failed.empty();
  return out.problem;
}

}  // namespace

std::string compare_text(const check::Comparison& c, const check::CompareOptions& o) {
  (void)o;
  std::ostringstream t;
  t << fmt::format("{:<44} {:<14} {:<11} {:<15} {}\n", "study / method", "global order", "error", "time per step", "");
  t << fmt::format("{:<44} {:<14} {:<11} {:<15} {}\n", "", "old -> new", "new / old", "new / old", "");
  for (const auto& m : c.methods) {
    const std::string worse = worse_of(c, m);
    t << fmt::format("{:<44} {:<14} {:<11} {:<15} {}\n", m.study + " / " + m.method, order_change(m, "global"), ratio_text(worst_error(m)),
                     time_cell(m), worse.empty() ? "" : "WORSE: " + worse);
    // The cost to each accuracy on a line of its own: every target, old -> new (≈ extrapolated, ≤ a bound).
    t << "    force evaluations to reach " << costs_text(m, " -> ") << "\n";
  }
  for (const auto& m : c.methods)
    for (const auto& note : m.notes) t << "note:    " << m.study << " / " << m.method << ": " << note << "\n";
  for (const auto& a : c.added) t << "added:   " << a << "\n";
  for (const auto& r : c.removed) t << "removed: " << r << " (not compared)\n";
  for (const auto& x : c.changed) t << "changed: " << x << " (not compared: another experiment under the same name)\n";
  return t.str();
}

PagesOutcome render_compare(const Results& old, const Results& now, const std::string& old_name, const std::string& new_name,
                            const check::Comparison& c, const check::CompareOptions& o, const fs::path& out, const Gnuplot* gnuplot,
                            unsigned jobs) {
  PagesOutcome result;
  const fs::path plots = out / "plots";
  fs::create_directories(plots);
  std::vector<std::string> names;
  // One plot per study: each method's new / old error at every step size both ran, time per step with its noise,
  // and cost to each target, on a log scale around 1 (above: worse).
  for (const auto& s : now.studies) {
    std::vector<const check::MethodChange*> ms;
    for (const auto& m : c.methods)
      if (m.study == s.name) ms.push_back(&m);
    if (ms.empty()) continue;
    std::ostringstream errors, times, costs, tics;
    double lo = 1, hi = 1;
    for (std::size_t k = 0; k < ms.size(); ++k) {
      tics << (k ? ", " : "") << quoted(ms[k]->method) << " " << k;
      for (const auto& [dt, r] : ms[k]->error_ratios)
        if (r > 0 && std::isfinite(r)) errors << k - 0.15 << ' ' << num17(r) << '\n', lo = std::min(lo, r), hi = std::max(hi, r);
      if (std::isfinite(ms[k]->time_ratio)) {
        const double noise = std::isfinite(ms[k]->time_noise) ? ms[k]->time_noise : 0;
        times << k << ' ' << num17(ms[k]->time_ratio) << ' ' << num17(ms[k]->time_ratio / (1 + noise)) << ' '
              << num17(ms[k]->time_ratio * (1 + noise)) << '\n';
        lo = std::min(lo, ms[k]->time_ratio / (1 + noise)), hi = std::max(hi, ms[k]->time_ratio * (1 + noise));
      }
      for (const auto& cc : ms[k]->costs)
        if (cc.old_cost.how == Reach::interpolated && cc.new_cost.how == Reach::interpolated) {
          const double r = cc.new_cost.evals / cc.old_cost.evals;
          costs << k + 0.15 << ' ' << num17(r) << '\n', lo = std::min(lo, r), hi = std::max(hi, r);
        }
    }
    const std::string name = "compare-" + s.name;
    std::string data = "# new / old error at each step size both ran (x: method index)\n" + errors.str() + "0 NaN\n\n\n" +
                       "# new / old time per step (median of the runs), low and high by the timing noise\n" + times.str() +
                       "0 NaN NaN NaN\n\n\n# new / old force evaluations to each accuracy target\n" + costs.str() + "0 NaN\n";
    PanelText p{s.title, "", {}};
    p.elements = {fmt::format("'{}.dat' index 0 using 1:2 with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'error at each common step size'", name),
                  fmt::format("'{}.dat' index 1 using 1:2:3:4 with yerrorbars pt 5 ps 1 lc rgb '#d62728' title 'time per step (bars: timing noise)'",
                              name),
                  fmt::format("'{}.dat' index 2 using 1:2 with points pt 9 ps 1 lc rgb '#2ca02c' title 'force evaluations to each accuracy'", name),
                  "1 with lines lc rgb '#000000' lw 1 title 'unchanged'",
                  fmt::format("{:.9g} with lines dt 2 lc rgb '#d62728' title 'error tolerance'", 1 + o.error_tolerance)};
    // Ratios within a factor 4 on a linear axis (a log axis would show one tick, "1"); wider ones on a log axis.
    const double y_lo = std::min(lo, 1 / (1 + 4 * o.error_tolerance)) / 1.2, y_hi = std::max(hi, 1 + 4 * o.error_tolerance) * 1.2;
    const bool log = y_hi / y_lo > 4;
    const std::string axes = fmt::format("{}  set yrange [{}:{}]\n  set xrange [-0.6:{}]\n  set xtics ({}) rotate by -40 noenhanced\n"
                                         "  set key outside right top\n",
                                         log ? "  set logscale y\n" : "  set ytics nomirror\n  set mytics 5\n", num17(log ? y_lo : std::max(0.0, y_lo - 0.05)),
                                         num17(y_hi), num17(static_cast<double>(ms.size()) - 0.4), tics.str()) +
                             axis_title("x", "method (in the spec's order)") + axis_title("y", "new / old (ratio; above 1 is worse)");
    write_plot(plots, name, "new against old — " + s.name + " (" + s.problem + ")", axes, {p}, data, 1000, 480);
    names.push_back(name);
  }
  publish_plots(gnuplot, plots, names, jobs, result);
  const std::set<std::string> drawn(result.plots.begin(), result.plots.end());

  std::ostringstream md;
  const std::size_t worse = c.verdict.count(check::Outcome::fail);
  md << "# " << cell(new_name) << " against " << cell(old_name) << "\n\n"
     << "Old: `" << cell(old_name) << "` (revision `" << cell(old.revision) << "`, " << cell(old.date) << "); new: `" << cell(new_name)
     << "` (revision `" << cell(now.revision) << "`, " << cell(now.date) << "). Runs are matched by study, method and step size, fits by "
     << "study, method and metric. Worse means: an order lower by more than " << fmt::format("{:g}", o.order_tolerance)
     << " with the two intervals apart (or a pass that fails now); an error, at a step size both ran where the old error is above 1000 times its "
        "noise floor, larger by more than "
     << fmt::format("{:g} %", 100 * o.error_tolerance) << "; a cost to an accuracy target (estimated in both) larger by more than "
     << (std::isfinite(o.cost_tolerance) ? fmt::format("{:g} %", 100 * o.cost_tolerance)
                                         : fmt::format("the two costs' uncertainties combined (at least {:g} %)", 100 * o.error_tolerance))
     << "; a run that ended well and diverges now; an energy error that was bounded and "
     << "drifts now; "
     << (std::isfinite(o.time_tolerance)
             ? fmt::format("a time per step slower by more than {:g} % and more than the timing noise.", 100 * o.time_tolerance)
             : "timing is shown, never judged (`--time-tolerance` judges it).")
     << "\n\n**" << (worse ? fmt::format("{} worse", worse) : c.verdict.passed() ? std::string("nothing worse") : std::string("nothing compared"))
     << "** in " << c.verdict.outcomes.size()
     << " comparisons of " << c.methods.size() << " methods (" << c.verdict.count(check::Outcome::pass) << " not worse, "
     << c.verdict.count(check::Outcome::undetermined) << " with nothing to compare).\n\n";
  if (!result.missing.empty()) md << "> **" << result.missing.size() << " plot(s) missing**: " << cell(result.problem) << "\n\n";
  if (worse) {
    md << "## Worse\n\n";
    for (const auto& x : c.verdict.outcomes)
      if (x.status == check::Outcome::fail)
        md << "- **" << cell(x.study) << " / " << cell(x.integrator) << ", " << x.metric << "**: " << cell(x.off) << " (" << cell(x.observed) << ")\n";
    md << "\n";
  }
  if (!c.added.empty() || !c.removed.empty() || !c.changed.empty()) {
    md << "## Added, removed and changed\n\n";
    for (const auto& x : c.changed) md << "- changed: " << cell(x) << " (not compared: another experiment under the same name)\n";
    for (const auto& a : c.added) md << "- added: " << cell(a) << "\n";
    for (const auto& r : c.removed) md << "- removed: " << cell(r) << " (not compared)\n";
    md << "\n";
  }
  for (const auto& s : now.studies) {
    bool any = false;
    for (const auto& m : c.methods) any = any || m.study == s.name;
    if (!any) continue;
    md << "## " << cell(s.title) << "\n\n| method | global order (old → new, 99 % intervals) | error new / old (worst; steps) | cost to each "
       << "accuracy (force evaluations, old → new) | time per step new / old (noise) | energy | divergence | worse |\n|---|---|---|---|---|---|---|---|\n";
    for (const auto& m : c.methods) {
      if (m.study != s.name) continue;
      std::string orders, costs;
      for (const auto& x : m.orders)
        if (x.metric == "global")
          orders = (std::isfinite(x.old_order) ? fmt::format("{:.2f} [{:.2f}, {:.2f}]", x.old_order, x.old_lo, x.old_hi) : "—") + " → " +
                   (std::isfinite(x.new_order) ? fmt::format("{:.2f} [{:.2f}, {:.2f}]", x.new_order, x.new_lo, x.new_hi) : "—");
      costs = costs_text(m, " → ");
      std::string diverged;
      for (double dt : m.newly_diverged) diverged += (diverged.empty() ? "newly at dt " : ", ") + g(dt);
      for (double dt : m.no_longer_diverged) diverged += (diverged.empty() ? "" : "; ") + std::string("no longer at dt ") + g(dt);
      md << "| " << cell(m.method) << " | " << (orders.empty() ? "—" : orders) << " | "
         << (m.error_ratios.empty() ? "—" : ratio_text(worst_error(m)) + fmt::format(" ({} steps)", m.error_ratios.size())) << " | "
         << costs << " | " << time_cell(m) << " | " << (m.energy.empty() ? "—" : cell(m.energy.front()))
         << " | " << (diverged.empty() ? "—" : diverged) << " | " << cell(worse_of(c, m)) << " |\n";
    }
    md << "\n";
    std::string notes;
    for (const auto& m : c.methods)
      if (m.study == s.name)
        for (const auto& note : m.notes) notes += "- " + cell(m.method) + ": " + cell(note) + "\n";
    if (!notes.empty()) md << "What the methods declare changed (not judged; the numbers above follow from it):\n\n" << notes << "\n";
    if (drawn.count("compare-" + s.name)) md << "![new against old, " << cell(s.title) << "](plots/compare-" << s.name << ".svg)\n\n";
  }
  result.markdown = out / "COMPARE.md";
  study::write_atomic(result.markdown, md.str());
  return result;
}

namespace {

/// The default targets of a history: every third decade from 1e-3 down to the study's smallest error (in the latest
/// folder that has it).
std::vector<double> history_targets(const History& h, const Study& s) {
  return h.targets.empty() ? every_third(default_targets(s)) : h.targets;
}

/// Each quantity of the history, per method and folder: its value to plot, and its table cell (empty: the value).
struct Quantity {
  std::string key, what, axis;
  bool log = true;
  std::function<double(const Study&, const std::string&)> value;
  std::function<std::string(const Study&, const std::string&)> text = {};
};

/// Every study of the folders, by name in the order first met from the latest folder back, each the latest one of
/// its name with the methods only earlier folders have appended: nothing a folder holds is left out.
std::vector<Study> history_studies(const History& h) {
  std::vector<Study> out;
  for (auto r = h.results.rbegin(); r != h.results.rend(); ++r)
    for (const auto& s : r->studies) {
      auto it = std::find_if(out.begin(), out.end(), [&](const Study& x) { return x.name == s.name; });
      if (it == out.end()) {
        out.push_back(s);
        continue;
      }
      for (const auto& d : s.declared)
        if (std::find(it->integrators.begin(), it->integrators.end(), d.label) == it->integrators.end())
          it->integrators.push_back(d.label), it->declared.push_back(d);
      for (const auto& a : s.adaptive)
        if (std::none_of(it->adaptive.begin(), it->adaptive.end(), [&](const auto& x) { return x.label == a.label; }))
          it->adaptive.push_back(a);
    }
  return out;
}

/// Whether study x (a folder's) has method m, fixed-step or adaptive.
bool has_method(const Study* x, const std::string& m) {
  if (!x) return false;
  const auto all = x->work_methods();
  return std::find(all.begin(), all.end(), m) != all.end();
}

/// A pair's tolerance proportionality slope (NaN: none, or not a pair).
double slope_of(const Study& x, const std::string& m) {
  for (const auto& p : x.proportionality)
    if (p.integrator == m) return p.observed;
  return NAN;
}

}  // namespace

std::string history_text(const History& h) {
  std::ostringstream t;
  if (h.results.empty()) return "";
  for (const auto& s : history_studies(h)) {
    t << s.name << " (" << s.problem << "): error constant / observed order / ns per step"
      << (s.adaptive.empty() ? "" : "; a pair's slope of error on tolerance / force evaluations to an accuracy") << ", in the order given\n";
    for (std::size_t k = 0; k < h.results.size(); ++k)
      if (const Study* st = study_named(h.results[k], s.name))
        if (const std::string why = check::experiment_change(*st, s); !why.empty())
          t << "  warning: in " << h.names[k] << " another experiment under this name: " << why << " (not comparable)\n";
    const auto targets = history_targets(h, s);
    for (const auto& a : s.adaptive) {  // a pair: its slope and its cost to the middle target
      const double target = targets[targets.size() / 2];
      std::string row = fmt::format("  {:<36}", a.label);
      for (const auto& r : h.results) {
        const Study* x = study_named(r, s.name);
        row += has_method(x, a.label) ? fmt::format(" | slope {} · {} to {}", fixed(slope_of(*x, a.label)),
                                                    cost_cell(cost_to_reach(*x, a.label, target), false), target_text(target))
                                      : " | (absent)";
      }
      t << row << "\n";
    }
    for (const auto& method : s.integrators) {
      std::string row = fmt::format("  {:<36}", method);
      for (const auto& r : h.results) {
        const Study* x = study_named(r, s.name);
        const bool has = x && std::find(x->integrators.begin(), x->integrators.end(), method) != x->integrators.end();
        const OrderRow* o = has ? find_order(*x, method, "global") : nullptr;
        row += has ? fmt::format(" | {:.3g} {} {}", error_constant(*x, method), o && std::isfinite(o->observed) ? fixed(o->observed) : "—",
                                 fixed(time_per_step(*x, method), 1))
                   : " | (absent)";
      }
      t << row << "\n";
    }
  }
  return t.str();
}

PagesOutcome render_history(const History& h, const fs::path& out, const Gnuplot* gnuplot, unsigned jobs) {
  PagesOutcome result;
  const fs::path plots = out / "plots";
  fs::create_directories(plots);
  std::vector<std::string> names;
  // The page in parts, each followed by its plot's picture when it is drawn (known only after gnuplot ran).
  std::vector<std::pair<std::string, std::string>> parts;
  std::ostringstream md;
  md << "# History of " << h.results.size() << " results folders\n\nIn the order given (oldest first): ";
  for (std::size_t k = 0; k < h.names.size(); ++k)
    md << (k ? ", " : "") << k + 1 << ". `" << cell(h.names[k]) << "` (revision `" << cell(h.results[k].revision) << "`, "
       << cell(h.results[k].date) << ")";
  md << ".\n\nPer study and method: the **error constant** (the median over its global fit's window of error / dt^p, p its "
        "expected order: comparable whatever the step sizes), the **observed global order**, the **time per step** (median of its runs' "
        "minimum over the repeats) and the **force evaluations to reach** each accuracy target (interpolated on its own runs); an "
        "adaptive pair, its force evaluations to each target (interpolated across its tolerances) and its **tolerance proportionality** "
        "slope. A method absent from a folder is left blank; — is not measured or not reached.\n\n";
  parts.emplace_back(md.str(), "");
  std::string tics;
  for (std::size_t k = 0; k < h.names.size(); ++k) tics += (k ? ", " : "") + quoted(std::to_string(k + 1) + ": " + h.names[k]) + " " + std::to_string(k + 1);
  for (const auto& s : history_studies(h)) {
    std::vector<Quantity> quantities{
        {"constant", "error constant", "error constant C in error = C dt^p (time unit^-p)", true, error_constant},
        {"order", "observed global order", "observed global order (dimensionless)", false,
         [](const Study& x, const std::string& m) {
           const OrderRow* o = find_order(x, m, "global");
           return o ? o->observed : NAN;
         }},
        {"time", "time per step", "time per step, minimum of the repeats (ns)", true, time_per_step}};
    int cost_index = 0;
    for (double t : history_targets(h, s))
      quantities.push_back({"cost-" + std::to_string(++cost_index), "force evaluations to reach " + target_text(t),
                            "force evaluations to reach " + target_text(t) + ", interpolated or extrapolated (count)", true,
                            [t](const Study& x, const std::string& m) {  // a bound is no value to draw a trend through
                              const auto c = cost_to_reach(x, m, t);
                              return c.how == Reach::interpolated || c.how == Reach::extrapolated ? c.evals : NAN;
                            },
                            [t](const Study& x, const std::string& m) { return cost_cell(cost_to_reach(x, m, t), false); }});
    if (!s.adaptive.empty())
      quantities.push_back({"slope", "tolerance proportionality (a pair's slope of error on tolerance)",
                            "slope of log error on log tolerance (dimensionless)", false, slope_of});
    // A study of this name that is another experiment in some folder (a parameter, the span changed): said, since
    // its values across the folders are then not one method's history.
    std::string changes;
    for (std::size_t k = 0; k < h.results.size(); ++k)
      if (const Study* st = study_named(h.results[k], s.name))
        if (const std::string why = check::experiment_change(*st, s); !why.empty())
          changes += fmt::format("- folder {} (`{}`): {} against the latest\n", k + 1, cell(h.names[k]), cell(why));
    parts.emplace_back("## " + cell(s.title) + "\n\n" +
                           (changes.empty() ? "" : "**Not one experiment**: its values across the folders are not comparable where\n" + changes + "\n"),
                       "");
    for (const auto& q : quantities) {
      const std::string name = "history-" + s.name + "-" + q.key;
      std::ostringstream table, data;
      table << "**" << q.what << "**\n\n| method |";
      for (std::size_t k = 0; k < h.names.size(); ++k) table << " " << k + 1 << " |";
      table << "\n|---|";
      for (std::size_t k = 0; k < h.names.size(); ++k) table << "---:|";
      table << "\n";
      std::vector<PanelText> panels;
      int index = 0;
      // Costs are every method's, the pairs' too; the slope the pairs' only; the rest the fixed-step methods'.
      auto lines = q.key.rfind("cost", 0) == 0 || q.key == "slope" ? work_series_of(s, false) : series_of(s, false);
      if (q.key == "slope") std::erase_if(lines, [](const Series& x) { return x.family != "adaptive"; });
      for (const auto& panel : panels_of(lines)) {
        PanelText p{panel.title, "", {}};
        for (const auto& x : panel.series) {
          const std::string& method = x.members.front();
          table << "| " << cell(method) << " |";
          std::string rows;
          for (std::size_t k = 0; k < h.results.size(); ++k) {
            const Study* st = study_named(h.results[k], s.name);
            const bool has = has_method(st, method);
            const double v = has ? q.value(*st, method) : NAN;
            table << " "
                  << (!has         ? ""
                      : q.text     ? q.text(*st, method)
                      : !std::isfinite(v) ? "—"
                      : q.key == "order" || q.key == "slope" ? fixed(v)
                      : q.key == "time"  ? fixed(v, 1)
                                         : fmt::format("{:.4g}", v))
                  << " |";
            if (std::isfinite(v) && (!q.log || v > 0)) rows += std::to_string(k + 1) + ' ' + num17(v) + '\n';
          }
          table << "\n";
          if (rows.empty()) continue;
          data << "# " << script_text(method) << '\n' << rows << "\n\n";
          p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with linespoints {} ps 0.8 lw 1.5 title {}", name, index++,
                                           style(x.colour), quoted(method)));
        }
        panels.push_back(std::move(p));
      }
      table << "\n";
      const std::string axes = std::string(q.log ? "  set logscale y\n  set format y '10^{%L}'\n" : "") +
                               fmt::format("  set xrange [0.7:{}]\n  set xtics ({}) rotate by -30 noenhanced\n  set key outside right top\n",
                                           num17(static_cast<double>(h.names.size()) + 0.3), tics) +
                               axis_title("x", "results folder (in the order given)") + axis_title("y", q.axis);
      write_plot(plots, name, q.what + " across the folders — " + problem_context(s), axes, panels, data.str());
      names.push_back(name);
      parts.emplace_back(table.str(), name);
    }
  }
  publish_plots(gnuplot, plots, names, jobs, result);
  const std::set<std::string> drawn(result.plots.begin(), result.plots.end());
  std::string page;
  if (!result.missing.empty()) parts.insert(parts.begin() + 1, {"> **" + std::to_string(result.missing.size()) + " plot(s) missing**: " +
                                                                    cell(result.problem) + "\n\n", ""});
  for (const auto& [text, plot] : parts) {
    page += text;
    if (drawn.count(plot)) page += "![" + plot + "](plots/" + plot + ".svg)\n\n";
  }
  result.markdown = out / "HISTORY.md";
  study::write_atomic(result.markdown, page);
  return result;
}

}  // namespace report
