// The coefficient tables of the splitting methods satisfy their order conditions (in float128, so the
// check sees every one of the 36 digits), are palindromes (symmetric methods), and agree with the papers.
#include <catch2/catch.hpp>

#include <boost/multiprecision/float128.hpp>

#include "integrators/all.hpp"

using boost::multiprecision::float128;

namespace {
template <class Method>
struct Parsed {
  static constexpr auto table = Method::coefficients;
  std::vector<float128> a, b;  // drifts, kicks
  Parsed() {
    for (auto d : table.drift) a.push_back(ode::from_decimal<float128>(d));
    for (auto k : table.kick) b.push_back(ode::from_decimal<float128>(k));
  }
  float128 sum(const std::vector<float128>& x) const { float128 s = 0; for (auto v : x) s += v; return s; }
  // Order-3 conditions of a DKD splitting: sum_i b_i c_i^2 = 1/3 (c_i: drift before kick i) and
  // sum_j a_j d_j^2 = 1/3 (d_j: kick before drift j).  Blanes & Moan (2002), §2.
  float128 kick_condition() const {
    float128 c = 0, s = 0;
    for (std::size_t i = 0; i < b.size(); ++i) c += a[i], s += b[i] * c * c;
    return s - float128(1) / 3;
  }
  float128 drift_condition() const {
    float128 d = 0, s = 0;
    for (std::size_t j = 0; j < a.size(); ++j) {
      s += a[j] * d * d;
      if (j < b.size()) d += b[j];
    }
    return s - float128(1) / 3;
  }
};

template <class Method>
void check_common(double tolerance) {
  Parsed<Method> p;
  CHECK(abs(p.sum(p.a) - 1) < tolerance);
  CHECK(abs(p.sum(p.b) - 1) < tolerance);
  CHECK(abs(p.kick_condition()) < tolerance);
  CHECK(abs(p.drift_condition()) < tolerance);
  for (std::size_t i = 0; i < p.a.size(); ++i) CHECK(p.a[i] == p.a[p.a.size() - 1 - i]);
  for (std::size_t i = 0; i < p.b.size(); ++i) CHECK(p.b[i] == p.b[p.b.size() - 1 - i]);
  CHECK(Method{}.info().evals_per_step == static_cast<int>(p.b.size()));
}
}  // namespace

TEST_CASE("Yoshida 4 coefficients", "[coefficients]") {
  check_common<ode::Yoshida4>(1e-33);
  Parsed<ode::Yoshida4> p;
  const float128 c = cbrt(float128(2));
  CHECK(abs(p.b[0] - 1 / (2 - c)) < 1e-33);
  CHECK(abs(p.b[1] + c / (2 - c)) < 1e-33);
}

TEST_CASE("Blanes-Moan coefficients", "[coefficients]") {
  check_common<ode::BlanesMoan4>(1e-33);
  Parsed<ode::BlanesMoan4> p;
  // Within rounding of the 15 printed digits of Blanes & Moan (2002), Table 2.
  const double printed_a[] = {0.0792036964311957, 0.353172906049774, -0.0420650803577195};
  const double printed_b[] = {0.209515106613362, -0.143851773179818};
  for (int i = 0; i < 3; ++i) CHECK(std::abs(static_cast<double>(p.a[i]) - printed_a[i]) < 1e-16);
  for (int i = 0; i < 2; ++i) CHECK(std::abs(static_cast<double>(p.b[i]) - printed_b[i]) < 1e-16);
}

TEST_CASE("Yoshida 6 coefficients", "[coefficients]") {
  // 20 published digits: the conditions hold to ~1e-19.
  check_common<ode::Yoshida6>(1e-18);
  Parsed<ode::Yoshida6> p;
  float128 s3 = 0, s5 = 0;
  for (auto w : p.b) s3 += w * w * w, s5 += w * w * w * w * w;
  CHECK(abs(s3) < 1e-18);  // necessary conditions for order 4 and 6 of a symmetric composition
  CHECK(abs(s5) < 1e-18);
  CHECK(std::abs(static_cast<double>(p.b[2]) - -1.17767998417887) < 1e-14);  // Yoshida (1990), solution A
}
