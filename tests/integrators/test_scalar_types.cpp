// Every integrator compiles and runs in float, double, long double and Boost float128, and each type's
// result agrees with float128's to within its own round-off.
#include <catch2/catch.hpp>

#include <boost/multiprecision/float128.hpp>

#include "integrators/all.hpp"
#include "study/problems/kepler.hpp"
#include "tests/support.hpp"

using boost::multiprecision::float128;

TEMPLATE_TEST_CASE("integrators run in every scalar type", "[types]", float, double, long double, float128) {
  using Real = TestType;
  ode::for_each_method([](auto method) {
    constexpr long n = 100;
    const auto s = testing::integrate(method, study::Kepler<Real>{}, Real(1), n);
    const auto q = testing::integrate(method, study::Kepler<float128>{}, float128(1), n);
    double gap = 0;
    for (std::size_t i = 0; i < 2; ++i)
      gap = std::max({gap, std::abs(static_cast<double>(s.q[i] - Real(q.q[i]))), std::abs(static_cast<double>(s.v[i] - Real(q.v[i])))});
    const double eps = static_cast<double>(std::numeric_limits<Real>::epsilon());
    INFO(method.info().id << " in a type with eps " << eps << ": differs from float128 by " << gap);
    // 100 steps of a few dozen operations on a state of size 2.
    CHECK(gap <= 100 * n * 2 * eps);
    CHECK(std::isfinite(static_cast<double>(s.q[0])));
  });
}

TEST_CASE("float128 carries the coefficients to 34 digits", "[types]") {
  // Yoshida 4 parsed in float128 satisfies 2 w1^3 + w0^3 = 0 far below double's epsilon.
  const auto w1 = ode::from_decimal<float128>(ode::Yoshida4::coefficients.kick[0]);
  const auto w0 = ode::from_decimal<float128>(ode::Yoshida4::coefficients.kick[1]);
  CHECK(abs(2 * w1 * w1 * w1 + w0 * w0 * w0) < float128(1e-33));
}
