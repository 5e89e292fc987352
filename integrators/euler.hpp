#pragma once
/// Explicit (forward) Euler: 1st order, neither symplectic nor symmetric, 1 force evaluation per step.
/// x+ = x + h v,  v+ = v + h a(x, v).  Source: seed 001 ("Explicit Euler"), seed 004 ("Euler's Method in
/// Phase Space"); Hairer, Nørsett, Wanner, Solving ODEs I, §I.7.

#include "integrators/method.hpp"

namespace ode {

/// Explicit Euler: both updates use the state at the start of the step.
struct Euler {
  constexpr Info info() const {
    return {.id = "euler",
            .summary = "explicit Euler: 1st order, not symplectic, 1 force evaluation per step",
            .order = 1, .evals_per_step = 1,
            .source = "seed 001 (explicit Euler); seed 004 (Euler's method in phase space)"};
  }
  template <Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a;
    force(p, s.q, s.v, a);
    drift(s.q, s.v, h);  // old velocity
    kick(s.v, a, h);
    s.t += h;
  }
};

}  // namespace ode
