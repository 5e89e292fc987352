// REPORT.md, the one-screen summary: the verdicts of every study with links, which method for which accuracy, the
// seeds' claims; each study's page holds the rest.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "study/reader/accuracy.hpp"
#include "reports/claims.hpp"
#include "reports/markdown.hpp"
#include "reports/scan.hpp"
#include "study/check/check.hpp"

namespace report {
namespace {

std::string page_link(const Study& s, const std::string& anchor = "") { return s.name + "/REPORT.md" + (anchor.empty() ? "" : "#" + anchor); }

/// A few answers that are not about accuracy: long conservative runs, stability per evaluation, velocity-dependent forces.
std::string more_answers(const Results& res, double target) {
  std::ostringstream md;
  for (const auto& s : res.studies) {
    if (s.energy_long.empty() || !s.scan.name.empty()) continue;  // a scan's page draws its points
    // By the gate's rule (report::long_run_behaviour): bounded or at round-off; a drift; a run that stopped or whose
    // error passed 0.1 (an orbit lost); the rest cannot be told.
    std::vector<std::string> flat, drift, short_of;
    std::string dt, tol;
    for (const auto& e : s.energy_long) {
      (e.tol > 0 ? tol : dt) = g(e.tol > 0 ? e.tol : e.dt);
      switch (long_run_behaviour(e)) {
        case LongBehaviour::bounded:
        case LongBehaviour::roundoff: flat.push_back(e.integrator); break;
        case LongBehaviour::drifting: drift.push_back(e.integrator + fmt::format(" (t^{:.2f})", e.growth)); break;
        case LongBehaviour::stopped:  // diverged: the energy lost; a pair out of steps says nothing of a drift
          if (e.status == "diverged") drift.push_back(e.integrator + " (diverged)");
          else short_of.push_back(e.integrator + fmt::format(" ({} at t = {})", e.status, g(e.diverged_t)));
          break;
        case LongBehaviour::too_large: drift.push_back(e.integrator + fmt::format(" (error {:.2g})", long_run_largest(e))); break;
        default: break;
      }
    }
    auto join = [](const std::vector<std::string>& v) { return v.empty() ? std::string("none") : join_names(v); };
    md << "- **Long conservative runs** ([" << cell(s.title) << "](" << page_link(s) << "), "
       << (dt.empty() ? "" : "dt = " + dt) << (dt.empty() || tol.empty() ? "" : ", ") << (tol.empty() ? "" : "adaptive pairs at tol = " + tol)
       << "): energy error bounded for " << cell(join(flat)) << "; growing for " << cell(join(drift))
       << (short_of.empty() ? "" : "; stopped before the end, not judged: " + cell(join(short_of))) << ".\n";
  }
  for (const auto& s : res.studies) {
    if (s.stability.empty() || !s.scan.name.empty()) continue;
    // Largest stable step per force evaluation, explicit methods only (an implicit method's cost per step varies):
    // the evaluations a step takes as declared, else as its runs counted them; a method with neither is left out.
    std::vector<std::pair<std::string, double>> per_eval;
    double top = 0;
    for (const auto& x : s.stability) {
      if (!std::isfinite(x.limit) || std::isinf(x.theory)) continue;
      double evals = 0;
      for (const auto& r : s.runs)
        if (r.integrator == x.integrator && r.evals_per_step > 0) evals = r.evals_per_step;
      for (const auto& d : s.declared)
        if (d.label == x.integrator && d.evals_per_step > 0) evals = d.evals_per_step;
      if (!(evals > 0)) continue;
      per_eval.emplace_back(x.integrator, x.limit / evals);
      top = std::max(top, x.limit / evals);
    }
    std::vector<std::string> best_list, never_list;
    for (const auto& [i, v] : per_eval) {
      if (top > 0 && v >= top * (1 - 1e-6)) best_list.push_back(i);
      if (v == 0) never_list.push_back(i);
    }
    if (!best_list.empty())
      md << "- **Large steps on stiff oscillations** ([" << cell(s.title) << "](" << page_link(s) << ")): the largest stable ωh per "
         << "force evaluation among explicit methods is " << fixed(top, 3) << ", reached by " << cell(join_names(best_list))
         << (never_list.empty() ? "" : "; unstable for every step: " + cell(join_names(never_list))) << ".\n";
  }
  for (const auto& s : res.studies) {
    if (s.conservative || !s.wants("global") || !s.scan.name.empty()) continue;
    md << "- **A dissipative, velocity-dependent force** ([" << cell(s.title) << "](" << page_link(s) << ")): the splitting methods do "
       << "not apply; to " << target_text(target) << ", " << winner_cell(s, target, false) << " force evaluations.\n";
  }
  return md.str();
}

}  // namespace

VerdictCounts verdict_counts(const Results& res, const Study& s) {
  VerdictCounts v;
  try {
    check::Options o;
    o.studies = {s.name};
    for (const auto& x : check::run_checks(res, nullptr, o).outcomes)
      (x.status == check::Outcome::pass ? v.pass : x.status == check::Outcome::fail ? v.fail : v.undetermined)++;
  } catch (const std::exception&) {  // results from before `study check`: the orders' own verdicts
    for (const auto& o : s.orders) (o.verdict == "pass" ? v.pass : o.verdict == "fail" ? v.fail : v.undetermined)++;
  }
  for (const auto& r : s.runs) v.diverged += r.status != "ok";
  return v;
}

std::string summary_page(const Results& res, const PageContext& c) {
  std::ostringstream md;
  std::size_t runs = 0, diverged = 0, adaptive = 0, stopped = 0;
  for (const auto& s : res.studies) {
    for (const auto& r : s.runs) ++runs, diverged += r.status != "ok";
    for (const auto& r : s.adaptive_runs) ++adaptive, stopped += r.status != "ok";
  }
  md << "# Integrator accuracy report\n\n"
     << res.studies.size() << " stud" << (res.studies.size() == 1 ? "y" : "ies") << ", " << runs << " runs (" << diverged << " diverged)"
     << (adaptive ? fmt::format(", {} adaptive runs ({} stopped before t_end)", adaptive, stopped) : "")
     << ", revision `" << cell(res.revision) << "`, " << cell(res.date)
     << (std::isfinite(res.elapsed) ? (res.elapsed < 10 ? fmt::format(", {:.1f} s", res.elapsed) : fmt::format(", {:.0f} s", res.elapsed)) : "") << ". Every number is read from `results.json` by "
     << "`study report`; each study has a page of its own with the evidence and the plots.\n\n";
  if (c.missing_count)
    md << "> **" << c.missing_count << " plot(s) missing**: " << cell(c.missing) << ". Their data and gnuplot scripts are in `plots/`.\n\n";

  // Verdicts: the gate's, per study.
  md << "## Verdicts\n\n| study | problem | checks passed | failed | undetermined | diverged runs |\n|---|---|---:|---:|---:|---:|\n";
  std::size_t pass = 0, fail = 0, undetermined = 0;
  std::map<std::string, VerdictCounts> scan_counts;  // a scan's points: one row for the scan, its page has each
  for (const auto& s : res.studies) {
    const VerdictCounts v = verdict_counts(res, s);
    pass += v.pass, fail += v.fail, undetermined += v.undetermined;
    if (!s.scan.name.empty()) {
      auto& t = scan_counts[s.scan.name];
      t.pass += v.pass, t.fail += v.fail, t.undetermined += v.undetermined, t.diverged += v.diverged;
      continue;
    }
    md << "| [" << cell(s.title) << "](" << page_link(s) << ") | `" << s.problem << "` | " << v.pass << " | "
       << (v.fail ? fmt::format("[**{}**]({})", v.fail, page_link(s, "failed")) : "0") << " | "
       << (v.undetermined ? fmt::format("[{}]({})", v.undetermined, page_link(s, "undetermined")) : "0") << " | "
       << (v.diverged ? fmt::format("[{}]({})", v.diverged, page_link(s, "diverged")) : "0") << " |\n";
  }
  for (const auto& sg : scans_of(res)) {
    const VerdictCounts& t = scan_counts[sg.name];
    md << "| [" << cell(sg.title) << "](" << scan_page_file(sg.name) << ") (a scan of " << sg.points.size() << " studies over "
       << cell(join_names(sg.axes)) << ") | `" << sg.problem << "` | " << t.pass << " | " << (t.fail ? fmt::format("**{}**", t.fail) : "0")
       << " | " << t.undetermined << " | " << t.diverged << " |\n";
  }
  md << "\nIn all, " << pass + fail + undetermined << " checks: " << pass << " passed, " << (fail ? "**" : "") << fail << " failed"
     << (fail ? "**" : "") << ", " << undetermined << " undetermined (`study check` judges the same, and exits 1 on a failure; "
     << "undetermined means the data cannot decide, and the study's page says what would).\n\n";

  // Which method for which accuracy.
  const auto targets = summary_targets(c.targets, res);
  const bool any_study =
      std::any_of(res.studies.begin(), res.studies.end(), [](const Study& s) { return s.wants("global") && s.scan.name.empty(); });
  const auto scans = scans_of(res);
  md << "## Which method for which accuracy\n\n";
  if (any_study) {
    md << "The cheapest method to reach each relative global error, by force evaluations, interpolated on each method's own runs "
          "(≈ extrapolated from its fitted order; ≤ an upper bound), and the runner-up with how much more it needs. "
       << (c.targets.empty() ? "Every third decade here; each study's page has every decade, wall time with its noise, and the "
                               "Pareto front. `study report --accuracy X` asks for any X.\n\n"
                             : "Each study's page has wall time with its noise, every method's cost and the Pareto front.\n\n")
       << "| study |";
    for (double t : targets) md << " " << target_text(t) << " |";
    md << "\n|---|";
    for (std::size_t k = 0; k < targets.size(); ++k) md << "---|";
    md << "\n";
    for (const auto& s : res.studies) {
      if (!s.wants("global") || !s.scan.name.empty()) continue;  // a scan's page answers for its points
      md << "| [" << cell(s.title) << "](" << page_link(s, "accuracy") << ") |";
      for (double t : targets) md << " " << winner_cell(s, t, false) << " |";
      md << "\n";
    }
    md << "\n";
  }
  if (!scans.empty()) {
    std::vector<std::string> links;
    for (const auto& sg : scans) links.push_back("[" + cell(sg.title) + "](" + scan_page_file(sg.name) + ")");
    md << (any_study ? "For the points of a scan, its page" : "Each scan's page") << " gives the cheapest method at every point, and "
       << "draws each method's cost against the scanned parameters: " << join_names(links) << ".\n\n";
  }
  md << more_answers(res, targets.size() > 1 ? targets[1] : targets.front());

  const auto claims = evaluate_claims(res);
  if (!claims.empty()) {
    md << "\n## The seeds' claims\n\nEach claim of the five write-ups this harness grew from (`shared/seeds/`), judged from these "
          "results; [the claims page](CLAIMS.md) has each one's experiment, evidence and criterion.\n\n| seed | claim | verdict |\n|---|---|---|\n";
    for (const auto& x : claims)
      md << "| " << x.seed << " | " << cell(x.quote) << " | **" << cell(x.verdict) << "**"
         << (c.drawn.count(x.plot) ? " ([plot](plots/" + x.plot + ".svg))" : "") << " |\n";
  }
  md << "\n";
  md << (c.bench ? "Time per step against Boost.Odeint: [BENCH.md](BENCH.md). "
                 : "Time per step against Boost.Odeint: not measured (`study bench --out " + cell(c.shown_results) + "` adds it). ");
  md << "Compiler " << cell(res.compiler) << ", flags `" << cell(res.flags) << "`, CPU " << cell(res.cpu) << ".\n";
  return md.str();
}

std::string claims_page(const Results& res, const PageContext& c) {
  const auto claims = evaluate_claims(res);
  if (claims.empty()) return {};
  std::ostringstream md;
  md << "# The seeds' claims\n\n[← summary](REPORT.md)\n\n"
     << "Each claim from the five source write-ups (`shared/seeds/`), the experiment of this study that tests it, the measured "
        "evidence, the criterion, and the verdict computed from them.\n\n"
     << "| seed | claim | experiment | evidence | criterion | verdict |\n|---|---|---|---|---|---|\n";
  for (const auto& x : claims)
    md << "| " << x.seed << " | " << cell(x.quote) << " | " << cell(x.experiment) << " | " << cell(x.evidence)
       << (c.drawn.count(x.plot) ? " ([plot](plots/" + x.plot + ".svg))" : "") << " | " << cell(x.criterion) << " | **" << cell(x.verdict)
       << "** |\n";
  return md.str();
}

std::string versus_lines(const Results& res, const std::vector<double>& targets, const std::string& vs) {
  std::string out, against;  // against: the methods measured against, once each, for the heading
  for (const auto& s : res.studies) {
    if (!s.wants("global")) continue;
    const std::string m = versus_label(s, vs.empty() ? s.vs : vs);
    if (m.empty() || s.work_methods().size() < 2) continue;
    if (against.find("'" + m + "'") == std::string::npos) against += (against.empty() ? "'" : ", '") + m + "'";
    for (double t : targets) {
      std::string line = "  " + s.name + " " + target_text(t) + ":";
      if (const CostToAccuracy own = cost_to_reach(s, m, t); !own.estimated()) {
        out += line + " " + m + " " + own.why + "\n";
        continue;
      }
      for (const auto& other : s.work_methods())
        if (other != m) line += " " + other + " " + versus_cell(head_to_head(s, other, m, t, false)) + ";";
      line.back() = '\n';
      out += line;
    }
  }
  if (out.empty()) return out;
  return "head to head against " + against + ": each method's force evaluations to each accuracy over its, with the ratio's interval "
         "(each study's REPORT.md has wall time and why an open cell is open):\n" + out;
}

std::string accuracy_lines(const Results& res, const std::vector<double>& targets) {
  std::string out;
  for (const auto& s : res.studies) {
    if (!s.wants("global")) continue;
    out += "  ", out += s.name, out += ':';  // piecewise: GCC 12's false -Wrestrict (bug 105329) on "  " + std::string
    for (double t : targets) {
      const Ranking r = rank(s, t, false);
      out += ' ', out += target_text(t), out += ' ';
      if (r.order.empty()) {
        out += "none;";
        continue;
      }
      if (!r.undecided.empty()) {
        out += "cannot tell (upper bounds);";
        continue;
      }
      const bool margin = r.order.size() > 1 && r.order[0].how != Reach::at_most && r.order[1].how != Reach::at_most;
      if (margin && r.tie()) {  // no winner inside the figures' uncertainty
        out += "within " + percent(r.tied_within) + ": " + tie_list(r, [](const std::string& m) { return m; });
        out += ";";
        continue;
      }
      out += r.order[0].integrator + " " + cost_cell(r.order[0], false) +
             (margin ? fmt::format(" (next {} +{}{})", r.order[1].integrator, percent(r.margin),
                                   std::isfinite(r.bound()) ? ", uncertainty " + percent(r.bound()) : "")
                     : "") + ";";
    }
    out.back() = '\n';
  }
  return out;
}

}  // namespace report
