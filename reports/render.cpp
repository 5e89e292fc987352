#include "reports/render.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "reports/claims.hpp"
#include "reports/model.hpp"
#include "reports/plots.hpp"
#include "study/atomic_file.hpp"

namespace report {
namespace {

namespace fs = std::filesystem;

/// Text for a Markdown table cell: a '|' would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

/// "4.01 (4) pass", "1.00 (2) **FAIL**", "5.18 (4) undetermined" (schema 1 results: the observed order only).
std::string order_cell(const OrderRow* o) {
  if (!o) return "—";
  const std::string verdict = o->verdict == "fail" ? "**FAIL**" : o->verdict;
  if (!std::isfinite(o->observed)) return o->verdict.empty() ? "no fit" : verdict;
  return fmt::format("{} ({}){}", fixed(o->observed), o->expected, verdict.empty() ? "" : " " + verdict);
}

/// A study's cheapest integrator to reach `target` (force evaluations, or wall time).
struct Winner {
  std::string integrator;
  double cost = INFINITY;
};
Winner cheapest(const Study& s, double target, bool by_time) {
  Winner w;
  for (const auto& i : s.integrators)
    if (const RunRow* r = cheapest_to_reach(s, i, target, by_time)) {
      const double c = by_time ? r->ns_min * 1e-9 * static_cast<double>(r->steps) : r->force_evals;
      if (c < w.cost) w = {i, c};
    }
  return w;
}

/// "Which integrator should I use for what", from the measured numbers only.
void summary(std::ostringstream& md, const Results& res) {
  constexpr double target = 1e-6;
  md << "## Summary: which integrator for what\n\n"
     << "Cheapest run of each study that reached a relative global error of " << sci(target)
     << " (by force evaluations, and by wall time of the bare stepping loop).\n\n"
     << "| study | fewest force evaluations to " << sci(target) << " | least wall time to " << sci(target) << " |\n|---|---|---|\n";
  std::map<std::string, int> wins;
  for (const auto& s : res.studies) {
    if (!s.wants("global")) continue;
    const Winner by_evals = cheapest(s, target, false), by_time = cheapest(s, target, true);
    if (!by_evals.integrator.empty()) ++wins[by_evals.integrator];
    md << "| [" << s.title << "](#" << s.name << ") | "
       << (by_evals.integrator.empty() ? "none reached it" : by_evals.integrator + fmt::format(" ({:.3g})", by_evals.cost)) << " | "
       << (by_time.integrator.empty() ? "—" : by_time.integrator + fmt::format(" ({:.3g} s)", by_time.cost)) << " |\n";
  }
  md << "\n";
  // Recommendations, each with the numbers it rests on.
  if (!wins.empty()) {
    std::vector<std::pair<int, std::string>> ranked;
    for (const auto& [i, n] : wins) ranked.emplace_back(-n, i);
    std::sort(ranked.begin(), ranked.end());
    md << "- **Accuracy per force evaluation**: the cheapest way to " << sci(target) << " was";
    for (std::size_t k = 0; k < ranked.size(); ++k)
      md << (k ? (k + 1 == ranked.size() ? " and " : ", ") : " ") << ranked[k].second << " in " << -ranked[k].first << " stud"
         << (ranked[k].first == -1 ? "y" : "ies");
    md << ". Higher order pays off at this accuracy; at 1e-2 and a few steps, it may not (see each study's work-precision plot).\n";
  }
  for (const auto& s : res.studies) {
    if (s.energy_long.empty()) continue;
    // Bounded: flat in time (exponent < 1/4) and small; an error of order one that no longer grows is a lost orbit.
    std::vector<std::string> flat, drift;
    for (const auto& e : s.energy_long) {
      if (e.status != "ok") drift.push_back(e.integrator + " (diverged)");
      else if (!(std::abs(e.final_rel) < 1e-2)) drift.push_back(e.integrator + fmt::format(" (error {:.2g} at the end)", e.final_rel));
      else if (std::isfinite(e.growth) && e.growth < 0.25) flat.push_back(e.integrator);
      else if (std::isfinite(e.growth) && e.growth > 0.75) drift.push_back(e.integrator + fmt::format(" (t^{:.2f})", e.growth));
    }
    auto join = [](const std::vector<std::string>& v) { return v.empty() ? std::string("none") : join_names(v); };
    md << "- **Long conservative runs** (" << s.title << ", " << "dt = " << g(s.energy_long.front().dt) << "): energy error "
       << "flat in time for " << join(flat) << "; growing for " << join(drift) << ".\n";
  }
  for (const auto& s : res.studies) {
    if (s.stability.empty()) continue;
    // Largest stable step per force evaluation, explicit methods only (an implicit method's cost per step varies).
    std::vector<std::pair<std::string, double>> per_eval;
    double top = 0;
    for (const auto& x : s.stability) {
      if (!std::isfinite(x.limit) || std::isinf(x.theory)) continue;
      double evals = 1;
      for (const auto& r : s.runs)
        if (r.integrator == x.integrator) evals = r.evals_per_step;
      per_eval.emplace_back(x.integrator, x.limit / evals);
      top = std::max(top, x.limit / evals);
    }
    std::vector<std::string> best_list, never_list;
    for (const auto& [i, v] : per_eval) {
      if (top > 0 && v >= top * (1 - 1e-6)) best_list.push_back(i);
      if (v == 0) never_list.push_back(i);
    }
    const std::string best = join_names(best_list), never = join_names(never_list);
    if (!best.empty())
      md << "- **Large steps on stiff oscillations** (" << s.title << "): the largest stable ωh per force evaluation among explicit "
         << "methods is " << fixed(top, 3) << ", reached by " << best
         << (never.empty() ? "" : "; unstable for every step: " + never) << ".\n";
  }
  for (const auto& s : res.studies) {
    if (s.problem != "damped-oscillator") continue;
    const Winner w = cheapest(s, target, false);
    if (!w.integrator.empty())
      md << "- **Velocity-dependent forces** (" << s.title << "): the symplectic and Verlet methods do not apply; " << w.integrator
         << " reached " << sci(target) << " with the fewest force evaluations (" << fmt::format("{:.3g}", w.cost) << ").\n";
  }
  md << "\n";
}

}  // namespace

Outcome render(const Options& options) {
  const Results results = load(options.results);
  const fs::path out = options.out.empty() ? options.results : options.out;
  const fs::path plots_dir = out / "plots";
  Outcome outcome;

  // Plots first (data and scripts always; pictures when gnuplot is there).
  std::map<std::string, std::vector<Plot>> plots;
  for (const auto& s : results.studies) {
    auto& list = plots[s.name];
    for (const std::string metric : {"global", "max", "local"})
      if (std::any_of(s.orders.begin(), s.orders.end(), [&](const OrderRow& o) { return o.metric == metric; }))
        list.push_back(convergence_plot(s, metric, plots_dir));
    if (std::any_of(s.runs.begin(), s.runs.end(), [](const RunRow& r) { return std::isfinite(r.reversal); }))
      list.push_back(convergence_plot(s, "reversal", plots_dir));
    for (auto p : {work_precision_plot(s, plots_dir), energy_time_plot(results, s, plots_dir), energy_long_plot(results, s, plots_dir),
                   trajectory_plot(results, s, plots_dir), stability_plot(s, plots_dir)})
      if (p) list.push_back(*p);
  }
  const Gnuplot gnuplot{options.gnuplot, options.gnuplot_timeout, options.interrupted};
  const std::string gnuplot_missing = options.plots ? gnuplot_problem(gnuplot) : std::string();
  const bool can_draw = options.plots && gnuplot_missing.empty();
  if (options.plots && !can_draw)
    outcome.problem = gnuplot_missing;
  else if (!options.plots)
    outcome.problem = "plots were not drawn (--no-plots)";
  for (const auto& [study, list] : plots)
    for (const auto& p : list) {
      std::string error;
      if (options.interrupted && *options.interrupted) throw Interrupted();
      if (can_draw && draw(gnuplot, plots_dir, p.name, error)) {
        outcome.plots.push_back(p.name);
      } else {
        outcome.missing.push_back(p.name);
        if (can_draw && outcome.problem.empty()) outcome.problem = "gnuplot failed on " + p.name + ".gp: " + error;
      }
    }
  const std::set<std::string> drawn(outcome.plots.begin(), outcome.plots.end());
  auto image = [&](const Plot& p) { return drawn.count(p.name) ? "![" + p.title + "](plots/" + p.name + ".svg)\n\n" : std::string(); };
  auto find_plot = [&](const Study& s, const std::string& suffix) -> const Plot* {
    for (const auto& p : plots[s.name])
      if (p.name == s.name + "-" + suffix) return &p;
    return nullptr;
  };

  std::ostringstream md;
  md << "# Integrator accuracy report\n\n"
     << "Generated by `study report` from `results.json`. Every number below is read from the "
     << "results; nothing is typed in. Errors are relative (phase space: the larger of |Δq|/Q and |Δv|/V, Q and V the "
     << "largest |q| and |v| of the reference); orders are least-squares slopes over an automatically chosen "
     << "asymptotic window, with a 99 % interval (Student t, widened by the noise floors and by local slopes that still "
     << "move). An order passes when its interval lies within " << fixed(order_tolerance, 1) << " of the expected one, "
     << "fails only when the window is asymptotic and the whole interval lies below, and is otherwise undetermined, "
     << "with what would decide it.\n\n";
  if (!outcome.missing.empty())
    md << "> **" << outcome.missing.size() << " plot(s) missing**: " << outcome.problem
       << ". Their data and gnuplot scripts are in `plots/`.\n\n";

  summary(md, results);

  const auto claims = evaluate_claims(results);
  if (!claims.empty()) {
    md << "## The seeds' claims\n\n"
       << "Each claim from the five source write-ups (`shared/seeds/`), the experiment of this study that tests it, "
          "the measured evidence, the criterion, and the verdict computed from them.\n\n"
       << "| seed | claim | experiment | evidence | criterion | verdict |\n|---|---|---|---|---|---|\n";
    for (const auto& c : claims)
      md << "| " << c.seed << " | " << cell(c.quote) << " | " << cell(c.experiment) << " | " << cell(c.evidence)
         << (drawn.count(c.plot) ? " ([plot](plots/" + c.plot + ".svg))" : "") << " | " << cell(c.criterion) << " | **" << cell(c.verdict) << "** |\n";
    md << "\n";
  }

  const std::optional<Bench> bench = load_bench(options.results);
  md << "## Contents\n\n";
  for (const auto& s : results.studies) md << "- [" << s.title << "](#" << s.name << ")\n";
  if (bench) md << "- [Time per step against Boost.Odeint](#performance)\n";
  md << "- [Run metadata and reference certification](#metadata)\n\n";

  for (const auto& s : results.studies) {
    md << "<a id=\"" << s.name << "\"></a>\n## " << s.title << "\n\n"
       << "Problem `" << s.problem << "`, t_end = " << g(s.t_end)
       << (s.dt_pattern.empty() ? "" : ", steps alternating dt (1 ± " + g(s.dt_amplitude) + ")")
       << ". Reference: float128 Bulirsch–Stoer at tolerance " << sci(s.ref_tol) << ", certified error bound " << sci(s.ref_bound) << ".\n\n";

    if (!s.orders.empty()) {
      md << "### Orders (observed, expected)\n\n"
         << "| integrator | global (at t_end) | max (over the run) | local (one step) | window of the global fit | R² |\n"
         << "|---|---|---|---|---|---|\n";
      for (const auto& i : s.integrators) {
        const OrderRow* og = find_order(s, i, "global");
        md << "| " << i << " | " << order_cell(og) << " | " << order_cell(find_order(s, i, "max")) << " | "
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
        tables += fmt::format("| {} | `{}` | {} | {} | {} | {} | {} |\n", d.label, d.table, d.declared_order,
                              d.predicted_order > 0 ? std::to_string(d.predicted_order) + (d.predicted_exact_order < d.predicted_order
                                                                                            ? " (to its digits)" : "")
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
            undecided += "- " + i + ", " + m + ": " + o->reason + (o->action.empty() ? "" : "; to decide: " + o->action) + "\n";
      if (!undecided.empty()) md << "Undetermined orders, and what would decide them:\n\n" << undecided << "\n";
      std::string automatic;
      for (const auto& w : s.sweeps)
        if (w.automatic && !w.dts.empty())
          automatic += fmt::format("| {} | {} | {}–{} | {} |\n", w.integrator, w.dts.size(), g(w.dts.front()), g(w.dts.back()), cell(w.stop));
      if (!automatic.empty())
        md << "Automatic sweep (dt = \"auto\": halving from the problem's time scale, chosen per integrator):\n\n"
           << "| integrator | runs | dt | why it stopped |\n|---|---|---|---|\n" << automatic << "\n";
      for (const std::string m : {"global", "max", "local"})
        if (const Plot* p = find_plot(s, m)) md << image(*p);
    }

    if (!s.runs.empty()) {
    md << "### Error, energy and cost at the finest step that ended well\n\n"
       << "| integrator | dt | global error | energy: max rel. | drift / time | behaviour | ns / step | evals / step | evals to reach 1e-6 |\n"
       << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& i : s.integrators) {
      const RunRow* r = finest_ok(s, i);
      if (!r) {
        md << "| " << i << " | every run diverged |  |  |  |  |  |  |  |\n";
        continue;
      }
      const RunRow* reach = cheapest_to_reach(s, i, 1e-6, false);
      md << "| " << i << " | " << g(r->dt) << " | " << sci(r->global) << " | " << sci(r->energy_max) << " | " << sci(r->drift)
         << " | " << (r->behaviour.empty() ? "—" : r->behaviour) << " | " << fixed(r->ns_min, 1) << " | "
         << fixed(r->evals_per_step, 1) << " | " << (reach ? fmt::format("{:.3g}", reach->force_evals) : "not reached") << " |\n";
    }
    std::size_t diverged = 0;
    for (const auto& r : s.runs) diverged += r.status != "ok";
    md << "\n" << s.runs.size() << " runs, " << diverged << " diverged.\n\n";
    }
    for (const std::string p : {"work", "energy", "trajectory"})
      if (const Plot* x = find_plot(s, p)) md << image(*x);

    if (const Plot* p = find_plot(s, "reversal")) {
      md << "### Time reversal\n\nn steps of dt, then n of -dt: the distance from the start (relative to the largest |q|). "
            "Symmetric methods return to round-off; the others miss by their own error.\n\n"
         << "| integrator | gap at the largest dt | gap at the smallest dt |\n|---|---|---|\n";
      for (const auto& i : s.integrators) {
        const auto [coarse, fine] = sweep_ends(s, i, [](const RunRow& r) { return std::isfinite(r.reversal); });
        if (coarse) md << "| " << i << " | " << sci(coarse->reversal) << " (dt " << g(coarse->dt) << ") | " << sci(fine->reversal) << " (dt " << g(fine->dt) << ") |\n";
      }
      md << "\n" << image(*p);
    }

    if (!s.energy_long.empty()) {
      md << "### Long energy run\n\n| integrator | dt | status | final relative energy error | growth exponent a (error ∝ t^a), 99 % interval |\n"
         << "|---|---|---|---|---|\n";
      for (const auto& e : s.energy_long)
        md << "| " << e.integrator << " | " << g(e.dt) << " | " << e.status << " | " << sci(e.final_rel) << " | " << fixed(e.growth)
           << (std::isfinite(e.growth_lo) ? " [" + fixed(e.growth_lo) + ", " + fixed(e.growth_hi) + "]" : "") << " |\n";
      md << "\na ≈ 0: bounded (symplectic methods on a compact energy surface); a ≈ ½: the random walk of round-off "
            "(Brouwer's law), no method error left; a ≈ 1: a linear drift; above 1: faster than linear (explicit Euler "
            "multiplies a harmonic energy by 1 + ω²h² per step).\n\n";
      if (const Plot* p = find_plot(s, "energy-long")) md << image(*p);
    }
    if (!s.stability.empty()) {
      md << "### Linear stability on the harmonic oscillator\n\n| integrator | largest stable ωh (measured) | theory | basis of the theory | note |\n"
         << "|---|---|---|---|---|\n";
      for (const auto& x : s.stability)
        md << "| " << x.integrator << " | " << fixed(x.limit, 4) << " | " << (std::isinf(x.theory) ? "unbounded" : fixed(x.theory, 4))
           << " | " << cell(x.theory_basis) << " | " << cell(x.note) << " |\n";
      md << "\n";
      if (const Plot* p = find_plot(s, "stability")) md << image(*p);
    }
  }

  if (bench) md << "<a id=\"performance\"></a>\n## Time per step against Boost.Odeint\n\n" << bench_markdown(*bench);

  md << "<a id=\"metadata\"></a>\n## Run metadata and reference certification\n\n"
     << "- revision `" << results.revision << "`, run " << results.date
     << (std::isfinite(results.elapsed) ? fmt::format(" in {:.0f} s", results.elapsed) : "") << "\n"
     << "- compiler " << results.compiler << ", flags `" << results.flags << "`\n- CPU " << results.cpu << "\n"
     << (bench ? "" : "- time per step against Boost.Odeint: not measured (`study bench --out " +
                        (options.shown_results.empty() ? options.results : options.shown_results).string() + "` adds it)\n")
     << "\n"
     << "References: Boost.Odeint Bulirsch–Stoer in float128 at the spec's tolerance, certified by a second solve 100 times tighter; "
        "the bound is twice their difference plus 100 eps per evaluation, and at least the distance to the exact solution where one exists.\n\n"
     << "| study | problem | tolerance | certified bound (relative) |\n|---|---|---|---|\n";
  for (const auto& s : results.studies)
    md << "| " << s.name << " | " << s.problem << " | " << sci(s.ref_tol) << " | "
       << (s.ref_bound > 0 ? sci(s.ref_bound) : "no reference needed") << " |\n";
  outcome.markdown = out / "REPORT.md";
  study::write_atomic(outcome.markdown, md.str());
  return outcome;
}

}  // namespace report
