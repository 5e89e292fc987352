// Observed global order of every integrator against the exact solution, fitted over an automatic
// asymptotic window, at t = 5: not a multiple of the period 2 pi (at one Kepler period symplectic Euler's
// O(h) term cancels and it shows order 2).  Long double keeps round-off ~2000x below the errors measured.
#include <catch2/catch.hpp>

#include "integrators/all.hpp"
#include "study/problems/harmonic.hpp"
#include "study/problems/kepler.hpp"
#include "tests/support.hpp"

namespace {

using Real = long double;
constexpr Real t_end = 5;

template <class M, class P>
void check_order(const M& method, const P& problem, int declared) {
  const auto fit = study::fit_order(testing::sweep(method, problem, t_end, 8, 1L << 17));
  INFO(method.info().id << " on " << P::id << ": " << (fit.determined ? "" : fit.reason) << " observed "
                        << fit.order << " over dt in [" << fit.dt_min << ", " << fit.dt_max << "], " << fit.points
                        << " points, R^2 " << fit.r2);
  REQUIRE(fit.determined);
  CHECK(fit.points >= 3);
  CHECK(std::abs(fit.order - declared) <= 0.1);
}

/// RK4 with one weight wrong (1/6 -> 1/5 on k1): no longer consistent, so the error does not even vanish.
struct BrokenRk4 {
  constexpr ode::Info info() const { return {.id = "broken-rk4", .summary = "RK4 with a wrong weight", .order = 4}; }
  template <class P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    auto t = s;
    ode::Rk4::step(t, h, p);
    typename P::Vec a;
    ode::force(p, s.q, s.v, a);
    for (std::size_t i = 0; i < P::dim; ++i) s.q[i] = t.q[i] + h / 30 * s.v[i], s.v[i] = t.v[i] + h / 30 * a[i];
    s.t = t.t;
  }
};

}  // namespace

TEMPLATE_LIST_TEST_CASE("observed global order matches the declared order", "[order]", ode::AllMethods) {
  const TestType method{};
  SECTION("harmonic") { check_order(method, study::Harmonic<Real>{}, method.info().order); }
  SECTION("kepler e = 0.6") { check_order(method, study::Kepler<Real>{}, method.info().order); }
}

TEST_CASE("Stormer-Verlet started with x_-1 = x0 - h v0 is only first order", "[order]") {
  const ode::StormerVerlet method{ode::StormerVerlet::Start::backward_euler};
  REQUIRE(method.info().order == 1);
  check_order(method, study::Kepler<Real>{}, 1);
  check_order(method, study::Harmonic<Real>{}, 1);
}

TEST_CASE("substeps keep the order of the base method", "[order]") {
  check_order(ode::Substeps<ode::Rk4>{.k = 4}, study::Kepler<Real>{}, 4);
  check_order(ode::Substeps<ode::Euler>{.k = 8}, study::Kepler<Real>{}, 1);
}

TEST_CASE("the order test catches a wrong RK4 weight", "[order]") {
  const auto fit = study::fit_order(testing::sweep(BrokenRk4{}, study::Kepler<Real>{}, t_end, 8, 1L << 17));
  // Either no asymptotic window at all, or an order far from 4.
  CHECK((!fit.determined || std::abs(fit.order - 4) > 1));
}
