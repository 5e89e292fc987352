// Stage 3, adaptive runs of Boost.Odeint's controlled steppers (reference/odeint_controlled.hpp), the peers our pairs
// are matched and timed against: apart from our pairs' runs (adaptive.cpp), so that the two compile in parallel.
#include <chrono>

#include "reference/odeint_controlled.hpp"
#include "study/common/interrupt.hpp"
#include "study/measure/adaptive_run.hpp"
#include "study/problems/all.hpp"

namespace study::engine {
namespace {

using namespace adaptive_detail;

/// Boost.Odeint's own controlled stepper at the same tolerance, first step and output times, by its integrate_times.
template <class P>
void measure_peer(const P& p, const Spec& spec, const SpecAdaptive& a, double tol, const Context& ctx, AdaptiveRun& r, double dt0,
                  long start_evals, bool time_only) {
  const std::vector<double> times = spec.adaptive_times();
  const auto param = a.params.find("max_dt");
  const double max_dt = param == a.params.end() ? 0 : param->second;
  InterruptPoll poll;
  // Free (the default): Odeint's integrate_adaptive, each output time inside a step observed by our table of the same
  // coefficients from the step's start; cut: its integrate_times.
  reference::odeint::ControlledLimits limits{spec.adaptive_max_steps, [&] { poll(); }, {}, spec.adaptive_cut, a.peer_table.get()};
  auto time_it = [&] {
    std::vector<double> seconds;
    reference::odeint::ControlledLimits timed = limits;
    timed.observe_with = nullptr;  // its steps only: the steps to the output times are not its cost
    for (int rep = 0; rep < spec.repeats; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      reference::odeint::run_controlled(a.odeint, p, times, dt0, tol, tol, max_dt, false, timed);
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    set_seconds(r, std::move(seconds));
  };
  if (time_only) return time_it();  // the rest from the run cache
  const auto run = reference::odeint::run_controlled(a.odeint, p, times, dt0, tol, tol, max_dt, false, limits);
  r.accepted = run.accepted, r.rejected = run.rejected, r.cut = run.cut;
  r.force_evals = static_cast<std::uint64_t>(run.evals + start_evals);
  r.t_reached = run.t_reached;
  if (run.accepted > 0) r.h_min = run.h_min, r.h_max = run.h_max;
  for (std::size_t j = 0; j < run.at_times.size(); ++j) observe_at(p, times, j, run.at_times[j], ctx, r);
  std::string stop = run.stop;
  for (const auto& x : run.at_times)  // Odeint accepts a step whose error is NaN: a state that left the finite range diverged
    if (stop.empty() && !finite_and_sane(x, 1e100 * std::max(ctx.ref.q_scale, ctx.ref.v_scale))) stop = "diverged";
  if (!stop.empty()) {
    r.status = stop;
    r.global = r.position = r.max = r.energy_final_rel = not_measured;
    r.reason = (stop == "step-limit" ? step_limit_reason(spec, run.t_reached)
                : stop == "diverged"  ? "the state left the finite range (Odeint accepted a step whose error was not finite)"
                                      : "Odeint's failed_step_checker: 500 rejected steps in a row") +
               controller_cause(a, run.h_max);
    return;
  }
  time_it();
}

/// Its long energy run at spec.energy_tol: Odeint's integrate_times through long_run_times, the energy error of every
/// accepted step.
template <class P>
void peer_long_run(const P& p, const Spec& spec, const SpecAdaptive& a, EnergyLong& e) {
  const std::vector<double> times = long_run_times(spec);
  long start_evals = 0;
  const double dt0 = first_step(p, a, spec.energy_tol, times, start_evals);
  const auto param = a.params.find("max_dt");
  InterruptPoll poll;
  LongRecord record(times, e, p.energy(p.initial()));
  reference::odeint::ControlledLimits limits{spec.adaptive_max_steps, [&] { poll(); }, [&](const double* x, double t) {
                                               typename P::State s;
                                               for (std::size_t i = 0; i < P::dim; ++i) s.q[i] = x[i], s.v[i] = x[P::dim + i];
                                               record.step(t, p.energy(s));
                                             }};
  const auto run = reference::odeint::run_controlled(a.odeint, p, times, dt0, spec.energy_tol, spec.energy_tol,
                                                     param == a.params.end() ? 0 : param->second, false, limits);
  record.finish(spec, run.accepted, run.t_reached);
  std::string stop = run.stop;
  double stopped_at = run.t_reached;
  if (stop.empty() && !std::isnan(record.nonfinite_t))  // Odeint accepts a step whose error is NaN, and goes on
    stop = "diverged", stopped_at = record.nonfinite_t;
  if (!stop.empty())
    e.status = stop, e.diverged_t = stopped_at,
    e.reason = (stop == "step-limit" ? long_step_limit_reason(spec, run.t_reached)
                : stop == "diverged"  ? "the state left the finite range (Odeint accepted a step whose error was not finite)"
                                      : "Odeint's failed_step_checker: 500 rejected steps in a row") +
               controller_cause(a, run.h_max);
}

}  // namespace

void odeint_peer_long_run(const Spec& spec, const SpecAdaptive& a, const Context&, EnergyLong& e) {
  with_problem<double>(spec.problem, spec.params, [&](const auto& p) {
    if constexpr (std::decay_t<decltype(p)>::conservative) peer_long_run(p, spec, a, e);  // the spec refuses the others
  });
}

void measure_odeint_peer(const Spec& spec, const SpecAdaptive& a, double tol, const Context& ctx, AdaptiveRun& r, bool time_only) {
  with_problem<double>(spec.problem, spec.params, [&](const auto& p) {
    const std::vector<double> times = spec.adaptive_times();
    long start_evals = 0;
    const double dt0 = first_step(p, a, tol, times, start_evals);
    measure_peer(p, spec, a, tol, ctx, r, dt0, start_evals, time_only);
  });
}

}  // namespace study::engine
