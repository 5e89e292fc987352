#pragma once
/// Boost.Odeint's controlled steppers (make_controlled over runge_kutta_dopri5, runge_kutta_cash_karp54,
/// runge_kutta_fehlberg78) run by Odeint's own integrate_times: the peer our adaptive runs are compared with, step
/// for step in the tests and by count and time in the work–precision study.  Here because reference/ is the only
/// code that includes Odeint.

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

// Odeint's error steppers leave their work arrays uninitialised until the first step, and make_controlled copies
// one: GCC 12 warns at the copy, in Odeint's header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/numeric/odeint.hpp>
#pragma GCC diagnostic pop

#include "integrators/adaptive.hpp"
#include "integrators/method.hpp"

namespace reference::odeint {

/// One try of a controlled stepper: where, its step, and whether it was accepted.
struct Try {
  double t = 0, dt = 0;
  bool accepted = false;
};

/// What an Odeint controlled run did.
template <class P>
struct ControlledRun {
  std::vector<Try> tries;  ///< every try, when asked for
  long accepted = 0, rejected = 0, evals = 0;
  long cut = 0;  ///< accepted steps cut short to land on an output time (counted as our driver counts them)
  double h_min = std::numeric_limits<double>::infinity(), h_max = 0;  ///< of the accepted steps the controller chose (not cut)
  long refused = 0;  ///< steps above max_dt, refused untried (Odeint counts them as failed; its non-FSAL steppers evaluate the start)
  std::vector<typename P::State> at_times;  ///< the state at each output time
  /// "" (reached the last time), "step-limit" (max_tries tries) or "rejections" (Odeint's failed_step_checker: 500 in a
  /// row), and where it stopped.
  std::string stop;
  double t_reached = 0;
};

/// Bounds of one run: at most max_tries tries (0: none), and poll() called at every force evaluation (it may throw
/// to interrupt: the exception leaves Odeint's loops).
struct ControlledLimits {
  long max_tries = 0;
  std::function<void()> poll;
  /// Called after every accepted step with the state (positions, then velocities) and its time: a long energy run's
  /// envelope of every step.
  std::function<void(const double*, double)> on_accept{};
  /// true: integrate_times, every step that would pass an output time cut to land on it.  false: integrate_adaptive,
  /// only the last step cut (to t_end), and each output time inside a step observed by a step of `observe_with` (our
  /// table of the same coefficients) from the step's start, not taken on.
  bool land = true;
  const ode::MethodTable* observe_with = nullptr;
};

namespace controlled_detail {

namespace oi = boost::numeric::odeint;

/// Forwards try_step to Odeint's controlled stepper, recording each try; integrate_times sees a controlled stepper.
/// Thrown by a Recorder at its try limit.
struct TryLimit {
  double t;
};

template <class C>
struct Recorder {
  using stepper_category = oi::controlled_stepper_tag;
  C* inner;
  std::vector<Try>* tries;
  long *accepted, *rejected, *refused, *cut;
  double *h_min, *h_max;
  double max_dt;
  long max_tries = 0;
  const std::function<void(const double*, double)>* on_accept = nullptr;
  /// integrate_times' own step before it is cut to reach the next time: its first step, then after a success the larger
  /// of it and the suggestion, after a failure the suggestion (Boost 1.74, integrate/detail/integrate_times.hpp).
  double uncut = 0;
  bool keeps_larger = true;  ///< integrate_times keeps the larger after a success; integrate_adaptive takes the suggestion
  template <class System, class State>
  oi::controlled_step_result try_step(System system, State& x, double& t, double& dt) {
    if (max_tries > 0 && *accepted + *rejected >= max_tries) throw TryLimit{t};
    const double t0 = t, dt0 = dt;
    const auto r = inner->try_step(system, x, t, dt);
    // A step above max_dt is refused before it is tried (dt set to max_dt, no evaluation): not a try.
    if (max_dt != 0 && dt0 - max_dt > std::numeric_limits<double>::epsilon()) return ++*refused, uncut = dt, r;
    if (tries) tries->push_back({t0, dt0, r == oi::success});
    ++*(r == oi::success ? accepted : rejected);
    // The step sizes the controller chose: not a step cut short to land on an output time (integrate_times tries
    // min(dt, time - t): one shorter than its dt), counted as our driver counts them.
    if (r == oi::success && dt0 < uncut) ++*cut;
    else if (r == oi::success) *h_min = std::min(*h_min, dt0), *h_max = std::max(*h_max, dt0);
    uncut = r == oi::success && keeps_larger ? std::max(uncut, dt) : dt;
    if (r == oi::success && on_accept && *on_accept) (*on_accept)(x.data(), t);
    return r;
  }
};

template <class Stepper, class P>
ControlledRun<P> run(const P& p, const std::vector<double>& times, double dt, double eps_abs, double eps_rel, double max_dt, bool record,
                     const ControlledLimits& limits) {
  constexpr std::size_t D = P::dim;
  using Flat = std::array<double, 2 * D>;
  ControlledRun<P> out;
  auto system = [&](const Flat& x, Flat& dxdt, double) {
    typename P::Vec q, v, a;
    for (std::size_t i = 0; i < D; ++i) q[i] = x[i], v[i] = x[D + i], dxdt[i] = x[D + i];
    if (limits.poll) limits.poll();
    ode::force(p, q, v, a);
    for (std::size_t i = 0; i < D; ++i) dxdt[D + i] = a[i];
    ++out.evals;
  };
  auto controlled = oi::make_controlled(eps_abs, eps_rel, max_dt, Stepper());
  Recorder<decltype(controlled)> recorder{&controlled, record ? &out.tries : nullptr, &out.accepted, &out.rejected, &out.refused, &out.cut, &out.h_min,
                                          &out.h_max, max_dt, limits.max_tries, &limits.on_accept, dt, limits.land};
  const auto start = p.initial();
  Flat x;
  for (std::size_t i = 0; i < D; ++i) x[i] = start.q[i], x[D + i] = start.v[i];
  auto state_of = [](const Flat& y, double t) {
    typename P::State s;
    for (std::size_t i = 0; i < D; ++i) s.q[i] = y[i], s.v[i] = y[D + i];
    s.t = t;
    return s;
  };
  try {
    if (limits.land) {
      oi::integrate_times(std::ref(recorder), system, x, times.begin(), times.end(), dt, [&](const Flat& y, double t) {
        out.at_times.push_back(state_of(y, out.t_reached = t));
      });
    } else {
      // integrate_adaptive shows the state before every step and at the end: each output time up to there is the state
      // itself where the run is on it, else inside the step just taken, observed by a step to it from that step's start.
      std::optional<ode::EmbeddedStepper<P>> side;  // none: a timed run, whose steps to the output times are not its cost
      if (limits.observe_with) side.emplace(*limits.observe_with);
      typename P::State before{};
      std::size_t j = 0;
      oi::integrate_adaptive(std::ref(recorder), system, x, times.front(), times.back(), dt, [&](const Flat& y, double t) {
        const typename P::State now = state_of(y, t);
        for (; j < times.size(); ++j) {
          if (std::abs(times[j] - t) <= 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t))) {
            out.at_times.push_back(now), out.at_times.back().t = times[j];
          } else if (times[j] < t && limits.observe_with) {
            typename P::State at;
            typename P::Vec eq, ev;
            side->reset();
            side->try_step(before, at, times[j] - before.t, p, eq, ev);
            at.t = times[j];
            out.at_times.push_back(at);
          } else if (times[j] >= t) {
            break;
          }
        }
        before = now;
        out.t_reached = t;
      });
    }
  } catch (const TryLimit& e) {
    out.stop = "step-limit", out.t_reached = e.t;
  } catch (const oi::step_adjustment_error&) {  // failed_step_checker: 500 rejections in a row
    out.stop = "rejections";
  }
  return out;
}

}  // namespace controlled_detail

/// Odeint's controlled stepper `which` ("dopri5", "cash-karp54", "fehlberg78") on p's initial state through
/// `times` with first step dt and make_controlled(eps_abs, eps_rel, max_dt, ...) (max_dt 0: none).
template <class P>
ControlledRun<P> run_controlled(const std::string& which, const P& p, const std::vector<double>& times, double dt, double eps_abs,
                                double eps_rel, double max_dt = 0, bool record = true, const ControlledLimits& limits = {}) {
  namespace oi = boost::numeric::odeint;
  using Flat = std::array<double, 2 * P::dim>;
  if (which == "dopri5") return controlled_detail::run<oi::runge_kutta_dopri5<Flat>>(p, times, dt, eps_abs, eps_rel, max_dt, record, limits);
  if (which == "cash-karp54")
    return controlled_detail::run<oi::runge_kutta_cash_karp54<Flat>>(p, times, dt, eps_abs, eps_rel, max_dt, record, limits);
  return controlled_detail::run<oi::runge_kutta_fehlberg78<Flat>>(p, times, dt, eps_abs, eps_rel, max_dt, record, limits);
}


}  // namespace reference::odeint
