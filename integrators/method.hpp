#pragma once
/// What every integrator declares about itself, the force concepts, and the stepper factory.

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

/// Whether method M can integrate problem P (splitting methods need a position-only force).
template <class M, class P>
inline constexpr bool accepts = PositionForce<P> || !M{}.info().position_force_only;

/// The object that advances P with method m: `s.step(state, h, problem)`; `s.reset()` forgets history.
template <class P, class M>
auto make_stepper(const M& m) {
  static_assert(accepts<M, P>, "this integrator needs a position-only force a(q); the problem's force depends on velocity");
  if constexpr (HasStepper<M, P>)
    return typename M::template Stepper<P>(m);
  else
    return StatelessStepper<M, P>(m);
}

}  // namespace ode
