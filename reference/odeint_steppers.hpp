#pragma once
/// Boost.Odeint's fixed-step steppers on our problems, for side-by-side benchmarks (study/bench/).  Here because
/// reference/ is the only code that includes Odeint.  Each adapter advances an ode::State in place, with the
/// same state type (std::array<double, dim> for q and v) and the same force function as our integrators.
/// Odeint 1.74: velocity_verlet's order() says 1 (it is 2); symplectic_rkn_sb3a_m4_mclachlan.hpp is not in
/// odeint.hpp; the McLachlan steppers evaluate the force at a last stage whose weight is 0 (DESIGN.md §4).

#include <array>
#include <utility>

#include <boost/numeric/odeint.hpp>

namespace reference::odeint {

namespace oi = boost::numeric::odeint;

/// The problem as Odeint's systems: first order (x, v) -> (v, a) on one array of 2 dim, and a(q) alone.
template <class P>
struct Systems {
  using Vec = typename P::Vec;
  using Flat = std::array<double, 2 * P::dim>;
  const P& p;
  void first_order(const Flat& x, Flat& dxdt, double) const {
    Vec q, a;
    for (std::size_t i = 0; i < P::dim; ++i) q[i] = x[i], dxdt[i] = x[P::dim + i];
    p.accel(q, a);
    for (std::size_t i = 0; i < P::dim; ++i) dxdt[P::dim + i] = a[i];
  }
};

/// Odeint's explicit stepper (euler, runge_kutta4) on the flattened state.
template <class Stepper, class P>
class Explicit {
 public:
  using Flat = typename Systems<P>::Flat;
  explicit Explicit(const P& p) : sys_{p} {}
  void step(typename P::State& s, double h) {
    for (std::size_t i = 0; i < P::dim; ++i) x_[i] = s.q[i], x_[P::dim + i] = s.v[i];
    stepper_.do_step([this](const Flat& x, Flat& dxdt, double t) { sys_.first_order(x, dxdt, t); }, x_, s.t, h);
    for (std::size_t i = 0; i < P::dim; ++i) s.q[i] = x_[i], s.v[i] = x_[P::dim + i];
    s.t += h;
  }

 private:
  Systems<P> sys_;
  Stepper stepper_;
  Flat x_{};
};
template <class P>
using Euler = Explicit<oi::euler<std::array<double, 2 * P::dim>>, P>;
template <class P>
using RungeKutta4 = Explicit<oi::runge_kutta4<std::array<double, 2 * P::dim>>, P>;

/// Odeint's symplectic steppers on (q, v) directly: the simple symplectic system a(q).
template <class Stepper, class P>
class Symplectic {
 public:
  explicit Symplectic(const P& p) : p_(p) {}
  void step(typename P::State& s, double h) {
    stepper_.do_step([this](const typename P::Vec& q, typename P::Vec& a) { p_.accel(q, a); },
                     std::make_pair(std::ref(s.q), std::ref(s.v)), s.t, h);
    s.t += h;
  }

 private:
  const P& p_;
  Stepper stepper_;
};
template <class P>
using SymplecticEuler = Symplectic<oi::symplectic_euler<typename P::Vec>, P>;
template <class P>
using McLachlan4 = Symplectic<oi::symplectic_rkn_sb3a_mclachlan<typename P::Vec>, P>;

/// Odeint's velocity Verlet (second-order system a(x, v, t); it caches the force between steps).
template <class P>
class VelocityVerlet {
 public:
  explicit VelocityVerlet(const P& p) : p_(p) {}
  void step(typename P::State& s, double h) {
    stepper_.do_step([this](const typename P::Vec& q, const typename P::Vec&, typename P::Vec& a, double) { p_.accel(q, a); },
                     std::make_pair(std::ref(s.q), std::ref(s.v)), s.t, h);
    s.t += h;
  }

 private:
  const P& p_;
  oi::velocity_verlet<typename P::Vec> stepper_;
};

}  // namespace reference::odeint
