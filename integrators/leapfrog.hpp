#pragma once
/// Leapfrog, drift–kick–drift: 2nd order, symplectic, symmetric, 1 force evaluation per step.
/// x½ = x + h/2 v,  v+ = v + h a(x½),  x+ = x½ + h/2 v+.  Conjugate to (not position-identical with)
/// velocity Verlet.  Source: Hairer, Lubich, Wanner, GNI §I.1.4 (Störmer–Verlet, the (q,p)-swapped form);
/// REBOUND src/integrator_leapfrog.c.

#include "integrators/method.hpp"

namespace ode {

/// Leapfrog DKD: half drift, full kick at the midpoint, half drift.
struct Leapfrog {
  constexpr Info info() const {
    return {.id = "leapfrog",
            .summary = "leapfrog drift-kick-drift: 2nd order, symplectic, symmetric, 1 force evaluation per step",
            .order = 2, .evals_per_step = 1, .symplectic = true, .symmetric = true, .position_force_only = true,
            .source = "Hairer, Lubich, Wanner, Geometric Numerical Integration, 2nd ed., §I.1.4"};
  }
  template <PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    typename P::Vec a;
    const Real half = h / 2;
    drift(s.q, s.v, half);
    p.accel(s.q, a);
    kick(s.v, a, h);
    drift(s.q, s.v, half);
    s.t += h;
  }
};

}  // namespace ode
