#pragma once
/// Implicit Runge–Kutta methods (collocation) on x' = v, v' = a(x, v), solved by fixed-point iteration
/// on the stage accelerations until the update reaches round-off (Hairer, Lubich, Wanner, GNI §VIII.6:
/// iterate until the increment vanishes or stops decreasing -- here: stops decreasing within 100 eps of the
/// stage size; an increment that stops decreasing above that means the iteration does not contract, and
/// accepting it would return a step that is not the method's).  Cost: stages × iterations evaluations.
/// Fixed-point iteration contracts while h^2 |da/dq| (and h |da/dv|) is small; beyond that the step
/// throws ConvergenceError naming h and t, never returns an unconverged result.

#include <array>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>

#include "integrators/method.hpp"

namespace ode {

/// Butcher tableau of an S-stage implicit method.
template <class Real, std::size_t S>
struct Tableau {
  std::array<std::array<Real, S>, S> a{};
  std::array<Real, S> b{}, c{};
};

/// Stepper for a method with a static `tableau<Real>()`.
template <class Method, std::size_t S>
struct ImplicitRk {
  static constexpr int max_iterations = 100;

  template <Problem P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    explicit Stepper(const Method&) : t_(Method::template tableau<Real>()) {}

    void step(typename P::State& s, Real h, const P& p) {
      using std::abs;
      using std::isfinite;
      const Real eps = std::numeric_limits<Real>::epsilon();
      std::array<Vec, S> acc{}, x, v;  // stage accelerations (start at 0), stage positions, velocities
      Real previous = std::numeric_limits<Real>::infinity();
      for (int it = 1;; ++it) {
        stage_values(s, h, acc, x, v);
        Real change = 0, scale = 0;
        for (std::size_t i = 0; i < S; ++i) {
          Vec fresh;
          force(p, x[i], v[i], fresh);
          for (std::size_t k = 0; k < P::dim; ++k) {
            change = std::max<Real>(change, abs(fresh[k] - acc[i][k]));
            scale = std::max<Real>(scale, abs(fresh[k]));
          }
          acc[i] = fresh;
        }
        if (!isfinite(change)) fail(s, h, it, change, scale, "the stage values are not finite");
        if (change <= 4 * eps * scale) break;  // at round-off
        if (change >= previous) {
          if (change <= 100 * eps * scale) break;  // no longer decreasing, within round-off noise: converged
          fail(s, h, it, change, scale, "the iteration does not contract");
        }
        if (it >= max_iterations) fail(s, h, it, change, scale, "too many iterations");
        previous = change;
      }
      stage_values(s, h, acc, x, v);
      for (std::size_t i = 0; i < S; ++i) {
        drift(s.q, v[i], h * t_.b[i]);
        kick(s.v, acc[i], h * t_.b[i]);
      }
      s.t += h;
    }
    void reset() {}

   private:
    // V_i = v + h sum_j a_ij A_j,  X_i = x + h sum_j a_ij V_j.
    void stage_values(const typename P::State& s, Real h, const std::array<Vec, S>& acc,
                      std::array<Vec, S>& x, std::array<Vec, S>& v) const {
      for (std::size_t i = 0; i < S; ++i) {
        v[i] = s.v;
        for (std::size_t j = 0; j < S; ++j) kick(v[i], acc[j], h * t_.a[i][j]);
      }
      for (std::size_t i = 0; i < S; ++i) {
        x[i] = s.q;
        for (std::size_t j = 0; j < S; ++j) drift(x[i], v[j], h * t_.a[i][j]);
      }
    }

    [[noreturn]] static void fail(const typename P::State& s, Real h, int it, Real change, Real scale,
                                  const char* why) {
      std::ostringstream msg;
      msg.precision(6);
      msg << Method{}.info().id << ": fixed-point iteration did not converge (" << why << ") after " << it
          << " iterations at t = " << static_cast<double>(s.t) << " with h = " << static_cast<double>(h)
          << " (last update " << static_cast<double>(change) << ", force scale " << static_cast<double>(scale)
          << "); it contracts only while h^2 |da/dq| and h |da/dv| are well below 1: reduce h";
      throw ConvergenceError(msg.str());
    }

    Tableau<Real, S> t_;
  };
};

}  // namespace ode
