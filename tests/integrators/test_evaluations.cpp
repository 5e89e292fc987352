// Force evaluations counted through the problem equal what each integrator declares.
#include <catch2/catch.hpp>

#include "integrators/all.hpp"
#include "study/problems/counted.hpp"
#include "study/problems/damped_oscillator.hpp"
#include "study/problems/kepler.hpp"

namespace {
/// Force evaluations, analytic Jacobians and implicit iterations of `steps` steps.
struct Counts {
  std::uint64_t evaluations = 0, jacobians = 0, iterations = 0;
};
template <class M, class P>
Counts counts(const M& method, long steps, double h = 0.01) {
  study::Counted<P> p;
  auto s = p.initial();
  auto stepper = ode::make_stepper<study::Counted<P>>(method);
  for (long k = 0; k < steps; ++k) stepper.step(s, h, p);
  return {p.evaluations(), p.jacobians(), p.iterations()};
}
template <class M, class P>
std::uint64_t count(const M& method, long steps, double h = 0.01) {
  return counts<M, P>(method, steps, h).evaluations;
}

/// An implicit method's cost (integrators/implicit_rk.hpp): per step one evaluation at the start and one analytic
/// Jacobian (Kepler has one), then `stages` evaluations per Newton iteration; at least two iterations per step
/// (one to move, one to see it converged), at most the cap.
void check_implicit(const Counts& c, long steps, std::uint64_t stages) {
  const auto n = static_cast<std::uint64_t>(steps);
  CHECK(c.evaluations == n + stages * c.iterations);
  CHECK(c.jacobians == n);
  CHECK(c.iterations >= 2 * n);
  CHECK(c.iterations <= static_cast<std::uint64_t>(ode::ImplicitRk<ode::ImplicitMidpoint, 1>::max_iterations) * n);
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("counted force evaluations match the metadata", "[evaluations]", ode::AllMethods) {
  const TestType method{};
  const ode::Info info = method.info();
  constexpr long steps = 200;
  const Counts c = counts<TestType, study::Kepler<double>>(method, steps);
  INFO(info.id << ": " << c.evaluations << " evaluations, " << c.iterations << " iterations in " << steps << " steps");
  if (!info.implicit) {
    CHECK(c.evaluations == static_cast<std::uint64_t>(info.evals_per_step * steps + info.startup_evals));
    CHECK(c.iterations == 0);
    CHECK(c.jacobians == 0);
  } else {
    check_implicit(c, steps, static_cast<std::uint64_t>(info.evals_per_step));
  }
  SECTION("with 3 substeps, three times as many") {
    const ode::Substeps<TestType> sub{.k = 3};
    CHECK(sub.info().evals_per_step == 3 * info.evals_per_step);
    const Counts c3 = counts<ode::Substeps<TestType>, study::Kepler<double>>(sub, steps);
    if (!info.implicit) CHECK(c3.evaluations == static_cast<std::uint64_t>(3 * info.evals_per_step * steps + info.startup_evals));
    else check_implicit(c3, 3 * steps, static_cast<std::uint64_t>(info.evals_per_step));
  }
}

TEST_CASE("velocity Verlet reuses the end-of-step force only while the state is its own", "[evaluations]") {
  study::Counted<study::Kepler<double>> p;
  auto s = p.initial();
  auto stepper = ode::make_stepper<decltype(p)>(ode::VelocityVerlet{});
  stepper.step(s, 0.01, p);
  CHECK(p.evaluations() == 2);
  stepper.step(s, 0.01, p);
  CHECK(p.evaluations() == 3);
  s.q[0] += 1e-3;  // moved from outside: the cached force is stale
  stepper.step(s, 0.01, p);
  CHECK(p.evaluations() == 5);
}

TEMPLATE_LIST_TEST_CASE("n steps at once (ode::advance) are the same bits and evaluations as n steps", "[evaluations]",
                        ode::AllMethods) {
  using P = study::Counted<study::Kepler<double>>;
  const TestType method{};
  INFO(method.info().id);
  P one, many;
  auto s = one.initial(), x = many.initial();
  auto a = ode::make_stepper<P>(method), b = ode::make_stepper<P>(method);
  for (int k = 0; k < 50; ++k) a.step(s, 0.01, one);
  ode::advance(b, x, 0.01, many, 20);
  ode::advance(b, x, 0.01, many, 0);
  for (int k = 0; k < 5; ++k) b.step(x, 0.01, many);
  ode::advance(b, x, 0.01, many, 25);
  CHECK(s.q == x.q);
  CHECK(s.v == x.v);
  CHECK(s.t == x.t);
  CHECK(one.evaluations() == many.evaluations());
  // Moved from outside between two calls: a force kept from the last step (velocity Verlet) is stale.
  s.q[0] += 1e-3, x.q[0] += 1e-3;
  for (int k = 0; k < 10; ++k) a.step(s, 0.01, one);
  ode::advance(b, x, 0.01, many, 10);
  CHECK(s.q == x.q);
  CHECK(s.v == x.v);
  CHECK(one.evaluations() == many.evaluations());
}

TEST_CASE("methods for general forces accept a velocity-dependent force, splitting methods refuse it", "[evaluations]") {
  using Damped = study::DampedOscillator<double>;
  STATIC_REQUIRE(ode::accepts<ode::Rk4, Damped>);
  STATIC_REQUIRE(ode::accepts<ode::Euler, Damped>);
  STATIC_REQUIRE(ode::accepts<ode::GaussLegendre4, Damped>);
  STATIC_REQUIRE_FALSE(ode::accepts<ode::SymplecticEuler, Damped>);
  STATIC_REQUIRE_FALSE(ode::accepts<ode::VelocityVerlet, Damped>);
  STATIC_REQUIRE_FALSE(ode::accepts<ode::Yoshida6, Damped>);
  STATIC_REQUIRE_FALSE(ode::accepts<ode::StormerVerlet, Damped>);
  CHECK(count<ode::Rk4, Damped>(ode::Rk4{}, 10) == 40);
}
