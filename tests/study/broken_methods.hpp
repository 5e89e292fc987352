#pragma once
/// Deliberately broken integrators: the quiet mistakes a change can make, each under the id and the declared
/// properties of the method it breaks.  `study check` must catch every one (tests/study/check_gate.sh).

#include <string_view>
#include <tuple>

#include "integrators/all.hpp"

namespace broken {

/// RK4 with one wrong weight: k3 gets h/6 instead of h/3 (weights no longer sum to 1: inconsistent).
struct Rk4WrongWeight : ode::Rk4 {
  template <ode::Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    const Real half = h / 2;
    Vec k1x = s.v, k1v, k2x, k2v, k3x, k3v, k4x, k4v, x, v;
    ode::force(p, s.q, s.v, k1v);
    x = s.q, v = s.v;
    ode::drift(x, k1x, half), ode::kick(v, k1v, half);
    k2x = v;
    ode::force(p, x, v, k2v);
    x = s.q, v = s.v;
    ode::drift(x, k2x, half), ode::kick(v, k2v, half);
    k3x = v;
    ode::force(p, x, v, k3v);
    x = s.q, v = s.v;
    ode::drift(x, k3x, h), ode::kick(v, k3v, h);
    k4x = v;
    ode::force(p, x, v, k4v);
    const Real w1 = h / 6, w2 = h / 3;
    for (std::size_t i = 0; i < P::dim; ++i) {
      s.q[i] += w1 * (k1x[i] + k4x[i]) + w2 * k2x[i] + w1 * k3x[i];  // the bug: w1 * k3, not w2 * k3
      s.v[i] += w1 * (k1v[i] + k4v[i]) + w2 * k2v[i] + w1 * k3v[i];
    }
    s.t += h;
  }
};

/// Velocity Verlet without the 1/2 in the position update: x+ = x + h v + h^2 a (first order).
struct VelocityVerletNoHalf : ode::VelocityVerlet {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a0, a1;
    p.accel(s.q, a0);
    for (std::size_t i = 0; i < P::dim; ++i) s.q[i] += h * s.v[i] + h * h * a0[i];  // the bug: h^2 a, not h^2 a / 2
    p.accel(s.q, a1);
    for (std::size_t i = 0; i < P::dim; ++i) s.v[i] += h / 2 * (a0[i] + a1[i]);
    s.t += h;
  }
  template <class P>
  using Stepper = ode::StatelessStepper<VelocityVerletNoHalf, P>;
};

/// Symplectic Euler with kick and drift swapped so that the drift uses the old velocity: explicit Euler.
struct SymplecticEulerSwapped : ode::SymplecticEuler {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a;
    p.accel(s.q, a);
    ode::drift(s.q, s.v, h);  // the bug: drift before the kick (old velocity)
    ode::kick(s.v, a, h);
    s.t += h;
  }
};

/// The explicit midpoint rule with Ralston's node and weights (c2 = 2/3, b = 1/4, 3/4): still second order,
/// another error constant.  Only the baseline of error constants can tell.
struct Rk2MidpointAsRalston : ode::Rk2Midpoint {
  template <ode::Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    const Real c = 2 * h / 3;
    typename P::Vec a1, a2, qm = s.q, vm = s.v;
    ode::force(p, s.q, s.v, a1);
    ode::drift(qm, s.v, c);
    ode::kick(vm, a1, c);
    ode::force(p, qm, vm, a2);
    for (std::size_t i = 0; i < P::dim; ++i) {
      s.q[i] += h * (s.v[i] / 4 + 3 * vm[i] / 4);
      s.v[i] += h * (a1[i] / 4 + 3 * a2[i] / 4);
    }
    s.t += h;
  }
};

/// Each breakage by name, with the id it replaces.
template <class F>
bool with_breakage(std::string_view name, F&& f) {
  if (name == "rk4-wrong-weight") return f(std::tuple<Rk4WrongWeight>{}), true;
  if (name == "velocity-verlet-no-half") return f(std::tuple<VelocityVerletNoHalf>{}), true;
  if (name == "symplectic-euler-swapped") return f(std::tuple<SymplecticEulerSwapped>{}), true;
  if (name == "rk2-midpoint-as-ralston") return f(std::tuple<Rk2MidpointAsRalston>{}), true;
  return false;
}

}  // namespace broken
