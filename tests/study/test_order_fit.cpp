// The order fit on synthetic data whose true slope, floor and pre-asymptotic bend are known.
#include <catch2/catch.hpp>

#include <cmath>

#include "study/order_fit.hpp"

namespace {
std::vector<study::ErrorPoint> synthetic(double order, double constant, double floor, double bend) {
  std::vector<study::ErrorPoint> pts;
  for (double dt = 1.0; dt > 1e-5; dt /= 2) {
    // C dt^p (1 + bend dt) plus a deterministic round-off-like floor that alternates in sign.
    const double noise = floor * (pts.size() % 2 ? 1.0 : -0.5);
    pts.push_back({dt, std::abs(constant * std::pow(dt, order) * (1 + bend * dt) + noise), floor});
  }
  return pts;
}
}  // namespace

TEST_CASE("the fit recovers a known order from clean data", "[fit]") {
  for (double p : {1.0, 2.0, 4.0, 6.0}) {
    const auto fit = study::fit_order(synthetic(p, 0.3, 0, 0));
    REQUIRE(fit.determined);
    CHECK(fit.order == Approx(p).margin(1e-9));
    CHECK(fit.r2 == Approx(1).margin(1e-12));
    CHECK(fit.points == 5);
    CHECK(fit.local_slopes.size() == 4);
  }
}

TEST_CASE("the window avoids the round-off floor and the pre-asymptotic range", "[fit]") {
  // Order 4 with a floor at 1e-13 and a strong bend at large dt.
  const auto data = synthetic(4, 1.0, 1e-13, 20);
  const auto fit = study::fit_order(data);
  REQUIRE(fit.determined);
  // Just above the floor the bend still adds log2((1 + 40 dt)/(1 + 20 dt)) ~ 0.05-0.18 to the local slopes:
  // the fit promises agreement within its slope band, and must beat a fit over every point.
  CHECK(std::abs(fit.order - 4) <= study::FitOptions{}.slope_band);
  std::vector<double> x, y;
  for (const auto& p : data) x.push_back(std::log(p.dt)), y.push_back(std::log(p.error));
  double all = 0, r2 = 0;
  study::least_squares(x, y, all, r2);
  CHECK(std::abs(fit.order - 4) < std::abs(all - 4) / 5);
  CHECK(fit.dt_min > 1e-3);   // floor: errors below ~1e-12 are left out
  CHECK(fit.dt_max < 0.1);    // bend: (1 + 20 dt) is far from 1 above that
}

TEST_CASE("too few usable points leave the order undetermined with a reason", "[fit]") {
  std::vector<study::ErrorPoint> pts{{0.1, 1e-3, 0}, {0.05, NAN, 0}, {0.025, 2e-4, 0}};
  const auto fit = study::fit_order(pts);
  CHECK_FALSE(fit.determined);
  CHECK_THAT(fit.reason, Catch::Contains("usable point"));
}

TEST_CASE("a least-squares fit uses every point, not just the end points", "[fit]") {
  // Pairwise log-ratios telescope to the end points: a bump in the middle would be invisible to them.
  std::vector<double> x{0, 1, 2, 3}, y{0, 1, 3, 3};
  double slope = 0, r2 = 0;
  study::least_squares(x, y, slope, r2);
  CHECK(slope == Approx(1.1));
  CHECK(r2 < 1);
}
