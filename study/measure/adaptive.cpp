// Stage 3, adaptive runs: one embedded pair under its controller at one tolerance (eps_abs = eps_rel = tol), landing on
// the spec's output times (integrators/adaptive.hpp), its errors against the reference there, its counts and time.
#include "study/measure/adaptive.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "integrators/adaptive.hpp"
#include "reference/odeint_controlled.hpp"
#include "study/common/interrupt.hpp"
#include "study/measure/measure.hpp"
#include "study/measure/stepper.hpp"
#include "study/problems/all.hpp"
#include "study/problems/counted.hpp"
#include "study/registry/extensions.hpp"

namespace study::engine {
namespace {

/// Calls f with a fresh controller of the kind and parameters the spec gives, at tolerance tol, as its own type.
template <class F>
decltype(auto) with_controller(const SpecAdaptive& a, double tol, F&& f) {
  auto param = [&](const char* k, double fallback) {
    const auto it = a.params.find(k);
    return it == a.params.end() ? fallback : it->second;
  };
  if (const UserController* own = find_user_controller(a.controller)) {  // the program's own (study/extend/controller.hpp)
    const auto c = own->make(tol, a.params);
    return f(*c);
  }
  if (a.controller == "pi") {
    ode::PIController c;
    c.atol = c.rtol = tol;
    c.beta = param("beta", c.beta), c.safe = param("safe", c.safe), c.fac_min = param("fac_min", c.fac_min);
    c.fac_max = param("fac_max", c.fac_max), c.max_step = param("max_dt", 0);
    return f(c);
  }
  ode::OdeintController c;
  c.eps_abs = c.eps_rel = tol;
  c.a_x = param("a_x", 1), c.a_dxdt = param("a_dxdt", 1), c.max_step = param("max_dt", 0);
  return f(c);
}

const char* status_of(ode::AdaptiveStop s) {
  switch (s) {
    case ode::AdaptiveStop::none: return "ok";
    case ode::AdaptiveStop::step_limit: return "step-limit";
    case ode::AdaptiveStop::underflow: return "underflow";
    case ode::AdaptiveStop::rejections: return "rejections";
    case ode::AdaptiveStop::diverged: return "diverged";
    case ode::AdaptiveStop::interrupted: return "interrupted";
  }
  return "ok";
}

std::string step_limit_reason(const Spec& spec, double t) {
  return fmt::format("{} steps (tol.max_steps) before t_end, at t = {:.6g}", spec.adaptive_max_steps, t);
}

/// The timed repeats' minimum and median, whole runs.
void set_seconds(AdaptiveRun& r, std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  if (!seconds.empty()) r.seconds_min = seconds.front(), r.seconds_median = seconds[seconds.size() / 2];
}

/// Run r's errors at output time j (state s): the phase-space error against the reference there, its largest so far,
/// and the energy's (against the start's, or for a dissipative problem the reference's).
template <class P>
void observe_at(const P& p, const std::vector<double>& times, std::size_t j, const typename P::State& s, const Context& ctx, AdaptiveRun& r) {
  if (!ctx.ref.present()) return;
  const auto [phase, position] = relative_error(s, ctx.ref.state(RefReal(times[j])), ctx.ref);
  r.max = j == 0 || std::isnan(r.max) ? phase : std::max(r.max, phase);
  if (j + 1 == times.size()) r.global = phase, r.position = position;
  const double e0 = p.energy(p.initial());
  const double energy_scale = std::abs(e0) > 0 ? std::abs(e0) : 1.0;
  double energy;
  if constexpr (P::conservative) {
    energy = (p.energy(s) - e0) / energy_scale;
  } else {
    const auto& at = ctx.ref.state(RefReal(times[j]));
    typename P::State exact;
    for (std::size_t i = 0; i < P::dim; ++i) exact.q[i] = static_cast<double>(at.first[i]), exact.v[i] = static_cast<double>(at.second[i]);
    energy = (p.energy(s) - p.energy(exact)) / energy_scale;
  }
  r.energy_max_rel = j == 0 ? std::abs(energy) : std::max(r.energy_max_rel, std::abs(energy));
  if (j + 1 == times.size()) r.energy_final_rel = energy;
}

/// Boost.Odeint's own controlled stepper at the same tolerance, first step and output times, by its integrate_times.
template <class P>
AdaptiveRun measure_peer(const P& p, const Spec& spec, const SpecAdaptive& a, double tol, const Context& ctx, AdaptiveRun& r, double dt0,
                         long start_evals) {
  const std::vector<double> times = spec.adaptive_times();
  const auto param = a.params.find("max_dt");
  const double max_dt = param == a.params.end() ? 0 : param->second;
  InterruptPoll poll;
  reference::odeint::ControlledLimits limits{spec.adaptive_max_steps, [&] { poll(); }};
  const auto run = reference::odeint::run_controlled(a.odeint, p, times, dt0, tol, tol, max_dt, false, limits);
  r.accepted = run.accepted, r.rejected = run.rejected;
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
    r.reason = stop == "step-limit" ? step_limit_reason(spec, run.t_reached)
               : stop == "diverged"  ? "the state left the finite range (Odeint accepted a step whose error was not finite)"
                                     : "Odeint's failed_step_checker: 500 rejected steps in a row";
    return r;
  }
  std::vector<double> seconds;
  for (int rep = 0; rep < spec.repeats; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    reference::odeint::run_controlled(a.odeint, p, times, dt0, tol, tol, max_dt, false, limits);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  set_seconds(r, std::move(seconds));
  return r;
}

template <class P>
AdaptiveRun measure_adaptive(const P& p, const Spec& spec, const SpecAdaptive& a, double tol, const Context& ctx) {
  AdaptiveRun r;
  r.integrator = a.label, r.id = a.choice.id, r.controller = a.controller, r.tol = tol;
  const std::vector<double> times = spec.adaptive_times();
  ode::AdaptiveLimits limits;
  limits.max_steps = spec.adaptive_max_steps;
  limits.blow_up = 1e100 * std::max(ctx.ref.q_scale, ctx.ref.v_scale);
  long start_evals = 0;
  // The first step: Hairer and Wanner's estimate (HNW I, §II.4) at this tolerance; the same for every repeat.
  const double dt0 = ode::starting_step(p.initial(), p, std::min(a.order, a.order_hat), tol, tol, times[1] - times[0], start_evals);

  if (!a.odeint.empty()) return measure_peer(p, spec, a, tol, ctx, r, dt0, start_evals);
  // The counted run: errors at the output times, energy, counts.
  const Counted<P> counted(p);
  ode::EmbeddedStepper<Counted<P>> stepper(*a.choice.table);
  auto x = counted.initial();
  InterruptPoll poll;
  limits.record_steps = true;
  std::vector<typename P::State> at;  // the states at the output times, for the round-off replay
  const auto observe = [&](std::size_t j, const typename P::State& s) { observe_at(p, times, j, s, ctx, r), at.push_back(s); };
  const ode::AdaptiveStats st = with_controller(a, tol, [&](auto& control) {
    return ode::integrate_times(stepper, control, x, times, dt0, counted, limits, observe, [&] { poll(); });
  });
  r.accepted = st.accepted, r.rejected = st.rejected, r.cut = st.cut;
  r.force_evals = counted.evaluations() + static_cast<std::uint64_t>(start_evals);
  r.t_reached = st.t_reached;
  if (st.h_max > 0) r.h_min = st.h_min, r.h_max = st.h_max;
  r.status = status_of(st.stop);
  if (st.stop != ode::AdaptiveStop::none) {
    r.global = r.position = r.max = r.energy_final_rel = not_measured;
    r.reason = st.stop == ode::AdaptiveStop::step_limit
                   ? step_limit_reason(spec, st.t_reached)
               : st.stop == ode::AdaptiveStop::underflow
                   ? fmt::format("the step fell below the resolution of t = {:.6g} (a singularity, or a tolerance below round-off)", st.t_reached)
               : st.stop == ode::AdaptiveStop::rejections ? fmt::format("{} rejected steps in a row at t = {:.6g}", limits.max_rejections, st.t_reached)
                                                          : fmt::format("the state left the finite range after t = {:.6g}", st.t_reached);
    return r;
  }
  // Round-off: the accepted steps again in long double, from the same start with the double-rounded parameters (the
  // truncation error is the same, so the distance is the double run's round-off), where the runs' errors are small
  // enough for it to matter.
  if (ctx.ref.present() && st.steps_at_output.size() == at.size()) {
    using PL = typename Rebind<P, long double>::type;
    const PL pl(ctx.exact_params);
    auto shadow = ode::make_stepper<PL>(ode::TableMethod{a.choice.table});
    typename PL::State y;
    const auto start = p.initial();
    for (std::size_t i = 0; i < P::dim; ++i) y.q[i] = start.q[i], y.v[i] = start.v[i];
    std::size_t k = 0;
    r.roundoff_max = 0;
    for (std::size_t j = 0; j < at.size(); ++j) {
      for (; k < st.steps_at_output[j]; ++k) poll(), shadow.step(y, static_cast<long double>(st.steps[k]), pl);
      std::pair<std::vector<long double>, std::vector<long double>> state;
      for (std::size_t i = 0; i < P::dim; ++i) state.first.push_back(y.q[i]), state.second.push_back(y.v[i]);
      const double d = relative_error(at[j], state, ctx.ref).first;
      r.roundoff_max = std::max(r.roundoff_max, d);
      if (j + 1 == at.size()) r.roundoff = d;
    }
  }
  limits.record_steps = false;
  // Wall time: the same run on the problem itself (no counters), a fresh stepper and controller each repeat.
  std::vector<double> seconds;
  ode::EmbeddedStepper<P> timed(*a.choice.table);  // its coefficients read once, as Odeint's are constants
  for (int rep = 0; rep < spec.repeats; ++rep) {
    timed.reset();
    auto y = p.initial();
    const auto t0 = std::chrono::steady_clock::now();
    with_controller(a, tol, [&](auto& c) {
      ode::integrate_times(timed, c, y, times, dt0, p, limits, [](std::size_t, const auto&) {}, [&] { poll(); });
    });
    const auto t1 = std::chrono::steady_clock::now();
    volatile double sink = y.q[0];
    static_cast<void>(sink);
    seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  set_seconds(r, std::move(seconds));
  return r;
}

}  // namespace

void adaptive_task(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res) {
  const SpecAdaptive& a = spec.adaptive[t.integrator];
  const double tol = spec.tolerances[static_cast<std::size_t>(t.steps)];
  with_problem<double>(spec.problem, spec.params, [&](const auto& p) { res.adaptive_runs[t.slot] = measure_adaptive(p, spec, a, tol, ctx); });
}

}  // namespace study::engine
