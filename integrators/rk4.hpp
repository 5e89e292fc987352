#pragma once
/// Classic Runge–Kutta: 4th order, not symplectic, 4 force evaluations per step.
/// Weights 1/6, 1/3, 1/3, 1/6; nodes 0, 1/2, 1/2, 1.  Source: Kutta, Z. Math. Phys. 46 (1901) 435;
/// Hairer, Nørsett, Wanner, Solving ODEs I, Table II.1.2; seed 000 ("Runge-Kutta Method").

#include "integrators/method.hpp"

namespace ode {

/// Classic RK4 on s = (x, v), f = (v, a(x, v)).
struct Rk4 {
  constexpr Info info() const {
    return {.id = "rk4",
            .summary = "classic Runge-Kutta: 4th order, not symplectic, 4 force evaluations per step",
            .order = 4, .evals_per_step = 4,
            .source = "Kutta 1901; Hairer, Norsett, Wanner, Solving ODEs I, Table II.1.2; seed 000"};
  }
  template <Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    const Real half = h / 2;
    Vec k1x = s.v, k1v, k2x, k2v, k3x, k3v, k4x, k4v, x, v;
    force(p, s.q, s.v, k1v);

    x = s.q, v = s.v;
    drift(x, k1x, half), kick(v, k1v, half);
    k2x = v;
    force(p, x, v, k2v);

    x = s.q, v = s.v;
    drift(x, k2x, half), kick(v, k2v, half);
    k3x = v;
    force(p, x, v, k3v);

    x = s.q, v = s.v;
    drift(x, k3x, h), kick(v, k3v, h);
    k4x = v;
    force(p, x, v, k4v);

    // Multiplied by the folded constants 1/6 and 1/3: two divisions here would queue behind the force's own
    // sqrt and division on the one divider unit, on the critical path of the step (+13 % on kepler).
    const Real w1 = h * (Real(1) / 6), w2 = h * (Real(1) / 3);
    // Stages are added in order, each with its own multiply: a stage waits for nothing computed after it, so
    // the step's latency (which bounds the time per step of small systems) gains one multiply-add per stage.
    for (std::size_t i = 0; i < P::dim; ++i) {
      s.q[i] = s.q[i] + w1 * k1x[i] + w2 * k2x[i] + w2 * k3x[i] + w1 * k4x[i];
      s.v[i] = s.v[i] + w1 * k1v[i] + w2 * k2v[i] + w2 * k3v[i] + w1 * k4v[i];
    }
    s.t += h;
  }
};

}  // namespace ode
