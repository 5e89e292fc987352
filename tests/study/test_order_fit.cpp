// The order fit and its verdict on synthetic data whose true slope, floor and pre-asymptotic bend are known:
// every rule of study/fit/order_fit.hpp on both sides of its threshold.
#include <catch2/catch.hpp>

#include <cmath>

#include "study/fit/order_fit.hpp"
#include "study/fit/wide.hpp"

namespace {

using study::ErrorPoint;

/// C dt^p (1 + bend dt) at dt = 1, 1/2, ... down to dt_min, plus a deterministic round-off-like floor that
/// alternates in sign.
std::vector<ErrorPoint> synthetic(double order, double constant, double floor, double bend, double dt_min = 1e-5) {
  std::vector<ErrorPoint> pts;
  for (double dt = 1.0; dt > dt_min; dt /= 2) {
    const double noise = floor * (pts.size() % 2 ? 1.0 : -0.5);
    pts.push_back({dt, std::abs(constant * std::pow(dt, order) * (1 + bend * dt) + noise), floor});
  }
  return pts;
}

/// Points of error(dt) at dt = dt_max / ratio^k, k = 0 .. n-1, with no floor.
template <class F>
std::vector<ErrorPoint> sampled(F error, double dt_max, double ratio, int n) {
  std::vector<ErrorPoint> pts;
  for (int k = 0; k < n; ++k) {
    const double dt = dt_max / std::pow(ratio, k);
    pts.push_back({dt, error(dt), 0});
  }
  return pts;
}

study::OrderVerdict judge(const std::vector<ErrorPoint>& pts, double expected, double periods = NAN) {
  return study::judge_order(study::fit_order(pts), {.expected = expected, .tolerance = 0.2, .periods = periods, .exact = {}});
}

}  // namespace

TEST_CASE("the Student-t critical values are the tabulated ones", "[fit]") {
  CHECK(study::student_t(0.99, 1) == Approx(63.657).epsilon(1e-4));
  CHECK(study::student_t(0.99, 2) == Approx(9.925).epsilon(1e-4));
  CHECK(study::student_t(0.99, 3) == Approx(5.841).epsilon(1e-4));
}

TEST_CASE("the fit recovers a known order from clean data, with a tight interval that contains it", "[fit]") {
  for (double p : {1.0, 2.0, 4.0, 6.0}) {
    const auto fit = study::fit_order(synthetic(p, 0.3, 0, 0, 1e-3));
    REQUIRE(fit.determined);
    CHECK(fit.order == Approx(p).margin(1e-9));
    CHECK(fit.r2 == Approx(1).margin(1e-12));
    CHECK(fit.points == 5);
    CHECK(fit.local_slopes.size() == 4);
    CHECK(fit.lo <= p);
    CHECK(fit.hi >= p);
    CHECK(fit.hi - fit.lo < 1e-6);
    CHECK(fit.asymptotic);
    CHECK(judge(synthetic(p, 0.3, 0, 0, 1e-3), p).verdict == "pass");
  }
}

TEST_CASE("a clean order below the expected one fails and above it is undetermined but never a failure", "[fit][verdict]") {
  const auto pts = synthetic(2, 0.3, 0, 0, 1e-3);
  const auto below = judge(pts, 3);
  CHECK(below.verdict == "fail");
  CHECK_THAT(below.reason, Catch::Contains("lies below 3 +/- 0.2") && Catch::Contains("asymptotic"));
  // Just outside the band fails, just inside passes: the band is expected +/- tolerance.
  CHECK(judge(pts, 2.21).verdict == "fail");
  CHECK(judge(pts, 2.19).verdict == "pass");
  CHECK(judge(pts, 1.81).verdict == "pass");
  const auto above = judge(pts, 1);
  CHECK(above.verdict == "undetermined");
  CHECK_THAT(above.reason, Catch::Contains("above 1 +/- 0.2"));
  CHECK_THAT(above.action, Catch::Contains("expect"));
  CHECK(judge(pts, 1.79).verdict == "undetermined");
}

TEST_CASE("above the expected order at whole periods says so", "[fit][verdict]") {
  const auto pts = synthetic(2, 0.3, 0, 0, 1e-3);
  const auto at_period = judge(pts, 1, 10.0);
  CHECK(at_period.verdict == "undetermined");
  CHECK_THAT(at_period.reason, Catch::Contains("t_end is 10 period(s)"));
  CHECK_THAT(at_period.action, Catch::Contains("not a multiple of the period"));
  // 10.5 periods is no multiple: the generic reason.
  CHECK_THAT(judge(pts, 1, 10.5).reason, Catch::Contains("vanishes"));
  // The tolerance is 0.02 of a period whatever the count: what is left of a term that cancels at N periods is
  // periodic in t_end (about sin 2 pi d at N + d), so 10.04 periods is as far from a multiple as 1.04 (0.2 N would
  // have called it 10).
  CHECK_THAT(judge(pts, 1, 10.019).reason, Catch::Contains("t_end is 10 period(s)"));
  CHECK_THAT(judge(pts, 1, 9.981).reason, Catch::Contains("t_end is 10 period(s)"));
  CHECK_THAT(judge(pts, 1, 10.04).reason, Catch::Contains("vanishes"));
  CHECK_THAT(judge(pts, 1, 99.97).reason, Catch::Contains("vanishes"));
  CHECK_THAT(judge(pts, 1, 1.019).reason, Catch::Contains("t_end is 1 period(s)"));
  CHECK_THAT(judge(pts, 1, 1.021).reason, Catch::Contains("vanishes"));
}

TEST_CASE("the window avoids the round-off floor and the pre-asymptotic range", "[fit]") {
  // Order 4 with a floor at 1e-13 and a strong bend at large dt.
  const auto data = synthetic(4, 1.0, 1e-13, 20);
  const auto fit = study::fit_order(data);
  REQUIRE(fit.determined);
  CHECK(fit.lo <= 4);
  CHECK(fit.hi >= 4);
  CHECK(std::abs(fit.order - 4) <= 0.2);
  std::vector<double> x, y;
  for (const auto& p : data) x.push_back(std::log(p.dt)), y.push_back(std::log(p.error));
  double all = 0, r2 = 0;
  study::least_squares(x, y, all, r2);
  CHECK(std::abs(fit.order - 4) < std::abs(all - 4) / 5);
  CHECK(fit.dt_min > 1e-3);   // floor: errors below ~1e-12 are left out
  CHECK(fit.dt_max < 0.1);    // bend: (1 + 20 dt) is far from 1 above that
}

TEST_CASE("the only consistent window may have exactly 3, 4 or 5 points", "[fit]") {
  // Clean order-2 points at the small end, then errors above max_error (0.5) beyond them.
  for (int clean : {3, 4, 5}) {
    std::vector<ErrorPoint> pts;
    for (int k = 0; k < clean; ++k) pts.push_back({1e-3 * std::pow(2.0, k), 0.1 * std::pow(1e-3 * std::pow(2.0, k), 2), 0});
    pts.push_back({1.0, 0.9, 0});
    pts.push_back({2.0, 3.0, 0});
    const auto fit = study::fit_order(pts);
    REQUIRE(fit.determined);
    CHECK(fit.points == static_cast<std::size_t>(clean));
    CHECK(fit.order == Approx(2).margin(1e-9));
    CHECK(judge(pts, 2).verdict == "pass");
  }
  // Two usable points are no window.
  std::vector<ErrorPoint> two{{1e-3, 1e-7, 0}, {2e-3, 4e-7, 0}, {1.0, 0.9, 0}};
  CHECK_FALSE(study::fit_order(two).determined);
}

TEST_CASE("a 3-point window with bending slopes is undetermined, not a failure (RK4 on a wide pendulum)", "[fit][verdict]") {
  // Local slopes 5.30 and 5.06 over three points: the 99 % interval with one degree of freedom is wide.
  std::vector<ErrorPoint> pts{{0.05, 1e-6, 0}, {0.05 * std::pow(2, 0.5), 0, 0}, {0.125, 0, 0}};
  pts[1].error = pts[0].error * std::pow(std::sqrt(2.0), 5.30);
  pts[2].error = pts[1].error * std::pow(0.125 / pts[1].dt, 5.06);
  pts.push_back({0.3, 0.9, 0});  // pre-asymptotic beyond
  const auto fit = study::fit_order(pts);
  REQUIRE(fit.determined);
  CHECK(fit.points == 3);
  CHECK(fit.lo < 4.2);
  const auto v = judge(pts, 4);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.action, Catch::Contains("extend the sweep below dt 0.05") || Catch::Contains("add step sizes"));
}

TEST_CASE("local slopes still moving towards the expected order are pre-asymptotic: extend the sweep", "[fit][verdict]") {
  // error = dt^4 (1 + 5 dt) at ratio 2 from dt 0.5: slopes fall from ~4.6 towards 4 and are still far from it.
  const auto pts = sampled([](double h) { return 1e-2 * std::pow(h, 4) * (1 + 30 * h); }, 0.5, 2, 5);
  const auto fit = study::fit_order(pts);
  REQUIRE(fit.determined);
  CHECK(std::isfinite(fit.trend_limit));
  CHECK(fit.trend_limit < fit.local_slopes.front());  // heading down, towards 4
  CHECK_FALSE(fit.asymptotic);
  const auto v = judge(pts, 4);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("not asymptotic yet"));
  CHECK_THAT(v.action, Catch::Contains("extend the sweep below dt 0.03125"));
  // The same bend, sampled further down, settles and passes.
  CHECK(judge(sampled([](double h) { return 1e-2 * std::pow(h, 4) * (1 + 30 * h); }, 0.5, 2, 16), 4).verdict == "pass");
}

TEST_CASE("still moving when round-off stops the sweep: the action says smaller steps cannot help", "[fit][verdict]") {
  // The same bend as above, but the next smaller step's error sits at the noise floor.
  auto pts = sampled([](double h) { return 1e-2 * std::pow(h, 4) * (1 + 30 * h); }, 0.5, 2, 5);
  for (auto& p : pts) p.floor = 1e-12;
  pts.push_back({pts.back().dt / 2, 5e-12, 1e-12});  // 5 x the floor: left out of the window
  const auto fit = study::fit_order(pts);
  CHECK(fit.floor_below == pts.back().dt);
  const auto v = judge(pts, 4);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.action, Catch::Contains("the errors reach round-off below dt 0.01562, so smaller steps cannot decide it"));
  CHECK_THAT(v.action, !Catch::Contains("extend the sweep"));
  // Without that point the sweep can still be extended.
  pts.pop_back();
  CHECK(study::fit_order(pts).floor_below == 0);
  CHECK_THAT(judge(pts, 4).action, Catch::Contains("extend the sweep below dt 0.03125"));
  // Unless the next halving would reach the floor: the smallest error 1.85e-8 / 2^4 is within 10 x a floor of 2e-10.
  for (auto& p : pts) p.floor = 2e-10;
  CHECK_THAT(judge(pts, 4).action, Catch::Contains("the errors reach round-off below dt 0.03125, so smaller steps cannot"));
  for (auto& p : pts) p.floor = 1e-10;  // 1.16e-9 > 10 x 1e-10: a smaller step still gives a usable point
  CHECK_THAT(judge(pts, 4).action, Catch::Contains("extend the sweep below dt 0.03125"));
}

TEST_CASE("a third-order method that looks fourth-order over its sweep is never failed", "[fit][verdict]") {
  // error = 1e-3 dt^3 + dt^4: slopes near 4 above dt 1e-2, settling to 3 far below.
  auto e = [](double h) { return 1e-3 * std::pow(h, 3) + std::pow(h, 4); };
  const auto short_sweep = sampled(e, 0.08, 2, 4);  // dt 0.08 .. 0.01
  CHECK(judge(short_sweep, 3).verdict == "undetermined");
  const auto long_sweep = sampled(e, 0.08, 2, 20);  // down to 1.5e-7: the slopes reach 3
  CHECK(judge(long_sweep, 3).verdict == "pass");
  CHECK(judge(long_sweep, 4).verdict == "fail");
}

TEST_CASE("fail needs an asymptotic window: scattered slopes below the band are undetermined", "[fit][verdict]") {
  // Slopes alternate 1.0, 1.6, 1.0, 1.6: far below 4 but not consistent within 0.2.
  std::vector<ErrorPoint> pts;
  double e = 1e-6, dt = 1e-3;
  for (int k = 0; k < 5; ++k) {
    pts.push_back({dt, e, 0});
    e *= std::pow(2.0, k % 2 ? 1.6 : 1.0), dt *= 2;
  }
  const auto fit = study::fit_order(pts);
  REQUIRE(fit.determined);
  CHECK_FALSE(fit.asymptotic);
  CHECK(fit.hi < 3.8);
  const auto v = judge(pts, 4);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("scatter"));
}

TEST_CASE("points near the noise floor widen the interval and points within 10x of it are left out", "[fit]") {
  // Clean order 2, floor such that the smallest dt is 20x above it: usable, but its log error may be off by 1/19.
  auto pts = sampled([](double h) { return h * h; }, 0.016, 2, 5);
  const double clean_width = [&] { const auto f = study::fit_order(pts); return f.hi - f.lo; }();
  for (auto& p : pts) p.floor = pts.back().error / 20;
  const auto fit = study::fit_order(pts);
  REQUIRE(fit.determined);
  CHECK(fit.points == 5);
  CHECK(fit.hi - fit.lo > clean_width + 0.01);
  // The widening is exactly what a floor can move the slope: log(error) off by floor / (error - floor) at each
  // point, weighted by |x_i - mean x| / Sxx (the slope's sensitivity to y_i).
  double mx = 0, sxx = 0, widening = 0;
  for (const auto& p : pts) mx += std::log(p.dt) / 5;
  for (const auto& p : pts) sxx += (std::log(p.dt) - mx) * (std::log(p.dt) - mx);
  for (const auto& p : pts) widening += std::abs(std::log(p.dt) - mx) / sxx * p.floor / (p.error - p.floor);
  CHECK((fit.hi - fit.lo) / 2 == Approx(clean_width / 2 + widening).epsilon(1e-9));
  // At 5x the floor a point is out.
  for (auto& p : pts) p.floor = pts.back().error / 5;
  CHECK(study::fit_order(pts).dt_min > pts.back().dt);
}

TEST_CASE("the window never skips usable points that disagree with it, only points near the floor", "[fit]") {
  // Order 2 at the smallest dts, order 4 (clean) above: the asymptotic end decides, the consistent order-4
  // range above it is not taken instead.
  std::vector<ErrorPoint> pts;
  for (int k = 0; k < 3; ++k) pts.push_back({1e-3 * std::pow(2.0, k), 1e-6 * std::pow(4.0, k), 0});
  for (int k = 0; k < 5; ++k) pts.push_back({8e-3 * std::pow(2.0, k), 1.6e-5 * std::pow(16.0, k), 0});
  const auto fit = study::fit_order(pts);
  REQUIRE(fit.determined);
  CHECK(fit.dt_min == 1e-3);
  CHECK(judge(pts, 4).verdict != "pass");
  // Low points that scatter (slopes 0.58, 2.41, 1) within 100x of their floor: they may be passed over.
  pts[1].error = 1.5e-6, pts[2].error = 8e-6;
  for (int k = 0; k < 3; ++k) pts[k].floor = pts[k].error / 50;
  const auto skipped = study::fit_order(pts);
  CHECK(skipped.dt_min > 3e-3);
  CHECK(skipped.order == Approx(4).margin(1e-9));
}

TEST_CASE("too few usable points leave the order undetermined with a reason and an action", "[fit][verdict]") {
  {
    std::vector<ErrorPoint> pts{{0.1, 1e-3, 0}, {0.05, NAN, 0}, {0.025, 2e-4, 0}};
    const auto fit = study::fit_order(pts);
    CHECK_FALSE(fit.determined);
    CHECK_THAT(fit.reason, Catch::Contains("usable point"));
  }
  {
    std::vector<ErrorPoint> pts{{0.1, NAN, 0}, {0.05, NAN, 0}};
    const auto v = judge(pts, 2);
    CHECK(v.verdict == "undetermined");
    CHECK_THAT(v.reason, Catch::Contains("every run diverged"));
    CHECK_THAT(v.action, Catch::Contains("smaller steps"));
  }
  {
    std::vector<ErrorPoint> pts{{0.1, 2.0, 0}, {0.05, 1.0, 0}, {0.025, 0.6, 0}};
    const auto v = judge(pts, 2);
    CHECK_THAT(v.reason, Catch::Contains("above 0.5"));
    CHECK_THAT(v.action, Catch::Contains("extend the sweep below dt 0.025"));
  }
  {
    std::vector<ErrorPoint> pts{{0.1, 1e-15, 1e-15}, {0.05, 2e-15, 1e-15}, {0.025, 1e-15, 1e-15}};
    const auto v = judge(pts, 2);
    CHECK_THAT(v.reason, Catch::Contains("noise floor"));
    CHECK_THAT(v.action, Catch::Contains("larger steps (above dt 0.1)"));
  }
  {  // errors jump from above 0.5 straight to the floor: points are needed in between
    std::vector<ErrorPoint> pts{{0.1, 0.9, 1e-15}, {0.05, 1e-3, 1e-15}, {0.025, 1e-15, 1e-15}, {0.0125, 1e-15, 1e-15}};
    const auto v = judge(pts, 2);
    CHECK_THAT(v.action, Catch::Contains("add step sizes between dt 0.025 and 0.1"));
  }
}

TEST_CASE("an error of exactly 0.5 is not pre-asymptotic: only one above it counts as too large", "[verdict]") {
  // 0.5 dt^2 / 0.01 at dt 0.1, 0.05, 0.025: 0.5, 0.125, 0.03125.
  const std::vector<ErrorPoint> at{{0.1, 0.5, 1e-16}, {0.05, 0.125, 1e-16}, {0.025, 0.03125, 1e-16}};
  const auto fit = study::fit_order(at);
  CHECK(fit.finished == 3);
  CHECK(fit.too_large == 0);
  CHECK(fit.large_dt_min == 0);
  auto above = at;
  above[0].error = std::nextafter(0.5, 1.0);
  const auto over = study::fit_order(above);
  CHECK(over.too_large == 1);
  CHECK(over.large_dt_min == 0.1);
}

TEST_CASE("an exact method's round-off errors say why no order is judged", "[verdict]") {
  std::vector<ErrorPoint> pts{{0.1, 1e-15, 1e-15}, {0.05, 2e-15, 1e-15}, {0.025, 1e-15, 1e-15}};
  const auto v = study::judge_order(study::fit_order(pts), {.expected = 2, .tolerance = 0.2, .periods = NAN,
                                                            .exact = study::exact_on_constant_acceleration("projectile", "global", 2)});
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("exact on constant acceleration"));
  CHECK(study::exact_on_constant_acceleration("projectile", "global", 1).empty());
  CHECK_FALSE(study::exact_on_constant_acceleration("projectile", "max", 2).empty());  // exact at every step
  CHECK(study::exact_on_constant_acceleration("projectile", "local", 2).empty());
  CHECK_FALSE(study::exact_on_constant_acceleration("projectile", "local", 3).empty());
  CHECK(study::exact_on_constant_acceleration("kepler", "global", 4).empty());
}

TEST_CASE("a least-squares fit uses every point, not just the end points", "[fit]") {
  // Pairwise log-ratios telescope to the end points: a bump in the middle would be invisible to them.
  std::vector<double> x{0, 1, 2, 3}, y{0, 1, 3, 3};
  double slope = 0, r2 = 0;
  study::least_squares(x, y, slope, r2);
  CHECK(slope == Approx(1.1));
  CHECK(r2 < 1);
  // Its standard error, from the residuals written out: sqrt(SSR / (n - 2) / Sxx), Sxx = 5.
  const double se = study::slope_std_error(x, y, slope);
  double ssr = 0;
  const double my = 1.75, mx = 1.5;
  for (int i = 0; i < 4; ++i) ssr += std::pow(y[i] - my - slope * (x[i] - mx), 2);
  CHECK(se == Approx(std::sqrt(ssr / 2 / 5)));
}

TEST_CASE("the energy growth exponent: the second half of the samples, exact zeros skipped, its interval by hand", "[fit][known]") {
  const double e = std::exp(1.0), unset = -7;
  // log t = 0, 1, 2 and log|error| = 0, 1, 3 in the second half: slope 3/2, residuals 1/6, -1/3, 1/6, so SSR = 1/6,
  // Sxx = 2, standard error sqrt(SSR / 1 / Sxx) = sqrt(1/12); t(0.99, 1 dof) = 63.657 (any Student-t table).
  // The first half (slope 5, a sign change) must not count.
  const std::vector<double> t{0.2, 0.4, 0.6, 1, e, e * e}, err{1e-9, -3e-8, 1e-6, 1, -e, e * e * e};
  const auto g = study::energy_growth(t, err, unset);
  CHECK(g.exponent == Approx(1.5).epsilon(1e-12));
  const double half = 63.657 * std::sqrt(1.0 / 12);
  CHECK(g.lo == Approx(1.5 - half).epsilon(1e-4));
  CHECK(g.hi == Approx(1.5 + half).epsilon(1e-4));

  // An error of 3 t^2 with exact zeros among the samples, one right after a nonzero sample and one right before:
  // the zeros are skipped, the rest lie on the line (slope 2, no scatter).
  std::vector<double> tt, ee;
  for (int i = 1; i <= 10; ++i) tt.push_back(i), ee.push_back(i == 7 || i == 9 ? 0.0 : 3.0 * i * i);
  ee[4] = 0;  // the last of the first half: a sample after it is not skipped for it
  const auto z = study::energy_growth(tt, ee, unset);
  CHECK(z.exponent == Approx(2).epsilon(1e-12));
  CHECK(z.lo == Approx(2).epsilon(1e-9));
  CHECK(z.hi == Approx(2).epsilon(1e-9));

  // Three usable samples are enough; two are not (every field unset).
  const std::vector<double> t5{1, 2, 3, 4, 5}, e5{0, 0, 16, 0, 50};
  CHECK(study::energy_growth(t5, e5, unset).exponent == unset);
  const std::vector<double> e5b{0, 0, 18, 32, 50};  // 2 t^2 from t = 3
  const auto three = study::energy_growth(t5, e5b, unset);
  CHECK(three.exponent == Approx(2).epsilon(1e-12));
  CHECK(study::energy_growth(t5, e5, unset).lo == unset);
  CHECK(study::energy_growth(t5, e5, unset).hi == unset);
}

TEST_CASE("a denser sweep: the window spans up to 16 in dt whatever its count, its local slopes a factor 1.75 or more", "[fit]") {
  // An automatic sweep's ladder with the levels between its halvings: N = 4, 6, 8, 12, ..., 96 steps of t_end = 2
  // (dt ratios 3/2 and 4/3 in turn), exact error 0.1 dt^3.  By hand: the smallest dt is 2/96; a factor 16 above it
  // is 2/6, so the window holds N = 6 ... 96, 9 points (the 5-point limit applies to sparser sweeps only).
  // Local slopes pair each point with the next one a factor >= 1.75 larger: N with N / 2, from 96/48 to 12/6 (7).
  auto ladder = [](double wiggle) {
    std::vector<ErrorPoint> pts;
    for (long n : {4, 6, 8, 12, 16, 24, 32, 48, 64, 96}) {
      const double dt = 2.0 / static_cast<double>(n);
      pts.push_back({dt, 0.1 * dt * dt * dt * ((n % 3 == 0) ? wiggle : 1.0), 0});
    }
    return pts;
  };
  const auto exact = study::fit_order(ladder(1.0));
  REQUIRE(exact.determined);
  CHECK(exact.points == 9);
  CHECK(exact.dt_min == 2.0 / 96);
  CHECK(exact.dt_max == 2.0 / 6);
  CHECK(exact.local_slopes.size() == 7);
  CHECK_THAT(exact.order, Catch::WithinAbs(3, 1e-12));
  CHECK(exact.asymptotic);
  // The levels between the halvings 4 % high: neighbours' slopes are 3 +/- ln(1.04)/ln(4/3) = 0.136 and
  // ln(1.04)/ln(3/2) = 0.097 in turn, a spread of 0.23 > 0.2, but each local slope joins two of the same kind a
  // factor 2 apart: exactly 3, the window is asymptotic.  The least-squares slope moves from 3 by sum (x - mean)
  // g / Sxx for g = log of the wiggle, in [0, ln 1.04]: at most ln 1.04 times the sum of the positive (x - mean)
  // over Sxx, whichever points carry it.
  const auto wiggly = study::fit_order(ladder(1.04));
  REQUIRE(wiggly.determined);
  CHECK(wiggly.points == 9);
  for (double s : wiggly.local_slopes) CHECK_THAT(s, Catch::WithinAbs(3, 1e-12));
  CHECK(wiggly.asymptotic);
  double mean = 0, sxx = 0, positive = 0;
  const std::vector<long> window{6, 8, 12, 16, 24, 32, 48, 64, 96};
  for (long n : window) mean += std::log(2.0 / static_cast<double>(n)) / 9;
  for (long n : window) {
    const double d = std::log(2.0 / static_cast<double>(n)) - mean;
    sxx += d * d, positive += std::max(d, 0.0);
  }
  CHECK(std::abs(wiggly.order - 3) <= std::log(1.04) * positive / sxx);
  CHECK(wiggly.order != 3);
  // A ladder of halvings alone keeps its 5-point window (span 16 reached at 5 points).
  const auto halvings = study::fit_order(sampled([](double dt) { return 0.1 * dt * dt * dt; }, 0.5, 2, 8));
  CHECK(halvings.points == 5);
  CHECK(halvings.local_slopes.size() == 4);
}

TEST_CASE("a fail needs 3 local slopes: two that agree below the band leave it undetermined, and say so", "[fit][verdict]") {
  // 0.001 dt^6.4 at dt = 1/64, 1/16, 3/16, 9/32 (factors 4, 3, 3/2): local slopes pair each point with the next
  // one >= 1.75 larger: 1/64 -> 1/16 and 1/16 -> 3/16, both exactly 6.4; 3/16 has no partner (3/2 < 1.75).
  // The interval is [6.4, 6.4], below 7 +/- 0.2, over 2 slopes: undetermined.
  std::vector<ErrorPoint> pts;
  for (double dt : {1.0 / 64, 1.0 / 16, 3.0 / 16, 9.0 / 32}) pts.push_back({dt, 0.001 * std::pow(dt, 6.4), 0});
  const auto two = study::fit_order(pts);
  REQUIRE(two.determined);
  CHECK(two.local_slopes.size() == 2);
  CHECK(two.asymptotic);
  const auto v = study::judge_order(two, {.expected = 7, .tolerance = 0.2, .periods = NAN, .exact = {}});
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("lies below 7 +/- 0.2, but over 2 local slope(s) only"));
  CHECK_THAT(v.action, Catch::StartsWith("add step sizes per decade in dt 0.01562..0.2812"));
  CHECK(study::more_points_may_decide(two, {.expected = 7, .tolerance = 0.2, .periods = NAN, .exact = {}}));
  // One more point a factor 2 below (1/128): 3 local slopes, the same fit: a fail.
  pts.push_back({1.0 / 128, 0.001 * std::pow(1.0 / 128, 6.4), 0});
  const auto three = study::fit_order(pts);
  CHECK(three.local_slopes.size() == 3);
  CHECK(study::judge_order(three, {.expected = 7, .tolerance = 0.2, .periods = NAN, .exact = {}}).verdict == "fail");
  CHECK_FALSE(study::more_points_may_decide(three, {.expected = 7, .tolerance = 0.2, .periods = NAN, .exact = {}}));
}

TEST_CASE("one-step errors fail an order only where the same runs' global errors resolve the problem", "[fit][verdict]") {
  // resolved_dt by hand: global errors 3, 0.9, 0.3, 0.6, 0.2, 0.05 at dt 0.4 ... 0.0125; from the smallest step up
  // they stay at most 0.5 until dt 0.05 (0.6): resolved from 0.025 down.  The lucky 0.3 at dt 0.1 does not count.
  std::vector<ErrorPoint> global;
  const double errors[] = {3, 0.9, 0.3, 0.6, 0.2, 0.05};
  for (int k = 0; k < 6; ++k) global.push_back({0.4 / std::pow(2.0, k), errors[k], 1e-16});
  CHECK(study::resolved_dt(global) == 0.025);
  global.back().error = 0.7;  // the smallest step not resolved, its error not below half of 0.3 at dt 0.1: not falling
  CHECK(std::isinf(study::resolved_dt(global)));
  CHECK(std::isinf(study::resolved_dt({})));
  // Still falling: 100, 40, 12, 4, 1.5, 0.7; the smallest step's 0.7 is below half of 12, 40 and 100 (dt >= 8 x
  // 0.0125): a converging method whose steps resolve nothing yet.
  const double falling[] = {100, 40, 12, 4, 1.5, 0.7};
  for (int k = 0; k < 6; ++k) global[static_cast<std::size_t>(k)].error = falling[k];
  CHECK(study::resolved_dt(global) == 0);
  global[2].error = 1.3;  // 0.7 is not below half of 1.3: not clearly falling, infinity
  CHECK(std::isinf(study::resolved_dt(global)));
  // Nothing a factor 8 above the smallest step: too little to tell.
  CHECK(std::isinf(study::resolved_dt({{0.1, 0.9, 0}, {0.05, 0.7, 0}})));

  // A steady one-step slope of 6.4 over dt 1/128 .. 9/32 (3 local slopes) against 7 +/- 0.2.
  std::vector<ErrorPoint> pts;
  for (double dt : {1.0 / 128, 1.0 / 64, 1.0 / 16, 3.0 / 16, 9.0 / 32}) pts.push_back({dt, 0.001 * std::pow(dt, 6.4), 0});
  const auto fit = study::fit_order(pts);
  REQUIRE(fit.local_slopes.size() == 3);
  study::OrderContext c{.expected = 7, .tolerance = 0.2, .periods = NAN, .exact = {}};
  CHECK(study::judge_order(fit, c).verdict == "fail");  // no global errors: infinity
  c.resolved_dt = 1.0 / 128;                              // resolved at the window's smallest step: enough
  CHECK(study::judge_order(fit, c).verdict == "fail");
  c.resolved_dt = 1.0 / 256;                              // resolved only below the window
  const auto v = study::judge_order(fit, c);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("where the same runs' global errors are not all at most 0.5 (they are from dt 0.003906 down)"));
  CHECK(v.action == "extend the sweep below dt 0.007812");
  CHECK_FALSE(study::more_points_may_decide(fit, c));  // points inside the window cannot change that
  c.resolved_dt = 0;  // nothing resolved, errors falling
  CHECK_THAT(study::judge_order(fit, c).reason, Catch::Contains("(above 0.5 at every step run, and still falling)"));
}

TEST_CASE("more points may decide a fit whose local slopes still move, only when they head into the band", "[fit][verdict]") {
  // An 8th-order composition's global errors (tables-harmonic-omega3): fit 7.95, local slopes 7.91 then 7.98 as dt
  // falls, heading for 8.10 (beyond the last by 0.07 x r / (1 - r), r = 0.63); the Student-t part reaches 7.78.
  study::OrderFit f;
  f.determined = true, f.asymptotic = false;  // 8.10 - 7.98 = 0.12 > 0.1: still moving
  f.order = 7.95, f.trend_limit = 8.10, f.lo = 7.78, f.hi = 8.12;
  f.local_slopes = {7.98, 7.91};
  const study::OrderContext c{.expected = 8, .tolerance = 0.2, .periods = NAN, .exact = {}};
  REQUIRE(study::judge_order(f, c).verdict == "undetermined");
  CHECK(study::more_points_may_decide(f, c));  // fit and limit in [7.8, 8.2]: more points narrow the rest
  f.trend_limit = 8.25, f.hi = 8.25;          // heading past the band: more points in the window cannot pass it
  CHECK_FALSE(study::more_points_may_decide(f, c));
  f.trend_limit = 8.10, f.hi = 8.12, f.order = 7.75;  // the fit itself outside the band
  CHECK_FALSE(study::more_points_may_decide(f, c));
  f.order = 7.95, f.trend_limit = NAN;  // slopes that scatter without a trend: not heading anywhere
  CHECK_FALSE(study::more_points_may_decide(f, c));
}

namespace {

/// error = dt^p (1 + bend dt) at dt = dt_max / 2^k, k = 0 .. n-1, each with the noise floor `floor` added (in the sign
/// that alternates, as round-off does) and recorded.
std::vector<ErrorPoint> halvings(double p, double bend, double floor, double dt_max, int n) {
  std::vector<ErrorPoint> pts;
  for (int k = 0; k < n; ++k) {
    const double dt = dt_max / std::exp2(k);
    pts.push_back({dt, std::abs(std::pow(dt, p) * (1 + bend * dt) + floor * (k % 2 ? 1.0 : -0.5)), floor});
  }
  return pts;
}

study::OrderContext context(double expected, double periods = NAN) {
  return {.expected = expected, .tolerance = 0.2, .periods = periods, .exact = {}};
}

}  // namespace

TEST_CASE("wider arithmetic is asked where double round-off ended an order's range before it settled, and only there",
          "[fit][wide]") {
  // An 8th-order error dt^8 (1 + 3 dt) from dt 0.5 (9.8e-3) by halvings: local slopes 8.51, 8.35, 8.21, 8.12, still
  // falling when double's round-off (1e-15) ends the range at dt 0.015625 (3.7e-15 +- 1e-15; dt 0.03125 holds 9.9e-13,
  // above 100 x the floor).  Undetermined (3 points, 8.16 straddling 8 +/- 0.2), and round-off's doing: it ended at
  // dt 0.015625, the largest dt within 100 x the floor.
  const auto pts = halvings(8, 3, 1e-15, 0.5, 6);
  const auto fit = study::fit_order(pts);
  const auto v = study::judge_order(fit, context(8));
  REQUIRE(v.verdict == "undetermined");
  CHECK(study::roundoff_ended_at(fit, pts, v, context(8), 1e-27) == 0.015625);
  // Not where the floor is the reference's (no wider arithmetic lowers it): a bound of 1e-16 makes 1e-15 its 10 x.
  CHECK(study::roundoff_ended_at(fit, pts, v, context(8), 1e-16) == 0);
  // Not a pass; not a method exact by design; not an order above the band at whole periods (the problem's
  // cancellation).
  const auto clean = halvings(8, 0, 1e-15, 0.5, 6);
  CHECK(study::roundoff_ended_at(study::fit_order(clean), clean, study::judge_order(study::fit_order(clean), context(8)),
                                 context(8), 1e-27) == 0);
  auto exact = context(8);
  exact.exact = "exact on constant acceleration";
  CHECK(study::roundoff_ended_at(fit, pts, v, exact, 1e-27) == 0);
  const auto above = halvings(9, 0, 1e-15, 0.5, 6);  // order 9 judged against 7 at 10 periods
  const auto above_fit = study::fit_order(above);
  const auto at_period = study::judge_order(above_fit, context(7, 10));
  REQUIRE(at_period.verdict == "undetermined");
  CHECK(study::roundoff_ended_at(above_fit, above, at_period, context(7, 10), 1e-27) == 0);
  CHECK(study::roundoff_ended_at(above_fit, above, study::judge_order(above_fit, context(7, 10.5)), context(7, 10.5), 1e-27) > 0);
}

TEST_CASE("an order double left undetermined for round-off is decided in the first wider arithmetic that can, named in the "
          "verdict", "[fit][wide]") {
  const auto pts = halvings(8, 3, 1e-15, 0.5, 6);
  const auto fit = study::fit_order(pts);
  const auto v = study::judge_order(fit, context(8));
  // The same error in long double (floor 1e-18: one halving more, still not settled) and float128 (floor 1e-25: four
  // more, slopes 8.05 to 8.003 over dt 0.0039..0.0625).
  const std::vector<study::WidePoints> wide{{"long double", halvings(8, 3, 1e-18, 0.5, 7)}, {"float128", halvings(8, 3, 1e-25, 0.5, 10)}};
  const auto a = study::judge_in_arithmetics(fit, v, pts, wide, context(8), 1e-27);
  CHECK(a.arithmetic == "float128");
  CHECK(a.verdict.verdict == "pass");
  CHECK_THAT(a.verdict.reason, Catch::EndsWith("(float128: double reaches round-off at dt 0.01562 before the order settles)"));
  CHECK(a.fit.dt_min < 0.0157);  // the fit is float128's, below double's floor
  // Without the wider runs (none made, or a step written for double only): double's verdict, unchanged.
  const auto none = study::judge_in_arithmetics(fit, v, pts, {}, context(8), 1e-27);
  CHECK(none.arithmetic == "double");
  CHECK(none.verdict.verdict == "undetermined");
  CHECK(none.roundoff_dt == 0.015625);
  // A decided double verdict is never asked again.
  const auto clean = halvings(8, 0, 1e-15, 0.5, 6);
  const auto pass = study::judge_in_arithmetics(study::fit_order(clean), study::judge_order(study::fit_order(clean), context(8)), clean,
                                                wide, context(8), 1e-27);
  CHECK(pass.arithmetic == "double");
}

TEST_CASE("an order undetermined for another reason rides on the wide runs another order needed", "[fit][wide]") {
  // dt^8 (1 + 3 dt) over 5 halvings from dt 0.5, far above a floor of 1e-30: local slopes 8.51 to 8.21, still falling
  // (not asymptotic yet), no round-off near, as a local order is where double's sweep stopped at the global order's
  // round-off.  The wide runs that order needed go on 5 halvings more (floor 1e-25): slopes within 8 +/- 0.2, a pass.
  const auto pts = halvings(8, 3, 1e-30, 0.5, 5);
  const auto fit = study::fit_order(pts);
  const auto v = study::judge_order(fit, context(8));
  REQUIRE(v.verdict == "undetermined");
  REQUIRE(study::roundoff_ended_at(fit, pts, v, context(8), 1e-27) == 0);
  const auto a = study::judge_in_arithmetics(fit, v, pts, {{"float128", halvings(8, 3, 1e-25, 0.5, 10)}}, context(8), 1e-27);
  CHECK(a.arithmetic == "float128");
  CHECK(a.verdict.verdict == "pass");
  CHECK_THAT(a.verdict.reason, Catch::EndsWith("(float128: the runs another order needed, where double's round-off ended its range)"));
  CHECK(a.roundoff_dt == 0);
  // A double fail is not asked again without round-off of its own, nor a method exact by design.
  const auto low = halvings(7, 0, 1e-30, 0.5, 6);
  const auto low_fit = study::fit_order(low);
  const auto failed = study::judge_order(low_fit, context(8));
  REQUIRE(failed.verdict == "fail");
  CHECK(study::judge_in_arithmetics(low_fit, failed, low, {{"float128", halvings(8, 0, 1e-25, 0.5, 10)}}, context(8), 1e-27).arithmetic ==
        "double");
  auto exact = context(8);
  exact.exact = "exact on constant acceleration";
  CHECK(study::judge_in_arithmetics(fit, study::judge_order(fit, exact), pts, {{"float128", halvings(8, 3, 1e-25, 0.5, 10)}}, exact,
                                    1e-27).arithmetic == "double");
}

TEST_CASE("below the band over steps that do not resolve the problem, round-off ended the range where the resolved steps "
          "reach their floor", "[fit][wide]") {
  // One-step errors dt^6.4 at dt 0.25 .. 0.03125 (4 halvings, a 7th-order local error not asymptotic while the global
  // errors are above 0.5 down to dt 0.02), then at their floor 1e-16 at dt 0.015625 and 0.0078125, resolved.
  std::vector<ErrorPoint> pts;
  for (int k = 0; k < 4; ++k) pts.push_back({0.25 / std::exp2(k), std::pow(0.25 / std::exp2(k), 6.4), 1e-16});
  pts.push_back({0.015625, 1.5e-16, 1e-16}), pts.push_back({0.0078125, 0.8e-16, 1e-16});
  auto c = context(7);
  c.resolved_dt = 0.02;
  const auto fit = study::fit_order(pts);
  const auto v = study::judge_order(fit, c);
  REQUIRE(v.verdict == "undetermined");
  REQUIRE_THAT(v.reason, Catch::Contains("need not be asymptotic"));
  CHECK(study::roundoff_ended_at(fit, pts, v, c, 1e-27) == 0.015625);  // the largest resolved step at its floor
  // Resolved steps above their floor: smaller steps decide it, not a wider arithmetic.
  pts[4].error = 1e-9, pts[5].error = 1e-10;  // 1e6 x the floor
  const auto clear = study::fit_order(pts);
  CHECK(study::roundoff_ended_at(clear, pts, study::judge_order(clear, c), c, 1e-27) == 0);
}

TEST_CASE("a fail in wider arithmetic needs float128's own noise floor: slopes below the order in long double, or above "
          "float128's floor, may still rise", "[fit][wide]") {
  // Steady slopes of 7.6 (a method of order 8 judged at 8 whose slopes have not risen yet, or a broken one).
  const auto dbl = halvings(7.6, 0, 1e-15, 0.5, 7);
  const auto fit = study::fit_order(dbl);
  const auto v = study::judge_order(fit, context(8));
  REQUIRE(v.verdict == "fail");  // double fails at its floor ...
  CHECK(study::roundoff_ended_at(fit, dbl, v, context(8), 1e-27) > 0);  // ... which wider arithmetic is asked about
  // Long double at its floor: not the last word.
  const auto ld = halvings(7.6, 0, 1e-18, 0.5, 8);
  const auto in_long = study::judge_in_arithmetics(fit, v, dbl, {{"long double", ld}}, context(8), 1e-27);
  CHECK(in_long.verdict.verdict == "undetermined");
  CHECK_THAT(in_long.verdict.reason, Catch::Contains("which only float128 can tell"));
  // float128 at its floor (1e-25 from dt 2^-12 = 2.4e-4 on): a fail.
  const auto quad = halvings(7.6, 0, 1e-25, 0.5, 14);
  const auto failed = study::judge_in_arithmetics(fit, v, dbl, {{"long double", ld}, {"float128", quad}}, context(8), 1e-27);
  CHECK(failed.arithmetic == "float128");
  CHECK(failed.verdict.verdict == "fail");
  // float128 stopped above its floor (its budget ran out at dt 2^-9: 2.8e-21, whose next halving, 1.1e-23, is still
  // over 10 x the floor): undetermined.
  const auto short_quad = halvings(7.6, 0, 1e-25, 0.5, 9);
  const auto stopped = study::judge_in_arithmetics(fit, v, dbl, {{"float128", short_quad}}, context(8), 1e-27);
  CHECK(stopped.verdict.verdict == "undetermined");
  CHECK_THAT(stopped.verdict.reason, Catch::Contains("above its noise floor"));
  // And where float128 shows the slopes rising to 8 (the trap), double's fail is overturned: a pass.
  const auto risen = halvings(8, 0, 1e-25, 0.5, 12);
  CHECK(study::judge_in_arithmetics(fit, v, dbl, {{"float128", risen}}, context(8), 1e-27).verdict.verdict == "pass");
  // A double fail no wider arithmetic ran for stays a fail.
  CHECK(study::judge_in_arithmetics(fit, v, dbl, {}, context(8), 1e-27).verdict.verdict == "fail");
}

TEST_CASE("a shadow that parts from the run at a large step is no round-off floor for wider arithmetic", "[fit][wide]") {
  // Seed 000's rk4 at dt 0.0625 on its e = 0.965 orbit: error 23.8, "round-off" 2.46 (the long double run parted from the
  // double one at the close approach): within 100 x, but above 0.5 and not above its floor's error.  Below dt 0.03125 the
  // errors fall with order ~4.4 and are still settling where round-off ends the range: at dt 0.000244 (1.03e-10, within
  // 100 x its floor 4.8e-12), not at 0.0625.
  std::vector<ErrorPoint> pts{{0.0625, 23.76, 2.46},        {0.03125, 0.305, 4.6e-11}, {0.015625, 0.0405, 3.1e-13},
                              {0.0078125, 1.44e-3, 5.6e-14}, {0.00390625, 4.74e-5, 5.5e-14}, {0.001953125, 1.6e-6, 3.6e-13},
                              {0.0009765625, 5.72e-8, 2.7e-13}, {0.00048828125, 2.24e-9, 2.7e-13}, {0.000244140625, 1.03e-10, 4.8e-12},
                              {0.0001220703125, 8.69e-12, 3.9e-12}};
  const auto fit = study::fit_order(pts);
  const auto v = study::judge_order(fit, context(4));
  REQUIRE(v.verdict == "undetermined");
  CHECK(study::roundoff_ended_at(fit, pts, v, context(4), 1e-24) == 0.000244140625);
}

TEST_CASE("local slopes that converge into the band pass: Verner's 8th-order pair in float128 on Kepler e = 0.5",
          "[fit][verdict]") {
  // Measured (float128, t_end 7.3): halvings from dt 0.0285 with the levels between them; floor 2e-26 (10 x the
  // reference's bound).  Local slopes from the smallest dt: 7.92, 7.82, 7.59 (and 6.69 above): rising into 8 +/- 0.2,
  // their differences shrinking (0.10 after 0.23), heading for 7.92 + 0.10 = 8.02.
  const std::vector<ErrorPoint> pts{{0.028516, 5.440e-15, 1.99e-26}, {0.014258, 5.252e-17, 1.99e-26}, {0.0071289, 2.727e-19, 1.99e-26},
                                    {0.0047526, 1.156e-20, 1.99e-26}, {0.0035645, 1.204e-21, 1.99e-26}, {0.0023763, 4.881e-23, 1.99e-26},
                                    {0.0017822, 4.979e-24, 1.99e-26}, {0.00089111, 1.987e-26, 1.99e-26}};
  const auto fit = study::fit_order(pts);
  REQUIRE(fit.determined);
  REQUIRE(fit.local_slopes.size() >= 3);
  CHECK(fit.lo < 7.8);  // the interval alone straddles the band
  const auto v = judge(pts, 8);
  CHECK(v.verdict == "pass");
  CHECK_THAT(v.reason, Catch::Contains("its local slopes converge into 8 +/- 0.2"));
  // Not when the last slope lies outside (the slopes have not reached the band), nor when the differences grow
  // (slopes leaving a band they cross: a 7th-order method's, falling from 8 towards 7), nor against another order.
  study::OrderFit early = fit;
  early.local_slopes = {7.75, 7.6, 7.3};
  early.trend_limit = 7.9, early.order = 7.6;
  CHECK_FALSE(study::converges_into(early, 7.8, 8.2));
  study::OrderFit leaving = fit;
  leaving.local_slopes = {7.85, 7.95, 8.0};  // differences 0.10 after 0.05: growing
  leaving.trend_limit = 7.75, leaving.order = 7.93;
  CHECK_FALSE(study::converges_into(leaving, 7.8, 8.2));
  study::OrderFit settling = fit;
  settling.local_slopes = {7.92, 7.82, 7.59};
  settling.trend_limit = 8.02, settling.order = 7.87;
  CHECK(study::converges_into(settling, 7.8, 8.2));
  CHECK_FALSE(study::converges_into(settling, 8.8, 9.2));
  settling.trend_limit = 8.25;  // heading out of the band
  CHECK_FALSE(study::converges_into(settling, 7.8, 8.2));
}

TEST_CASE("the coefficients' own order decides where the slopes settle on it: a fail above the noise floor, and no pass "
          "above it short of the floor", "[fit][wide]") {
  // Steady slopes of 7 (errors dt^7 from dt 0.5, 7 halvings, float128's floor 1e-30 far below: its window stops at
  // dt 7.8e-3, error 1.8e-15) held to 8, by a table whose order conditions give 7.
  const auto seven = halvings(7, 0, 1e-30, 0.5, 7);
  const auto fit = study::fit_order(seven);
  auto c = context(8);
  const auto dbl = halvings(7, 0, 1e-15, 0.5, 7);  // to double's floor: the fail goes to the wider arithmetics
  const auto dfit = study::fit_order(dbl);
  const auto dv = study::judge_order(dfit, c);
  REQUIRE(dv.verdict == "fail");
  // Without a prediction: slopes below the order may still rise at smaller steps, so float128 stopped above its floor
  // cannot fail it.
  CHECK(study::judge_in_arithmetics(dfit, dv, dbl, {{"float128", seven}}, c, 1e-27).verdict.verdict == "undetermined");
  // With the coefficients' 7: the leading term the order conditions leave does not fade, a fail.
  c.predicted = 7;
  const auto decided = study::judge_in_arithmetics(dfit, dv, dbl, {{"float128", seven}}, c, 1e-27);
  CHECK(decided.verdict.verdict == "fail");
  CHECK_THAT(decided.verdict.reason, Catch::Contains("the order 7 its coefficients give"));
  // A prediction the slopes do not settle on (6) decides nothing.
  c.predicted = 6;
  CHECK(study::judge_in_arithmetics(dfit, dv, dbl, {{"float128", seven}}, c, 1e-27).verdict.verdict == "undetermined");

  // Held to 7 by a table that gives 6 (verner6: slopes of 6.9 to tiny steps, from a principal error coefficient of
  // 1.5e-6): within 7 +/- 0.2, but a window that stops above its floor may still fall to 6.
  auto claim = context(7);
  claim.predicted = 6;
  const auto v = study::judge_order(fit, claim);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("above the order 6 its coefficients give on every problem"));
  CHECK(study::judge_order(fit, context(7)).verdict == "pass");  // no prediction: the pass it was
  // Down to the noise floor (1e-15 below dt 0.0156: the next halving would be within 10 x it) of double or long double,
  // the slopes may still fall below it: verner6's one-step slopes on Kepler's problem are 8.00 down to errors of
  // 5e-22 and 7.0 below 2e-24 (an 80-digit Taylor solve): on to float128.
  const auto floored = study::fit_order(halvings(7, 0, 1e-15, 0.5, 6));
  const auto narrow = study::judge_order(floored, claim);
  CHECK(narrow.verdict == "undetermined");
  CHECK_THAT(narrow.reason, Catch::Contains("down to this arithmetic's noise floor (dt 0.01562)"));
  CHECK_THAT(narrow.action, Catch::Contains("let float128 run to its noise floor"));
  // Down to float128's floor, nothing measurable is below the order: this problem's, a pass.
  claim.widest = true;
  CHECK(study::judge_order(floored, claim).verdict == "pass");
  claim.widest = false;
  // Predicted at or above the band: no restriction.
  claim.predicted = 7;
  CHECK(study::judge_order(fit, claim).verdict == "pass");
}

TEST_CASE("on a linear problem, slopes that settle on the order of the stability function pass above the declared one",
          "[fit]") {
  // Tsitouras and Papakostas' 6th-order table matches exp(z) to z^7 (its tall-tree conditions hold to order 7): on the
  // harmonic oscillator its errors fall as dt^7 (float128 measured 7.00 in [6.97, 7.03]).  Steady slopes of 7 from
  // dt 0.5, 7 halvings, above a floor of 1e-30, held to the declared 6.
  const auto fit = study::fit_order(halvings(7, 0, 1e-30, 0.5, 7));
  auto c = context(6);
  c.predicted = 6;
  const auto general = study::judge_order(fit, c);  // the general order alone: a vanishing term, or an order too low
  CHECK(general.verdict == "undetermined");
  c.linear_predicted = 7;
  const auto v = study::judge_order(fit, c);
  CHECK(v.verdict == "pass");
  CHECK_THAT(v.reason, Catch::Contains("lies within 7 +/- 0.2, the order its coefficients give on linear problems"));
  // A stability function that gives 8 explains nothing here.
  c.linear_predicted = 8;
  CHECK(study::judge_order(fit, c).verdict == "undetermined");
  // Slopes converging into 7 from above (dt^7 (1 + 3 dt): 7.5 at the large steps): a pass too.
  const auto bending = study::fit_order(halvings(7, 3, 1e-30, 0.5, 7));
  c.linear_predicted = 7;
  CHECK(study::judge_order(bending, c).verdict == "pass");
  // Held to 7 on that problem: the coefficients give 7 there, so a window that stops above its floor passes (on every
  // problem, 6 would leave it undetermined: the slopes might fall to 6).
  auto held = context(7);
  held.predicted = 6;
  CHECK(study::judge_order(fit, held).verdict == "undetermined");
  held.linear_predicted = 7;
  CHECK(study::judge_order(fit, held).verdict == "pass");
}

TEST_CASE("above an order the coefficients confirm: a pass where the slopes hold to the noise floor, else what to extend",
          "[fit]") {
  // Slopes of 7 held to 6 by a table whose conditions give 6 (verner6 on the pendulum, float128: 6.99 in [6.98, 7.00]).
  const auto fit = study::fit_order(halvings(7, 0, 1e-30, 0.5, 7));
  auto c = context(6);
  const auto unknown = study::judge_order(fit, c);
  CHECK(unknown.verdict == "undetermined");
  CHECK_THAT(unknown.reason, Catch::Contains("or the declared order is too low"));
  c.predicted = 6;
  const auto v = study::judge_order(fit, c);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("the order its coefficients give on every problem") && !Catch::Contains("too low"));
  CHECK_THAT(v.action, Catch::StartsWith("extend the sweep below dt 0.007812"));  // its window stops far above 1e-30
  // The same slopes down to a floor of 1e-15 (dt 0.0156: 2.3e-13, and the next halving, 2^-6 of it for order 6, 3.5e-15,
  // would be within 10 x the floor): in the widest arithmetic nothing smaller can be measured, and the coefficients fix
  // 6 -- a pass, which says why; at a narrower arithmetic's floor a wider one may still see the slopes fall.
  const auto floored_points = halvings(7, 0, 1e-15, 0.5, 6);
  const auto floored = study::fit_order(floored_points);
  const auto narrower = study::judge_order(floored, c);
  CHECK(narrower.verdict == "undetermined");
  CHECK_THAT(narrower.action, Catch::StartsWith("let float128 run to its noise floor"));
  c.widest = true;
  const auto at_floor = study::judge_order(floored, c);
  CHECK(at_floor.verdict == "pass");
  CHECK_THAT(at_floor.reason, Catch::Contains("steady down to the noise floor of float128's runs (dt 0.01562), and the coefficients give 6"));
  // In float128 too, a window that stops above the floor (1e-30) may still fall: undetermined.
  CHECK(study::judge_order(fit, c).verdict == "undetermined");
  // On a linear problem whose stability function gives 7, that rule judges it instead.
  c.linear_predicted = 7;
  CHECK_THAT(study::judge_order(floored, c).reason, Catch::Contains("on linear problems"));
  c.linear_predicted = NAN;
  // judge_in_arithmetics sets it for float128's points only.
  c.widest = false;
  const auto double_points = halvings(7, 0, 1e-13, 0.5, 6);  // round-off (1e-13) ends its range at dt 0.0156
  const auto in_double = study::fit_order(double_points);
  const auto dv = study::judge_order(in_double, c);
  REQUIRE(dv.verdict == "undetermined");
  CHECK(study::judge_in_arithmetics(in_double, dv, double_points, {{"long double", floored_points}}, c, 1e-27).verdict.verdict ==
        "undetermined");
  CHECK(study::judge_in_arithmetics(in_double, dv, double_points, {{"float128", floored_points}}, c, 1e-27).verdict.verdict == "pass");
  c.widest = true;
  // Not without the coefficients' word (a declared order may be too low), nor where they give another order.
  auto unpredicted = context(6);
  unpredicted.widest = true;
  CHECK(study::judge_order(floored, unpredicted).verdict == "undetermined");
  c.predicted = 5;
  CHECK(study::judge_order(floored, c).verdict == "undetermined");
}
