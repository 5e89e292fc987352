// Velocity Verlet on the installed harmonic oscillator to t = T/4 (where x = 0, so the error is the phase error),
// at n and 2n steps: prints the observed order, log2 of the error ratio (2 for this method).
#include <cmath>
#include <cstdio>
#include <numbers>

#include "integrators/all.hpp"
#include "study/problems/harmonic.hpp"

double error_at_quarter_period(int n) {
  const study::Harmonic<double> p;
  auto s = p.initial();
  auto stepper = ode::make_stepper<study::Harmonic<double>>(ode::VelocityVerlet{});
  for (int k = 0; k < n; ++k) stepper.step(s, std::numbers::pi / 2 / n, p);
  return std::abs(s.q[0]);
}

int main() { std::printf("order %.2f\n", std::log2(error_at_quarter_period(250) / error_at_quarter_period(500))); }
