#pragma once
/// Implicit Runge–Kutta methods (collocation) on x' = v, v' = a(x, v), their stage equations solved by
/// simplified Newton iterations (Hairer & Wanner, Solving ODEs II, §IV.8): the unknowns are the stage
/// accelerations A_i, with V_i = v + h sum_j a_ij A_j and X_i = x + h c_i v + h^2 sum_j (a^2)_ij A_j, so
///   F(A) = A - a(X(A), V(A)) = 0,   M = I - h^2 (a^2 (x) dadq) - h (a (x) dadv),
/// the force's Jacobian taken once per step at the start (the problem's own, else forward differences:
/// integrators/method.hpp).  Each iteration solves M dA = -F(A) with the LU factors of M.  Iterated until the
/// update reaches round-off (4 eps of the stage scale), or stops decreasing within 100 eps of it; an update
/// that stops decreasing above that means the iteration does not converge, and the step throws
/// ConvergenceError naming h and t (never returns an unconverged step).  A linear problem converges in one
/// iteration at any h, so the methods' A-stability shows in the stability scan.  Cost per step: one Jacobian,
/// stages evaluations per iteration, plus one to start.

#include <array>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

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
  static constexpr int max_iterations = 50;

  template <Problem P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    static constexpr std::size_t N = S * P::dim;  ///< unknowns: every stage's acceleration
    explicit Stepper(const Method&) : t_(Method::template tableau<Real>()), lu_(N * N), pivot_(N) {
      for (std::size_t i = 0; i < S; ++i)
        for (std::size_t j = 0; j < S; ++j)
          for (std::size_t k = 0; k < S; ++k) a2_[i][j] += t_.a[i][k] * t_.a[k][j];
    }

    void step(typename P::State& s, Real h, const P& p) {
      using std::abs;
      using std::isfinite;
      const Real eps = std::numeric_limits<Real>::epsilon();
      Vec a0;
      force(p, s.q, s.v, a0);
      Jacobian<Real, P::dim> dadq, dadv;
      force_jacobian(p, s.q, s.v, a0, dadq, dadv);
      factor(h, dadq, dadv);
      std::array<Vec, S> acc, x, v;
      acc.fill(a0);  // the start's acceleration at every stage
      std::array<Real, N> residual;
      Real previous = std::numeric_limits<Real>::infinity();
      for (int it = 1;; ++it) {
        if constexpr (CountsIterations<P>) p.count_iteration();
        stage_values(s, h, acc, x, v);
        for (std::size_t i = 0; i < S; ++i) {
          Vec fresh;
          force(p, x[i], v[i], fresh);
          for (std::size_t k = 0; k < P::dim; ++k) residual[i * P::dim + k] = fresh[k] - acc[i][k];  // -F(A)
        }
        solve(residual);
        Real change = 0, scale = 0;
        for (std::size_t i = 0; i < S; ++i)
          for (std::size_t k = 0; k < P::dim; ++k) {
            acc[i][k] += residual[i * P::dim + k];
            change = std::max<Real>(change, abs(residual[i * P::dim + k]));
            scale = std::max<Real>(scale, abs(acc[i][k]));
          }
        if (!isfinite(change)) fail(s, h, it, change, scale, "the stage values are not finite");
        if (change <= 4 * eps * scale) break;  // at round-off
        if (change >= previous) {
          if (change <= 100 * eps * scale) break;  // no longer decreasing, within round-off noise: converged
          fail(s, h, it, change, scale, "the Newton iteration does not contract");
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

    /// LU factors (partial pivoting) of M = I - h^2 (a^2 (x) dadq) - h (a (x) dadv), row-major in lu_.
    void factor(Real h, const Jacobian<Real, P::dim>& dadq, const Jacobian<Real, P::dim>& dadv) {
      using std::abs;
      constexpr std::size_t D = P::dim;
      for (std::size_t i = 0; i < S; ++i)
        for (std::size_t k = 0; k < D; ++k)
          for (std::size_t j = 0; j < S; ++j)
            for (std::size_t l = 0; l < D; ++l)
              lu_[(i * D + k) * N + j * D + l] =
                  Real(i == j && k == l ? 1 : 0) - h * h * a2_[i][j] * dadq[k][l] - h * t_.a[i][j] * dadv[k][l];
      for (std::size_t c = 0; c < N; ++c) {
        std::size_t best = c;
        for (std::size_t r = c + 1; r < N; ++r)
          if (abs(lu_[r * N + c]) > abs(lu_[best * N + c])) best = r;
        pivot_[c] = best;
        if (best != c)
          for (std::size_t k = 0; k < N; ++k) std::swap(lu_[c * N + k], lu_[best * N + k]);
        const Real d = lu_[c * N + c];
        if (d == 0) continue;  // singular: the iteration will not contract and says so
        for (std::size_t r = c + 1; r < N; ++r) {
          const Real f = lu_[r * N + c] /= d;
          for (std::size_t k = c + 1; k < N; ++k) lu_[r * N + k] -= f * lu_[c * N + k];
        }
      }
    }

    /// x <- M^-1 x with the factors: the row exchanges first (the factors' rows were exchanged whole), then
    /// forward and back substitution.
    void solve(std::array<Real, N>& x) const {
      for (std::size_t c = 0; c < N; ++c) std::swap(x[c], x[pivot_[c]]);
      for (std::size_t c = 0; c < N; ++c)
        for (std::size_t r = c + 1; r < N; ++r) x[r] -= lu_[r * N + c] * x[c];
      for (std::size_t c = N; c-- > 0;) {
        for (std::size_t k = c + 1; k < N; ++k) x[c] -= lu_[c * N + k] * x[k];
        x[c] /= lu_[c * N + c];
      }
    }

    [[noreturn]] static void fail(const typename P::State& s, Real h, int it, Real change, Real scale,
                                  const char* why) {
      std::ostringstream msg;
      msg.precision(6);
      msg << Method{}.info().id << ": Newton iteration did not converge (" << why << ") after " << it
          << " iterations at t = " << static_cast<double>(s.t) << " with h = " << static_cast<double>(h)
          << " (last update " << static_cast<double>(change) << ", stage scale " << static_cast<double>(scale)
          << "); the Jacobian from the start of the step no longer describes the stages: reduce h";
      throw ConvergenceError(msg.str());
    }

    Tableau<Real, S> t_;
    std::array<std::array<Real, S>, S> a2_{};  ///< a^2: the stage positions' weights of h^2 A
    std::vector<Real> lu_;
    std::vector<std::size_t> pivot_;
  };
};

}  // namespace ode
