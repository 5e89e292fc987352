#include "study/check/compare.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "study/reader/model.hpp"

namespace check {
namespace {

using report::RunRow;
using report::Study;

std::string interval(double order, double lo, double hi) {
  if (!std::isfinite(order)) return "no fit";
  return std::isfinite(lo) ? fmt::format("{:.2f} in [{:.2f}, {:.2f}]", order, lo, hi) : fmt::format("{:.2f}", order);
}

std::string pct(double ratio) { return fmt::format("{:+.1f} %", 100 * (ratio - 1)); }
/// A change as it reads best: "+2.0 %" near 1, "× 8.39" from a doubling up (or a halving down: "× 0.0417").
std::string change(double ratio) { return ratio >= 2 || ratio <= 0.5 ? fmt::format("× {:.3g}", ratio) : pct(ratio); }

bool conserved(const std::string& behaviour) { return behaviour == "bounded" || behaviour == "round-off"; }

const report::AdaptiveIntegratorRow* pair_of(const Study& s, const std::string& label) {
  for (const auto& a : s.adaptive)
    if (a.label == label) return &a;
  return nullptr;
}

/// What an adaptive pair declares that changed: its coefficients (b_hat too), its controller and its parameters, its
/// orders and evaluations a step.
void pair_notes(const report::AdaptiveIntegratorRow& a, const report::AdaptiveIntegratorRow& b, std::vector<std::string>& notes) {
  if (!a.coefficients.empty() && !b.coefficients.empty() && a.coefficients != b.coefficients)
    notes.push_back("its coefficients changed (b or b_hat: the table's digest " + a.coefficients.substr(0, 8) + " -> " +
                    b.coefficients.substr(0, 8) + ")");
  if (a.order != b.order || a.order_hat != b.order_hat)
    notes.push_back(fmt::format("its orders changed ({}({}) -> {}({}))", a.order, a.order_hat, b.order, b.order_hat));
  if (a.evals_per_step != b.evals_per_step)
    notes.push_back(fmt::format("force evaluations a tried step {} -> {}", a.evals_per_step, b.evals_per_step));
  if (a.controller != b.controller) notes.push_back("its controller changed (" + a.controller + " -> " + b.controller + ")");
  std::vector<std::string> keys;
  for (const auto* p : {&a.params, &b.params})
    for (const auto& [k, v] : *p)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  for (const auto& k : keys) {
    auto value = [&](const report::AdaptiveIntegratorRow& x) { return x.params.count(k) ? fmt::format("{:g}", x.params.at(k)) : "default"; };
    if (value(a) != value(b)) notes.push_back("controller parameter " + k + " " + value(a) + " -> " + value(b));
  }
}

MethodChange compare_method(const Study& o, const Study& n, const std::string& method, const CompareOptions& options) {
  MethodChange m;
  m.study = n.name, m.problem = n.problem, m.method = method;
  if (const auto *a = pair_of(o, method), *b = pair_of(n, method); a && b) {
    pair_notes(*a, *b, m.notes);
    // How the runs met their output times changes their steps (cut to land) and errors (the controller's own steps).
    if (o.adaptive_cut != n.adaptive_cut)
      m.notes.push_back(fmt::format("its runs' output times changed (tol.outputs {} -> {}): {}", o.adaptive_cut ? "cut" : "free",
                                    n.adaptive_cut ? "cut" : "free",
                                    n.adaptive_cut ? "steps now cut to land on each" : "the controller now chooses every step"));
    // Time: a try (accepted or rejected) is a pair's step; matched by tolerance.
    std::vector<double> ratios, old_noise, new_noise;
    for (const auto& r : o.adaptive_runs) {
      if (r.integrator != method || r.status != "ok") continue;
      for (const auto& x : n.adaptive_runs)
        if (x.integrator == method && x.status == "ok" && std::abs(x.tol - r.tol) <= 1e-9 * r.tol && r.seconds_min > 0 && x.seconds_min > 0) {
          ratios.push_back(x.seconds_min / static_cast<double>(x.accepted + x.rejected) / (r.seconds_min / static_cast<double>(r.accepted + r.rejected)));
          if (std::isfinite(r.seconds_median)) old_noise.push_back(r.seconds_median / r.seconds_min - 1);
          if (std::isfinite(x.seconds_median)) new_noise.push_back(x.seconds_median / x.seconds_min - 1);
        }
    }
    m.time_ratio = report::median(ratios);
    if (!old_noise.empty() && !new_noise.empty()) m.time_noise = report::median(old_noise) + report::median(new_noise);
  }
  auto declared = [&](const Study& s) -> const report::IntegratorRow* {
    for (const auto& d : s.declared)
      if (d.label == method) return &d;
    return nullptr;
  };
  if (const auto *a = declared(o), *b = declared(n); a && b) {
    if (a->expected_global != b->expected_global)
      m.notes.push_back(fmt::format("expected global order {} -> {} (its declaration or the spec's expect)", a->expected_global, b->expected_global));
    if (a->expected_local != b->expected_local)
      m.notes.push_back(fmt::format("expected local order {} -> {}", a->expected_local, b->expected_local));
    const bool coefficient_moved = std::isfinite(a->error_coefficient) && std::isfinite(b->error_coefficient) &&
                                   std::abs(a->error_coefficient - b->error_coefficient) > 1e-12 * std::abs(a->error_coefficient);
    if (a->predicted_order != b->predicted_order || coefficient_moved)
      m.notes.push_back(fmt::format("its coefficients changed (predicted order {} -> {}, principal error coefficient {:.4g} -> {:.4g})",
                                    a->predicted_order, b->predicted_order, a->error_coefficient, b->error_coefficient));
  }
  for (const std::string metric : {"global", "max", "local"}) {
    const report::OrderRow *a = report::find_order(o, method, metric), *b = report::find_order(n, method, metric);
    if (!a || !b) continue;
    m.orders.push_back({metric, a->verdict, b->verdict, a->observed, a->lo, a->hi, b->observed, b->lo, b->hi});
  }
  std::vector<double> time_ratios, old_noise, new_noise;
  for (const auto& r : o.runs) {
    if (r.integrator != method) continue;
    const RunRow* x = report::run_at(n, method, r.dt);
    if (!x) continue;
    if (r.status == "ok" && x->status != "ok") m.newly_diverged.push_back(r.dt);
    if (r.status != "ok" && x->status == "ok") m.no_longer_diverged.push_back(r.dt);
    if (r.status != "ok" || x->status != "ok") continue;
    // Errors compared where round-off moves the old one by at most 0.1 %: above 1000 times its noise floor.
    if (r.global > 1000 * report::noise_floor(o, r) && r.global <= report::pre_asymptotic_error && std::isfinite(x->global))
      m.error_ratios.emplace_back(r.dt, x->global / r.global);
    if (r.ns_min > 0 && x->ns_min > 0 && std::isfinite(r.ns_min) && std::isfinite(x->ns_min)) {
      time_ratios.push_back(x->ns_min / r.ns_min);
      if (std::isfinite(r.ns_median)) old_noise.push_back(r.ns_median / r.ns_min - 1);
      if (std::isfinite(x->ns_median)) new_noise.push_back(x->ns_median / x->ns_min - 1);
    }
    if (!r.behaviour.empty() && !x->behaviour.empty() && r.behaviour != x->behaviour)
      m.energy.push_back(fmt::format("dt {:.4g}: {} -> {} (largest error {:.2e} -> {:.2e})", r.dt, r.behaviour, x->behaviour, r.energy_max,
                                     x->energy_max));
  }
  if (!time_ratios.empty()) {  // a fixed-step method's (a pair's, per tried step, above)
    m.time_ratio = report::median(time_ratios);
    if (!old_noise.empty() && !new_noise.empty()) m.time_noise = report::median(old_noise) + report::median(new_noise);
  }
  // The long energy run (energy_t_end; a pair's at energy_tol), at the same step or tolerance: bounded (or at round-off)
  // before and a drift or too large now fails, by the rule study check and the report apply (report::long_run_behaviour).
  auto long_run = [&](const Study& s) -> const report::LongRow* {
    for (const auto& e : s.energy_long)
      if (e.integrator == method) return &e;
    return nullptr;
  };
  // The same run: its step or tolerance, and its length (a longer run may show a drift a shorter one hid).
  auto span = [](const report::LongRow& e) { return static_cast<double>(e.steps) * e.dt; };
  auto at = [&](const report::LongRow& e) {
    return (e.tol > 0 ? fmt::format("tol {:.4g}", e.tol) : fmt::format("dt {:.4g}", e.dt)) + fmt::format(" to t = {:.4g}", span(e));
  };
  const report::LongRow *lo = long_run(o), *ln = long_run(n);
  const bool same_run = lo && ln && lo->tol == ln->tol && (lo->tol > 0 || lo->dt == ln->dt) && std::abs(span(*lo) - span(*ln)) <= 1e-9 * span(*lo);
  if (lo && ln && !same_run) {
    m.notes.push_back(fmt::format("its long energy run not compared: {} before, {} now", at(*lo), at(*ln)));
  } else if (same_run) {
    const auto before = report::long_run_behaviour(*lo), after = report::long_run_behaviour(*ln);
    const std::string at = lo->tol > 0 ? fmt::format("tol {:.4g}", lo->tol) : fmt::format("dt {:.4g}", lo->dt);
    const std::string change = fmt::format("long run at {}: {} -> {} (growth exponent {} -> {}, largest error {:.2e} -> {:.2e})", at,
                                           report::behaviour_word(before), report::behaviour_word(after), report::fixed(lo->growth),
                                           report::fixed(ln->growth), lo->max_rel, ln->max_rel);
    if (report::behaviour_word(before) != report::behaviour_word(after)) m.energy.push_back(change);
    // Worse: kept before, not now, and its largest error grew beyond the error tolerance (as a run's energy class).
    if ((before == report::LongBehaviour::bounded || before == report::LongBehaviour::roundoff) &&
        (after == report::LongBehaviour::drifting || after == report::LongBehaviour::too_large) &&
        report::long_run_largest(*ln) > report::long_run_largest(*lo) * (1 + options.error_tolerance))
      m.long_run_worse = change;
  }
  const auto targets = options.targets.empty() ? report::default_targets(o) : options.targets;
  if (o.wants("global"))
    for (double t : targets) m.costs.push_back({t, report::cost_to_reach(o, method, t), report::cost_to_reach(n, method, t)});
  return m;
}

/// The outcomes of one method: each aspect worse (fail), not worse (pass) or not comparable (undetermined).
void judge(const MethodChange& m, const Study& o, const Study& n, const CompareOptions& options, std::vector<Outcome>& out) {
  auto add = [&](Outcome::Status status, const std::string& metric, const std::string& expected, const std::string& observed,
                 const std::string& off = "", const std::string& window = "") {
    Outcome x;
    x.status = status, x.study = m.study, x.problem = m.problem, x.integrator = m.method, x.metric = metric;
    x.expected = expected, x.observed = observed, x.off = off, x.window = window;
    out.push_back(std::move(x));
  };
  for (const auto& c : m.orders) {
    const std::string metric = c.metric + " order";
    const std::string before = "as before: " + interval(c.old_order, c.old_lo, c.old_hi) + (c.old_verdict.empty() ? "" : " " + c.old_verdict);
    const std::string now = "now " + interval(c.new_order, c.new_lo, c.new_hi) + (c.new_verdict.empty() ? "" : " " + c.new_verdict);
    if (!std::isfinite(c.old_order) || !std::isfinite(c.new_order)) {
      add(Outcome::undetermined, metric, before, now, std::string("no fit ") + (std::isfinite(c.old_order) ? "now" : "before"));
      continue;
    }
    const double drop = c.old_order - c.new_order;
    const bool intervals = std::isfinite(c.new_hi) && std::isfinite(c.old_lo);
    const bool apart = !intervals || c.new_hi < c.old_lo;
    if (c.old_verdict == "pass" && c.new_verdict == "fail")
      add(Outcome::fail, metric, before, now, fmt::format("passed before, fails now (lower by {:.2f})", drop));
    else if (drop > options.order_tolerance && apart)
      add(Outcome::fail, metric, before, now,
          fmt::format("lower by {:.2f} (tolerance {:g}){}", drop, options.order_tolerance,
                      intervals ? ", the intervals apart" : " (no interval to weigh it against)"));
    else
      add(Outcome::pass, metric, before, now);
  }
  const bool pair = pair_of(n, m.method) != nullptr;  // a pair: judged by its cost; its own aspects in judge_adaptive
  if (o.wants("global") && n.wants("global")) {
    if (!pair && m.error_ratios.empty()) {
      add(Outcome::undetermined, "error constant", "errors within " + pct(1 + options.error_tolerance), "nothing to compare",
          "no step size both ran where the old error is above 1000 times its noise floor and at most 0.5");
    } else if (!pair) {
      const auto worst = *std::max_element(m.error_ratios.begin(), m.error_ratios.end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
      const std::string window = fmt::format("{} step sizes, dt {:.4g}..{:.4g}", m.error_ratios.size(), m.error_ratios.back().first,
                                             m.error_ratios.front().first);
      const std::string observed = fmt::format("new / old error {:.4g} at dt {:.4g} (largest)", worst.second, worst.first);
      if (worst.second > 1 + options.error_tolerance)
        add(Outcome::fail, "error constant", "errors within " + pct(1 + options.error_tolerance), observed,
            fmt::format("error {} at dt {:.4g}", change(worst.second), worst.first), window);
      else
        add(Outcome::pass, "error constant", "errors within " + pct(1 + options.error_tolerance), observed, "", window);
    }
    // The cost to each target, where both are estimates (interpolated or extrapolated; a bound is no measure): worse
    // beyond the cost tolerance, by default the two costs' uncertainties added, at least the error tolerance (a cost
    // moves less than its error: as error^(1/p)).
    const MethodChange::CostChange* worst_cost = nullptr;
    double worst_excess = 0, worst_tolerance = 0;
    std::size_t compared = 0;
    for (const auto& c : m.costs) {
      if (!c.old_cost.estimated() || !c.new_cost.estimated() || c.old_cost.how == report::Reach::at_most ||
          c.new_cost.how == report::Reach::at_most || !(c.old_cost.evals > 0))
        continue;
      // A cost whose uncertainty is unbounded (an order interval that reaches 0) bounds nothing: not compared.
      if (std::isinf(c.old_cost.spread) || std::isinf(c.new_cost.spread)) continue;
      ++compared;
      const double uncertainty =
          std::isnan(c.old_cost.spread) || std::isnan(c.new_cost.spread) ? 0 : report::combined_spread(c.old_cost.spread, c.new_cost.spread);
      const double tolerance = std::isfinite(options.cost_tolerance) ? options.cost_tolerance : std::max(options.error_tolerance, uncertainty);
      const double excess = c.new_cost.evals / c.old_cost.evals / (1 + tolerance);
      if (!worst_cost || excess > worst_excess) worst_cost = &c, worst_excess = excess, worst_tolerance = tolerance;
    }
    if (worst_cost) {
      const double ratio = worst_cost->new_cost.evals / worst_cost->old_cost.evals;
      const std::string observed = fmt::format("{} -> {} force evaluations to {} (the change furthest beyond its tolerance, of {})",
                                               report::cost_cell(worst_cost->old_cost, false), report::cost_cell(worst_cost->new_cost, false),
                                               report::target_text(worst_cost->target), compared);
      const std::string expected = std::isfinite(options.cost_tolerance)
                                       ? "costs within " + pct(1 + options.cost_tolerance)
                                       : "costs within their uncertainty, at least " + pct(1 + options.error_tolerance) + " (here " +
                                             pct(1 + worst_tolerance) + ")";
      add(worst_excess > 1 ? Outcome::fail : Outcome::pass, "cost to accuracy", expected, observed,
          worst_excess > 1 ? fmt::format("{} force evaluations to reach {}", change(ratio), report::target_text(worst_cost->target)) : "");
    }
  }
  std::size_t common = 0;  // step sizes both ran
  for (const auto& r : o.runs)
    if (r.integrator == m.method && report::run_at(n, m.method, r.dt)) ++common;
  if (!pair && common == 0) {
    add(Outcome::undetermined, "divergence", "no run that ended well before diverges", "no step size in both",
        "the two sweeps share no step size: nothing to match run for run");
  } else if (!pair && !m.newly_diverged.empty()) {
    std::string dts;
    for (double dt : m.newly_diverged) dts += (dts.empty() ? "" : ", ") + fmt::format("{:.4g}", dt);
    add(Outcome::fail, "divergence", "no run that ended well before diverges", "diverges now at dt " + dts,
        fmt::format("{} run(s) newly diverged", m.newly_diverged.size()));
  } else if (!pair) {
    add(Outcome::pass, "divergence", "no run that ended well before diverges", "none");
  }
  // Energy: a run whose error was bounded (or at round-off) and now drifts or is large, and grew beyond the tolerance.
  std::string worse_energy = m.long_run_worse;
  for (const auto& r : o.runs) {
    if (r.integrator != m.method || r.status != "ok" || !conserved(r.behaviour)) continue;
    const RunRow* x = report::run_at(n, m.method, r.dt);
    if (x && x->status == "ok" && (x->behaviour == "drifting" || x->behaviour == "large") &&
        x->energy_max > r.energy_max * (1 + options.error_tolerance))
      worse_energy += (worse_energy.empty() ? "" : "; ") +
                      fmt::format("dt {:.4g}: {} -> {} ({:.2e} -> {:.2e})", r.dt, r.behaviour, x->behaviour, r.energy_max, x->energy_max);
  }
  if (!m.energy.empty() || !worse_energy.empty())
    add(worse_energy.empty() ? Outcome::pass : Outcome::fail, "energy", "no bounded energy error that drifts now",
        worse_energy.empty() ? m.energy.front() : worse_energy, worse_energy.empty() ? "" : "the energy error no longer stays bounded");
  if (std::isfinite(options.time_tolerance)) {
    if (!std::isfinite(m.time_ratio)) {
      add(Outcome::undetermined, "time per step", "within " + pct(1 + options.time_tolerance), "no timed run in both");
    } else {
      const double slower = m.time_ratio - 1;
      const std::string observed = fmt::format("new / old {:.3f} (median over the {}), timing noise {:.1f} %", m.time_ratio,
                                               pair ? "tolerances, per tried step" : "runs", 100 * m.time_noise);
      const bool worse = slower > options.time_tolerance && (!std::isfinite(m.time_noise) || slower > m.time_noise);
      add(worse ? Outcome::fail : Outcome::pass, "time per step", "within " + pct(1 + options.time_tolerance), observed,
          worse ? pct(m.time_ratio) + " per step, beyond the tolerance and the noise" : "");
    }
  }
}

}  // namespace

std::string experiment_change(const Study& o, const Study& n) {
  if (o.problem != n.problem) return "the problem changed (" + o.problem + " -> " + n.problem + ")";
  if (o.params != n.params) {
    std::string what;
    auto value = [](const std::vector<std::pair<std::string, std::string>>& p, const std::string& k) -> std::string {
      for (const auto& [key, v] : p)
        if (key == k) return v;
      return "default";
    };
    std::vector<std::string> keys;
    for (const auto* p : {&o.params, &n.params})
      for (const auto& [k, v] : *p)
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    for (const auto& k : keys)
      if (value(o.params, k) != value(n.params, k)) what += (what.empty() ? "" : ", ") + k + " " + value(o.params, k) + " -> " + value(n.params, k);
    return "the problem's parameters changed (" + what + ")";
  }
  if (o.t_end != n.t_end) return fmt::format("t_end changed ({:.6g} -> {:.6g})", o.t_end, n.t_end);
  if (o.dt_pattern != n.dt_pattern || o.dt_amplitude != n.dt_amplitude) return "the step pattern changed";
  return "";
}

/// An adaptive integrator in both folders, besides its cost to each accuracy (judge): its tolerance proportionality (a
/// pass that fails now, or a slope further from the expected beyond the tolerance with the intervals apart) and runs that
/// reached t_end before and stop now; its error at each tolerance both ran (above 1000 times the old run's round-off)
/// is information (a note of m): what a user pays is the cost to an accuracy, and a controller that spends its
/// tolerance differently moves the error at one tolerance without changing it.
void judge_adaptive(const Study& o, const Study& n, const std::string& label, const CompareOptions& options, MethodChange& m,
                    std::vector<Outcome>& out) {
  auto add = [&](Outcome::Status status, const std::string& metric, const std::string& expected, const std::string& observed,
                 const std::string& off = "") {
    Outcome x;
    x.status = status, x.study = n.name, x.problem = n.problem, x.integrator = label, x.metric = metric;
    x.expected = expected, x.observed = observed, x.off = off;
    out.push_back(std::move(x));
  };
  const report::ProportionalityRow *po = nullptr, *pn = nullptr;
  for (const auto& p : o.proportionality) po = p.integrator == label ? &p : po;
  for (const auto& p : n.proportionality) pn = p.integrator == label ? &p : pn;
  if (po && pn) {
    const std::string before = std::isfinite(po->observed) ? fmt::format("{:.2f} in [{:.2f}, {:.2f}] {}", po->observed, po->lo, po->hi, po->verdict) : po->verdict;
    const std::string now = std::isfinite(pn->observed) ? fmt::format("{:.2f} in [{:.2f}, {:.2f}] {}", pn->observed, pn->lo, pn->hi, pn->verdict) : pn->verdict;
    // Worse: further from the slope the pair should have, beyond the tolerance, with the intervals apart (a slope that
    // moved towards it is better, whichever way it moved).
    const double away = std::abs(pn->observed - pn->expected) - std::abs(po->observed - po->expected);
    const bool apart = pn->hi < po->lo || pn->lo > po->hi;
    if (po->verdict == "pass" && pn->verdict == "fail")
      add(Outcome::fail, "tolerance proportionality", "not worse: " + before, now, "passed before, fails now");
    else if (std::isfinite(away) && away > options.order_tolerance && apart)
      add(Outcome::fail, "tolerance proportionality", "not worse: " + before, now,
          fmt::format("slope {:.2f} further from the expected {:g} (tolerance {:g}), the intervals apart", away, pn->expected, options.order_tolerance));
    else
      add(Outcome::pass, "tolerance proportionality", "not worse: " + before, now);
  }
  double worst = 0, worst_tol = 0;
  std::size_t compared = 0;
  std::string stopped;
  for (const auto& r : o.adaptive_runs) {
    if (r.integrator != label) continue;
    const report::AdaptiveRow* x = nullptr;
    for (const auto& y : n.adaptive_runs)
      if (y.integrator == label && std::abs(y.tol - r.tol) <= 1e-9 * r.tol) x = &y;
    if (!x) continue;
    if (r.status == "ok" && x->status != "ok") stopped += (stopped.empty() ? "" : "; ") + fmt::format("tol {:g}: {}", r.tol, x->reason);
    const double floor = std::max(o.ref_bound, std::isfinite(r.roundoff) ? r.roundoff : 0.0);
    if (r.status != "ok" || x->status != "ok" || !(r.global > 1000 * floor) || r.global > 0.5) continue;
    ++compared;
    if (x->global / r.global > worst) worst = x->global / r.global, worst_tol = r.tol;
  }
  if (compared && worst > 1 + options.error_tolerance)
    m.notes.push_back(fmt::format("error at tolerance: new / old {:.4g} at tol {:g}, the largest of {} (not judged: its cost to "
                                  "each accuracy is)", worst, worst_tol, compared));
  add(stopped.empty() ? Outcome::pass : Outcome::fail, "adaptive run", "every run that reached t_end still does",
      stopped.empty() ? "none stopped early" : "stops now: " + stopped, stopped.empty() ? "" : "runs that finished before stop now");
}

Comparison compare(const report::Results& old, const report::Results& now, const CompareOptions& options) {
  for (const auto* r : {&old, &now})
    if (r->schema_version < 2)
      throw report::ReportError((r->dir / "results.json").string() + ": schema_version 1: compare reads versions 2 and later (orders "
                                "with their points and verdicts); run `study run` again");
  Comparison c;
  for (const auto& o : old.studies)
    if (!report::study_named(now, o.name)) c.removed.push_back(o.name);
  for (const auto& n : now.studies) {
    const Study* o = report::study_named(old, n.name);
    if (!o) {
      c.added.push_back(n.name);
      continue;
    }
    // The same name for another experiment: its methods cannot be judged against each other; say why.
    if (const std::string why = experiment_change(*o, n); !why.empty()) {
      Outcome x;
      x.status = Outcome::undetermined, x.study = n.name, x.problem = n.problem, x.integrator = "(study)", x.metric = "same experiment";
      x.expected = "the same problem, parameters and span", x.observed = why;
      x.off = "not comparable: " + why + "; compare runs of the same spec";
      c.verdict.outcomes.push_back(std::move(x));
      c.changed.push_back(n.name + ": " + why);
      continue;
    }
    for (const auto& i : o->integrators)
      if (std::find(n.integrators.begin(), n.integrators.end(), i) == n.integrators.end()) c.removed.push_back(n.name + ": " + i);
    for (const auto& i : n.integrators) {
      if (std::find(o->integrators.begin(), o->integrators.end(), i) == o->integrators.end()) {
        c.added.push_back(n.name + ": " + i);
        continue;
      }
      c.methods.push_back(compare_method(*o, n, i, options));
      judge(c.methods.back(), *o, n, options, c.verdict.outcomes);
    }
    for (const auto& a : n.adaptive) {
      if (std::none_of(o->adaptive.begin(), o->adaptive.end(), [&](const auto& x) { return x.label == a.label; })) {
        c.added.push_back(n.name + ": " + a.label);
        continue;
      }
      c.methods.push_back(compare_method(*o, n, a.label, options));
      judge(c.methods.back(), *o, n, options, c.verdict.outcomes);
      judge_adaptive(*o, n, a.label, options, c.methods.back(), c.verdict.outcomes);
    }
    for (const auto& a : o->adaptive)
      if (std::none_of(n.adaptive.begin(), n.adaptive.end(), [&](const auto& x) { return x.label == a.label; }))
        c.removed.push_back(n.name + ": " + a.label);
  }
  return c;
}

}  // namespace check
