// The problems this program adds to `study` (study/extend/problem.hpp: every built-in integrator on them, and
// their float128 reference; the heavy file of the program, which an edit elsewhere does not recompile).
#include "study/extend/problem.hpp"

#include "charged_particle.hpp"

void register_particle_problems() {
  study::register_problem<physics::ChargedParticle>();
  // The broken variant needs only rk4 to be refused: the others are not compiled on it (a shorter build).
  study::register_problem<physics::ChargedParticleBroken, std::tuple<ode::Rk4>>();
}
