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

/// Odeint's generic symplectic Nyström stepper (the base of its symplectic_euler and McLachlan steppers) with a
/// drift-kick table of ours: drift a_l h, then kick b_l h, for each stage l.  A table of m kicks and m + 1 drifts
/// (ours start and end with a drift) takes m + 1 stages, the last kick of weight 0: Odeint evaluates the force
/// there too.  So it runs our method, step for step, in Odeint's own algorithm.
template <std::size_t Stages, unsigned short Order, class Vec>
class Nystroem
    : public oi::symplectic_nystroem_stepper_base<Stages, Order, Vec, Vec, double, Vec, Vec, double,
                                                  typename oi::algebra_dispatcher<Vec>::algebra_type,
                                                  typename oi::operations_dispatcher<Vec>::operations_type, oi::initially_resizer> {
  using Base = oi::symplectic_nystroem_stepper_base<Stages, Order, Vec, Vec, double, Vec, Vec, double,
                                                    typename oi::algebra_dispatcher<Vec>::algebra_type,
                                                    typename oi::operations_dispatcher<Vec>::operations_type, oi::initially_resizer>;

 public:
  Nystroem(const typename Base::coef_type& a, const typename Base::coef_type& b) : Base(a, b) {}
};
/// A drift-kick table (Kicks kicks, Kicks + 1 drifts, as doubles) run by Odeint's Nyström stepper.
template <std::size_t Kicks, unsigned short Order, class P>
class SymplecticTable {
 public:
  using Stepper = Nystroem<Kicks + 1, Order, typename P::Vec>;
  SymplecticTable(const P& p, const std::array<double, Kicks + 1>& drift, const std::array<double, Kicks>& kick)
      : p_(p), stepper_(coefficients(drift), coefficients(kick)) {}
  void step(typename P::State& s, double h) {
    stepper_.do_step([this](const typename P::Vec& q, typename P::Vec& a) { p_.accel(q, a); },
                     std::make_pair(std::ref(s.q), std::ref(s.v)), s.t, h);
    s.t += h;
  }

 private:
  template <std::size_t N>
  static typename Stepper::coef_type coefficients(const std::array<double, N>& c) {
    typename Stepper::coef_type out{};  // a missing last kick stays 0
    for (std::size_t i = 0; i < N; ++i) out[i] = c[i];
    return out;
  }
  const P& p_;
  Stepper stepper_;
};
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
