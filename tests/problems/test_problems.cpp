// The test problems: exact solutions checked against the equations of motion and against known facts,
// invariants, and parameter validation.
#include <catch2/catch.hpp>

#include <boost/math/constants/constants.hpp>

#include "integrators/method.hpp"
#include "integrators/rk4.hpp"
#include "study/problems/all.hpp"
#include "study/problems/concept.hpp"
#include "tests/support.hpp"

using LD = long double;

namespace {
/// d/dt of the exact solution, by a 4th-order central difference, against (v, a(q, v)).
template <class P>
void check_exact_solves_the_ode(const P& p) {
  const LD T = p.period(), d = T * 1e-4L;
  for (LD t : {LD(0.1) * T, LD(0.37) * T, LD(1.9) * T}) {
    auto at = [&](LD s) { return p.exact(s); };
    const auto m2 = at(t - 2 * d), m1 = at(t - d), p1 = at(t + d), p2 = at(t + 2 * d), c = at(t);
    typename P::Vec a;
    ode::force(p, c.q, c.v, a);
    for (std::size_t i = 0; i < P::dim; ++i) {
      const LD dq = (m2.q[i] - 8 * m1.q[i] + 8 * p1.q[i] - p2.q[i]) / (12 * d);
      const LD dv = (m2.v[i] - 8 * m1.v[i] + 8 * p1.v[i] - p2.v[i]) / (12 * d);
      // Truncation (d^4 ~ 1e-16 T^4 |x^(5)|) and cancellation (eps |x| / d ~ 1e-15): relative 1e-9 is ample.
      const LD scale_q = 1 + std::abs(c.v[i]), scale_v = 1 + std::abs(a[i]);
      INFO(P::id << " at t = " << static_cast<double>(t) << ", component " << i);
      CHECK(std::abs(dq - c.v[i]) <= 1e-9L * scale_q * std::max<LD>(1, std::abs(c.v[i])));
      CHECK(std::abs(dv - a[i]) <= 1e-9L * scale_v * std::max<LD>(1, std::abs(a[i])));
    }
  }
  // At t = 0 the exact solution is the start, to the rounding of a few operations on the state's largest component.
  LD scale = 0;
  for (std::size_t i = 0; i < P::dim; ++i) scale = std::max({scale, std::abs(p.initial().q[i]), std::abs(p.initial().v[i])});
  INFO(P::id << ": exact(0) differs from the start by " << static_cast<double>(testing::phase_error(p.exact(0), p.initial())));
  CHECK(testing::phase_error(p.exact(0), p.initial()) <= 16 * std::numeric_limits<LD>::epsilon() * scale);
}

/// The two parts of dE/dt along the vector field (v, a): through the positions (potential) and through the
/// velocities (kinetic), by 4th-order central differences.  Conservative forces make them cancel.
template <class P>
std::pair<LD, LD> energy_rates(const P& p, const typename P::State& s) {
  typename P::Vec a;
  ode::force(p, s.q, s.v, a);
  const LD d = 1e-5L * p.period();
  auto rate = [&](bool positions) {
    auto moved = [&](LD k) {
      auto m = s;
      for (std::size_t i = 0; i < P::dim; ++i) (positions ? m.q[i] += k * d * s.v[i] : m.v[i] += k * d * a[i]);
      return p.energy(m);
    };
    return (moved(-2) - 8 * moved(-1) + 8 * moved(1) - moved(2)) / (12 * d);
  };
  return {rate(true), rate(false)};
}

/// A state in motion everywhere (the initial states of some problems are at rest, where both parts vanish).
template <class P>
typename P::State moving(const P& p) {
  auto s = p.initial();
  LD scale = 0;
  for (auto v : s.v) scale = std::max(scale, std::abs(v));
  if (scale == 0) scale = 1;
  for (std::size_t i = 0; i < P::dim; ++i) s.v[i] += scale * LD(0.1) * LD(i + 1) / LD(P::dim);
  // Arenstorf's start is 0.006 from the Moon: far from it the differences' step (1e-5 of the period) is small.
  if constexpr (std::is_same_v<P, study::Arenstorf<LD>>) s.q = {LD(0.5), LD(0.3)};
  return s;
}
}  // namespace

TEST_CASE("every shipped problem has the members study/problems/concept.hpp requires, in every precision", "[problems]") {
  []<class... P>(std::tuple<P...>*) { STATIC_REQUIRE((study::check_problem<P>() && ...)); }(static_cast<study::AllProblems<double>*>(nullptr));
  []<class... P>(std::tuple<P...>*) { STATIC_REQUIRE((study::check_problem<P>() && ...)); }(static_cast<study::AllProblems<LD>*>(nullptr));
}

TEMPLATE_TEST_CASE("exact solutions solve their equations of motion", "[problems]", study::Projectile<LD>,
                   study::CentralForce<LD>, study::EarthMoon<LD>, study::Kepler<LD>, study::Harmonic<LD>,
                   study::Pendulum<LD>, study::DampedOscillator<LD>) {
  check_exact_solves_the_ode(TestType{});
}

TEMPLATE_TEST_CASE("problems declared conservative conserve energy: dE/dt = 0 along the flow, and only they",
                   "[problems]", study::Projectile<LD>, study::CentralForce<LD>, study::EarthMoon<LD>, study::Kepler<LD>,
                   study::Harmonic<LD>, study::Pendulum<LD>, study::HenonHeiles<LD>, study::OuterSolarSystem<LD>,
                   study::DampedOscillator<LD>, study::Plummer<LD>, study::Arenstorf<LD>) {
  const TestType p;
  const auto [potential, kinetic] = energy_rates(p, moving(p));
  CHECK(std::abs(kinetic) > 0);
  if constexpr (TestType::conservative) CHECK(std::abs(potential + kinetic) <= 1e-9L * std::abs(kinetic));
  else CHECK(std::abs(potential + kinetic) >= 1e-3L * std::abs(kinetic));
}

TEMPLATE_TEST_CASE("problems declared bounded stay bounded over 20 periods, and only they", "[problems]",
                   study::Projectile<LD>, study::CentralForce<LD>, study::EarthMoon<LD>, study::Kepler<LD>,
                   study::Harmonic<LD>, study::Pendulum<LD>) {
  // `study check` expects bounded energy errors of symplectic methods only where the motion is bounded.
  const TestType p;
  auto size = [](const auto& s) {
    LD x = 0;
    for (auto q : s.q) x = std::max(x, std::abs(q));
    return x;
  };
  LD early = 0, late = 0;
  for (int k = 1; k <= 20; ++k) (k <= 2 ? early : late) = std::max(k <= 2 ? early : late, size(p.exact(LD(k + 0.3L) * p.period())));
  if constexpr (TestType::bounded) CHECK(late <= 2 * early);
  else CHECK(late >= 5 * early);
}

TEST_CASE("away from the default parameters too, exact solutions solve their equations and energies behave", "[problems]") {
  // Defaults of 1 hide a missing factor (an omega, an omega0): every problem with an exact solution or an energy,
  // at other values.
  const study::Harmonic<LD> h(study::ParamValues{{"omega", "2.5"}, {"x0", "0.3"}, {"v0", "-0.7"}});
  const study::Pendulum<LD> pendulum(study::ParamValues{{"omega0", "2.3"}, {"amplitude", "1.2"}});
  const study::Kepler<LD> kepler(study::ParamValues{{"e", "0.8"}});
  const study::DampedOscillator<LD> damped(study::ParamValues{{"omega", "1.7"}, {"zeta", "0.3"}, {"x0", "0.4"}, {"v0", "0.9"}});
  check_exact_solves_the_ode(h);
  check_exact_solves_the_ode(pendulum);
  check_exact_solves_the_ode(kepler);
  check_exact_solves_the_ode(damped);
  auto conserved = [](const auto& p) {
    const auto [potential, kinetic] = energy_rates(p, moving(p));
    CHECK(std::abs(kinetic) > 1e-3L);
    CHECK(std::abs(potential + kinetic) <= 1e-9L * std::abs(kinetic));
  };
  conserved(h);
  conserved(pendulum);
  conserved(kepler);
  const auto [potential, kinetic] = energy_rates(damped, damped.initial());
  CHECK(static_cast<double>(potential + kinetic) == Approx(-2 * 0.3 * 1.7 * 0.9 * 0.9).epsilon(1e-8));
}

TEST_CASE("the damped oscillator loses energy at the rate 2 zeta omega v^2", "[problems]") {
  const study::DampedOscillator<LD> p(study::ParamValues{{"zeta", "0.1"}, {"v0", "0.5"}});
  const auto [potential, kinetic] = energy_rates(p, p.initial());
  CHECK(static_cast<double>(potential + kinetic) == Approx(-2 * 0.1 * 0.5 * 0.5).epsilon(1e-8));
  for (const char* zeta : {"1", "2.5"}) {  // critical and over-damped branches of the exact solution
    const study::DampedOscillator<LD> q(study::ParamValues{{"zeta", zeta}, {"v0", "0.5"}});
    check_exact_solves_the_ode(q);
  }
}

TEST_CASE("a Kepler orbit returns to its start after one period", "[problems]") {
  const study::Kepler<LD> p;
  CHECK(std::abs(p.period() - 2 * boost::math::constants::pi<LD>()) <= 1e-17L);
  CHECK(testing::phase_error(p.exact(p.period()), p.initial()) <= 1e-16L);
  CHECK(testing::phase_error(p.exact(p.period() / 2), p.initial()) > 1);  // not trivially constant
  const study::CentralForce<LD> c;  // seed 000: e ~ 0.96, period ~ 53 frames
  CHECK(c.eccentricity() > 0.95);
  CHECK(c.period() > 50);
  CHECK(c.period() < 56);
  CHECK(testing::phase_error(c.exact(3 * c.period()), c.initial()) <= 1e-12L);
}

TEST_CASE("the two-body solution conserves momentum and energy to round-off", "[problems]") {
  const study::EarthMoon<LD> p;
  const auto s0 = p.initial();
  const LD e0 = p.energy(s0), p0 = p.linear_momentum(s0)[1], l0 = p.angular_momentum(s0)[2];
  const LD p_scale = 7.342e22L * 1022;  // the Moon's momentum
  for (LD days : {1.0L, 27.3L, 100.0L, 365.0L}) {
    const auto s = p.exact(days * 86400);
    CHECK(std::abs(p.energy(s) / e0 - 1) <= 1e-15L);
    CHECK(std::abs(p.linear_momentum(s)[0]) <= 1e-15L * p_scale);
    CHECK(std::abs(p.linear_momentum(s)[1] - p0) <= 1e-15L * p_scale);
    CHECK(std::abs(p.angular_momentum(s)[2] / l0 - 1) <= 1e-15L);
  }
  // Seed 002: "about 13 revolutions in a year" -- the sidereal period of this orbit.
  const LD revolutions = 365 * 86400 / p.period();
  CHECK(revolutions > 12);
  CHECK(revolutions < 15);
}

TEST_CASE("bad parameters get clear errors", "[problems][params]") {
  using Catch::Contains;
  CHECK_THROWS_WITH(study::Kepler<double>(study::ParamValues{{"e", "1.2"}}),
                    Contains("kepler") && Contains("'e' = 1.2") && Contains("0 <= e < 1"));
  CHECK_THROWS_WITH(study::Kepler<double>(study::ParamValues{{"e", "1"}}), Contains("out of range"));
  CHECK_THROWS_WITH(study::Harmonic<double>(study::ParamValues{{"omega", "0"}}), Contains("'omega' = 0") && Contains("> 0"));
  CHECK_THROWS_WITH(study::Harmonic<double>(study::ParamValues{{"omega", "-2"}}), Contains("'omega' = -2"));
  CHECK_THROWS_WITH(study::Harmonic<double>(study::ParamValues{{"omgea", "2"}}),
                    Contains("unknown parameter 'omgea'") && Contains("did you mean 'omega'") && Contains("x0"));
  CHECK_THROWS_WITH(study::EarthMoon<double>(study::ParamValues{{"m_moon", "-7e22"}}), Contains("'m_moon' = -7e22") && Contains("> 0"));
  CHECK_THROWS_WITH(study::Pendulum<double>(study::ParamValues{{"amplitude", "4"}}), Contains("0 < theta0 < pi"));
  CHECK_THROWS_WITH(study::Kepler<double>(study::ParamValues{{"e", "abc"}}), Contains("'e' = 'abc' is not a number"));
  CHECK_THROWS_WITH(study::HenonHeiles<double>(study::ParamValues{{"energy", "0.2"}}), Contains("1/6"));
  CHECK_THROWS_WITH(study::DampedOscillator<double>(study::ParamValues{{"zeta", "-0.1"}}), Contains("damping ratio"));
  CHECK_THROWS_WITH(study::CentralForce<double>(study::ParamValues{{"vy", "10"}}), Contains("bound"));
  CHECK_THROWS_AS(study::OuterSolarSystem<double>(study::ParamValues{{"mass", "1"}}), study::ParamError);
  CHECK_NOTHROW(study::Kepler<double>(study::ParamValues{{"e", "0"}}));
}

TEST_CASE("parameters are parsed in the problem's own precision", "[problems][params]") {
  // "0.6" read as float128 is not 0.6 read as double: no detour through a double.
  const study::Kepler<LD> p(study::ParamValues{{"e", "0.6"}});
  CHECK(p.initial().q[0] == 1 - ode::from_decimal<LD>("0.6"));
  CHECK(p.initial().q[0] != 1 - static_cast<LD>(0.6));
}

TEST_CASE("henon-heiles by default is a two-dimensional orbit at H = 0.13, and x0 = px0 = 0 stays on the y axis", "[problems]") {
  auto max_abs_x = [](const study::HenonHeiles<LD>& p) {
    auto s = p.initial();
    LD largest = 0;
    for (int k = 0; k < 20000; ++k) {  // t = 20 with RK4 at h = 1e-3
      ode::Rk4::step(s, LD(1e-3), p);
      largest = std::max(largest, std::abs(s.q[0]));
    }
    return largest;
  };
  const study::HenonHeiles<LD> p;
  const auto s = p.initial();
  CHECK(s.q[0] == LD(0.1L));
  CHECK(s.q[1] == 0);
  CHECK(s.v[1] == Approx(0.5).epsilon(1e-15));  // py0 from H = 0.13: sqrt(2 (0.13 - 0.005))
  CHECK(p.energy(s) == Approx(0.13).epsilon(1e-15));
  CHECK(max_abs_x(p) > 0.05);  // x moves: two degrees of freedom take part
  const study::HenonHeiles<LD> axis(study::ParamValues{{"energy", "0.125"}, {"x0", "0"}, {"y0", "0.1"}, {"px0", "0"}});
  CHECK(max_abs_x(axis) == 0);  // the invariant line x = px = 0
}

TEST_CASE("analytic force Jacobians agree with central differences, and the differenced ones with them", "[problems]") {
  study::for_each_problem<LD>([](auto p) {
    using P = decltype(p);
    if constexpr (ode::HasJacobian<P>) {
      auto s = p.initial();
      for (std::size_t i = 0; i < P::dim; ++i) s.q[i] += LD(0.01) * (LD(i) + 1), s.v[i] -= LD(0.02);  // off any symmetry
      ode::Jacobian<LD, P::dim> dadq, dadv, fdq, fdv;
      p.jacobian(s.q, s.v, dadq, dadv);
      typename P::Vec a;
      ode::force(p, s.q, s.v, a);
      ode::force_jacobian<P>(p, s.q, s.v, a, fdq, fdv);  // the analytic one again, through the dispatcher
      for (std::size_t k = 0; k < P::dim; ++k) {
        const LD d = 1e-5L * std::max<LD>(1, std::abs(s.q[k])), dv = 1e-5L * std::max<LD>(1, std::abs(s.v[k]));
        auto q1 = s.q, q2 = s.q, v1 = s.v, v2 = s.v;
        q1[k] += d, q2[k] -= d, v1[k] += dv, v2[k] -= dv;
        typename P::Vec a1, a2, b1, b2;
        ode::force(p, q1, s.v, a1), ode::force(p, q2, s.v, a2), ode::force(p, s.q, v1, b1), ode::force(p, s.q, v2, b2);
        for (std::size_t i = 0; i < P::dim; ++i) {
          INFO(P::id << ": d a_" << i << " / d q_" << k);
          const LD scale = 1 + std::abs(dadq[i][k]);
          CHECK(std::abs((a1[i] - a2[i]) / (2 * d) - dadq[i][k]) <= 1e-8L * scale);  // O(d^2) truncation
          CHECK(std::abs((b1[i] - b2[i]) / (2 * dv) - dadv[i][k]) <= 1e-8L * (1 + std::abs(dadv[i][k])));
          CHECK(fdq[i][k] == dadq[i][k]);
        }
      }
    }
  });
}

TEST_CASE("a differenced Jacobian is accurate to about sqrt(eps)", "[problems]") {
  // Outer solar system has no analytic Jacobian: forward differences in double against central ones in long double.
  const study::OuterSolarSystem<double> p;
  const study::OuterSolarSystem<LD> pl;
  const auto s = p.initial();
  const auto sl = pl.initial();
  study::OuterSolarSystem<double>::Vec a;
  ode::force(p, s.q, s.v, a);
  ode::Jacobian<double, 18> fdq, fdv;
  ode::force_jacobian(p, s.q, s.v, a, fdq, fdv);
  double largest = 0;
  for (const auto& row : fdq)
    for (double x : row) largest = std::max(largest, std::abs(x));
  for (std::size_t k = 0; k < 18; ++k) {
    const LD d = 1e-6L * std::max<LD>(1, std::abs(sl.q[k]));
    auto q1 = sl.q, q2 = sl.q;
    q1[k] += d, q2[k] -= d;
    study::OuterSolarSystem<LD>::Vec a1, a2;
    pl.accel(q1, a1), pl.accel(q2, a2);
    for (std::size_t i = 0; i < 18; ++i) {
      INFO("d a_" << i << " / d q_" << k);
      const double exact = static_cast<double>((a1[i] - a2[i]) / (2 * d));
      CHECK(std::abs(fdq[i][k] - exact) <= 1e-6 * largest);  // sqrt(eps) = 1.5e-8 relative to the step's scale
    }
  }
  for (const auto& row : fdv)
    for (double x : row) CHECK(x == 0);  // a position-only force
}

TEST_CASE("the Plummer cluster: n bodies from a fixed seed, centre of mass at rest at the origin, bound", "[problems]") {
  const study::Plummer<LD> p;
  const auto s = p.initial();
  CHECK(p.bodies_present() == 8);
  LD cx[3]{}, cv[3]{}, largest = 0;
  for (std::size_t i = 0; i < 16; ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      if (i >= 8) {
        CHECK(s.q[3 * i + k] == 0);  // absent bodies: at rest at the origin
        CHECK(s.v[3 * i + k] == 0);
        continue;
      }
      cx[k] += s.q[3 * i + k], cv[k] += s.v[3 * i + k], largest = std::max(largest, std::abs(s.q[3 * i + k]));
    }
  for (int k = 0; k < 3; ++k) {
    CHECK(std::abs(cx[k]) <= 1e-15L * 8 * largest);
    CHECK(std::abs(cv[k]) <= 1e-15L * 8);
  }
  CHECK(largest > 0.05);
  CHECK(largest <= 10 * 3 * boost::math::constants::pi<LD>() / 16 * 2);  // the cut at r = 10 Plummer radii (+ the shift)
  CHECK(p.energy(s) < 0);  // a bound cluster
  // The same seed gives the same cluster; another seed another one; n and the softening are the parameters.
  CHECK(study::Plummer<LD>().initial().q == s.q);
  CHECK(study::Plummer<LD>(study::ParamValues{{"seed", "2"}}).initial().q != s.q);
  const study::Plummer<LD> five(study::ParamValues{{"n", "5"}, {"softening", "0.1"}});
  CHECK(five.bodies_present() == 5);
  CHECK(five.initial().q[3 * 5] == 0);
  for (const auto& [name, value] : {std::pair{"n", "4"}, {"n", "17"}, {"n", "5.5"}, {"softening", "0"}, {"seed", "-1"}})
    CHECK_THROWS_AS(study::Plummer<LD>(study::ParamValues{{name, value}}), study::ParamError);
  CHECK_THROWS_WITH(study::Plummer<LD>(study::ParamValues{{"n", "4"}}), Catch::Contains("plummer: parameter 'n' = 4 is out of range"));
}

TEST_CASE("the restricted three-body problem starts on Arenstorf's orbit and refuses a start at a primary", "[problems]") {
  const study::Arenstorf<LD> p;
  const auto s = p.initial();
  CHECK(s.q[0] == LD(0.994L));
  CHECK(s.v[1] == Approx(-2.00158510637908252240537862224));
  CHECK(p.period() == Approx(17.0652165601579625588917206249));
  CHECK_THROWS_WITH(study::Arenstorf<LD>(study::ParamValues{{"x0", "0.987722529"}}), Catch::Contains("must not be at the Earth (-mu) or the Moon"));
  CHECK_THROWS_AS(study::Arenstorf<LD>(study::ParamValues{{"mu", "0.6"}}), study::ParamError);
}
