// Every integrator compiles and runs in float, double, long double and Boost float128, and each type's
// result agrees with float128's to within its own round-off.
#include <catch2/catch.hpp>

#include <boost/multiprecision/float128.hpp>

#include "integrators/all.hpp"
#include "study/problems/kepler.hpp"
#include "tests/support.hpp"

using boost::multiprecision::float128;

TEMPLATE_TEST_CASE("integrators run in every scalar type, and every type's result is the exact solution plus the method's "
                   "truncation error", "[types]", float, double, long double, float128) {
  using Real = TestType;
  ode::for_each_method([](auto method) {
    constexpr long n = 100;
    const study::Kepler<float128> exact_problem;
    const auto exact = exact_problem.exact(float128(1));
    const auto s = testing::integrate(method, study::Kepler<Real>{}, Real(1), n);
    const auto q = testing::integrate(method, study::Kepler<float128>{}, float128(1), n);
    const auto q2 = testing::integrate(method, study::Kepler<float128>{}, float128(1), 2 * n);
    double gap = 0, error = 0;
    for (std::size_t i = 0; i < 2; ++i) {
      gap = std::max({gap, std::abs(static_cast<double>(s.q[i] - Real(q.q[i]))), std::abs(static_cast<double>(s.v[i] - Real(q.v[i])))});
      error = std::max({error, std::abs(static_cast<double>(float128(s.q[i]) - exact.q[i])),
                        std::abs(static_cast<double>(float128(s.v[i]) - exact.v[i]))});
    }
    const double eps = static_cast<double>(std::numeric_limits<Real>::epsilon());
    // The truncation error against the known solution (Kepler's equation), measured in float128 where round-off
    // is nil: it shrinks by 2^p as h halves (the method's order), so this is the method's error, not a type's.
    const double e1 = static_cast<double>(testing::phase_error(q, exact)), e2 = static_cast<double>(testing::phase_error(q2, exact));
    const double slope = std::log2(e1 / e2), roundoff = 100 * n * 2 * eps;  // 100 steps of a few dozen operations
    INFO(method.info().id << " in a type with eps " << eps << ": differs from float128 by " << gap << "; error " << error
                          << " against the exact solution, float128's " << e1 << " (order " << slope << ")");
    CHECK(std::abs(slope - method.info().order) <= 0.3);
    // And this type's result is float128's to within its own round-off: the exact solution plus the same
    // truncation error (error lies within e1 +/- gap).
    CHECK(gap <= roundoff);
  });
}

TEST_CASE("float128 carries the coefficients to 34 digits", "[types]") {
  // Yoshida 4 parsed in float128 satisfies 2 w1^3 + w0^3 = 0 far below double's epsilon.
  const auto w1 = ode::from_decimal<float128>(ode::Yoshida4::coefficients.kick[0]);
  const auto w0 = ode::from_decimal<float128>(ode::Yoshida4::coefficients.kick[1]);
  CHECK(abs(2 * w1 * w1 * w1 + w0 * w0 * w0) < float128(1e-33));
}
