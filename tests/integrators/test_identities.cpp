// Identities between methods (DESIGN.md §4), each shown to hold to round-off and -- where the claim could
// be vacuous -- shown to fail for a method it should not hold for.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "integrators/all.hpp"
#include "integrators/concept.hpp"
#include "study/problems/kepler.hpp"
#include "study/problems/projectile.hpp"
#include "tests/support.hpp"

namespace {
using testing::eps;

/// Largest position difference between two methods over every step of a run (b in long double if asked).
template <class A, class B, class P>
double max_position_gap(const A& a, const B& b, const P& p, double h, long steps, bool against_long_double = false) {
  using Q = study::Kepler<long double>;
  const Q pl;
  auto sa = p.initial();
  auto sb = p.initial();
  auto sl = pl.initial();
  auto ta = ode::make_stepper<P>(a);
  auto tb = ode::make_stepper<P>(b);
  auto tl = ode::make_stepper<Q>(b);
  double gap = 0;
  for (long k = 0; k < steps; ++k) {
    ta.step(sa, h, p);
    if (against_long_double) {
      tl.step(sl, h, pl);
      for (std::size_t i = 0; i < P::dim; ++i) gap = std::max(gap, static_cast<double>(std::abs(sa.q[i] - sl.q[i])));
    } else {
      tb.step(sb, h, p);
      gap = std::max(gap, static_cast<double>(testing::position_error(sa, sb)));
    }
  }
  return gap;
}
}  // namespace

/// The round-off of a method in double over a run: its distance from the same method in long double
/// (same truncation error, 2000x less round-off).  "Identical to round-off" is measured against this.
template <class M>
double roundoff(const M& m, double h, long steps) {
  return max_position_gap(m, m, study::Kepler<double>{}, h, steps, /*against_long_double=*/true);
}

// Kepler e = 0.6 through a pericentre passage: 1000 steps of 0.006.  An O(h^2) difference would be ~1e-5.
TEST_CASE("every built-in integrator has the members integrators/concept.hpp requires", "[concept]") {
  using K = study::Kepler<double>;
  []<class... M>(std::tuple<M...>*) { STATIC_REQUIRE((ode::check_integrator<M, K>() && ...)); }(static_cast<ode::AllMethods*>(nullptr));
  STATIC_REQUIRE(ode::check_integrator<ode::Substeps<ode::VelocityVerlet>, K>());
}

namespace {
constexpr ode::Info some_info{.id = "x", .summary = "", .order = 1, .evals_per_step = 1};
struct InfoOnly {  // the metadata, no step
  constexpr ode::Info info() const { return some_info; }
};
struct StepOnly {  // a step, no metadata
  template <class P>
  void step(typename P::State&, typename P::real_type, const P&) const {}
};
struct NoReset {  // a stepper that cannot forget
  constexpr ode::Info info() const { return some_info; }
  template <class P>
  struct Stepper {
    explicit Stepper(const NoReset&) {}
    void step(typename P::State&, typename P::real_type, const P&) {}
  };
};
}  // namespace

TEST_CASE("the Integrator concept refuses a type missing any required member", "[concept]") {
  using K = study::Kepler<double>;
  // Checked at run time (a CHECK, not a static_assert): a concept that let these through fails a test, not the build.
  CHECK(ode::Integrator<ode::Euler, K>);
  CHECK(ode::Integrator<ode::VelocityVerlet, K>);
  CHECK_FALSE(ode::Integrator<int, K>);
  CHECK_FALSE(ode::Integrator<InfoOnly, K>);
  CHECK_FALSE(ode::Integrator<StepOnly, K>);
  CHECK_FALSE(ode::Integrator<NoReset, K>);
  CHECK_FALSE(ode::Integrator<ode::Euler, int>);  // not a problem
}

TEST_CASE("velocity Verlet and Stormer-Verlet (Taylor start) give the same positions", "[identity]") {
  const study::Kepler<double> p;
  const double gap = max_position_gap(ode::VelocityVerlet{}, ode::StormerVerlet{}, p, 0.006, 1000);
  const double bound = 4 * std::max(roundoff(ode::VelocityVerlet{}, 0.006, 1000), roundoff(ode::StormerVerlet{}, 0.006, 1000));
  INFO("gap " << gap << ", round-off bound " << bound);
  CHECK(gap <= bound);
  CHECK(bound < 1e-9);  // and that is round-off indeed
  // ... while leapfrog (drift-kick-drift) is only conjugate to them: different positions.
  CHECK(max_position_gap(ode::VelocityVerlet{}, ode::Leapfrog{}, p, 0.006, 1000) > 1e-6);
}

TEST_CASE("Stormer-Verlet started with x_-1 = x0 - h v0 is symplectic Euler (kick first)", "[identity]") {
  const study::Kepler<double> p;
  const ode::StormerVerlet seed000{ode::StormerVerlet::Start::backward_euler};
  const double gap = max_position_gap(seed000, ode::SymplecticEuler{}, p, 0.006, 1000);
  const double bound = 4 * std::max(roundoff(seed000, 0.006, 1000), roundoff(ode::SymplecticEuler{}, 0.006, 1000));
  INFO("gap " << gap << ", round-off bound " << bound);
  CHECK(gap <= bound);
  CHECK(bound < 1e-9);
  CHECK(max_position_gap(seed000, ode::SymplecticEulerDrift{}, p, 0.006, 1000) > 1e-4);
  CHECK(max_position_gap(seed000, ode::Euler{}, p, 0.006, 1000) > 1e-4);
}

TEST_CASE("velocity Verlet and both RK2 are exact under constant gravity", "[identity]") {
  const study::Projectile<double> p;  // |q| <= 11 m over 2 s
  const double t = 2.0;
  const auto exact = p.exact(t);
  const double bound = 10 * 200 * 11 * eps;
  CHECK(testing::phase_error(testing::integrate(ode::VelocityVerlet{}, p, t, 200), exact) <= bound);
  CHECK(testing::phase_error(testing::integrate(ode::Rk2Midpoint{}, p, t, 200), exact) <= bound);
  CHECK(testing::phase_error(testing::integrate(ode::Rk2Heun{}, p, t, 200), exact) <= bound);
  CHECK(testing::phase_error(testing::integrate(ode::Euler{}, p, t, 200), exact) > 1e-3);
}

TEST_CASE("explicit and symplectic Euler err equally and oppositely under constant gravity: -/+ a t h / 2", "[identity]") {
  const study::Projectile<double> p;
  const double t = 2.0, h = t / 200, expected = p.gravity() * t * h / 2;  // a = -g: explicit Euler ends high
  const auto exact = p.exact(t);
  const auto e = testing::integrate(ode::Euler{}, p, t, 200);
  const auto s = testing::integrate(ode::SymplecticEuler{}, p, t, 200);
  const double bound = 10 * 200 * 11 * eps;
  CHECK(std::abs((e.q[1] - exact.q[1]) - expected) <= bound);
  CHECK(std::abs((s.q[1] - exact.q[1]) + expected) <= bound);
  CHECK(std::abs(e.q[0] - exact.q[0]) <= bound);  // no horizontal force, no horizontal error
  CHECK(expected > 1e3 * bound);                  // the claim is not vacuous
}
