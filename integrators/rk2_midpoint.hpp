#pragma once
/// Explicit midpoint rule (RK2): 2nd order, not symplectic, 2 force evaluations per step.
/// k1 = f(s), k2 = f(s + h/2 k1), s+ = s + h k2, with s = (x, v), f = (v, a(x, v)).
/// Source: seed 001 ("Runge-Kutta 2"); Hairer, Nørsett, Wanner, Solving ODEs I, §II.1 (Runge 1895).

#include "integrators/method.hpp"

namespace ode {

/// Explicit midpoint (Runge's RK2).
struct Rk2Midpoint {
  constexpr Info info() const {
    return {.id = "rk2-midpoint",
            .summary = "explicit midpoint RK2: 2nd order, not symplectic, 2 force evaluations per step",
            .order = 2, .evals_per_step = 2,
            .source = "seed 001 (Runge-Kutta 2); Hairer, Norsett, Wanner, Solving ODEs I, §II.1"};
  }
  template <Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    const Real half = h / 2;
    typename P::Vec a1, a2, qm = s.q, vm = s.v;
    force(p, s.q, s.v, a1);
    drift(qm, s.v, half);
    kick(vm, a1, half);
    force(p, qm, vm, a2);
    drift(s.q, vm, h);  // k2 for x is the midpoint velocity
    kick(s.v, a2, h);
    s.t += h;
  }
};

}  // namespace ode
