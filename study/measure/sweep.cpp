// Stage 3, dt = "auto": an integrator's runs decided one after the other from the errors before them.
#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "study/common/interrupt.hpp"
#include "study/measure/runners.hpp"
#include "study/results/orders.hpp"

namespace study::engine {
namespace {

/// Whether a run's error lies within `factor` x its noise floor, where that floor is round-off.  Only an error in the
/// usable range counts, and a large one only when its floor lies below it: at large steps on a sensitive orbit the
/// long double shadow parts from the run, and its "round-off" is no floor (Kepler e = 0.9: 0.08 at dt 0.12 beside
/// an error of 2.3; 0.33 beside 0.17).  An error at round-off (below 1e-6) may sit at or under its floor: that is
/// the floor reached.
bool within_floor(const ErrorPoint& p, double factor, const FitOptions& o) {
  return std::isfinite(p.error) && p.error <= o.max_error && (p.floor < p.error || p.error < 1e-6) && p.error <= factor * p.floor;
}

}  // namespace

/// Where the levels between halvings may decide an order of `metric` that the runs so far leave undecided, as an
/// open interval of dt: inside the fit's window when its interval straddles the band, or lies below it over too
/// few local slopes to fail (more points there narrow it and add slopes); one halving either side of the usable points when they are too few for a fit.  Empty ({0, 0}) otherwise:
/// decided, not yet asymptotic, or nothing usable.
std::pair<double, double> fill_range(const std::vector<ErrorPoint>& points, const OrderFit& fit, const OrderContext& c,
                                     const FitOptions& o) {
  if (fit.determined) return more_points_may_decide(fit, c) ? std::pair{fit.dt_min, fit.dt_max} : std::pair{0.0, 0.0};
  if (!c.exact.empty()) return {0, 0};
  double lo = INFINITY, hi = 0;
  for (const ErrorPoint& p : points)
    if (std::isfinite(p.error) && p.error > o.floor_factor * p.floor && p.error <= o.max_error)
      lo = std::min(lo, p.dt), hi = std::max(hi, p.dt);
  return hi > 0 ? std::pair{lo / 2, hi * 2} : std::pair{0.0, 0.0};
}

/// dt = { ..., past_floor = K }: the spec's step sizes one after the other, largest first, until K in a row lie at
/// the noise floor -- the global error and the largest error over the run both within floor_factor (10) x it,
/// where a fit leaves a point out; the last step size is run whatever.  Round-off grows as the steps
/// shrink while the truncation error falls, so the smaller step sizes would measure round-off alone: their runs, and
/// their long double shadows, were most of a study's time (the default study: 58 % of its runs' force evaluations;
/// cold on 2 jobs 37.8 s -> 21.0 s, every order's fit and verdict the same).  K in a row, not one: an error that crosses zero near t_end (a phase
/// at a special time) dips to its floor at one step size and rises again at the next.  Each decision depends on
/// this integrator's runs before it only: the same runs on any number of threads.
void sweep_to_floor(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run) {
  const SpecIntegrator& si = spec.integrators[t.integrator];
  Sweep& sweep = res.sweeps[t.sweep];
  const FitOptions fit_options;
  // Never before the step the report plots every method at (plot_dt: the range's third step unless the spec says).
  std::size_t plot_level = 0;
  for (std::size_t k = 0; k < spec.steps.size(); ++k)
    if (spec.dt(k) == spec.plot_dt) plot_level = k;
  int in_a_row = 0;
  for (std::size_t k = 0; k < spec.steps.size(); ++k) {
    if (interrupted()) return;
    run(TaskKind::run, spec, si, spec.steps[k], ctx, res, t.slot + k);
    const Run& r = res.runs[t.slot + k];
    sweep.dts.push_back(r.dt);
    // The global error, and the largest over the run (fitted apart, as t_end can fall where errors cancel).
    const ErrorPoint p = error_point(r, "global", res.reference_bound);
    const bool floor = within_floor(p, fit_options.floor_factor, fit_options) &&
                       within_floor(error_point(r, "max", res.reference_bound), fit_options.floor_factor, fit_options);
    in_a_row = floor ? in_a_row + 1 : 0;
    if (spec.past_floor > 0 && in_a_row >= spec.past_floor && k >= plot_level && k + 1 < spec.steps.size()) {
      sweep.stop = fmt::format("the global error {:.3g} at dt {} is within {} x its noise floor {:.3g} (the largest over the run "
                               "too), at {} step size(s) in a row "
                               "(dt.past_floor = {}): the {} smaller step size(s) of the range would measure round-off alone",
                               p.error, short_num(r.dt), fit_options.floor_factor, p.floor, in_a_row, spec.past_floor,
                               spec.steps.size() - k - 1);
      sweep.cause = SweepStop::floor;
      return;
    }
  }
  sweep.stop = "the spec's step sizes";
}

/// dt = "auto": one integrator down the spec's ladder of halvings, one run after the other (each decision
/// depends only on the errors before it, so the sweep is the same on any number of threads), until the error is
/// within 100 x its noise floor, or every order it is judged on is decided over at least 4 points, or the
/// budget is spent.  While local slopes still drift the orders stay undetermined, so the sweep goes on.  Past the
/// first three steps, while the error is still above 0.5 (or the run diverged) the sweep skips a level: those
/// runs are no use to a fit, and the pre-asymptotic range of a problem with a fast time scale (a close
/// encounter) can be long.
///
/// Then, unless every order is decided, the levels between the halvings (3 N / 2 steps) where an order's interval
/// straddles its band, or where too few usable points lie: a 4th-order method reaches round-off within three or
/// four halvings, and twice the points over the same range narrow the Student-t interval about threefold.
/// Largest step first, each counted against the budget; the sweep stops once every order is decided.
///
/// Slots: ladder level k at t.slot + 2k, the level between k and k + 1 at t.slot + 2k + 1 (largest dt first).
void auto_sweep(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run) {
  using clock = std::chrono::steady_clock;
  const SpecIntegrator& si = spec.integrators[t.integrator];
  Sweep& sweep = res.sweeps[t.sweep];
  sweep.integrator = si.choice.label(), sweep.automatic = true;
  struct LargestFirst {  // sweeps[].dts lists the step sizes largest first, whatever order they ran in
    std::vector<double>& dts;
    ~LargestFirst() { std::sort(dts.begin(), dts.end(), std::greater<>()); }
  } largest_first{sweep.dts};
  const AutoSweep& budget = *spec.auto_dt;
  if (budget.between.size() + 1 != spec.steps.size())  // the slots the plan reserved: 2 S - 1
    throw std::logic_error("an automatic sweep's levels between halvings do not match its ladder");
  const FitOptions fit_options;
  const auto metrics = order_metrics(spec);
  const std::string driver = metrics.front();  // global if measured, else local
  const auto start = clock::now();
  auto seconds = [](clock::duration d) { return std::chrono::duration<double>(d).count(); };
  std::vector<std::size_t> done;  // slots run (offsets from t.slot)
  double last = 0;                // seconds of the last run
  long last_steps = 1;

  auto measure = [&](long steps, std::size_t offset) {
    const auto t0 = clock::now();
    run(TaskKind::run, spec, si, steps, ctx, res, t.slot + offset);
    last = seconds(clock::now() - t0), last_steps = steps;
    sweep.dts.push_back(res.runs[t.slot + offset].dt), done.push_back(offset);
    return res.runs[t.slot + offset];
  };
  auto points_of = [&](const std::string& metric) {
    std::vector<ErrorPoint> points;
    for (std::size_t j : done) points.push_back(error_point(res.runs[t.slot + j], metric, res.reference_bound));
    return points;
  };
  auto context = [&](const std::string& metric) {
    OrderContext c = order_context(res, metric, si);
    if (metric == "local" && spec.wants("global")) c.resolved_dt = resolved_dt(points_of("global"));  // this sweep's runs only
    return c;
  };
  // "global pass over dt a..b, local fail over ..." when every order is decided over at least 4 points; "" otherwise.
  auto decided = [&] {
    std::string all;
    for (const auto& metric : metrics) {
      const OrderFit fit = fit_order(points_of(metric));
      const OrderVerdict v = judge_order(fit, context(metric));
      if (v.verdict == "undetermined" || fit.points < fit_options.min_points + 1) return std::string();
      all += fmt::format("{}{} {} over dt {}..{}", all.empty() ? "" : ", ", metric, v.verdict, short_num(fit.dt_min), short_num(fit.dt_max));
    }
    return all;
  };

  // The levels between halvings not yet run where they may decide an order, largest dt (fewest steps) first.
  auto fill_candidates = [&] {
    std::vector<std::size_t> fills;  // indices into budget.between
    for (const auto& metric : metrics) {
      const auto points = points_of(metric);
      const auto [lo, hi] = fill_range(points, fit_order(points), context(metric), fit_options);
      for (std::size_t j = 0; j < budget.between.size(); ++j) {
        const double dt = spec.t_end / static_cast<double>(budget.between[j]);
        if (dt > lo && dt < hi && std::find(done.begin(), done.end(), 2 * j + 1) == done.end() &&
            std::find(fills.begin(), fills.end(), j) == fills.end())
          fills.push_back(j);
      }
    }
    std::sort(fills.begin(), fills.end());
    return fills;
  };

  // The tightest accuracy asked for, where the global error is measured: "" when none is asked.
  const double tightest = spec.accuracy.empty() || !spec.wants("global") ? NAN : *std::min_element(spec.accuracy.begin(), spec.accuracy.end());
  const bool wants_accuracy = std::isfinite(tightest);
  // "the global error 3.1e-13 at dt 0.001 passed the accuracy 1e-12 asked for" once a halving's run did; "" when none
  // is asked for; "-" while it is asked for and not yet passed.
  // Passed means as the report reads it: at the smallest step run so far (an error that dips below the target at a
  // larger step and rises above it at a smaller one has not passed it), and more than 10 times its noise floor (the
  // report's floor_factor: the runs a cost is interpolated on).
  auto accuracy_reached = [&]() -> std::string {
    if (!wants_accuracy) return "";
    const Run* smallest = nullptr;
    for (std::size_t j : done)
      if (const Run& r = res.runs[t.slot + j]; !smallest || r.dt < smallest->dt) smallest = &r;
    if (!smallest || smallest->status != "ok" || !(smallest->global <= tightest)) return "-";
    if (!(smallest->global > 10 * error_point(*smallest, "global", res.reference_bound).floor)) return "-";
    return fmt::format("the global error {:.3g} at dt {} passed the accuracy {:g} asked for", smallest->global, short_num(smallest->dt),
                       tightest);
  };
  // What the sweep still lacks: the accuracy asked for once the orders are decided, else the orders.
  auto unmet = [&]() -> std::string {
    if (accuracy_reached() == "-")
      if (const std::string all = decided(); !all.empty())
        return fmt::format("every order is decided ({}), but the accuracy {:g} asked for is not reached", all, tightest);
    return "the orders are not all decided";
  };
  std::string why;                   // why the halvings ended ("": they go on)
  SweepStop cause = SweepStop::none;
  std::size_t k = 0, filled = 0;     // the next halving; levels between run
  double fill_lo = INFINITY, fill_hi = 0;  // and their step sizes
  for (;;) {
    if (interrupted()) return;
    // A level between halvings once the halvings have ended, or when the runs left are no more than such levels:
    // a window of halvings that straddles its band narrows more from points inside it than from one more below.
    const auto fills = done.size() >= fit_options.min_points ? fill_candidates() : std::vector<std::size_t>{};
    const int left = budget.runs - static_cast<int>(done.size());
    const bool fill = !fills.empty() && (cause != SweepStop::none || left <= static_cast<int>(fills.size()));
    if (!fill && cause != SweepStop::none) break;
    if (left <= 0) {
      sweep.stop = fmt::format("the budget of {} runs is spent; {} (raise dt.runs)", budget.runs, unmet());
      if (cause != SweepStop::none) sweep.stop = why + "; then " + sweep.stop;
      sweep.cause = SweepStop::runs, sweep.halvings = cause;
      return;
    }
    const long steps = fill ? budget.between[fills.front()] : spec.steps[k];
    // The next run takes about as much longer as it has more steps.
    const double spent = seconds(clock::now() - start), more = static_cast<double>(steps) / static_cast<double>(last_steps);
    if (budget.seconds > 0 && !done.empty() && spent + more * last > budget.seconds) {
      const std::string over = fmt::format("the budget of {} s would be exceeded by the next run ({:.3g} s spent)", budget.seconds, spent);
      if (fill || cause != SweepStop::none) {
        sweep.stop = cause != SweepStop::none ? why + "; then " + over : over;
        sweep.cause = SweepStop::seconds, sweep.halvings = cause;
        return;
      }
      why = over, cause = SweepStop::seconds;  // the halvings end; a cheaper level between them may still fit
      continue;
    }
    if (fill) {
      const double dt = measure(steps, 2 * fills.front() + 1).dt;
      ++filled, fill_lo = std::min(fill_lo, dt), fill_hi = std::max(fill_hi, dt);
    } else {
      const Run& r = measure(steps, 2 * k);
      const ErrorPoint p = error_point(r, driver, res.reference_bound);
      const bool pre_asymptotic = !(p.error <= fit_options.max_error);  // NaN (diverged) too
      const std::size_t next = k + (pre_asymptotic && k >= 2 ? 2 : 1);
      // Within 100 x the floor (within_floor), once a fit has its points, ends the halvings.
      if (done.size() >= fit_options.min_points && within_floor(p, fit_options.near_floor_factor, fit_options)) {
        why = fmt::format("the {} error {:.3g} at dt {} is within {} x its noise floor {:.3g}", driver, p.error, short_num(r.dt),
                          fit_options.near_floor_factor, p.floor);
        cause = SweepStop::floor;
      } else if (next >= spec.steps.size()) {
        why = fmt::format("the ladder ends at {} steps{}", spec.steps.back(), decided().empty() ? "; the orders are not all decided" : "");
        cause = SweepStop::ladder;
      }
      k = next;
    }
    if (done.size() >= fit_options.min_points) {
      if (const std::string all = decided(); !all.empty()) {
        // The accuracy the user asked for, once the orders are decided: the halvings go on until the global error
        // passes the tightest (or the floor, the ladder or the budget ends them, each saying so).
        const std::string reached = accuracy_reached();
        if (reached != "-") {  // none asked, or passed
          sweep.stop = "every order is decided (" + all + ")" +
                       (filled ? fmt::format(", with {} step size(s) between the halvings", filled) : std::string()) +
                       (reached.empty() ? "" : "; " + reached);
          sweep.cause = SweepStop::decided;
          return;
        }
      }
    }
  }
  if (filled > 0) {
    if (decided().empty()) {
      why += fmt::format("; then {} step size(s) between the halvings, dt {}..{}, left the orders undecided", filled, short_num(fill_lo),
                         short_num(fill_hi));
      sweep.halvings = cause, cause = SweepStop::between;
    } else {  // they decided the orders; the accuracy asked for is what is missing (said below)
      why += fmt::format("; then {} step size(s) between the halvings, dt {}..{}", filled, short_num(fill_lo), short_num(fill_hi));
    }
  }
  // In the order things happened: the halvings' end, the levels between, and what is still missing.
  if (cause != SweepStop::none && accuracy_reached() == "-" && !decided().empty()) why += "; " + unmet();
  sweep.stop = why, sweep.cause = cause;
}

}  // namespace study::engine
