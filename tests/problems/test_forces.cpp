// Each problem's force law, constants and time scale at a point worked out by hand (or by another route than the
// code's: the arithmetic-geometric mean for the pendulum's elliptic integral, vis-viva for the orbits' periods),
// from the formulas of the sources the problems cite.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "study/problems/all.hpp"

using LD = long double;

namespace {

constexpr double pi = std::numbers::pi;

/// Complete elliptic integral of the first kind K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) (Abramowitz & Stegun 17.6).
double elliptic_k(double k) {
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 40; ++i) {
    const double m = (a + b) / 2;
    b = std::sqrt(a * b), a = m;
  }
  return pi / (2 * a);
}

/// The period of a bound Kepler orbit of strength mu from distance r at speed v: vis-viva, a = -mu / (2 E),
/// T = 2 pi sqrt(a^3 / mu).
double vis_viva_period(double mu, double r, double v) {
  const double energy = v * v / 2 - mu / r, a = -mu / (2 * energy);
  return 2 * pi * std::sqrt(a * a * a / mu);
}

}  // namespace

TEST_CASE("Henon-Heiles: a = -(x + 2xy, y + x^2 - y^2) (Henon & Heiles 1964)", "[problems][known]") {
  const study::HenonHeiles<double> p;
  study::HenonHeiles<double>::Vec a{};
  p.accel({0.5, -0.25}, a);
  CHECK(a[0] == -0.25);   // -(0.5 + 2 (0.5)(-0.25)) = -0.25
  CHECK(a[1] == 0.0625);  // -(-0.25 + 0.25 - 0.0625) = 0.0625
  // H = (px^2 + py^2)/2 + (x^2 + y^2)/2 + x^2 y - y^3/3 at the default start: 0.13.
  CHECK(p.energy(p.initial()) == Approx(0.13).epsilon(1e-14));
  CHECK(p.period() == Approx(2 * pi).epsilon(1e-15));
}

TEST_CASE("the damped oscillator: a = -omega^2 x - 2 zeta omega v, time scale 2 pi / omega", "[problems][known]") {
  const study::DampedOscillator<double> p(study::ParamValues{{"omega", "2"}, {"zeta", "0.25"}});
  study::DampedOscillator<double>::Vec a{};
  p.accel({1}, {0.5}, a);
  CHECK(a[0] == -4.5);  // -4 (1) - 2 (0.25)(2)(0.5)
  CHECK(p.period() == Approx(pi).epsilon(1e-15));
  // Underdamped: x(t) = e^(-zeta omega t) (x0 cos(w t) + (v0 + zeta omega x0)/w sin(w t)), w = omega sqrt(1 - zeta^2).
  const double w = 2 * std::sqrt(1 - 0.0625), t = 0.7;
  const double x = std::exp(-0.5 * t) * (std::cos(w * t) + 0.5 / w * std::sin(w * t));
  CHECK(p.exact(t).q[0] == Approx(x).epsilon(1e-14));
}

TEST_CASE("the pendulum: a = -omega0^2 sin theta, period 4 K(sin(theta0/2)) / omega0", "[problems][known]") {
  const study::Pendulum<double> p(study::ParamValues{{"amplitude", "2"}, {"omega0", "2"}});
  study::Pendulum<double>::Vec a{};
  p.accel({pi / 6}, a);
  CHECK(a[0] == Approx(-2).epsilon(1e-15));  // -4 sin(pi/6)
  CHECK(p.period() == Approx(4 * elliptic_k(std::sin(1.0)) / 2).epsilon(1e-14));
  // Small amplitudes: the period tends to 2 pi / omega0 (1 + theta0^2 / 16).
  const study::Pendulum<double> small(study::ParamValues{{"amplitude", "0.01"}});
  CHECK(small.period() == Approx(2 * pi * (1 + 0.0001 / 16)).epsilon(1e-9));
  CHECK(p.energy(p.initial()) == Approx(4 * (1 - std::cos(2.0))).epsilon(1e-15));
}

TEST_CASE("Kepler: a = -q / |q|^3 (mu = 1), period 2 pi, energy -1/2 (GNI §I.2.3)", "[problems][known]") {
  const study::Kepler<double> p(study::ParamValues{{"e", "0.5"}});
  study::Kepler<double>::Vec a{};
  p.accel({3, 4}, a);
  CHECK(a[0] == Approx(-3.0 / 125).epsilon(1e-15));
  CHECK(a[1] == Approx(-4.0 / 125).epsilon(1e-15));
  CHECK(p.period() == Approx(2 * pi).epsilon(1e-14));
  const auto s = p.initial();
  CHECK(s.q[0] == 0.5);  // pericentre 1 - e
  CHECK(s.v[1] == Approx(std::sqrt(3.0)).epsilon(1e-15));  // sqrt((1 + e) / (1 - e))
  CHECK(p.energy(s) == Approx(-0.5).epsilon(1e-15));
  // Half a period later: the apocentre, -(1 + e), at rest in x.
  const auto half = p.exact(pi);
  CHECK(half.q[0] == Approx(-1.5).epsilon(1e-12));
  CHECK(half.q[1] == Approx(0).margin(1e-12));
}

TEST_CASE("seed 000's central force: a = G (c - x) / |c - x|^3 with G = 1500, from (70, 60) at (0, 1)", "[problems][known]") {
  const study::CentralForce<double> p;
  study::CentralForce<double>::Vec a{};
  p.accel({70, 60}, a);
  const double r3 = 8500 * std::sqrt(8500.0);
  CHECK(a[0] == Approx(-1500 * 70 / r3).epsilon(1e-15));
  CHECK(a[1] == Approx(-1500 * 60 / r3).epsilon(1e-15));
  CHECK(p.period() == Approx(vis_viva_period(1500, std::sqrt(8500.0), 1)).epsilon(1e-12));
}

TEST_CASE("Earth and Moon (seed 002): pairwise gravity with the SI constants, the relative orbit's period", "[problems][known]") {
  const study::EarthMoon<double> p;
  const auto s = p.initial();
  // Earth then Moon, each (x, y): 384405 km apart.
  const double dx = s.q[2] - s.q[0], dy = s.q[3] - s.q[1], d = std::hypot(dx, dy);
  CHECK(d == Approx(384405000).epsilon(1e-15));
  CHECK(s.v[3] - s.v[1] == Approx(1022 + 12.5).epsilon(1e-15));
  study::EarthMoon<double>::Vec a{};
  p.accel(s.q, a);
  const double G = 6.674e-11, me = 5.9722e24, mm = 7.342e22;
  CHECK(std::hypot(a[0], a[1]) == Approx(G * mm / (d * d)).epsilon(1e-14));  // the Earth pulled by the Moon
  CHECK(std::hypot(a[2], a[3]) == Approx(G * me / (d * d)).epsilon(1e-14));  // about 2.7 mm/s^2
  CHECK(a[2] * dx + a[3] * dy < 0);                                           // towards the Earth
  CHECK(p.period() == Approx(vis_viva_period(G * (me + mm), d, 1034.5)).epsilon(1e-12));
  CHECK(p.period() / 86400 > 27);  // a sidereal month, about 27.3 days (these speeds: a slightly eccentric orbit)
  CHECK(p.period() / 86400 < 30);
}

TEST_CASE("pairwise gravity: a_i = sum_j G m_j (x_j - x_i) / |x_j - x_i|^3 and its potential, by hand", "[problems][known]") {
  study::Gravity<double, 3, 3> g{0.5, {1, 2, 3}};
  // Bodies at (0,0,0), (1,0,0), (0,2,0).
  const study::Gravity<double, 3, 3>::Vec q{0, 0, 0, 1, 0, 0, 0, 2, 0};
  study::Gravity<double, 3, 3>::Vec a{};
  g.accel(q, a);
  // Body 0: 0.5 (2 (1,0,0)/1 + 3 (0,2,0)/8) = (1, 0.375, 0).
  CHECK(a[0] == Approx(1).epsilon(1e-15));
  CHECK(a[1] == Approx(0.375).epsilon(1e-15));
  CHECK(a[2] == 0);
  // Body 1: 0.5 (1 (-1,0,0)/1 + 3 (-1,2,0)/5^(3/2)).
  const double r5 = 5 * std::sqrt(5.0);
  CHECK(a[3] == Approx(0.5 * (-1 - 3 / r5)).epsilon(1e-15));
  CHECK(a[4] == Approx(0.5 * 6 / r5).epsilon(1e-15));
  // Body 2: 0.5 (1 (0,-2,0)/8 + 2 (1,-2,0)/5^(3/2)).
  CHECK(a[6] == Approx(0.5 * 2 / r5).epsilon(1e-15));
  CHECK(a[7] == Approx(0.5 * (-0.25 - 4 / r5)).epsilon(1e-15));
  // Total force zero: sum m_i a_i = 0.
  for (int k = 0; k < 3; ++k) CHECK(1 * a[k] + 2 * a[3 + k] + 3 * a[6 + k] == Approx(0).margin(1e-15));
  study::Gravity<double, 3, 3>::State s{q, {0, 0, 0, 0, 1, 0, 1, 0, 0}, 0};
  // E = (2 (1) + 3 (1)) / 2 - 0.5 (1 (2)/1 + 1 (3)/2 + 2 (3)/sqrt 5).
  CHECK(g.energy(s) == Approx(2.5 - 0.5 * (2 + 1.5 + 6 / std::sqrt(5.0))).epsilon(1e-15));
  const auto p = g.linear_momentum(s);
  CHECK(p[0] == 3);  // 3 (1, 0, 0)
  CHECK(p[1] == 2);  // 2 (0, 1, 0)
  const auto L = g.angular_momentum(s);  // 2 (1,0,0) x (0,1,0) + 3 (0,2,0) x (1,0,0) = (0, 0, 2 - 6)
  CHECK(L[2] == Approx(-4).epsilon(1e-15));
}

TEST_CASE("the outer solar system: GNI Table I.2.1's masses, G and start", "[problems][known]") {
  const study::OuterSolarSystem<double> p;
  const auto s = p.initial();
  const double G = 2.95912208286e-4;
  const double m[6] = {1.00000597682, 0.000954786104043, 0.000285583733151, 0.0000437273164546, 0.0000517759138449,
                       1 / 1.3e8};
  // Jupiter's position and velocity as printed (GNI Table I.2.1).
  CHECK(s.q[3] == -3.5023653);
  CHECK(s.q[5] == -1.5507963);
  CHECK(s.v[4] == -0.00412490);
  CHECK(s.q[15] == -15.5387357);  // Pluto's x
  // The energy from the table's numbers, summed here.
  double kinetic = 0, potential = 0;
  for (int i = 0; i < 6; ++i) {
    kinetic += m[i] * (s.v[3 * i] * s.v[3 * i] + s.v[3 * i + 1] * s.v[3 * i + 1] + s.v[3 * i + 2] * s.v[3 * i + 2]) / 2;
    for (int j = i + 1; j < 6; ++j)
      potential -= G * m[i] * m[j] /
                   std::hypot(s.q[3 * j] - s.q[3 * i], s.q[3 * j + 1] - s.q[3 * i + 1], s.q[3 * j + 2] - s.q[3 * i + 2]);
  }
  CHECK(p.energy(s) == Approx(kinetic + potential).epsilon(1e-13));
  // Jupiter's acceleration is the Sun's pull to within a few per mille (Saturn's is 3e-4 of the Sun's mass, 4 AU
  // further off at the closest).
  study::OuterSolarSystem<double>::Vec a{};
  p.accel(s.q, a);
  const double rj = std::hypot(s.q[3], s.q[4], s.q[5]);
  CHECK(std::hypot(a[3], a[4], a[5]) == Approx(G * m[0] / (rj * rj)).epsilon(5e-3));
  CHECK(p.period() == 4332.59);  // Jupiter's, in days
}

TEST_CASE("the Plummer cluster: softened forces a_i = sum_j m (x_j - x_i) / (r^2 + eps^2)^(3/2), m = 1/n", "[problems][known]") {
  const study::Plummer<double> p(study::ParamValues{{"n", "5"}, {"softening", "0.1"}});
  const auto s = p.initial();
  study::Plummer<double>::Vec a{};
  p.accel(s.q, a);
  double potential = 0, kinetic = 0;
  for (int i = 0; i < 5; ++i) {
    double want[3]{};
    for (int j = 0; j < 5; ++j) {
      if (j == i) continue;
      const double d[3] = {s.q[3 * j] - s.q[3 * i], s.q[3 * j + 1] - s.q[3 * i + 1], s.q[3 * j + 2] - s.q[3 * i + 2]};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01;
      for (int k = 0; k < 3; ++k) want[k] += 0.2 * d[k] / (r2 * std::sqrt(r2));
      if (j > i) potential -= 0.2 * 0.2 / std::sqrt(r2);
    }
    for (int k = 0; k < 3; ++k) CHECK(a[3 * i + k] == Approx(want[k]).epsilon(1e-13).margin(1e-15));
    kinetic += 0.2 * (s.v[3 * i] * s.v[3 * i] + s.v[3 * i + 1] * s.v[3 * i + 1] + s.v[3 * i + 2] * s.v[3 * i + 2]) / 2;
  }
  for (std::size_t k = 15; k < 48; ++k) CHECK(a[k] == 0);  // absent bodies feel no force
  // Angular momentum sum m x cross v, by hand: body 0 at (1, 2, 3) moving (4, 5, 6), body 2 at (0, 0, 2) moving
  // (1, 0, 0), the rest at rest: (-3, 6, -3) / 5 + (0, 2, 0) / 5.
  auto t = s;
  std::fill(t.q.begin(), t.q.end(), 0.0), std::fill(t.v.begin(), t.v.end(), 0.0);
  t.q[0] = 1, t.q[1] = 2, t.q[2] = 3, t.v[0] = 4, t.v[1] = 5, t.v[2] = 6;
  t.q[8] = 2, t.v[6] = 1;
  const auto moment = p.angular_momentum(t);
  CHECK(moment[0] == Approx(-3.0 / 5).epsilon(1e-15));
  CHECK(moment[1] == Approx(8.0 / 5).epsilon(1e-15));
  CHECK(moment[2] == Approx(-3.0 / 5).epsilon(1e-15));
  CHECK(p.energy(s) == Approx(kinetic + potential).epsilon(1e-13));
  CHECK(p.period() == Approx(2 * pi).epsilon(1e-15));  // 2 pi dynamical times (Henon units)
  const auto L = p.angular_momentum(s);
  double Lz = 0;
  for (int i = 0; i < 5; ++i) Lz += 0.2 * (s.q[3 * i] * s.v[3 * i + 1] - s.q[3 * i + 1] * s.v[3 * i]);
  CHECK(L[2] == Approx(Lz).epsilon(1e-13).margin(1e-16));
}

TEST_CASE("Arenstorf: the restricted three-body equations of Hairer, Norsett, Wanner I, (0.1)", "[problems][known]") {
  const study::Arenstorf<double> p;
  const double mu = 0.012277471, m1 = 1 - mu;
  study::Arenstorf<double>::Vec a{};
  const double x = 0.5, y = 0.5, vx = 0.1, vy = -0.2;
  p.accel({x, y}, {vx, vy}, a);
  const double d1 = std::pow((x + mu) * (x + mu) + y * y, 1.5), d2 = std::pow((x - m1) * (x - m1) + y * y, 1.5);
  CHECK(a[0] == Approx(x + 2 * vy - m1 * (x + mu) / d1 - mu * (x - m1) / d2).epsilon(1e-14));
  CHECK(a[1] == Approx(y - 2 * vx - m1 * y / d1 - mu * y / d2).epsilon(1e-14));
  CHECK(p.period() == Approx(17.0652165601579625588917206249).epsilon(1e-15));
  const auto s = p.initial();
  CHECK(s.q[0] == 0.994);
  CHECK(s.v[1] == Approx(-2.00158510637908252240537862224).epsilon(1e-15));
  // The Jacobi integral: (vx^2 + vy^2)/2 - (x^2 + y^2)/2 - m1/r1 - mu/r2.
  const double jacobi = s.v[1] * s.v[1] / 2 - 0.994 * 0.994 / 2 - m1 / (0.994 + mu) - mu / std::abs(0.994 - m1);
  CHECK(p.energy(s) == Approx(jacobi).epsilon(1e-14));
}

TEST_CASE("the projectile: a = (0, -g), time of flight 2 vy / g", "[problems][known]") {
  const study::Projectile<double> p(study::ParamValues{{"g", "10"}, {"vy", "5"}});
  study::Projectile<double>::Vec a{};
  p.accel({3, 4}, a);
  CHECK(a[0] == 0);
  CHECK(a[1] == -10);
  CHECK(p.period() == 1);  // 2 (5) / 10
  CHECK(p.exact(0.5).q[1] == Approx(5 * 0.5 - 5 * 0.25).epsilon(1e-15));
}

TEST_CASE("the Plummer cluster is Aarseth, Henon & Wielen's sampling of the seed, in Henon units", "[problems][known]") {
  // The recipe of A&A 37 (1974) 183, written out here from the paper: radius r = (X1^(-2/3) - 1)^(-1/2) (cut at
  // 10 Plummer radii), an isotropic direction (z = (1 - 2 X2) r, phi = 2 pi X3), speed q V_e with V_e = sqrt 2
  // (1 + r^2)^(-1/4) and q drawn by rejection, 0.1 X5 < q^2 (1 - q^2)^(7/2); Henon units: positions times 3 pi / 16,
  // velocities divided by its square root; the centre of mass moved to rest at the origin.  Uniform numbers from
  // std::mt19937_64 as (x >> 11) 2^-53 (the problem's stated convention).
  for (auto [n, seed] : {std::pair{5, 1ULL}, {8, 1ULL}, {16, 42ULL}}) {
    std::mt19937_64 rng(seed);
    auto X = [&] { return static_cast<double>(rng() >> 11) * std::ldexp(1.0, -53); };
    auto isotropic = [&](double length, double* out) {
      const double z = (1 - 2 * X()) * length, phi = 2 * pi * X(), rho = std::sqrt(std::max(0.0, length * length - z * z));
      out[0] = rho * std::cos(phi), out[1] = rho * std::sin(phi), out[2] = z;
    };
    const double sr = 3 * pi / 16, sv = 1 / std::sqrt(sr);
    std::vector<std::array<double, 3>> x(n), v(n);
    double cx[3]{}, cv[3]{};
    for (int i = 0; i < n; ++i) {
      double r = 0;
      do {
        const double u = X();
        r = u > 0 ? 1 / std::sqrt(std::pow(u, -2.0 / 3) - 1) : 0;
      } while (!(r > 0 && r <= 10));
      isotropic(r * sr, x[i].data());
      double q = 0;
      do q = X();
      while (!(0.1 * X() < q * q * std::pow(1 - q * q, 3.5)));
      isotropic(q * std::sqrt(2.0) * std::pow(1 + r * r, -0.25) * sv, v[i].data());
      for (int k = 0; k < 3; ++k) cx[k] += x[i][k] / n, cv[k] += v[i][k] / n;
    }
    const study::Plummer<double> p(study::ParamValues{{"n", std::to_string(n)}, {"seed", std::to_string(seed)}});
    const auto s = p.initial();
    INFO("n = " << n << ", seed = " << seed);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        CHECK(s.q[3 * i + k] == Approx(x[i][k] - cx[k]).epsilon(1e-14).margin(1e-15));
        CHECK(s.v[3 * i + k] == Approx(v[i][k] - cv[k]).epsilon(1e-14).margin(1e-15));
      }
  }
}

TEST_CASE("seed 000's central force refuses a start at the centre, or an orbit that is not bound", "[problems][known]") {
  using P = study::CentralForce<double>;
  CHECK_THROWS_WITH(P(study::ParamValues{{"x", "0"}, {"y", "0"}}), Catch::Contains("the body must not start at the centre"));
  CHECK_NOTHROW(P(study::ParamValues{{"x", "0"}, {"y", "60"}}));
  CHECK_NOTHROW(P(study::ParamValues{{"x", "70"}, {"y", "0"}}));
  // Bound while v^2/2 < G/r: from r = 100 with G = 1500, escape speed sqrt(30) = 5.477.
  CHECK_NOTHROW(P(study::ParamValues{{"x", "100"}, {"y", "0"}, {"vx", "0"}, {"vy", "5.47"}}));
  CHECK_THROWS_WITH(P(study::ParamValues{{"x", "100"}, {"y", "0"}, {"vx", "0"}, {"vy", "5.48"}}), Catch::Contains("bound"));
}

TEST_CASE("the two-body solution exists only for a bound orbit away from the centre: alpha = 2/r0 - v0^2/mu > 0", "[problems][known]") {
  using K = study::KeplerOrbit<double, 2>;
  using V = K::Vec;
  CHECK_NOTHROW(K(1, V{1, 0}, V{0, 1}));                    // circular: alpha = 2 - 1 = 1, a = 1
  CHECK(K(1, V{1, 0}, V{0, 1}).semi_major_axis() == 1);
  CHECK(K(1, V{2, 0}, V{0, 0.5}).semi_major_axis() == Approx(1 / (2.0 / 2 - 0.25)).epsilon(1e-15));  // 4/3
  CHECK_THROWS_WITH(K(1, V{1, 0}, V{1, 1}), Catch::Contains("not bound"));  // v0^2 = 2 = 2 mu / r0: parabolic, alpha = 0
  CHECK_THROWS_WITH(K(1, V{0, 0}, V{0, 1}), Catch::Contains("not bound"));  // at the centre: r0 = 0
  CHECK_THROWS_WITH(K(0, V{1, 0}, V{0, 1}), Catch::Contains("not bound"));  // no attraction
}

TEST_CASE("Earth and Moon refuse an unbound relative orbit: (v_moon - v_earth)^2 / 2 < G (m_earth + m_moon) / d", "[problems][known]") {
  // Escape speed sqrt(2 G M / d) = 1448.9 m/s with the defaults (G 6.674e-11, M 6.04564e24 kg, d 384405 km).
  const double escape = std::sqrt(2 * 6.674e-11 * (5.9722e24 + 7.342e22) / 384405000);
  CHECK(escape == Approx(1448.9).epsilon(1e-4));
  auto with = [](double v) { return study::ParamValues{{"v_moon", fmt::format("{}", v)}, {"v_earth", "0"}}; };
  CHECK_NOTHROW(study::EarthMoon<double>(with(0.99 * escape)));
  CHECK_THROWS_WITH(study::EarthMoon<double>(with(1.01 * escape)), Catch::Contains("the relative orbit must be bound"));
  // Each constant must be positive: zero is refused (a massless Moon too), naming its rule.
  for (const auto& [key, rule] : std::vector<std::pair<std::string, std::string>>{
           {"G", "G must be > 0"}, {"m_earth", "masses must be > 0"}, {"m_moon", "masses must be > 0"}, {"distance", "the distance must be > 0"}}) {
    INFO(key);
    CHECK_THROWS_WITH(study::EarthMoon<double>(study::ParamValues{{key, "0"}}), Catch::Contains(rule));
  }
}
