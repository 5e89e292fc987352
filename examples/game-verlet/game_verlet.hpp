#pragma once
// Velocity Verlet as game engines write it: position first with the stored acceleration, then the new
// acceleration, then the velocity with the average of the two; the new acceleration is stored for the next
// frame (one force evaluation per step).
//   x+ = x + h v + h^2/2 a,   a+ = a(x+),   v+ = v + h/2 (a + a+)
// Source: Swope, Andersen, Berens, Wilson, J. Chem. Phys. 76 (1982) 637, eq. (2.2); in this form in
// G. Fiedler, "Integration Basics" (Gaffer On Games, 2004) and many engines' particle updates.

#include "integrators/method.hpp"  // from the installed package (ode_accuracy_harness::cli)

namespace game {

/// The engine's stepper.  Broken = true is the bug a frame update often has: the velocity takes only the new
/// acceleration (v+ = v + h a+), which costs the method its second order; its declared order stays 2, so the
/// study's gate must catch it.
template <bool Broken>
struct BasicVerlet {
  constexpr ode::Info info() const {
    return {.id = Broken ? "game-verlet-broken" : "game-verlet",
            .summary = Broken ? "the engine's Verlet with the velocity bug: v+ = v + h a+"
                              : "the engine's Verlet: stored acceleration, 1 force evaluation per step",
            .order = 2, .evals_per_step = 1, .startup_evals = 1, .symplectic = !Broken, .symmetric = !Broken,
            .position_force_only = true,
            .source = "Swope et al., J. Chem. Phys. 76 (1982) 637; G. Fiedler, Integration Basics (2004)"};
  }

  template <ode::PositionForce P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    explicit Stepper(const BasicVerlet&) {}

    void step(typename P::State& s, Real h, const P& p) {
      if (!stored_ || s.q != stored_q_) p.accel(s.q, a_);  // a new body, or one moved from outside: look again
      for (std::size_t i = 0; i < P::dim; ++i) s.q[i] += h * s.v[i] + h * h / 2 * a_[i];
      typename P::Vec next{};
      p.accel(s.q, next);
      for (std::size_t i = 0; i < P::dim; ++i) s.v[i] += Broken ? h * next[i] : h / 2 * (a_[i] + next[i]);
      a_ = next, stored_q_ = s.q, stored_ = true;
      s.t += h;
    }
    void reset() { stored_ = false; }

   private:
    typename P::Vec a_{}, stored_q_{};
    bool stored_ = false;
  };
};

using GameVerlet = BasicVerlet<false>;
using GameVerletBroken = BasicVerlet<true>;

}  // namespace game
