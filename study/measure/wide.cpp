// Stage 3, after an integrator's double sweep: where round-off ended an order's asymptotic range before it settled,
// the same method on the same problem in long double, then in float128 (study/fit/wide.hpp), until the orders
// decide, the wide errors reach their own noise floor, or the budget is spent.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include <fmt/format.h>

#include "study/common/interrupt.hpp"
#include "study/measure/runners.hpp"
#include "study/measure/wide_truth.hpp"
#include "study/results/orders.hpp"

namespace study::engine {

WideFloors wide_floors(const std::vector<const Run*>& runs, long n, double reference_bound, const std::string& arithmetic,
                       const PredictedOrder& digits, double t_end, double time_scale) {
  const double eps = std::numeric_limits<double>::epsilon(), ratio = roundoff_ratio(arithmetic);
  auto estimate = [&](auto measured) {
    const Run* at = nullptr;  // the run of n steps, else the one of most steps below n, with its round-off measured
    for (const Run* r : runs)
      if (r->steps <= n && std::isfinite(measured(*r)) && (!at || r->steps > at->steps)) at = r;
    const double roundoff = at ? measured(*at) * static_cast<double>(n) / static_cast<double>(at->steps)
                               : eps * std::sqrt(static_cast<double>(n));
    return std::max(wide_reference_factor * reference_bound, roundoff * ratio);
  };
  WideFloors f;
  const double h = t_end / static_cast<double>(n) / time_scale;
  double per_time = digits.consistency, per_step = digits.consistency * h;  // the digits' error per time scale, per step
  for (std::size_t k = 1; k < digits.residuals.size(); ++k)
    per_time += digits.residuals[k] * std::pow(h, static_cast<double>(k)), per_step += digits.residuals[k] * std::pow(h, static_cast<double>(k + 1));
  const double written = per_time * (1 + t_end / time_scale);
  f.global = std::max(written, estimate([](const Run& r) { return r.roundoff; }));
  f.max = std::max(written, estimate([](const Run& r) { return std::isfinite(r.roundoff_max) ? std::max(r.roundoff_max, r.roundoff) : r.roundoff; }));
  f.local = std::max({per_step, wide_reference_factor * reference_bound, 4 * eps * ratio});
  return f;
}

namespace {

/// Whether a run's error lies within `factor` x its noise floor (a fit leaves it out).
bool at_floor(const ErrorPoint& p, double factor) { return std::isfinite(p.error) && p.error <= factor * p.floor; }

}  // namespace

WideTruth float128_truth(const Spec& spec, const Context& ctx, const StudyResult& res) {
  WideTruth truth{"float128 reference", res.reference_bound};
  const RefReal eps = std::numeric_limits<RefReal>::epsilon();
  const RefReal time_scale = RefReal(std::isfinite(res.period) && res.period > 0 ? res.period : spec.time_scale) / (2 * std::numbers::pi_v<double>);
  try {
    with_problem<RefReal>(spec.problem, ctx.exact_params, [&](const auto& p) {
      using PR = std::decay_t<decltype(p)>;
      if constexpr (exact_wide_truth<PR>) {
        ParamValues nudged;  // every parameter 4 ulps towards zero (inside any range that admits the value itself)
        for (const auto& [name, value] : ctx.exact_params) nudged[name] = reference::to_decimal(reference::from_decimal(value) * (1 - 4 * eps));
        const PR q(nudged);
        RefReal condition = 1;  // how much the closed form may amplify its roundings (a problem that says)
        if constexpr (requires { p.exact_condition(); }) condition = std::max<RefReal>(1, p.exact_condition());
        RefReal bound = 0;
        for (const auto& [t, unused] : ctx.ref.wide) {
          const auto a = p.exact(t), b = q.exact(t);
          RefReal dq = 0, dv = 0;
          for (std::size_t i = 0; i < PR::dim; ++i) dq = std::max<RefReal>(dq, abs(a.q[i] - b.q[i])), dv = std::max<RefReal>(dv, abs(a.v[i] - b.v[i]));
          const RefReal change = std::max(dq / RefReal(ctx.ref.q_scale), dv / RefReal(ctx.ref.v_scale));
          bound = std::max(bound, 100 * change + 10 * eps * condition * (1 + t / time_scale));
        }
        truth = {"exact solution", static_cast<double>(bound)};
      }
    });
  } catch (const std::exception&) {
    // A problem the shipped list does not hold (the user's), or parameters the nudge took out of range: the reference.
  }
  return truth;
}

bool FloorWatch::reached(const WideRun& w, const std::vector<std::string>& open) {
  bool all = !open.empty();
  for (const std::string& metric : open) {
    const bool at = at_floor(wide_point(w, metric), factor_) && (metric != "global" || at_floor(wide_point(w, "max"), factor_));
    int& n = in_a_row_[metric];
    n = at ? n + 1 : 0;
    all = all && n >= 2;
  }
  return all;
}

void wide_sweeps(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run) {
  if (!t.wide || t.kind != TaskKind::run) return;
  const SpecIntegrator& si = spec.integrators[t.integrator];
  const std::string label = si.choice.label();
  const auto [first, count] = run_slots(t, spec);
  std::vector<const Run*> runs;  // this integrator's double runs, in slot order (as res.runs will hold them)
  for (std::size_t k = first; k < first + count; ++k)
    if (res.runs[k].steps > 0) runs.push_back(&res.runs[k]);
  if (runs.size() < 2) return;

  // The orders round-off left undetermined, as fit_orders will judge them from the same runs.
  const auto metrics = order_metrics(spec);
  std::vector<std::string> needed;
  std::string why;
  double roundoff_dt = 0;
  for (const std::string& metric : metrics) {
    const DoubleOrder d = double_order(res, si, metric, runs);
    const double at = roundoff_ended_at(d.fit, d.points, judge_order(d.fit, d.context), d.context, res.reference_bound);
    if (at <= 0) continue;
    needed.push_back(metric), roundoff_dt = std::max(roundoff_dt, at);
    why += fmt::format("{}{}: {}", why.empty() ? "" : "; ", metric, d.verdict.reason);
  }
  if (needed.empty()) return;
  // The orders undetermined for another reason ride along (judge_in_arithmetics): under dt = "auto" double's sweep
  // stopped where round-off ended the others' range, short of where these would settle.
  for (const std::string& metric : metrics) {
    if (std::find(needed.begin(), needed.end(), metric) != needed.end()) continue;
    const DoubleOrder d = double_order(res, si, metric, runs);
    if (d.verdict.verdict != "undetermined" || !d.context.exact.empty()) continue;
    needed.push_back(metric);
    why += fmt::format("; {} (riding along): {}", metric, d.verdict.reason);
  }

  WideSweep* sweeps = &res.wide_sweeps[t.wide_sweep];
  const double budget = wide_work_budget(spec, si);
  if (budget <= 0) {
    sweeps[0] = {label, wide_arithmetics().front(), {}, why, "not run: wide_budget = 0", 0, "float128 reference", res.reference_bound};
    return;
  }
  // The levels: the spec's step sizes (a ladder's halvings) from the largest whose double error is below 0.5 (where
  // an order's window may start) on, smallest dt last.
  const FitOptions fit_options;
  std::size_t k0 = spec.steps.size();
  for (const Run* r : runs)
    for (std::size_t k = 0; k < spec.steps.size(); ++k)
      if (spec.steps[k] == r->steps && r->status == "ok" && error_point(*r, metrics.front(), res.reference_bound).error <= fit_options.max_error)
        k0 = std::min(k0, k);
  if (k0 == spec.steps.size()) return;  // nothing usable in double: the wider arithmetics would measure the same

  const double per_step = si.evals_per_step * (si.implicit ? 8.0 : 1.0) * spec.evaluation_cost;
  double spent = 0;
  std::size_t slot = t.wide_slot;
  std::vector<std::string> open = needed;  // the orders not yet decided
  long reached = 0;                        // the most steps the narrower arithmetic ran
  for (std::size_t a = 0; a < wide_arithmetics().size() && !open.empty(); ++a) {
    const std::string& arithmetic = wide_arithmetics()[a];
    WideSweep& sweep = sweeps[a];
    sweep = {label, arithmetic, {}, why, "", 0, "float128 reference", res.reference_bound};
    if (arithmetic == "float128") {
      const WideTruth truth = float128_truth(spec, ctx, res);
      sweep.reference = truth.kind, sweep.reference_bound = truth.bound;
    }
    // Not started where the budget would end before the step where the narrower arithmetic reached its floor: the
    // runs above it measure what that one did.
    double to_reach = 0;
    for (std::size_t k = k0; k < spec.steps.size() && spec.steps[k] <= reached; ++k)
      to_reach += static_cast<double>(spec.steps[k]) * per_step * wide_weight(arithmetic);
    if (spent + to_reach > budget) {
      sweep.stop = fmt::format("not run: the budget would end before dt {}, the smallest step {} ran, where it reached its noise "
                               "floor ({:.3g} weighted force evaluations to get there, over {})",
                               short_num(spec.t_end / static_cast<double>(reached)), wide_arithmetics()[a - 1], spent + to_reach,
                               wide_budget_text(spec, si));
      return;
    }
    std::vector<std::size_t> done;  // slots of this arithmetic's runs
    auto points_of = [&](const std::string& metric) {
      std::vector<ErrorPoint> points;
      for (std::size_t j : done) points.push_back(wide_point(res.wide_runs[j], metric));
      return points;
    };
    // Runs n steps in this arithmetic; "" when it did, else why it could not (the budget, a double-only step).
    auto measure = [&](long n) -> std::string {
      const double cost = static_cast<double>(n) * per_step * wide_weight(arithmetic);
      if (spent + cost > budget)
        return fmt::format("the budget is spent: the next run (dt {}) would take the wide runs to {:.3g} weighted force evaluations, "
                           "over {}",
                           short_num(spec.t_end / static_cast<double>(n)), spent + cost, wide_budget_text(spec, si));
      run(wide_kind(arithmetic), spec, si, n, ctx, res, slot);
      WideRun& w = res.wide_runs[slot];
      if (w.status == "unsupported") return w.reason;
      done.push_back(slot++);
      spent += cost, sweep.work += cost;
      w.force_evals = static_cast<std::uint64_t>(std::llround(static_cast<double>(n) * si.evals_per_step * (si.implicit ? 8.0 : 1.0)));
      const WideFloors f = wide_floors(runs, n, sweep.reference_bound, arithmetic, si.predicted, spec.t_end,
                                       spec.time_scale / (2 * std::numbers::pi));
      w.floor_global = f.global, w.floor_max = f.max, w.floor_local = f.local;
      sweep.dts.push_back(w.dt);
      return "";
    };
    // Decided: every open order passes, or fails where its window reaches the noise floor, over 4 points or more.
    auto decide = [&] {
      std::vector<std::string> still;
      for (const std::string& metric : open) {
        const DoubleOrder d = double_order(res, si, metric, runs);
        const ArithmeticVerdict v =
            judge_in_arithmetics(d.fit, d.verdict, d.points, {{arithmetic, points_of(metric)}}, d.context, res.reference_bound);
        if (v.verdict.verdict == "undetermined" || v.fit.points < fit_options.min_points + 1) still.push_back(metric);
      }
      return still;
    };
    bool more = true;  // false once a run could not be made: nothing more in any arithmetic
    // The halvings (a range's step sizes) from k0 on, until decided, at this arithmetic's noise floor, or the end.
    FloorWatch floor(fit_options.floor_factor);
    for (std::size_t k = k0;; ++k) {
      if (interrupted()) return;
      if (k == spec.steps.size()) {
        sweep.stop = spec.auto_dt ? fmt::format("the ladder of halvings ends at {} steps", spec.steps.back()) : "the spec's step sizes end";
        break;
      }
      if (const std::string no = measure(spec.steps[k]); !no.empty()) {
        sweep.stop = no, more = false;
        break;
      }
      const std::vector<std::string> still = decide();
      if (still.empty()) break;
      const WideRun& w = res.wide_runs[done.back()];
      if (floor.reached(w, still)) {
        sweep.stop = fmt::format("the error reaches this arithmetic's noise floor at dt {} ({} x it, twice in a row)", short_num(w.dt),
                                 fit_options.floor_factor);
        break;
      }
    }
    // dt = "auto": then the levels between the halvings where more points may decide an open order, largest dt first,
    // as the double sweep fills them in.
    for (std::size_t filled = 0; more && spec.auto_dt && !decide().empty();) {
      if (interrupted()) return;
      std::vector<long> fills;
      for (const std::string& metric : decide()) {
        const DoubleOrder d = double_order(res, si, metric, runs);
        const auto points = points_of(metric);
        const auto [lo, hi] = fill_range(points, fit_order(points), d.context, fit_options);
        for (long n : spec.auto_dt->between) {
          const double dt = spec.t_end / static_cast<double>(n);
          const bool run_before = std::any_of(done.begin(), done.end(), [&](std::size_t j) { return res.wide_runs[j].steps == n; });
          if (dt > lo && dt < hi && !run_before) fills.push_back(n);
        }
      }
      if (fills.empty()) break;
      if (const std::string no = measure(*std::min_element(fills.begin(), fills.end())); !no.empty()) {
        sweep.stop += "; then " + no, more = false;
        break;
      }
      if (++filled == 1) sweep.stop += "; then levels between the halvings";
    }
    for (std::size_t j : done) reached = std::max(reached, res.wide_runs[j].steps);
    open = decide();
    if (open.empty()) sweep.stop = sweep.stop.empty() ? "every order is decided" : sweep.stop + "; every order is decided";
    if (!more) return;
    // A wider arithmetic helps only where this one's round-off ended the range: where none of the open orders' points
    // came within 100 x its noise floor (the step sizes ran out first), the next would measure the same errors.
    const bool floor_reached = std::any_of(open.begin(), open.end(), [&](const std::string& metric) {
      const auto points = points_of(metric);
      return std::any_of(points.begin(), points.end(), [&](const ErrorPoint& p) { return at_floor(p, fit_options.near_floor_factor); });
    });
    if (!open.empty() && !floor_reached && a + 1 < wide_arithmetics().size()) {
      sweeps[a + 1] = {label, wide_arithmetics()[a + 1], {}, why,
                       fmt::format("not run: the {} errors came nowhere near their noise floor before the step sizes ended, so "
                                   "the same runs in {} would measure the same errors", arithmetic, wide_arithmetics()[a + 1]),
                       0, "float128 reference", res.reference_bound};
      return;
    }
  }
}

}  // namespace study::engine
