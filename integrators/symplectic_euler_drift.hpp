#pragma once
/// Symplectic Euler, drift first: 1st order, symplectic, 1 force evaluation per step.
/// x+ = x + h v,  v+ = v + h a(x+).  Source: seed 004 ("Semi-implicit Euler Integration", second form);
/// Hairer, Lubich, Wanner, GNI §I.1.2.

#include "integrators/method.hpp"

namespace ode {

/// Symplectic Euler, drift then kick with the force at the new position.
struct SymplecticEulerDrift {
  constexpr Info info() const {
    return {.id = "symplectic-euler-drift",
            .summary = "symplectic Euler, drift first (x then v): 1st order, symplectic, 1 force evaluation per step",
            .order = 1, .evals_per_step = 1, .symplectic = true, .position_force_only = true,
            .source = "seed 004 (semi-implicit Euler, second form)"};
  }
  template <PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a;
    drift(s.q, s.v, h);
    p.accel(s.q, a);  // new position
    kick(s.v, a, h);
    s.t += h;
  }
};

}  // namespace ode
