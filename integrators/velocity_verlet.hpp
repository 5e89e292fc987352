#pragma once
/// Velocity Verlet, kick–drift–kick: 2nd order, symplectic, symmetric, 1 force evaluation per step
/// (the force at the end of a step is reused at the start of the next: first same as last).
/// v½ = v + h/2 a(x),  x+ = x + h v½,  v+ = v½ + h/2 a(x+).
/// Source: seed 003 ("Velocity Verlet", split form); seed 004 ("Velocity Verlet Method");
/// Swope, Andersen, Berens, Wilson, J. Chem. Phys. 76 (1982) 637.

#include "integrators/method.hpp"

namespace ode {

/// Velocity Verlet with a cached end-of-step force.
struct VelocityVerlet {
  constexpr Info info() const {
    return {.id = "velocity-verlet",
            .summary = "velocity Verlet kick-drift-kick: 2nd order, symplectic, symmetric, 1 force evaluation per step",
            .order = 2, .evals_per_step = 1, .startup_evals = 1, .symplectic = true, .symmetric = true,
            .position_force_only = true,
            .source = "seed 003 (velocity Verlet); seed 004; Swope et al., J. Chem. Phys. 76 (1982) 637"};
  }

  template <PositionForce P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    explicit Stepper(const VelocityVerlet&) {}

    void step(typename P::State& s, Real h, const P& p) { advance(s, h, p, 1); }
    /// n steps, the cache checked once: no one else touches the state between them (Odeint's stepper never
    /// checks; comparing q at every step cost 6 % on outer-solar-system).
    void advance(typename P::State& s, Real h, const P& p, long n) {
      if (n <= 0) return;
      if (!cached_ || !same(s.q, cached_q_)) p.accel(s.q, a_);
      const Real half = h / 2;
      for (long k = 0; k < n; ++k) {
        kick(s.v, a_, half);
        drift(s.q, s.v, h);
        p.accel(s.q, a_);
        kick(s.v, a_, half);
        s.t += h;
      }
      cached_q_ = s.q;
      cached_ = true;
    }
    void reset() { cached_ = false; }

   private:
    typename P::Vec a_{}, cached_q_{};
    bool cached_ = false;
  };
};

}  // namespace ode
