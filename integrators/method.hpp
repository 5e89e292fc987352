#pragma once
/// What every integrator declares about itself, the force concepts, and the stepper factory.

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "integrators/state.hpp"

namespace ode {

/// Metadata an integrator declares; the tests hold every method to it.
struct Info {
  std::string_view id;          ///< stable name (DESIGN.md §3)
  std::string_view summary;     ///< one line: order, structure, cost
  int order = 0;                ///< global order p
  int local_order = 0;          ///< order of the one-step error; 0 means p + 1 (see local_order_of)
  int evals_per_step = 0;       ///< force evaluations per step in steady state (per iteration if implicit)
  int startup_evals = 0;        ///< extra evaluations on the first step (FSAL cache, multistep start)
  bool symplectic = false;
  bool symmetric = false;       ///< time-reversible: N steps of h then N of -h return to the start
  bool implicit = false;        ///< cost per step depends on the iteration count
  bool position_force_only = false;  ///< needs a(q) only; refuses velocity-dependent forces
  int substeps = 1;             ///< steps of h/k taken per step of h
  std::string_view start{};     ///< starting procedure of a multistep method
  std::string_view source{};    ///< where the formula and coefficients come from
};

/// The order of the error of one step from exact data: p + 1 unless the method says otherwise.
constexpr int local_order_of(const Info& i) { return i.local_order ? i.local_order : i.order + 1; }

/// A problem whose acceleration depends on position only: a(q).
template <class P>
concept PositionForce = requires(const P& p, const typename P::Vec& q, typename P::Vec& a) {
  p.accel(q, a);
};

/// A problem whose acceleration depends on position and velocity: a(q, v).
template <class P>
concept VelocityForce = requires(const P& p, const typename P::Vec& q, const typename P::Vec& v,
                                 typename P::Vec& a) {
  p.accel(q, v, a);
};

/// Any problem an integrator can advance.
template <class P>
concept Problem = PositionForce<P> || VelocityForce<P>;

/// a = a(q, v), whichever form the problem provides.
template <Problem P>
inline void force(const P& p, const typename P::Vec& q, [[maybe_unused]] const typename P::Vec& v,
                  typename P::Vec& a) {
  if constexpr (PositionForce<P>)
    p.accel(q, a);
  else
    p.accel(q, v, a);
}

/// A problem that gives its force's Jacobian analytically: p.jacobian(q, v, dadq, dadv).
template <class P>
concept HasJacobian = requires(const P& p, const typename P::Vec& q, const typename P::Vec& v,
                               Jacobian<typename P::real_type, P::dim>& j) {
  p.jacobian(q, v, j, j);
};

/// A problem that wants to hear of every iteration of an implicit method (the study counts them).
template <class P>
concept CountsIterations = requires(const P& p) { p.count_iteration(); };

/// d a / d q and d a / d v at (q, v): the problem's own, else forward differences in the working precision with
/// steps sqrt(eps) times the component (at least sqrt(eps) times the largest one), dim (or 2 dim for a
/// velocity-dependent force) evaluations on top of a = a(q, v), which the caller passes in.
template <Problem P>
void force_jacobian(const P& p, const typename P::Vec& q, const typename P::Vec& v, const typename P::Vec& a,
                    Jacobian<typename P::real_type, P::dim>& dadq, Jacobian<typename P::real_type, P::dim>& dadv) {
  using Real = typename P::real_type;
  if constexpr (HasJacobian<P>) {
    p.jacobian(q, v, dadq, dadv);
  } else {
    using std::abs;
    using std::sqrt;
    const Real root_eps = sqrt(std::numeric_limits<Real>::epsilon());
    auto column = [&](const typename P::Vec& x, bool velocity, Jacobian<Real, P::dim>& j) {
      Real largest = 0;
      for (const auto& c : x) largest = std::max<Real>(largest, abs(c));
      for (std::size_t k = 0; k < P::dim; ++k) {
        typename P::Vec shifted = x, da;
        const Real step = root_eps * std::max<Real>(abs(x[k]), largest > 0 ? largest : Real(1));
        shifted[k] += step;
        const Real actual = shifted[k] - x[k];  // the step the arithmetic really took
        force(p, velocity ? q : shifted, velocity ? shifted : v, da);
        for (std::size_t i = 0; i < P::dim; ++i) j[i][k] = (da[i] - a[i]) / actual;
      }
    };
    column(q, false, dadq);
    if constexpr (VelocityForce<P>) column(v, true, dadv);
    else for (auto& row : dadv) row.fill(Real(0));
  }
}

/// Asked between the blocks of a long computation inside one step (an implicit method's factorisation: a 64-stage
/// table on 16 bodies factors a 3072 x 3072 matrix, seconds a step): a program that must stop at once sets it to a
/// function that throws when it should (the study: its interrupt flag).  Null: never asked.
inline std::atomic<void (*)()> stop_hook{nullptr};
inline void poll_stop() {
  if (void (*f)() = stop_hook.load(std::memory_order_relaxed)) f();
}

/// Thrown when an implicit method's iteration does not converge.
struct ConvergenceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Methods with no memory between steps write a static `step`; this gives them the Stepper interface.
template <class Method, class P>
class StatelessStepper {
 public:
  using Real = typename P::real_type;
  explicit StatelessStepper(const Method& m) : method_(m) {}
  void step(typename P::State& s, Real h, const P& p) { method_.step(s, h, p); }
  void reset() {}

 private:
  Method method_;
};

template <class M, class P>
concept HasStepper = requires { typename M::template Stepper<P>; };

/// A method whose Info is known only at run time (a coefficient table): it declares `runtime_info = true`.
template <class M>
concept RuntimeInfo = requires { requires M::runtime_info; };

/// Whether method M can integrate problem P (splitting methods need a position-only force).  A method known at
/// run time only may: its stepper refuses a problem it cannot integrate when it is made.
template <class M, class P>
inline constexpr bool accepts = [] {
  if constexpr (RuntimeInfo<M>) return true;
  else return PositionForce<P> || !M{}.info().position_force_only;
}();

/// The object that advances P with method m: `s.step(state, h, problem)`; `s.reset()` forgets history.
template <class P, class M>
auto make_stepper(const M& m) {
  static_assert(accepts<M, P>, "this integrator needs a position-only force a(q); the problem's force depends on velocity");
  if constexpr (HasStepper<M, P>)
    return typename M::template Stepper<P>(m);
  else
    return StatelessStepper<M, P>(m);
}

/// n steps of h: the stepper's own `advance` where it has one (a coefficient table: its coefficients and the state
/// stay in locals across the steps), else n calls of `step`; the same bits either way.  Timed loops call this.
template <class S, class P>
void advance(S& stepper, typename P::State& s, typename P::real_type h, const P& p, long n) {
  if constexpr (requires { stepper.advance(s, h, p, n); })
    stepper.advance(s, h, p, n);
  else
    for (long k = 0; k < n; ++k) stepper.step(s, h, p);
}

}  // namespace ode
