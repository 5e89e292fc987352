// Stage 3, dt = "auto": an integrator's runs decided one after the other from the errors before them.
#include <chrono>

#include <fmt/format.h>

#include "study/common/interrupt.hpp"
#include "study/measure/runners.hpp"
#include "study/results/orders.hpp"

namespace study::engine {

/// dt = "auto": one integrator down the spec's ladder of halvings, one run after the other (each decision
/// depends only on the errors before it, so the sweep is the same on any number of threads), until the error is
/// within 100 x its noise floor, or every order it is judged on is decided over at least 4 points, or the
/// budget is spent.  While local slopes still drift the orders stay undetermined, so the sweep goes on.  Past the
/// first three steps, while the error is still above 0.5 (or the run diverged) the sweep skips a level: those
/// runs are no use to a fit, and the pre-asymptotic range of a problem with a fast time scale (a close
/// encounter) can be long.
void auto_sweep(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run) {
  using clock = std::chrono::steady_clock;
  const SpecIntegrator& si = spec.integrators[t.integrator];
  Sweep& sweep = res.sweeps[t.sweep];
  sweep.integrator = si.choice.label(), sweep.automatic = true;
  const AutoSweep& budget = *spec.auto_dt;
  const FitOptions fit_options;
  const auto metrics = order_metrics(spec);
  const std::string driver = metrics.front();  // global if measured, else local
  const auto start = clock::now();
  auto seconds = [](clock::duration d) { return std::chrono::duration<double>(d).count(); };
  std::vector<std::size_t> done;  // ladder levels run
  for (std::size_t k = 0; k < spec.steps.size();) {
    if (interrupted()) return;
    const auto t0 = clock::now();
    run(TaskKind::run, spec, si, spec.steps[k], ctx, res, t.slot + k);
    const double last = seconds(clock::now() - t0), spent = seconds(clock::now() - start);
    const Run& r = res.runs[t.slot + k];
    sweep.dts.push_back(r.dt), done.push_back(k);
    const ErrorPoint p = error_point(r, driver, res.reference_bound);
    const bool pre_asymptotic = !(p.error <= fit_options.max_error);  // NaN (diverged) too
    const std::size_t next = k + (pre_asymptotic && k >= 2 ? 2 : 1);
    if (done.size() >= fit_options.min_points) {
      // Only an error in the usable range stops the sweep, and a large one only when its floor lies below it:
      // at large steps on a sensitive orbit the long double shadow parts from the run, and its "round-off" is no
      // floor (Kepler e = 0.9: 0.08 at dt 0.12 beside an error of 2.3; 0.33 beside 0.17).  An error at round-off
      // (below 1e-6) may sit at or under its floor: that is the floor reached.
      if (std::isfinite(p.error) && p.error <= fit_options.max_error && (p.floor < p.error || p.error < 1e-6) &&
          p.error <= fit_options.near_floor_factor * p.floor) {
        sweep.stop = fmt::format("the {} error {:.3g} at dt {} is within {} x its noise floor {:.3g}", driver, p.error,
                                 short_num(r.dt), fit_options.near_floor_factor, p.floor);
        sweep.cause = SweepStop::floor;
        return;
      }
      std::string decided;
      for (const auto& metric : metrics) {
        std::vector<ErrorPoint> points;
        for (std::size_t j : done) points.push_back(error_point(res.runs[t.slot + j], metric, res.reference_bound));
        const OrderFit fit = fit_order(points);
        const int expected = metric == "local" ? si.expected_local : si.expected_global;
        const OrderVerdict v = judge_order(fit, order_context(res, metric, expected));
        if (v.verdict == "undetermined" || fit.points < fit_options.min_points + 1) {
          decided.clear();
          break;
        }
        decided += fmt::format("{}{} {} over dt {}..{}", decided.empty() ? "" : ", ", metric, v.verdict, short_num(fit.dt_min),
                               short_num(fit.dt_max));
      }
      if (!decided.empty()) {
        sweep.stop = "every order is decided (" + decided + ")", sweep.cause = SweepStop::decided;
        return;
      }
    }
    if (static_cast<int>(done.size()) == budget.runs) {
      sweep.stop = fmt::format("the budget of {} runs is spent; the orders are not all decided (raise dt.runs)", budget.runs);
      sweep.cause = SweepStop::runs;
      return;
    }
    if (next >= spec.steps.size()) {
      sweep.stop = fmt::format("the ladder ends at {} steps; the orders are not all decided", spec.steps.back());
      sweep.cause = SweepStop::ladder;
      return;
    }
    // The next run takes about as much longer as it has more steps.
    const double more = static_cast<double>(spec.steps[next]) / static_cast<double>(spec.steps[k]);
    if (budget.seconds > 0 && spent + more * last > budget.seconds) {
      sweep.stop = fmt::format("the budget of {} s would be exceeded by the next run ({:.3g} s spent)", budget.seconds, spent);
      sweep.cause = SweepStop::seconds;
      return;
    }
    k = next;
  }
}

}  // namespace study::engine
