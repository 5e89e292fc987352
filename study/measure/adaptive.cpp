// Stage 3, adaptive runs: one embedded pair under its controller at one tolerance (eps_abs = eps_rel = tol), landing on
// the spec's output times (integrators/adaptive.hpp), its errors against the reference there, its counts and time.
#include "study/measure/adaptive.hpp"
#include "study/measure/adaptive_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "integrators/adaptive.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/names.hpp"
#include "study/measure/measure.hpp"
#include "study/measure/stepper.hpp"
#include "study/problems/all.hpp"
#include "study/problems/counted.hpp"
#include "study/registry/extensions.hpp"

namespace study::engine {
namespace {

using namespace adaptive_detail;

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

/// Why a run stopped before its end, with the number of its limit.
std::string stop_reason(const Spec& spec, const SpecAdaptive& a, const ode::AdaptiveStats& st, const ode::AdaptiveLimits& limits) {
  const std::string cause = controller_cause(a, st.h_max);
  switch (st.stop) {
    case ode::AdaptiveStop::step_limit: return step_limit_reason(spec, st.t_reached) + cause;
    case ode::AdaptiveStop::underflow:
      return fmt::format("the step fell below the resolution of t = {:.6g} (a singularity, or a tolerance below round-off)", st.t_reached) + cause;
    case ode::AdaptiveStop::rejections: return fmt::format("{} rejected steps in a row at t = {:.6g}", limits.max_rejections, st.t_reached) + cause;
    default: return fmt::format("the state left the finite range after t = {:.6g}", st.t_reached) + cause;
  }
}

/// What the counted runs show the driver: the state at each output time (inside a free run's steps too), and (for a
/// long run) every accepted step.  One type for both, so that one loop per problem is compiled for them.
template <class State>
struct RunObserver {
  static constexpr bool between = true;  // the timed runs' observer does not ask: their steps to the times are not their cost
  std::function<void(std::size_t, const State&)> at_time;
  std::function<void(const State&)> on_accept;  ///< empty: not asked
  void operator()(std::size_t j, const State& s) const { at_time(j, s); }
  void accepted(const State& s) const {
    if (on_accept) on_accept(s);
  }
};

/// The counted run of the pair under its controller (the general loop, every controller through its base class:
/// not timed, so one loop per problem serves them all; the tests hold this path to Odeint's, bit for bit, under its
/// controller).
template <class P>
ode::AdaptiveStats counted_run(const Counted<P>& counted, const SpecAdaptive& a, double tol, const std::vector<double>& times, double dt0,
                               const ode::AdaptiveLimits& limits, RunObserver<typename P::State>& observe) {
  ode::EmbeddedStepper<Counted<P>> stepper(*a.choice.table);
  auto x = counted.initial();
  InterruptPoll poll;
  return with_controller(a, tol, [&](auto& control) {
    ode::StepController& any = control;
    return ode::integrate_times<ode::Loop::general>(stepper, any, x, times, dt0, counted, limits, observe, poll);
  });
}

/// The pair's long energy run at spec.energy_tol (a conservative problem): landing on long_run_times, the energy error
/// of every accepted step.
template <class P>
void long_run(const P& p, const Spec& spec, const SpecAdaptive& a, const Context& ctx, EnergyLong& e) {
  const std::vector<double> times = long_run_times(spec);
  ode::AdaptiveLimits limits;
  limits.max_steps = spec.adaptive_max_steps;
  limits.blow_up = 1e100 * std::max(ctx.ref.q_scale, ctx.ref.v_scale);
  long start_evals = 0;
  const double dt0 = first_step(p, a, spec.energy_tol, times, start_evals);
  LongRecord record(times, e, p.energy(p.initial()));
  RunObserver<typename P::State> observe{[](std::size_t, const auto&) {}, [&](const auto& s) { record.step(s.t, p.energy(s)); }};
  const ode::AdaptiveStats st = counted_run(Counted<P>(p), a, spec.energy_tol, times, dt0, limits, observe);
  record.finish(spec, st.accepted, st.t_reached);
  if (st.stop != ode::AdaptiveStop::none)
    e.status = status_of(st.stop), e.diverged_t = st.t_reached,
    e.reason = st.stop == ode::AdaptiveStop::step_limit ? long_step_limit_reason(spec, st.t_reached) + controller_cause(a, st.h_max)
                                                           : stop_reason(spec, a, st, limits);
}

/// The wall time of the pair's run on the problem itself (no counters), a fresh stepper and controller each repeat.
template <class P>
void time_adaptive(const P& p, const Spec& spec, const SpecAdaptive& a, double tol, const std::vector<double>& times, double dt0,
                   ode::AdaptiveLimits limits, AdaptiveRun& r) {
  InterruptPoll poll;
  limits.record_steps = false;
  std::vector<double> seconds;
  ode::EmbeddedStepper<P> timed(*a.choice.table);  // its coefficients read once, as Odeint's are constants
  for (int rep = 0; rep < spec.repeats; ++rep) {
    timed.reset();
    auto y = p.initial();
    const auto t0 = std::chrono::steady_clock::now();
    with_controller(a, tol, [&](auto& c) {
      // The kernels under Odeint's controller only, where `study bench` holds our time to Odeint's; the general loop
      // under the others (the kernels for every controller were a third of this file's build).
      constexpr auto loop = std::is_same_v<std::decay_t<decltype(c)>, ode::OdeintController> ? ode::Loop::kernels : ode::Loop::general;
      ode::integrate_times<loop>(timed, c, y, times, dt0, p, limits, [](std::size_t, const auto&) {}, [&] { poll(); });
    });
    const auto t1 = std::chrono::steady_clock::now();
    volatile double sink = y.q[0];
    static_cast<void>(sink);
    seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  set_seconds(r, std::move(seconds));
}

/// The pair's run at tolerance tol: its counted run (errors, energy, counts), its round-off, its time; with
/// `time_only` (the rest from the run cache), its time.
template <class P>
void measure_adaptive(const P& p, const Spec& spec, const SpecAdaptive& a, double tol, const Context& ctx, AdaptiveRun& r, bool time_only) {
  const std::vector<double> times = spec.adaptive_times();
  ode::AdaptiveLimits limits;
  limits.max_steps = spec.adaptive_max_steps;
  limits.blow_up = 1e100 * std::max(ctx.ref.q_scale, ctx.ref.v_scale);
  limits.land = spec.adaptive_cut;
  long start_evals = 0;
  const double dt0 = first_step(p, a, tol, times, start_evals);
  if (time_only) return time_adaptive(p, spec, a, tol, times, dt0, limits, r);
  // The counted run: errors at the output times, energy, counts.
  const Counted<P> counted(p);
  InterruptPoll poll;
  limits.record_steps = true;
  std::vector<typename P::State> at;  // the states at the output times, for the round-off replay
  RunObserver<typename P::State> observe{[&](std::size_t j, const auto& s) { observe_at(p, times, j, s, ctx, r), at.push_back(s); }, {}};
  const ode::AdaptiveStats st = counted_run(counted, a, tol, times, dt0, limits, observe);
  r.accepted = st.accepted, r.rejected = st.rejected, r.cut = st.cut;
  // Its own steps' evaluations: those of the steps that observed the output times between them are the study's.
  r.force_evals = counted.evaluations() - static_cast<std::uint64_t>(st.side_evals) + static_cast<std::uint64_t>(start_evals);
  r.t_reached = st.t_reached;
  if (st.h_max > 0) r.h_min = st.h_min, r.h_max = st.h_max;
  r.status = status_of(st.stop);
  if (st.stop != ode::AdaptiveStop::none) {
    r.global = r.position = r.max = r.energy_final_rel = not_measured;
    r.reason = stop_reason(spec, a, st, limits);
    return;
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
      // A free run observed this time by a step to it from the last step's end: the same step, on a copy.
      typename PL::State there = y;
      if (st.side_steps[j] > 0) {
        auto side = ode::make_stepper<PL>(ode::TableMethod{a.choice.table});
        side.step(there, static_cast<long double>(st.side_steps[j]), pl);
      }
      std::pair<std::vector<long double>, std::vector<long double>> state;
      for (std::size_t i = 0; i < P::dim; ++i) state.first.push_back(there.q[i]), state.second.push_back(there.v[i]);
      const double d = relative_error(at[j], state, ctx.ref).first;
      r.roundoff_max = std::max(r.roundoff_max, d);
      if (j + 1 == at.size()) r.roundoff = d;
    }
  }
  time_adaptive(p, spec, a, tol, times, dt0, limits, r);
}

}  // namespace

void adaptive_pilots(Spec& spec) {
  if (spec.adaptive.empty() || spec.tolerances.empty()) return;
  const double tol = spec.tolerances.front();
  const std::vector<double> times{0.0, spec.t_end};
  for (SpecAdaptive& a : spec.adaptive) {
    SpecAdaptive pilot = a;  // Odeint's peers: our table of the same coefficients under Odeint's controller takes their steps
    if (!pilot.choice.table) pilot.choice.table = a.peer_table, pilot.controller = "odeint";
    a.pilot_tries = 0, a.pilot_stop.clear();
    if (!pilot.choice.table) continue;
    with_problem<double>(spec.problem, spec.params, [&](const auto& p) {
      using P = std::decay_t<decltype(p)>;
      ode::AdaptiveLimits limits;
      limits.max_steps = std::min(spec.adaptive_max_steps, 20000L);
      limits.land = false;
      long start_evals = 0;
      const double dt0 = first_step(p, pilot, tol, spec.adaptive_times(), start_evals);  // as the runs start
      RunObserver<typename P::State> observe{[](std::size_t, const auto&) {}, {}};
      const ode::AdaptiveStats st = counted_run(Counted<P>(p), pilot, tol, times, dt0, limits, observe);
      if (st.stop == ode::AdaptiveStop::none) a.pilot_tries = static_cast<double>(std::max(1L, st.accepted + st.rejected));
      else if (st.stop == ode::AdaptiveStop::step_limit)
        a.pilot_stop = fmt::format("its pilot run at tol.max reached t = {:.6g} of {} in {} tries", st.t_reached, shortest_decimal(spec.t_end),
                                   limits.max_steps);
      else
        a.pilot_stop = fmt::format("its pilot run at tol.max stopped at t = {:.6g}", st.t_reached);
    });
  }
}

void adaptive_task(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res) {
  const SpecAdaptive& a = spec.adaptive[t.integrator];
  if (t.kind == TaskKind::adaptive_energy) {  // its long energy run: not cached, as a fixed-step long run is not
    EnergyLong e;
    e.integrator = a.label, e.tol = spec.energy_tol;
    if (!a.odeint.empty()) odeint_peer_long_run(spec, a, ctx, e);
    else with_problem<double>(spec.problem, spec.params, [&](const auto& p) {
      if constexpr (std::decay_t<decltype(p)>::conservative) long_run(p, spec, a, ctx, e);  // the spec refuses the others
    });
    res.energy_long[t.slot] = std::move(e);
    return;
  }
  const double tol = spec.tolerances[static_cast<std::size_t>(t.steps)];
  // A run is a deterministic function of its key (this executable, the pair, its controller, the problem, the output
  // times, the tolerance, the reference): from the run cache the same bytes, its wall time measured again.
  const std::string key = ctx.run_cache ? adaptive_key(a, tol, spec, ctx) : std::string();
  std::optional<AdaptiveRun> cached = !key.empty() && ctx.reuse_runs ? load_adaptive_run(*ctx.run_cache, key) : std::nullopt;
  AdaptiveRun r = cached ? *cached : AdaptiveRun{};
  r.integrator = a.label, r.id = a.choice.id, r.controller = a.controller, r.tol = tol;
  const bool time_only = cached.has_value();
  if (!time_only || r.status == "ok") {
    if (!a.odeint.empty()) measure_odeint_peer(spec, a, tol, ctx, r, time_only);
    else with_problem<double>(spec.problem, spec.params, [&](const auto& p) { measure_adaptive(p, spec, a, tol, ctx, r, time_only); });
  }
  if (!key.empty() && !cached) store_adaptive_run(*ctx.run_cache, key, r);
  r.reused = time_only;
  ++runs_finished();
  res.adaptive_runs[t.slot] = std::move(r);
}

}  // namespace study::engine
