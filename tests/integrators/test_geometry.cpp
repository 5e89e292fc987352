// Time reversibility of the symmetric methods and bounded energy of the symplectic ones.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "integrators/all.hpp"
#include "study/problems/harmonic.hpp"
#include "study/problems/kepler.hpp"
#include "tests/support.hpp"

namespace {
using testing::eps;
}

TEMPLATE_LIST_TEST_CASE("symmetric methods retrace their steps, the others do not", "[geometry]", ode::AllMethods) {
  const TestType method{};
  const study::Kepler<double> p;
  auto s = p.initial();
  auto stepper = ode::make_stepper<study::Kepler<double>>(method);
  constexpr int n = 300;
  const double h = 0.05;  // 2.4 periods
  for (int k = 0; k < n; ++k) stepper.step(s, h, p);
  for (int k = 0; k < n; ++k) stepper.step(s, -h, p);
  const double gap = testing::phase_error(s, p.initial());
  // A few ulps per step of a state of size 2; a two-step method (it has a starting procedure) gets its velocity
  // as a difference quotient (x+ - x-)/2h, which turns position rounding into |q|/h ulps of velocity.
  const double quotient = method.info().start.empty() ? 0.0 : 1.6 / h;
  const double roundoff = 10 * 2 * n * (2.0 + quotient) * eps;
  INFO(method.info().id << " returns within " << gap << " (round-off bound " << roundoff << ")");
  if (method.info().symmetric)
    CHECK(gap <= roundoff);
  else
    // Phi_{-h} o Phi_h = I + (C + (-1)^{p+1} C) h^{p+1} + O(h^{p+2}): for even p the h^{p+1} terms cancel, so
    // the gap is O(n h^{p+2}) -- RK4: 300 x 0.05^6 ~ 5e-6 times its constant, far above round-off.
    CHECK(gap > 1e3 * roundoff);
}

TEMPLATE_LIST_TEST_CASE("harmonic energy: bounded for symplectic methods over 1e5 steps, drifting for the others", "[geometry]",
                        ode::AllMethods) {
  const TestType method{};
  const ode::Info info = method.info();
  const study::Harmonic<double> p;  // omega = 1
  const double h = 0.01, e0 = p.energy(p.initial());
  auto s = p.initial();
  auto stepper = ode::make_stepper<study::Harmonic<double>>(method);
  double first_half = 0, second_half = 0;
  constexpr long n = 100000;
  for (long k = 1; k <= n; ++k) {
    stepper.step(s, h, p);
    const double rel = std::abs(p.energy(s) - e0) / e0;
    (k <= n / 2 ? first_half : second_half) = std::max(k <= n / 2 ? first_half : second_half, rel);
  }
  INFO(info.id << ": max relative energy error " << first_half << " then " << second_half);
  if (info.symplectic) {
    // No secular growth: the second half stays at the level of the first (a drift would double it).
    CHECK(second_half <= 1.1 * first_half + 1e3 * eps);
    // And the level is that of the method's order: at most 10 (omega h)^p.
    CHECK(std::max(first_half, second_half) <= 10 * std::pow(h, info.order));
  } else {
    // The others change the energy by the same factor |R(i h)|^2 != 1 every step (R: the stability function):
    // the error grows at least linearly, so the second half's largest is at least twice the first's, far above
    // round-off (RK4: 1 - h^6/72 per step, 7e-10 after the first half).
    CHECK(second_half >= 1.9 * first_half);
    CHECK(first_half >= 1e5 * eps);
  }
}

TEST_CASE("harmonic energy: explicit Euler multiplies it by exactly (1 + h^2 omega^2) per step", "[geometry]") {
  const study::Harmonic<double> p;
  const double h = 0.01;
  constexpr long n = 100000;
  const auto s = testing::integrate(ode::Euler{}, p, h * n, n);
  const double growth = p.energy(s) / p.energy(p.initial()), expected = std::pow(1 + h * h, n);
  CHECK(growth > 1e4);  // e^10
  CHECK(std::abs(growth / expected - 1) <= 1e-9);
}
