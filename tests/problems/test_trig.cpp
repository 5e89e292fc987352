// sin_of and cos_of in long double, against quadmath's 113-bit sin and cos (an independent implementation).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include <boost/multiprecision/float128.hpp>

#include "study/problems/trig.hpp"

namespace {
using boost::multiprecision::float128;

// Within 2 units in the last place of the 64-bit significand (glibc's own sinl is within 1), or 1e-40 near a zero.
void near_exact(long double x, long double got, const float128& exact) {
  const float128 err = abs(float128(got) - exact), bound = 2 * float128(std::numeric_limits<long double>::epsilon()) * abs(exact) + float128(1e-40);
  INFO("x = " << static_cast<double>(x) << " err " << static_cast<double>(err) << " bound " << static_cast<double>(bound));
  CHECK(err <= bound);
}
}  // namespace

TEST_CASE("sin_of and cos_of in long double are within 2 ulp of quadmath's, wherever the reduction is done here", "[problems][trig]") {
  std::mt19937_64 gen(20261126);
  std::uniform_real_distribution<long double> small(-8.0L, 8.0L), large(-1e5L, 1e5L);
  for (int i = 0; i < 4000; ++i) {
    const long double x = i % 2 ? small(gen) : large(gen);
    near_exact(x, study::sin_of(x), sin(float128(x)));
    near_exact(x, study::cos_of(x), cos(float128(x)));
  }
  // Next to multiples of pi/2, where the remainder cancels: the long double nearest k pi/2 and its neighbours.
  const float128 half_pi = boost::math::constants::half_pi<float128>();
  for (long k : {1L, 2L, 3L, 4L, 7L, 100L, 12345L, 300001L}) {
    long double x = static_cast<long double>(k * half_pi);
    for (int s = 0; s < 3; ++s, x = std::nextafter(x, 1e30L)) {
      near_exact(x, study::sin_of(x), sin(float128(x)));
      near_exact(x, study::cos_of(x), cos(float128(x)));
    }
  }
  // Beyond 2^19 pi/2, and at the edges: glibc's own.
  for (long double x : {1e6L, -3e7L, 1e300L}) {
    CHECK(study::sin_of(x) == std::sin(x));
    CHECK(study::cos_of(x) == std::cos(x));
  }
  CHECK(std::isnan(study::sin_of(std::numeric_limits<long double>::infinity())));
  CHECK(std::isnan(study::cos_of(std::numeric_limits<long double>::quiet_NaN())));
  CHECK(study::sin_of(0.0L) == 0.0L);
  CHECK(study::cos_of(0.0L) == 1.0L);
  // double goes to std::sin unchanged (the runs' own arithmetic).
  CHECK(study::sin_of(2.0) == std::sin(2.0));
}
