#pragma once
/// Heun's method (explicit trapezoidal RK2): 2nd order, not symplectic, 2 force evaluations per step.
/// k1 = f(s), k2 = f(s + h k1), s+ = s + h/2 (k1 + k2), with s = (x, v), f = (v, a(x, v)).
/// Source: Hairer, Nørsett, Wanner, Solving ODEs I, §II.1 (Heun 1900).

#include "integrators/method.hpp"

namespace ode {

/// Heun's RK2.
struct Rk2Heun {
  constexpr Info info() const {
    return {.id = "rk2-heun",
            .summary = "Heun (explicit trapezoidal) RK2: 2nd order, not symplectic, 2 force evaluations per step",
            .order = 2, .evals_per_step = 2,
            .source = "Hairer, Norsett, Wanner, Solving ODEs I, §II.1 (Heun 1900)"};
  }
  template <Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    const Real half = h / 2;
    typename P::Vec a1, a2, qe = s.q, ve = s.v;
    force(p, s.q, s.v, a1);
    drift(qe, s.v, h);  // Euler predictor
    kick(ve, a1, h);
    force(p, qe, ve, a2);
    drift(s.q, s.v, half);
    drift(s.q, ve, half);
    kick(s.v, a1, half);
    kick(s.v, a2, half);
    s.t += h;
  }
};

}  // namespace ode
