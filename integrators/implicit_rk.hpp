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
#include <type_traits>
#include <utility>
#include <vector>

#include "integrators/method.hpp"

namespace ode {

/// Butcher tableau of an S-stage implicit method.
template <class Real, std::size_t S>
struct Tableau {
  std::array<std::array<Real, S>, S> a{};
  std::array<Real, S> b{}, c{};
};

/// Iterations after which a step gives up (ConvergenceError).
inline constexpr int newton_max_iterations = 50;

/// Stage count of a tableau known only at run time (a method table, integrators/table.hpp).
inline constexpr std::size_t dynamic_stages = 0;

/// S values (a std::array), or as many as the tableau has at run time (S = dynamic_stages: a std::vector).
template <class T, std::size_t S>
using StageArray = std::conditional_t<S == dynamic_stages, std::vector<T>, std::array<T, S>>;

/// The simplified Newton iteration of the stage equations (see the top of this file) for a tableau of S stages
/// (dynamic_stages: any number, given at run time).  Built-in and table methods share it.
template <Problem P, std::size_t S>
class ImplicitRkCore {
 public:
  static constexpr int max_iterations = newton_max_iterations;
  using Real = typename P::real_type;
  using Vec = typename P::Vec;

  ImplicitRkCore(const StageArray<StageArray<Real, S>, S>& a, const StageArray<Real, S>& b, std::string name)
      : a_(a), b_(b), name_(std::move(name)), s_(b.size()), n_(s_ * P::dim), lu_(n_ * n_), pivot_(n_) {
    resize(a2_, s_);
    for (auto& row : a2_) resize(row, s_), row = zeros(row);
    resize(work_.acc, s_), resize(work_.x, s_), resize(work_.v, s_), resize(work_.residual, n_);
    for (std::size_t i = 0; i < s_; ++i)
      for (std::size_t j = 0; j < s_; ++j)
        for (std::size_t k = 0; k < s_; ++k) a2_[i][j] += a_[i][k] * a_[k][j];
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
    // The stage values: with S known at compile time on the stack, where the compiler keeps them out of reach of
    // the state's stores (as members, every loop bound and value was read through `this`: 2 x slower on kepler).
    Work local;
    Work& w = S == dynamic_stages ? work_ : local;
    auto& acc = w.acc;
    std::fill(acc.begin(), acc.end(), a0);  // the start's acceleration at every stage
    Real previous = std::numeric_limits<Real>::infinity();
    for (int it = 1;; ++it) {
      if constexpr (CountsIterations<P>) p.count_iteration();
      stage_values(s, h, w);
      for (std::size_t i = 0; i < stages(); ++i) {
        Vec fresh;
        force(p, w.x[i], w.v[i], fresh);
        for (std::size_t k = 0; k < P::dim; ++k) w.residual[i * P::dim + k] = fresh[k] - acc[i][k];  // -F(A)
      }
      solve(w.residual);
      Real change = 0, scale = 0;
      for (std::size_t i = 0; i < stages(); ++i)
        for (std::size_t k = 0; k < P::dim; ++k) {
          acc[i][k] += w.residual[i * P::dim + k];
          change = std::max<Real>(change, abs(w.residual[i * P::dim + k]));
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
    stage_values(s, h, w);
    for (std::size_t i = 0; i < stages(); ++i) {
      drift(s.q, w.v[i], h * b_[i]);
      kick(s.v, acc[i], h * b_[i]);
    }
    s.t += h;
  }

 private:
  struct Work {
    StageArray<Vec, S> acc{}, x{}, v{};
    std::conditional_t<S == dynamic_stages, std::vector<Real>, std::array<Real, S * P::dim>> residual{};
  };
  /// Stages and unknowns: constants where S is, so that every loop over them has a constant bound.
  std::size_t stages() const {
    if constexpr (S == dynamic_stages) return s_;
    else return S;
  }
  std::size_t unknowns() const { return stages() * P::dim; }

  template <class T>
  static void resize(std::vector<T>& v, std::size_t n) { v.resize(n); }
  template <class T, std::size_t N>
  static void resize(std::array<T, N>&, std::size_t) {}
  template <class Row>
  static Row zeros(Row r) {
    std::fill(r.begin(), r.end(), Real(0));
    return r;
  }

  // V_i = v + h sum_j a_ij A_j,  X_i = x + h sum_j a_ij V_j.
  void stage_values(const typename P::State& s, Real h, Work& w) const {
    for (std::size_t i = 0; i < stages(); ++i) {
      w.v[i] = s.v;
      for (std::size_t j = 0; j < stages(); ++j) kick(w.v[i], w.acc[j], h * a_[i][j]);
    }
    for (std::size_t i = 0; i < stages(); ++i) {
      w.x[i] = s.q;
      for (std::size_t j = 0; j < stages(); ++j) drift(w.x[i], w.v[j], h * a_[i][j]);
    }
  }

  /// LU factors (partial pivoting) of M = I - h^2 (a^2 (x) dadq) - h (a (x) dadv), row-major in lu_.
  void factor(Real h, const Jacobian<Real, P::dim>& dadq, const Jacobian<Real, P::dim>& dadv) {
    using std::abs;
    constexpr std::size_t D = P::dim;
    const std::size_t N = unknowns();
    for (std::size_t i = 0; i < stages(); ++i)
      for (std::size_t k = 0; k < D; ++k)
        for (std::size_t j = 0; j < stages(); ++j)
          for (std::size_t l = 0; l < D; ++l)
            lu_[(i * D + k) * N + j * D + l] =
                Real(i == j && k == l ? 1 : 0) - h * h * a2_[i][j] * dadq[k][l] - h * a_[i][j] * dadv[k][l];
    for (std::size_t c = 0; c < N; ++c) {
      if (N > 64) poll_stop();  // a large system's column takes milliseconds (float128: far more); the poll, nanoseconds
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
  template <class X>
  void solve(X& x) const {
    const std::size_t N = unknowns();
    for (std::size_t c = 0; c < N; ++c) std::swap(x[c], x[pivot_[c]]);
    for (std::size_t c = 0; c < N; ++c)
      for (std::size_t r = c + 1; r < N; ++r) x[r] -= lu_[r * N + c] * x[c];
    for (std::size_t c = N; c-- > 0;) {
      for (std::size_t k = c + 1; k < N; ++k) x[c] -= lu_[c * N + k] * x[k];
      x[c] /= lu_[c * N + c];
    }
  }

  [[noreturn]] void fail(const typename P::State& s, Real h, int it, Real change, Real scale, const char* why) const {
    std::ostringstream msg;
    msg.precision(6);
    msg << name_ << ": Newton iteration did not converge (" << why << ") after " << it
        << " iterations at t = " << static_cast<double>(s.t) << " with h = " << static_cast<double>(h)
        << " (last update " << static_cast<double>(change) << ", stage scale " << static_cast<double>(scale)
        << "); the Jacobian from the start of the step no longer describes the stages: reduce h";
    throw ConvergenceError(msg.str());
  }

  StageArray<StageArray<Real, S>, S> a_;
  StageArray<Real, S> b_;
  std::string name_;
  std::size_t s_, n_;  ///< stages; unknowns (every stage's acceleration)
  StageArray<StageArray<Real, S>, S> a2_{};  ///< a^2: the stage positions' weights of h^2 A
  Work work_;  ///< the stage values of a run-time tableau (S = dynamic_stages); else unused
  std::vector<Real> lu_;
  std::vector<std::size_t> pivot_;
};

/// Stepper for a method with a static `tableau<Real>()` of S stages.
template <class Method, std::size_t S>
struct ImplicitRk {
  static constexpr int max_iterations = newton_max_iterations;

  template <Problem P>
  class Stepper : public ImplicitRkCore<P, S> {
   public:
    explicit Stepper(const Method&)
        : Stepper(Method::template tableau<typename P::real_type>()) {}
    void reset() {}

   private:
    explicit Stepper(const Tableau<typename P::real_type, S>& t)
        : ImplicitRkCore<P, S>(t.a, t.b, std::string(Method{}.info().id)) {}
  };
};

}  // namespace ode
