// Must NOT compile: a splitting method given a velocity-dependent force (registered in ctest as WILL_FAIL).
#include "integrators/symplectic_euler.hpp"
#include "study/problems/damped_oscillator.hpp"

int main() {
  auto stepper = ode::make_stepper<study::DampedOscillator<double>>(ode::SymplecticEuler{});
  (void)stepper;
}
