// One step of every integrator against the arithmetic written out by hand in the test.
// Problem: x'' = -x^3 from x = 1, v = 1/2 with h = 1/10 (a nonlinear force, so the stages matter);
// the implicit methods also on x'' = -x, where their step has a closed form.
#include <catch2/catch.hpp>

#include "tests/support.hpp"

#include <cmath>
#include <limits>

#include "integrators/all.hpp"
#include "study/problems/damped_oscillator.hpp"

namespace {

using Real = double;
using testing::eps;

struct Cubic {  // x'' = -x^3
  using real_type = Real;
  static constexpr std::size_t dim = 1;
  using Vec = std::array<Real, 1>;
  using State = ode::State<Real, 1>;
  State initial() const { return {{1.0}, {0.5}, 0.0}; }
  void accel(const Vec& q, Vec& a) const { a[0] = -q[0] * q[0] * q[0]; }
};
struct Linear {  // x'' = -x
  using real_type = Real;
  static constexpr std::size_t dim = 1;
  using Vec = std::array<Real, 1>;
  using State = ode::State<Real, 1>;
  State initial() const { return {{1.0}, {0.5}, 0.0}; }
  void accel(const Vec& q, Vec& a) const { a[0] = -q[0]; }
};

Real f(Real x) { return -x * x * x; }
constexpr Real h = 0.1, x0 = 1.0, v0 = 0.5;

template <class M, class P = Cubic>
ode::State<Real, 1> one_step(const M& m, const P& p = {}) {
  auto s = p.initial();
  auto stepper = ode::make_stepper<P>(m);
  stepper.step(s, h, p);
  return s;
}

// A handful of roundings separate two evaluations of the same formula in a different order.
void check(const ode::State<Real, 1>& s, Real x, Real v, Real ulps = 8) {
  CHECK(std::abs(s.q[0] - x) <= ulps * eps * std::abs(x));
  CHECK(std::abs(s.v[0] - v) <= ulps * eps * std::abs(v));
  CHECK(s.t == h);
}

// One leapfrog (drift-kick-drift) step of size w h, written out.
void leapfrog(Real& x, Real& v, Real w) {
  x += w * h / 2 * v;
  v += w * h * f(x);
  x += w * h / 2 * v;
}

}  // namespace

TEST_CASE("explicit Euler: both updates from the old state", "[one-step]") {
  check(one_step(ode::Euler{}), x0 + h * v0, v0 + h * f(x0));
  // With a velocity-dependent force (x'' = -x - 0.2 x'), the old velocity enters the force.
  const study::DampedOscillator<Real> damped(study::ParamValues{{"zeta", "0.1"}, {"x0", "1"}, {"v0", "0.5"}});
  auto s = damped.initial();
  ode::Euler::step(s, h, damped);
  CHECK(s.v[0] == Approx(0.5 + h * (-1 - 0.2 * 0.5)).epsilon(4 * eps));
}

TEST_CASE("symplectic Euler kick first: v from the old x, x from the new v", "[one-step]") {
  const Real v = v0 + h * f(x0);
  check(one_step(ode::SymplecticEuler{}), x0 + h * v, v);
}

TEST_CASE("symplectic Euler drift first: x from the old v, v from the new x", "[one-step]") {
  const Real x = x0 + h * v0;
  check(one_step(ode::SymplecticEulerDrift{}), x, v0 + h * f(x));
}

TEST_CASE("velocity Verlet: half kick, drift, half kick", "[one-step]") {
  const Real vh = v0 + h / 2 * f(x0), x = x0 + h * vh;
  check(one_step(ode::VelocityVerlet{}), x, vh + h / 2 * f(x));
}

TEST_CASE("leapfrog: half drift, kick, half drift", "[one-step]") {
  Real x = x0, v = v0;
  leapfrog(x, v, 1);
  check(one_step(ode::Leapfrog{}), x, v);
}

TEST_CASE("Stormer-Verlet: both starts and the central-difference velocity", "[one-step]") {
  const Real x1 = x0 + h * v0 + h * h / 2 * f(x0);  // Taylor start
  const Real x2 = 2 * x1 - x0 + h * h * f(x1);
  check(one_step(ode::StormerVerlet{}), x1, (x2 - x0) / (2 * h));

  const Real before = x0 - h * v0;                  // seed 000: x_-1 = x0 - h v0
  const Real y1 = 2 * x0 - before + h * h * f(x0);
  const Real y2 = 2 * y1 - x0 + h * h * f(y1);
  check(one_step(ode::StormerVerlet{ode::StormerVerlet::Start::backward_euler}), y1, (y2 - x0) / (2 * h));
}

TEST_CASE("Stormer-Verlet: the lecture's variable-step formula when h changes", "[one-step]") {
  const Cubic p;
  auto s = p.initial();
  auto stepper = ode::make_stepper<Cubic>(ode::StormerVerlet{});
  stepper.step(s, h, p);
  const Real x1 = s.q[0], h2 = 0.05;
  stepper.step(s, h2, p);
  // x_{i+1} = x_i + (x_i - x_{i-1}) h_i / h_{i-1} + a_i (h_i + h_{i-1}) / 2 h_i   (seed 004)
  const Real x2 = x1 + (x1 - x0) * (h2 / h) + f(x1) * (h2 + h) / 2 * h2;
  CHECK(std::abs(s.q[0] - x2) <= 8 * eps);
}

TEST_CASE("RK2 midpoint and Heun", "[one-step]") {
  const Real xm = x0 + h / 2 * v0, vm = v0 + h / 2 * f(x0);
  check(one_step(ode::Rk2Midpoint{}), x0 + h * vm, v0 + h * f(xm));
  const Real xe = x0 + h * v0, ve = v0 + h * f(x0);
  check(one_step(ode::Rk2Heun{}), x0 + h / 2 * (v0 + ve), v0 + h / 2 * (f(x0) + f(xe)));
}

TEST_CASE("classic RK4", "[one-step]") {
  const Real k1x = v0, k1v = f(x0);
  const Real k2x = v0 + h / 2 * k1v, k2v = f(x0 + h / 2 * k1x);
  const Real k3x = v0 + h / 2 * k2v, k3v = f(x0 + h / 2 * k2x);
  const Real k4x = v0 + h * k3v, k4v = f(x0 + h * k3x);
  check(one_step(ode::Rk4{}), x0 + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x), v0 + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v));
}

TEST_CASE("Yoshida 4: three leapfrog steps with the triple-jump weights", "[one-step]") {
  const Real c = std::cbrt(2.0), w1 = 1 / (2 - c), w0 = -c / (2 - c);
  Real x = x0, v = v0;
  leapfrog(x, v, w1), leapfrog(x, v, w0), leapfrog(x, v, w1);
  check(one_step(ode::Yoshida4{}), x, v, 16);
}

TEST_CASE("Yoshida 6: seven leapfrog steps with Yoshida's solution A", "[one-step]") {
  // Yoshida (1990) Table 1, solution A, as printed (15 digits).
  const Real w1 = -1.17767998417887, w2 = 0.235573213359357, w3 = 0.784513610477560, w0 = 1 - 2 * (w1 + w2 + w3);
  Real x = x0, v = v0;
  for (Real w : {w3, w2, w1, w0, w1, w2, w3}) leapfrog(x, v, w);
  // The printed weights carry 15 digits: they differ from the 20-digit ones by up to 5e-15.
  const auto s = one_step(ode::Yoshida6{});
  CHECK(std::abs(s.q[0] - x) <= 1e-14);
  CHECK(std::abs(s.v[0] - v) <= 1e-14);
}

TEST_CASE("Blanes-Moan: the S6 sequence with the published coefficients", "[one-step]") {
  // Blanes & Moan (2002), Table 2, as printed (15 digits).
  const Real a1 = 0.0792036964311957, a2 = 0.353172906049774, a3 = -0.0420650803577195, a4 = 1 - 2 * (a1 + a2 + a3);
  const Real b1 = 0.209515106613362, b2 = -0.143851773179818, b3 = 0.5 - (b1 + b2);
  Real x = x0, v = v0;
  const Real drifts[] = {a1, a2, a3, a4, a3, a2, a1}, kicks[] = {b1, b2, b3, b3, b2, b1};
  for (int i = 0; i < 6; ++i) x += drifts[i] * h * v, v += kicks[i] * h * f(x);
  x += drifts[6] * h * v;
  const auto s = one_step(ode::BlanesMoan4{});
  CHECK(std::abs(s.q[0] - x) <= 1e-15);
  CHECK(std::abs(s.v[0] - v) <= 1e-15);
}

TEST_CASE("implicit midpoint: the Cayley transform on x'' = -x and its defining equation on x'' = -x^3", "[one-step]") {
  const Real d = 1 + h * h / 4;
  check(one_step(ode::ImplicitMidpoint{}, Linear{}), ((1 - h * h / 4) * x0 + h * v0) / d, (-h * x0 + (1 - h * h / 4) * v0) / d);
  // x1 = x0 + h (v0 + v1)/2,  v1 = v0 + h f((x0 + x1)/2): the iteration reached round-off.
  const auto s = one_step(ode::ImplicitMidpoint{});
  CHECK(std::abs(s.q[0] - (x0 + h * (v0 + s.v[0]) / 2)) <= 8 * eps);
  CHECK(std::abs(s.v[0] - (v0 + h * f((x0 + s.q[0]) / 2))) <= 8 * eps);
}

TEST_CASE("Gauss-Legendre 4: the (2,2) Pade approximant of exp on x'' = -x", "[one-step]") {
  // R(Z) = (I - Z/2 + Z^2/12)^-1 (I + Z/2 + Z^2/12), Z = h [[0, 1], [-1, 0]], Z^2 = -h^2 I.
  const Real a = 1 - h * h / 12, b = h / 2, n = a * a + b * b;
  check(one_step(ode::GaussLegendre4{}, Linear{}), ((a * a - b * b) * x0 + 2 * a * b * v0) / n,
        ((a * a - b * b) * v0 - 2 * a * b * x0) / n);
}

TEST_CASE("implicit methods solve stiff linear steps (Newton) and report a step they cannot converge, naming h and t",
          "[one-step]") {
  struct Stiff : Linear {
    void accel(const Vec& q, Vec& a) const { a[0] = -1e6 * q[0]; }
  };
  // omega h = 100: far beyond any fixed-point iteration, but Newton with the (differenced) Jacobian solves the
  // linear stage equations, and the A-stable method keeps |R| = 1: the energy is kept to round-off.
  auto s = Stiff{}.initial();
  ode::GaussLegendre4::Stepper<Stiff> gl(ode::GaussLegendre4{});
  for (int k = 0; k < 10; ++k) gl.step(s, 0.1, Stiff{});
  const Real e0 = 1e6 * x0 * x0 + v0 * v0, e = 1e6 * s.q[0] * s.q[0] + s.v[0] * s.v[0];
  CHECK(std::abs(e - e0) <= 1e3 * eps * e0);
  // A strongly nonlinear force over a huge step: the Jacobian of the start no longer describes the stages.
  struct Cubic : Linear {
    void accel(const Vec& q, Vec& a) const { a[0] = -q[0] * q[0] * q[0]; }
  };
  auto c = Cubic{}.initial();
  c.q[0] = 3;
  CHECK_THROWS_WITH(ode::GaussLegendre4::Stepper<Cubic>(ode::GaussLegendre4{}).step(c, 10.0, Cubic{}),
                    Catch::Contains("gauss-legendre4") && Catch::Contains("did not converge") &&
                        Catch::Contains("h = 10") && Catch::Contains("reduce h"));
}
