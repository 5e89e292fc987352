// Must not compile: a problem given to register_problem and register_pair as a class (a problem's double
// instance, as a user writing it in double only would) rather than as its class template; each says so in a
// sentence (tests/CMakeLists.txt expects both), not with "no matching function".
#include "integrators/velocity_verlet.hpp"
#include "study/extend/pair.hpp"
#include "study/extend/problem.hpp"
#include "study/problems/harmonic.hpp"

void register_it() {
  study::register_problem<study::Harmonic<double>>();
  study::register_pair<ode::VelocityVerlet, study::Harmonic<double>>();
}
