#pragma once
/// Symplectic Euler, kick first ("semi-implicit Euler"): 1st order, symplectic, 1 force evaluation per step.
/// v+ = v + h a(x),  x+ = x + h v+.  Source: seed 001 ("Symplectic Euler"), seed 004 ("Semi-implicit Euler
/// Integration", first form), seed 000's "Euler" loop; Hairer, Lubich, Wanner, GNI §I.1.2 (the adjoint form).

#include "integrators/method.hpp"

namespace ode {

/// Symplectic Euler, kick then drift with the new velocity.
struct SymplecticEuler {
  constexpr Info info() const {
    return {.id = "symplectic-euler",
            .summary = "symplectic Euler, kick first (v then x): 1st order, symplectic, 1 force evaluation per step",
            .order = 1, .evals_per_step = 1, .symplectic = true, .position_force_only = true,
            .source = "seed 001 (symplectic Euler); seed 004 (semi-implicit Euler, first form); seed 000"};
  }
  template <PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a;
    p.accel(s.q, a);
    kick(s.v, a, h);
    drift(s.q, s.v, h);  // new velocity
    s.t += h;
  }
};

}  // namespace ode
