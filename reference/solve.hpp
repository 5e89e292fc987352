#pragma once
/// The reference solver: Boost.Odeint's controlled Bulirsch–Stoer in float128, landing exactly on every requested
/// time by steps of its own (no interpolation).  This header is the only one in the project
/// that includes Odeint; only reference/*.cpp include it.
///
/// The system is integrated in scaled variables Q = q/L, V = v T/L, tau = t/T (T = period/2 pi, L the
/// largest of |q0|, |v0| T, |a0| T^2), so that Odeint's single absolute tolerance means the same for
/// positions and velocities whatever the units (earth-moon is in metres and seconds).

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/float128.hpp>

// Boost 1.74's Odeint cannot find the value type of a Boost.Multiprecision number (fixed upstream in 1.85):
// full specialisations for the two it is used with (float128; cpp_bin_float_50 in reference/wide.cpp), declared
// before Odeint's own headers (a partial one for every number would be ambiguous with Odeint's own).
namespace boost::numeric::odeint::detail {
template <typename S, typename Enabler>
struct extract_value_type;
template <>
struct extract_value_type<boost::multiprecision::float128, void> {
  typedef boost::multiprecision::float128 type;
};
template <>
struct extract_value_type<boost::multiprecision::cpp_bin_float_50, void> {
  typedef boost::multiprecision::cpp_bin_float_50 type;
};
}  // namespace boost::numeric::odeint::detail

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/math/constants/constants.hpp>

#include "integrators/method.hpp"
#include "reference/decimal.hpp"
#include "reference/reference.hpp"
#include "study/common/interrupt.hpp"

namespace reference::detail {

/// States at the requested times, and the cost.
template <class R>
struct SolutionIn {
  std::vector<std::vector<R>> q, v;
  std::uint64_t evaluations = 0;
};
using Solution = SolutionIn<Real>;

/// A solve that did not reach the last requested time.
struct SolveFailure : std::runtime_error {
  SolveFailure(const std::string& what, Real reached) : std::runtime_error(what), t_reached(reached) {}
  Real t_reached;
};

/// A time in the failure's type (float128): a wider type's rounded through long double (messages only).
template <class R>
Real time_of(const R& t) {
  if constexpr (std::is_same_v<R, Real>) return t;
  else return Real(static_cast<long double>(t));
}

/// Integrates p from the state (q0, v0) at t = 0 to each of `times` (increasing, >= 0) with tolerance tol, in
/// p's own scalar type (float128 for the references; a wider one for the tests that check their bounds).
template <class P>
SolutionIn<typename P::real_type> solve(const P& p, const typename P::State& start,
                                        const std::vector<typename P::real_type>& times, typename P::real_type tol,
                                        std::uint64_t max_steps, const WorkBudget& budget = {}) {
  namespace odeint = boost::numeric::odeint;
  using Real = typename P::real_type;
  constexpr std::size_t D = P::dim;
  using X = std::array<Real, 2 * D>;

  typename P::Vec a0;
  ode::force(p, start.q, start.v, a0);
  const Real T = p.period() / boost::math::constants::two_pi<Real>();
  Real L = 0;
  for (std::size_t i = 0; i < D; ++i) L = std::max({L, abs(start.q[i]), abs(start.v[i]) * T, abs(a0[i]) * T * T});
  if (!(L > 0)) L = 1;

  SolutionIn<Real> out;
  Real reached = 0;
  auto system = [&](const X& x, X& dx, Real tau) {
    study::stop_if_interrupted();  // a signal stops even one long solve
    reached = std::max(reached, tau * T);
    ++out.evaluations;
    if (!budget.take())  // the estimate before the solve was too low: the work limit holds anyway
      throw SolveFailure("it reached the work limit (--max-work) that the request's reference solves share, after " +
                         std::to_string(out.evaluations) + " force evaluations of its own", time_of(reached));
    typename P::Vec q, v, a;
    for (std::size_t i = 0; i < D; ++i) q[i] = x[i] * L, v[i] = x[D + i] * (L / T), dx[i] = x[D + i];
    ode::force(p, q, v, a);
    for (std::size_t i = 0; i < D; ++i) dx[D + i] = a[i] * (T * T / L);
  };

  X x;
  for (std::size_t i = 0; i < D; ++i) x[i] = start.q[i] / L, x[D + i] = start.v[i] * (T / L);
  std::vector<Real> taus;
  const bool from_zero = times.empty() || times.front() != 0;
  if (from_zero) taus.push_back(0);  // the solve starts at its first time
  for (const Real& t : times) taus.push_back(t / T);

  std::size_t seen = 0;
  auto record = [&](const X& y, Real tau) {
    if (seen++ == 0 && from_zero) return;  // the prepended t = 0
    std::vector<Real> q(D), v(D);
    for (std::size_t i = 0; i < D; ++i) {
      q[i] = y[i] * L, v[i] = y[D + i] * (L / T);
      if (!isfinite(q[i]) || !isfinite(v[i]))
        throw SolveFailure("the state is not finite at t = " + to_decimal(time_of(Real(tau * T))), time_of(Real(tau * T)));
    }
    out.q.push_back(std::move(q));
    out.v.push_back(std::move(v));
  };

  // Free steps, and each requested time reached from the last free step before it by a step of the stepper's own
  // choosing on a copy, in time scaled so that it ends on the time.  integrate_times cut the free step to land,
  // and Odeint's Bulirsch–Stoer resets itself (its order back to 4) on any step size it did not suggest: every
  // requested time then cost several low-order steps (the harmonic oscillator at 699 times: 585 evaluations per
  // time).  The system is autonomous, so a step H of x' = s f(x) is a step s H of x' = f(x).
  odeint::bulirsch_stoer<X, Real> stepper{tol, tol};
  const Real eps = std::numeric_limits<Real>::epsilon();  // times this close are the same time, as in integrate_times
  std::uint64_t steps = 0;  // since the last requested time
  int failed = 0;           // in a row
  Real scale = 1, from = 0;  // the attempt's real length per unit of the stepper's, and its start
  auto scaled = [&](const X& y, X& dy, Real tau) {
    system(y, dy, from + (tau - from) * scale);
    for (std::size_t i = 0; i < 2 * D; ++i) dy[i] *= scale;
  };
  // One attempt of step h from (y, tau), of real length h * scale; h becomes the stepper's next suggestion.
  auto attempt = [&](odeint::bulirsch_stoer<X, Real>& st, X& y, Real& tau, Real& h) -> bool {
    if (steps++ >= max_steps)
      throw SolveFailure("Max number of iterations exceeded (" + std::to_string(max_steps) + ").", time_of(Real(tau * T)));
    from = tau;
    const Real length = h * scale;
    if (st.try_step(scaled, y, tau, h) == odeint::success) {
      failed = 0;
      tau = from + length;
      return true;
    }
    if (++failed > 500)
      throw SolveFailure("Max number of iterations exceeded (500). A new step size was not found.", time_of(Real(tau * T)));
    return false;
  };
  try {
    Real tau = taus.front(), dtau = Real(1) / 64;
    for (const Real& target : taus) {
      while (target - (tau + dtau) > -eps) attempt(stepper, x, tau, dtau);  // the step ends at or before target
      if (abs(target - tau) <= eps) {
        record(x, target);
      } else {  // tau < target < tau + dtau
        auto side = stepper;
        X y = x;
        Real t = tau, h = dtau;
        while (target - t > eps) {
          // A step the stepper suggests that would pass the time is shrunk onto it; after a rejection the
          // scale stays, so that the shorter step the stepper asks for is a shorter real step too.
          const bool aimed = target - t < h * scale;
          if (aimed) scale = (target - t) / h;
          if (attempt(side, y, t, h) && aimed) t = target;  // that step's end, whatever the rounding
        }
        scale = 1;
        record(y, target);
      }
      steps = 0;
    }
  } catch (const SolveFailure&) {
    throw;
  } catch (const study::Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    throw SolveFailure(e.what(), time_of(reached));
  }
  return out;
}

}  // namespace reference::detail
