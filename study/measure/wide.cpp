// Stage 3, after an integrator's double sweep: where round-off ended an order's asymptotic range before it settled,
// the same method on the same problem in long double, then in float128 (study/fit/wide.hpp), until the orders
// decide, the wide errors reach their own noise floor, or the budget is spent.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "study/common/interrupt.hpp"
#include "study/measure/runners.hpp"
#include "study/results/orders.hpp"

namespace study::engine {
namespace {

/// The noise floor of a wide run of n steps: wide_reference_factor x the reference's bound, and round-off, estimated
/// from the double runs' measured round-off scaled to the arithmetic's unit roundoff: at n where double ran (the same
/// operations, rounded finer), else from the nearest n it ran below, grown in proportion to the steps (one-step
/// methods accumulate round-off like sqrt(n) to n: the larger is the safer floor), else eps sqrt(n).
struct WideFloors {
  double global = 0, max = 0, local = 0;
};
WideFloors wide_floors(const std::vector<const Run*>& runs, long n, double reference_bound, const std::string& arithmetic) {
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
  f.global = estimate([](const Run& r) { return r.roundoff; });
  f.max = estimate([](const Run& r) { return std::isfinite(r.roundoff_max) ? std::max(r.roundoff_max, r.roundoff) : r.roundoff; });
  f.local = std::max(wide_reference_factor * reference_bound, 4 * eps * ratio);
  return f;
}

/// Whether a run's error lies within `factor` x its noise floor (a fit leaves it out).
bool at_floor(const ErrorPoint& p, double factor) { return std::isfinite(p.error) && p.error <= factor * p.floor; }

}  // namespace

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

  WideSweep* sweeps = &res.wide_sweeps[t.wide_sweep];
  const double budget = spec.wide_budget * sweep_work(spec, si);
  if (budget <= 0) {
    sweeps[0] = {label, wide_arithmetics().front(), {}, why, "not run: wide_budget = 0", 0};
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
  for (std::size_t a = 0; a < wide_arithmetics().size() && !open.empty(); ++a) {
    const std::string& arithmetic = wide_arithmetics()[a];
    WideSweep& sweep = sweeps[a];
    sweep = {label, arithmetic, {}, why, "", 0};
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
                           "over wide_budget = {:g} x the double sweep's {:.3g}",
                           short_num(spec.t_end / static_cast<double>(n)), spent + cost, spec.wide_budget, sweep_work(spec, si));
      run(wide_kind(arithmetic), spec, si, n, ctx, res, slot);
      WideRun& w = res.wide_runs[slot];
      if (w.status == "unsupported") return w.reason;
      done.push_back(slot++);
      spent += cost, sweep.work += cost;
      w.force_evals = static_cast<std::uint64_t>(std::llround(static_cast<double>(n) * si.evals_per_step * (si.implicit ? 8.0 : 1.0)));
      const WideFloors f = wide_floors(runs, n, res.reference_bound, arithmetic);
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
    // The halvings (a range's step sizes) from k0 on, until decided, at this arithmetic's noise floor (the global
    // error and the largest over the run within 10 x it, twice in a row: an error crossing zero dips once, as
    // dt.past_floor), or the end.
    int in_a_row = 0;
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
      if (decide().empty()) break;
      const WideRun& w = res.wide_runs[done.back()];
      const bool floor = spec.wants("global") ? at_floor(wide_point(w, "global"), fit_options.floor_factor) &&
                                                    at_floor(wide_point(w, "max"), fit_options.floor_factor)
                                              : at_floor(wide_point(w, "local"), fit_options.floor_factor);
      in_a_row = floor ? in_a_row + 1 : 0;
      if (in_a_row >= 2) {
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
    open = decide();
    if (open.empty()) sweep.stop = sweep.stop.empty() ? "every order is decided" : sweep.stop + "; every order is decided";
    if (!more) return;
  }
}

}  // namespace study::engine
