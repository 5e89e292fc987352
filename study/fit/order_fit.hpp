#pragma once
/// Observed order of convergence and its verdict: the one fit the engine records (study/results/orders.cpp) and the
/// gate fits again from the file (study/check/), below both in the layers.
///
/// The fit: least-squares slope of log(error) on log(dt) over a window at the asymptotic (small-dt) end of the
/// sweep.  A mean of pairwise log-ratios would telescope to the end points; least squares uses every point.
/// Points are left out when not finite, when the error is too large to be asymptotic, or when it is within a
/// factor of the noise floor (round-off, or the reference's own error).
///
/// The interval: the slope's 99 % Student-t interval from its standard error (ClimaTimeSteppers does the
/// same), widened by what the noise floors can move it (each log error by at most floor / (error - floor)),
/// and stretched towards where the local slopes are heading when they still move monotonically: a correction
/// term of order dt^q, q >= 1, shrinks by at least the step ratio per point, so the slopes' limit lies within
/// d r / (1 - r) of the last one (d: the last change, r: 1 / step ratio).
///
/// The verdict (DESIGN.md §6 "verdicts with evidence"): pass when the whole interval lies within expected ±
/// tolerance; fail only when, in addition, the window is asymptotic (its local slopes agree within the
/// tolerance and do not trend), holds at least 3 local slopes (two can agree on a bending curve: Butcher's 6th-
/// order method on Arenstorf's orbit gives one-step slopes 6.29 and 6.43 over dt 0.017..0.18, far from its 7),
/// its smallest step resolves the problem (for one-step errors: the same runs' global errors are at most 0.5 from
/// there down, unless they never are), and the whole interval lies below it; otherwise undetermined, with the action
/// that would decide it.  An order above the expected one is never a failure: the leading error term may vanish
/// for a problem or at a time (symplectic Euler at multiples of the Kepler period), which is news, not a bug; and on a
/// linear problem, where a Runge–Kutta table's stability function matches exp beyond its order, an interval on that
/// order (OrderContext::linear_predicted) passes.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

namespace study {

/// One measurement: step size, error, and the error level below which it is noise.
struct ErrorPoint {
  double dt = 0;
  double error = 0;
  double floor = 0;
};

/// The fitted order, its interval and how it was obtained.
struct OrderFit {
  bool determined = false;         ///< a window of >= min_points usable points was found
  std::string reason;              ///< why not determined
  double order = 0;                ///< least-squares slope
  double r2 = 0;                   ///< coefficient of determination of the log-log fit
  double dt_min = 0, dt_max = 0;   ///< the window
  std::size_t points = 0;          ///< points in the window
  /// Slopes from each point of the window to the next one at least slope_ratio larger in dt (its neighbour on a
  /// ladder of halvings or up to 4 per decade; one further on a denser sweep, whose close neighbours would
  /// amplify the scatter of the errors), smallest dt first.
  std::vector<double> local_slopes;
  double std_error = 0;            ///< standard error of the slope
  double lo = 0, hi = 0;           ///< the interval: 99 % Student t, noise floors and trend included
  bool asymptotic = false;         ///< local slopes agree within the tolerance and do not trend
  double trend_limit = NAN;        ///< where monotonically moving local slopes are heading (NaN: no trend)
  // What the sweep looked like, for the reasons of an undetermined verdict.
  std::size_t total = 0, finished = 0, too_large = 0, at_floor = 0;
  double sweep_dt_min = 0, sweep_dt_max = 0;
  double floor_dt_max = 0;         ///< largest dt whose error is at the noise floor (0: none)
  double large_dt_min = 0;         ///< smallest dt whose error is above max_error (0: none)
  double floor_below = 0;          ///< largest dt below the window whose error is near the noise floor (0: none)
  double min_error = 0, min_floor = 0;  ///< error and noise floor at the window's smallest dt
  /// A window above usable points (pass_over_faster) whose error falls faster than the window's by more than the
  /// tolerance: that slope, from the smallest such dt to the window (NaN: none).  The asymptotic range is there, so the
  /// window is not asymptotic: it may pass (the pair does better there), never fail.
  double steeper_below = NAN, steeper_from = 0;
};

/// Settings of the window choice and the interval.
struct FitOptions {
  double max_error = 0.5;        ///< larger errors are pre-asymptotic whatever the slopes (units of the error)
  double floor_factor = 10;      ///< keep errors above floor_factor x floor
  double near_floor_factor = 100;  ///< points below this x floor may be passed over at the small-dt end
  double tolerance = 0.2;        ///< local slopes agree within this (also the verdict's tolerance)
  std::size_t max_points = 5;    ///< window length at most, or more points as long as they span at most max_span
  double max_span = 16;          ///< dt_max / dt_min of a window of more than max_points (4 halvings)
  double slope_ratio = 1.75;     ///< a local slope spans at least this factor in dt (halvings: neighbours)
  std::size_t min_points = 3;
  /// A tolerance sweep's fit: the window may start above usable points at the small end whose error falls at least as
  /// fast as the window's (slope to its first point >= the window's - tolerance: a pair doing better there contradicts
  /// nothing; an error that stops falling does, and is never passed over), and the longest agreeing window wins.
  bool pass_over_faster = false;
  double confidence = 0.99;      ///< of the Student-t interval
};

/// Least-squares slope and R^2 of y on x.
inline void least_squares(const std::vector<double>& x, const std::vector<double>& y, double& slope, double& r2) {
  const double n = static_cast<double>(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my), syy += (y[i] - my) * (y[i] - my);
  slope = sxy / sxx;
  r2 = syy > 0 ? sxy * sxy / (sxx * syy) : 1.0;
}

/// The slope's standard error from the residuals of the least-squares line (needs >= 3 points).
inline double slope_std_error(const std::vector<double>& x, const std::vector<double>& y, double slope) {
  const double n = static_cast<double>(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, ssr = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    const double r = y[i] - my - slope * (x[i] - mx);
    ssr += r * r;
  }
  return std::sqrt(ssr / (n - 2) / sxx);
}

/// The two-sided Student-t critical value for `confidence` with `dof` degrees of freedom (63.66 for 1 at 99 %).
inline double student_t(double confidence, std::size_t dof) {
  const boost::math::students_t dist(static_cast<double>(dof));
  return boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
}

/// Slope of log|error| on log t over the second half of the samples (in order) from time `from` on, skipping exact
/// zeros (an error below resolution has no logarithm), and its Student-t interval at `confidence`; all three stay
/// `unset` with fewer than 3 usable samples.  The energy growth exponent of a long run (0: bounded, 1: linear drift),
/// fitted to its envelope (the largest error so far, energy_run).
struct Growth {
  double exponent, lo, hi;
};
inline Growth energy_growth(const std::vector<double>& t, const std::vector<double>& error, double unset,
                            double confidence = 0.99, double from = 0) {
  std::vector<double> lx, ly;
  for (std::size_t i = t.size() / 2; i < t.size(); ++i)
    if (std::abs(error[i]) > 0 && t[i] >= from) lx.push_back(std::log(t[i])), ly.push_back(std::log(std::abs(error[i])));
  if (lx.size() < 3) return {unset, unset, unset};
  double slope = 0, r2 = 0;
  least_squares(lx, ly, slope, r2);
  const double half = student_t(confidence, lx.size() - 2) * slope_std_error(lx, ly, slope);
  return {slope, slope - half, slope + half};
}

/// Fits the order over the asymptotic window of `points` (any order).  The window starts at the smallest usable
/// dt -- passing over points near the noise floor only, never over usable points that would contradict it --
/// and is the longest (up to max_points) whose local slopes agree within the tolerance; if none agrees, the
/// longest there is, and the verdict will not call it asymptotic.
inline OrderFit fit_order(std::vector<ErrorPoint> points, const FitOptions& o = {}) {
  std::sort(points.begin(), points.end(), [](const ErrorPoint& a, const ErrorPoint& b) { return a.dt < b.dt; });
  OrderFit fit;
  const std::size_t m = points.size();
  fit.total = m;
  auto finite = [](const ErrorPoint& p) { return std::isfinite(p.error) && p.error >= 0; };
  auto at_floor = [&](const ErrorPoint& p) { return finite(p) && p.error <= o.floor_factor * p.floor; };
  auto usable = [&](const ErrorPoint& p) { return finite(p) && p.error > 0 && p.error <= o.max_error && !at_floor(p); };
  auto near_floor = [&](const ErrorPoint& p) { return finite(p) && p.error <= o.near_floor_factor * p.floor; };
  for (const auto& p : points) {
    if (!finite(p)) continue;
    ++fit.finished;
    if (p.error > o.max_error) ++fit.too_large, fit.large_dt_min = fit.large_dt_min > 0 ? std::min(fit.large_dt_min, p.dt) : p.dt;
    else if (at_floor(p)) ++fit.at_floor, fit.floor_dt_max = std::max(fit.floor_dt_max, p.dt);
  }
  if (m) fit.sweep_dt_min = points.front().dt, fit.sweep_dt_max = points.back().dt;
  std::vector<double> x(m), y(m);
  for (std::size_t i = 0; i < m; ++i) x[i] = std::log(points[i].dt), y[i] = std::log(points[i].error);

  // Candidate starts: every usable point from the smallest dt up, until a point that is neither at nor near
  // the noise floor: points near the floor may be passed over, points that would contradict the window may not.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < m; ++i) {
    if (usable(points[i])) starts.push_back(i);
    if (!near_floor(points[i]) && !o.pass_over_faster) break;
  }
  auto run_from = [&](std::size_t s) {
    std::size_t n = 0;
    while (s + n < m && usable(points[s + n])) ++n;
    return n;
  };
  const std::size_t run = starts.empty() ? 0 : run_from(starts.front());

  struct Window {
    std::size_t first = 0, n = 0;
  };
  std::optional<Window> chosen, fallback;
  auto local_slopes = [&](Window w) {
    std::vector<double> local;
    for (std::size_t i = w.first; i < w.first + w.n; ++i) {
      std::size_t j = i + 1;
      while (j < w.first + w.n && points[j].dt < o.slope_ratio * points[i].dt) ++j;
      if (j == w.first + w.n) break;
      local.push_back((y[j] - y[i]) / (x[j] - x[i]));
    }
    return local;
  };
  // The longest window from s: max_points points, or more while they span at most max_span in dt.
  auto longest = [&](std::size_t s) {
    std::size_t n = std::min(run_from(s), o.max_points);
    while (s + n < m && n < run_from(s) && points[s + n].dt <= o.max_span * points[s].dt * (1 + 1e-9)) ++n;
    return n;
  };
  for (std::size_t s : starts) {
    std::optional<Window> here;
    for (std::size_t n = longest(s); n >= o.min_points && !here; --n) {
      const Window w{s, n};
      if (!fallback) fallback = w;
      const std::vector<double> wx(x.begin() + s, x.begin() + s + n), wy(y.begin() + s, y.begin() + s + n);
      double slope = 0, r2 = 0;
      least_squares(wx, wy, slope, r2);
      const auto local = local_slopes(w);
      if (local.empty()) continue;  // a window too short to take one local slope over
      const auto [lo, hi] = std::minmax_element(local.begin(), local.end());
      bool agree = *hi - *lo <= o.tolerance;
      for (double l : local) agree = agree && std::abs(l - slope) <= o.tolerance;
      // Usable points passed over below it, not near the floor, must fall at least as fast towards it.
      for (std::size_t i = 0; i < s && agree; ++i)
        if (usable(points[i]) && !near_floor(points[i])) agree = (y[s] - y[i]) / (x[s] - x[i]) >= slope - o.tolerance;
      if (agree) here = w;
    }
    if (here && (!chosen || here->n > chosen->n)) chosen = here;  // the longest; of equal ones the smallest start
    if (chosen && !o.pass_over_faster) break;
  }
  if (!chosen && !fallback) {
    fit.reason = run == 0 ? "no usable point" : "only " + std::to_string(run) + " consecutive usable point(s) at the small-dt end";
    return fit;
  }
  const Window w = chosen ? *chosen : *fallback;
  const std::vector<double> wx(x.begin() + w.first, x.begin() + w.first + w.n), wy(y.begin() + w.first, y.begin() + w.first + w.n);
  fit.determined = true;
  least_squares(wx, wy, fit.order, fit.r2);
  fit.dt_min = points[w.first].dt, fit.dt_max = points[w.first + w.n - 1].dt, fit.points = w.n;
  fit.local_slopes = local_slopes(w);
  fit.std_error = slope_std_error(wx, wy, fit.order);
  for (std::size_t i = 0; i < w.first; ++i)
    if (near_floor(points[i])) fit.floor_below = std::max(fit.floor_below, points[i].dt);
  fit.min_error = points[w.first].error, fit.min_floor = points[w.first].floor;

  // The floors: log(error) may be off by floor / (error - floor); the slope moves by sum |dslope/dy_i| of that.
  double mx = 0, sxx = 0, floor_width = 0;
  for (double v : wx) mx += v / static_cast<double>(w.n);
  for (double v : wx) sxx += (v - mx) * (v - mx);
  for (std::size_t i = 0; i < w.n; ++i) {
    const ErrorPoint& p = points[w.first + i];
    floor_width += std::abs(wx[i] - mx) / sxx * p.floor / (p.error - p.floor);
  }
  const double half = student_t(o.confidence, w.n - 2) * fit.std_error + floor_width;
  fit.lo = fit.order - half, fit.hi = fit.order + half;

  // Trend: local slopes that move monotonically as dt falls are heading for a limit beyond the last one.
  const auto& s = fit.local_slopes;
  bool monotone = s.size() >= 2;
  for (std::size_t i = 1; i + 1 < s.size() && monotone; ++i) monotone = (s[i - 1] - s[i]) * (s[i] - s[i + 1]) > 0;
  monotone = monotone && s[0] != s[1];
  const auto [slo, shi] = std::minmax_element(s.begin(), s.end());
  const bool slopes_agree = !s.empty() && *shi - *slo <= o.tolerance;
  bool trending = false;
  if (monotone) {
    const double ratio = std::pow(fit.dt_max / fit.dt_min, 1.0 / static_cast<double>(w.n - 1));  // mean step ratio
    const double r = 1 / ratio, d = s[0] - s[1];
    fit.trend_limit = s[0] + d * r / (1 - r);
    fit.lo = std::min(fit.lo, fit.trend_limit), fit.hi = std::max(fit.hi, fit.trend_limit);
    trending = std::abs(fit.trend_limit - s[0]) > o.tolerance / 2;
  }
  for (std::size_t i = 0; i < w.first; ++i)
    if (usable(points[i]) && !near_floor(points[i])) {
      if (const double tail = (y[w.first] - y[i]) / (x[w.first] - x[i]); tail > fit.order + o.tolerance)
        fit.steeper_below = tail, fit.steeper_from = points[i].dt;
      break;
    }
  fit.asymptotic = chosen.has_value() && slopes_agree && !trending && !std::isfinite(fit.steeper_below);
  return fit;
}

/// What a verdict needs to know besides the fit.
struct OrderContext {
  double expected = 0;
  double tolerance = 0.2;
  /// t_end / period when the problem's solution is periodic with that period (NaN otherwise): errors of some
  /// orders cancel at whole periods.
  double periods = NAN;
  /// Set when the method is exact on this problem (every error is round-off by design): why.
  std::string exact;
  /// One-step errors only: the largest dt from which down the same runs' global errors are all at most 0.5
  /// (resolved_dt below); infinity when the global error is not measured or never gets there.
  double resolved_dt = INFINITY;
  /// The order the method's coefficients give on every problem (its order conditions, exactly: a table's), for this
  /// metric; NaN when not known.  An independent source: where the slopes settle on it, they do not rise above it,
  /// and where a spec expects more, slopes that reach the expected order only may still fall to it.
  double predicted = NAN;
  /// On a linear problem, the order of the method's stability function where it is above `predicted` (a Runge–Kutta
  /// table's linear_order), for this metric; NaN otherwise.  Every term of a lower order vanishes on such a problem,
  /// so slopes that settle on it are the method's, above the declared order as they may be.
  double linear_predicted = NAN;
  /// Judged in the widest arithmetic there is (float128): below its noise floor no arithmetic here measures anything.
  bool widest = false;
};

/// Whether a fit's window reaches its noise floor at the small-dt end: a point below it near the floor, or the next
/// halving within 10 x it (judge_order's rule for "smaller steps cannot decide it").
inline bool window_at_floor(const OrderFit& f, const OrderContext& c, const FitOptions& o = {}) {
  return f.determined &&
         (f.floor_below > 0 || (f.min_floor > 0 && f.min_error / std::exp2(c.expected) <= o.floor_factor * f.min_floor));
}

/// OrderContext::predicted from what the coefficients say: `order` when a condition of order + 1 fails (a finite
/// principal error coefficient), one more for one-step errors; NaN when unknown (0) or only a lower bound (every
/// checked order holds).
inline double predicted_order(int order, double error_coefficient, const std::string& metric) {
  if (order <= 0 || !std::isfinite(error_coefficient)) return NAN;
  return order + (metric == "local" ? 1 : 0);
}

/// Sets what the coefficients say on the context, for this metric: the order on every problem (a failing condition's
/// order, NaN when unknown) and, on a linear problem, the stability function's where it is higher (0: none).  The
/// engine (results/orders.cpp) and the gate (check/check.cpp) both judge with it, from the same numbers.
inline void set_predictions(OrderContext& c, int order, double error_coefficient, int linear_order, const std::string& metric) {
  c.predicted = predicted_order(order, error_coefficient, metric);
  c.linear_predicted = linear_order > 0 ? predicted_order(linear_order, 1, metric) : NAN;
}

/// Whether a fit settles on the order the coefficients predict: its interval within predicted +/- tolerance.
inline bool settles_on_predicted(const OrderFit& f, const OrderContext& c) {
  return std::isfinite(c.predicted) && f.determined && f.lo >= c.predicted - c.tolerance && f.hi <= c.predicted + c.tolerance;
}

/// The largest dt such that every finished run at or below it has a global error of at most max_error: where the
/// steps resolve the problem.  When even the smallest step does not: 0 (nothing is resolved) while the errors
/// still fall -- the smallest step's below half of every error a factor 8 or more above it in dt (a converging
/// method of order p >= 1 divides it by 8^p there) -- and infinity when they do not, or there is too little to
/// tell (an inconsistent method never resolves anything, and its one-step errors are all there is to judge it by).
inline double resolved_dt(std::vector<ErrorPoint> global, const FitOptions& o = {}) {
  std::erase_if(global, [](const ErrorPoint& p) { return !std::isfinite(p.error); });
  std::sort(global.begin(), global.end(), [](const ErrorPoint& a, const ErrorPoint& b) { return a.dt < b.dt; });
  if (global.empty()) return INFINITY;
  if (global.front().error > o.max_error) {
    const ErrorPoint& small = global.front();
    bool above = false, falling = true;
    for (const ErrorPoint& p : global)
      if (p.dt >= 8 * small.dt * (1 - 1e-9)) above = true, falling = falling && small.error < p.error / 2;
    return above && falling ? 0.0 : INFINITY;
  }
  double d = INFINITY;
  for (const ErrorPoint& p : global) {
    if (!(p.error <= o.max_error)) break;
    d = p.dt;
  }
  return d;
}

/// pass, fail or undetermined, with a one-line reason and (undetermined) the action that would decide it.
struct OrderVerdict {
  std::string verdict;  ///< "pass", "fail" or "undetermined"
  std::string reason, action;
};

/// Constant acceleration (`projectile`): x(t) is quadratic, so a method of global order >= 2 is exact at every
/// step (its largest error over the run too) and so is one step of a method of local order >= 3 (seed 001;
/// DESIGN.md §4): every error is round-off, no order can be measured.  Why, or "" when that is not the case.
inline std::string exact_on_constant_acceleration(const std::string& problem, const std::string& metric, int expected) {
  if (problem != "projectile" || expected < (metric == "local" ? 3 : 2)) return {};
  return "exact on constant acceleration: every error is round-off";
}

inline std::string short_num(double x) { return fmt::format("{:.4g}", x); }

/// How close to a whole number of periods t_end must lie (in periods) for the verdict to blame a cancellation there.
inline constexpr double at_period_tolerance = 0.02;

/// Local slopes that converge into the band: a correction term of order dt^q, q >= 1, changes the local slope by a
/// factor of the step ratio or more per point, so slopes whose last two differences shrink, with the last slope, the
/// fit and the limit they head for (trend_limit) all within the band, have reached the order within the band even
/// where the Student-t interval over the window's earlier, still-moving slopes reaches out of it (an 8th-order method in
/// float128: 7.59, 7.82, 7.92 heading for 8.02).  A method of another order does not do this: its slopes move away
/// from any band they cross, their differences growing.  Over at least 3 local slopes.
inline bool converges_into(const OrderFit& f, double lo_band, double hi_band) {
  const auto& s = f.local_slopes;
  if (!f.determined || s.size() < 3 || !std::isfinite(f.trend_limit)) return false;
  const double d0 = s[0] - s[1], d1 = s[1] - s[2];
  const bool shrinking = d0 * d1 > 0 && std::abs(d0) < std::abs(d1);
  auto in = [&](double x) { return x >= lo_band && x <= hi_band; };
  return shrinking && in(s[0]) && in(f.order) && in(f.trend_limit);
}

/// The fewest local slopes a failing window holds.
inline constexpr std::size_t min_fail_slopes = 3;

/// A fit that neither passes nor fails, and not for lying above the band, where more points in its window may
/// decide it: an asymptotic one whose interval straddles the band, or lies below it over fewer than
/// min_fail_slopes local slopes (more points narrow the interval and add local slopes); or one whose local slopes
/// still move, but towards the band: the fit and the limit they head for both lie within it, and only the
/// Student-t part of the interval, which more points narrow, reaches out of it.
inline bool more_points_may_decide(const OrderFit& f, const OrderContext& c) {
  const double lo_band = c.expected - c.tolerance, hi_band = c.expected + c.tolerance;
  const bool passes = f.lo >= lo_band && f.hi <= hi_band, fails = f.hi < lo_band && f.local_slopes.size() >= min_fail_slopes;
  const bool unresolved = f.hi < lo_band && f.dt_min > c.resolved_dt * (1 + 1e-9);  // more points there cannot help
  const bool heading_in = std::isfinite(f.trend_limit) && std::min(f.order, f.trend_limit) >= lo_band &&
                          std::max(f.order, f.trend_limit) <= hi_band;
  return f.determined && (f.asymptotic || heading_in) && c.exact.empty() && !passes && !fails && !unresolved && f.lo <= hi_band;
}

/// The verdict on a fit (rules in the header comment).
inline OrderVerdict judge_order(const OrderFit& f, const OrderContext& c) {
  const double lo_band = c.expected - c.tolerance, hi_band = c.expected + c.tolerance;
  const std::string band = fmt::format("{:.3g} +/- {}", c.expected, c.tolerance);
  if (!f.determined) {
    if (!c.exact.empty() && f.finished > 0) return {"undetermined", c.exact, "none: the exactness check judges it"};
    if (f.finished == 0)
      return {"undetermined", "every run diverged", "use smaller steps: no run below dt " + short_num(f.sweep_dt_min) + " finished"};
    if (f.too_large == f.finished)
      return {"undetermined", "every error is above 0.5 (pre-asymptotic)", "extend the sweep below dt " + short_num(f.sweep_dt_min)};
    if (f.at_floor == f.finished)
      return {"undetermined", "the errors reach the noise floor (round-off, the reference's bound) at every dt",
              "use larger steps (above dt " + short_num(f.sweep_dt_max) + ")"};
    if (f.at_floor > 0 && f.too_large > 0 && f.floor_dt_max < f.large_dt_min)
      return {"undetermined",
              fmt::format("{}: fewer than 3 between the pre-asymptotic range (errors above 0.5 from dt {}) and the noise floor "
                          "(up to dt {})", f.reason, short_num(f.large_dt_min), short_num(f.floor_dt_max)),
              fmt::format("add step sizes between dt {} and {} (more per decade)", short_num(f.floor_dt_max), short_num(f.large_dt_min))};
    return {"undetermined", f.reason, "extend the sweep below dt " + short_num(f.sweep_dt_min) + ", or add step sizes per decade"};
  }
  const std::string observed = fmt::format("{:.2f} in [{:.2f}, {:.2f}] (99%)", f.order, f.lo, f.hi);
  const std::string window = fmt::format("dt {}..{}", short_num(f.dt_min), short_num(f.dt_max));
  const bool moving = std::isfinite(f.trend_limit) && std::abs(f.trend_limit - f.local_slopes.front()) > c.tolerance / 2;
  const std::string slopes = f.local_slopes.empty() ? std::string()
                                                     : fmt::format("local slopes {:.2f} at the largest dt to {:.2f} at the smallest",
                                                                   f.local_slopes.back(), f.local_slopes.front());
  // Above what the coefficients give on every problem, a pass needs its window to reach the noise floor: the
  // higher-order terms of a method optimised for a small leading one outweigh it down to tiny steps (verner6, whose
  // principal error coefficient is 1.5e-6, shows slopes of 6.9 on Kepler's problem to dt 0.007), and only where
  // nothing smaller can be measured is an order above the prediction this problem's (a linear one's, say).
  // On a linear problem the coefficients give more: the slopes cannot fall below that.
  // Only float128's floor is low enough: verner6 on Kepler's problem shows one-step slopes of 8.00 down to errors of
  // 5e-22, below long double's floor, then 7.0 (a 50-digit solve): a pass at a narrower floor goes on to float128.
  const double floor_order = std::isfinite(c.linear_predicted) ? c.linear_predicted : c.predicted;
  auto pass = [&](std::string reason) -> OrderVerdict {
    const std::string on = std::isfinite(c.linear_predicted) ? "linear problems" : "every problem";
    if (std::isfinite(floor_order) && floor_order < lo_band && !window_at_floor(f, c))
      return {"undetermined",
              fmt::format("{}, above the order {} its coefficients give on {}, and its window stops above the noise "
                          "floor (dt {}): the slopes may still fall to {} at smaller steps",
                          reason, floor_order, on, short_num(f.dt_min), floor_order),
              "extend the sweep to the noise floor (below dt " + short_num(f.dt_min) + ")"};
    if (std::isfinite(floor_order) && floor_order < lo_band && !c.widest)
      return {"undetermined",
              fmt::format("{}, above the order {} its coefficients give on {}, down to this arithmetic's noise floor (dt {}): "
                          "the slopes may still fall to {} below it, where only float128 measures",
                          reason, floor_order, on, short_num(f.dt_min), floor_order),
              "let float128 run to its noise floor (a larger wide_budget)"};
    return {"pass", std::move(reason), ""};
  };
  if (f.lo >= lo_band && f.hi <= hi_band) return pass(observed + " lies within " + band);
  if (converges_into(f, lo_band, hi_band))
    return pass(fmt::format("{}: its local slopes converge into {} ({:.2f}, {:.2f}, {:.2f} at the smallest dt, their differences "
                            "shrinking: heading for {:.2f})",
                            observed, band, f.local_slopes[2], f.local_slopes[1], f.local_slopes[0], f.trend_limit));
  // Above the declared order, on the order the stability function gives: this linear problem's, and decided.
  if (std::isfinite(c.linear_predicted) && c.linear_predicted > c.expected && f.lo > hi_band) {
    const double q_lo = c.linear_predicted - c.tolerance, q_hi = c.linear_predicted + c.tolerance;
    const std::string linear_band = fmt::format("{} +/- {}", c.linear_predicted, c.tolerance);
    const std::string why = fmt::format("the order its coefficients give on linear problems (where its stability function "
                                        "matches exp), above {}", band);
    if (f.lo >= q_lo && f.hi <= q_hi) return {"pass", fmt::format("{} lies within {}, {}", observed, linear_band, why), ""};
    if (converges_into(f, q_lo, q_hi))
      return {"pass", fmt::format("{}: its local slopes converge into {} (heading for {:.2f}), {}", observed, linear_band,
                                  f.trend_limit, why), ""};
  }
  const bool resolved = f.dt_min <= c.resolved_dt * (1 + 1e-9);
  if (f.hi < lo_band && f.asymptotic && f.local_slopes.size() >= min_fail_slopes && resolved)
    return {"fail", fmt::format("{} lies below {}; asymptotic over {} ({})", observed, band, window, slopes), ""};
  // Within 0.02 of a whole number of periods, absolutely: a term that cancels there is periodic in t_end, and what is
  // left of it at N + d periods (about sin 2 pi d of it) does not shrink as N grows (0.02 N called 10.04 periods 10).
  const double whole = std::round(c.periods);
  const bool at_period = std::isfinite(c.periods) && whole >= 1 && std::abs(c.periods - whole) <= at_period_tolerance;
  if (f.lo > hi_band && at_period)
    return {"undetermined", fmt::format("{} is above {}: t_end is {} period(s), where error terms cancel", observed, band, whole),
            "take a t_end that is not a multiple of the period (the max error over the run is immune)"};
  // Below the window the errors are at round-off, or the next halving would bring the error to within 10 x
  // its floor (error / 2^p, p the expected order): a smaller step cannot help.
  const bool next_at_floor = f.min_floor > 0 && f.min_error / std::exp2(c.expected) <= 10 * f.min_floor;
  const std::string blocked =
      f.floor_below > 0 || next_at_floor
          ? fmt::format("the errors reach round-off below dt {}, so smaller steps cannot decide it: judge the order where "
                        "the asymptotic range lies above round-off (a shorter t_end, other parameters), or rely on the "
                        "other order metrics", short_num(f.floor_below > 0 ? f.floor_below : f.dt_min))
          : std::string();

  if (moving)
    return {"undetermined", fmt::format("{}: not asymptotic yet ({})", observed, slopes),
            blocked.empty() ? "extend the sweep below dt " + short_num(f.dt_min) : blocked};
  // Above a declared order the coefficients confirm, the declaration is right: a leading term small enough for the next
  // order's to outweigh it over the window (verner6's 1.5e-6), or one that vanishes for this problem or t_end.  Steady
  // down to float128's noise floor, nothing measurable contradicts the order the coefficients fix: a pass (a slip in
  // the method lowers its slopes; none raises them).  At a narrower floor a wider arithmetic may still see them fall
  // (a coefficient's typo in its 10th digit leaves a term that only float128 resolves): undetermined.
  if (f.lo > hi_band && std::isfinite(c.predicted) && std::abs(c.predicted - c.expected) < 0.5 && !std::isfinite(c.linear_predicted)) {
    if (c.widest && window_at_floor(f, c) && f.asymptotic && !f.local_slopes.empty())
      return {"pass",
              fmt::format("{} is above {}, steady down to the noise floor of float128's runs (dt {}), and the coefficients give {} on every "
                          "problem: its leading error term stays below the next order's, or below round-off, wherever an "
                          "error can be measured", observed, band, short_num(f.dt_min), c.predicted),
              ""};
    return {"undetermined",
            fmt::format("{} is above {}, the order its coefficients give on every problem: its leading error term is "
                        "outweighed by the next order's over this window, or vanishes for this problem or t_end",
                        observed, band),
            !window_at_floor(f, c) ? "extend the sweep below dt " + short_num(f.dt_min) +
                                         ", to the noise floor, where the leading term takes over or nothing smaller can be measured"
            : c.widest ? fmt::format("add step sizes per decade in dt {}..{}: its local slopes are too few or scatter",
                                     short_num(f.dt_min), short_num(f.dt_max))
                       : "let float128 run to its noise floor (a larger wide_budget): below this arithmetic's floor the slopes "
                         "may still fall to the order the coefficients give"};
  }
  if (f.lo > hi_band)
    return {"undetermined",
            fmt::format("{} is above {}: the leading error term vanishes for this problem or t_end, or the declared order is "
                        "too low", observed, band),
            "judge it on a problem or t_end where that term does not vanish, or declare the order it has (spec key expect)"};
  if (f.local_slopes.empty())
    return {"undetermined",
            fmt::format("{}: its window spans less than a factor 1.75 in dt, too little for a local slope to tell a steady "
                        "slope from a bending one", observed),
            blocked.empty() ? "extend the sweep below dt " + short_num(f.dt_min) + " (or add larger step sizes above dt " +
                                  short_num(f.dt_max) + ")"
                            : blocked};
  if (f.hi < lo_band && f.asymptotic && !resolved)
    return {"undetermined",
            fmt::format("{} lies below {} over {}, where the same runs' global errors are not all at most 0.5 ({}): steps "
                        "that do not resolve the problem yet give one-step errors that need not be asymptotic",
                        observed, band, window,
                        c.resolved_dt > 0 ? "they are from dt " + short_num(c.resolved_dt) + " down"
                                          : "above 0.5 at every step run, and still falling"),
            blocked.empty() ? "extend the sweep below dt " + short_num(f.dt_min) : blocked};
  if (f.hi < lo_band && f.asymptotic)
    return {"undetermined",
            fmt::format("{} lies below {}, but over {} local slope(s) only ({}): fewer than {} cannot tell a steady slope from a "
                        "bending one", observed, band, f.local_slopes.size(), slopes, min_fail_slopes),
            blocked.empty() ? fmt::format("add step sizes per decade in {}, or extend the sweep below dt {}", window, short_num(f.dt_min))
                            : fmt::format("add step sizes per decade in {}; {}", window, blocked)};
  if (!f.asymptotic)
    return {"undetermined", fmt::format("{}: local slopes scatter more than {} ({})", observed, c.tolerance, slopes),
            fmt::format("add step sizes per decade in {}{}", window,
                        blocked.empty() ? ", or move the sweep away from the noise floor" : "; " + blocked)};
  // An interval narrower than the band that crosses one of its edges: more points narrow it, but a slope that sits
  // on the edge stays there.
  if (f.hi - f.lo < c.tolerance) {
    const double edge = f.order > c.expected ? hi_band : lo_band;
    return {"undetermined",
            fmt::format("{} straddles {}: a narrow interval across the band's {} edge {:.3g}, where the slope sits", observed, band,
                        edge > c.expected ? "upper" : "lower", edge),
            blocked.empty() ? fmt::format("add step sizes per decade in {}, or extend the sweep below dt {}: a slope on the edge "
                                          "may stay undecided",
                                          window, short_num(f.dt_min))
                            : blocked};
  }
  return {"undetermined", fmt::format("{} straddles {}: the interval is too wide to decide", observed, band),
          blocked.empty() ? fmt::format("add step sizes per decade in {}, or extend the sweep below dt {}", window, short_num(f.dt_min))
                          : fmt::format("add step sizes per decade in {}; {}", window, blocked)};
}

/// Why a pair has no slope when its sweep has fewer than 3 tolerances (study run's summary and study check say it).
inline std::string no_slope_reason(std::size_t tolerances) {
  return "no slope: the sweep has " + std::to_string(tolerances) + " tolerance" + (tolerances == 1 ? "" : "s") +
         ", and a slope of error on tolerance needs 3 or more; to decide: tol = { max, min, per_decade } spanning 3 or more, "
         "e.g. { max = 1e-4, min = 1e-8, per_decade = 1 }";
}

/// The window of a tolerance sweep's fit.  Its local slopes span a decade of tolerance at least: a controller's error
/// wiggles by some 10 % from one tolerance to the next, which over the half decade between neighbours at 2 a decade is
/// +/- 0.2 in a local slope, the whole band.  A window holds up to four decades (more points, a narrower interval); the
/// longest whose slopes agree wins, away from a loose end where they bend (a pre-asymptotic error, or output times
/// that set the steps) and from a tight end that steepens (Fehlberg 7(8) on the pendulum: 1.0 from tol 1e-5 to 1e-10,
/// 1.29 below), passing over the tight points only where their error falls at least as fast (pass_over_faster).
inline FitOptions proportionality_options(double tolerance = 0.2) {
  FitOptions o;
  o.tolerance = tolerance;
  o.slope_ratio = 9.5;
  o.max_points = 3;
  o.max_span = 1e4;
  o.pass_over_faster = true;
  return o;
}

/// A pair's orders measured at fixed steps in the same study: its `b` (the pair's own table as a method) and its `b_hat`
/// (ID-embedded), each the settled slope of its sweep (NaN: not run, or not settled), and the methods they came from.
struct MeasuredOrders {
  double p = NAN, p_hat = NAN;
  std::string p_from, p_hat_from;
  int declared_p = 0;  ///< the pair's declared order (0: not known): a measured p above it does not bound the slope
  bool known() const { return std::isfinite(p) && std::isfinite(p_hat); }
  /// The slope an error-per-step controller gives with these orders: h ~ tol^(1/(q+1)), q = min(p, p_hat), over
  /// t_end / h steps each of error h^(p+1).
  double slope() const { return p / (std::min(p, p_hat) + 1); }
};

/// The order a fixed-step sweep measures (its double points): the fit's slope where its local slopes settle, else NaN.
inline double settled_order(const std::vector<ErrorPoint>& points) {
  const OrderFit f = fit_order(points);
  return f.determined && f.asymptotic ? f.order : NAN;
}

/// A pair's orders measured at fixed steps: its table `id` and `id-embedded`, each the settled order of its "max"
/// sweep, else of its "global" one (the error at t_end, where the largest did not settle).  points_of(method, metric)
/// gives a sweep's double points (nullopt: not run).  `*_from` names a method that ran even where nothing settled.
/// One rule for the engine and the gate, each with its own rows.
template <class PointsOf>
MeasuredOrders measure_pair_orders(const std::string& id, PointsOf&& points_of) {
  MeasuredOrders m;
  auto settled = [&](const std::string& method, std::string& from) {
    double order = NAN;
    for (const char* metric : {"max", "global"})
      if (const std::optional<std::vector<ErrorPoint>> points = points_of(method, metric)) {
        from = method;
        if (order = settled_order(*points); std::isfinite(order)) break;
      }
    return order;
  };
  m.p = settled(id, m.p_from), m.p_hat = settled(id + "-embedded", m.p_hat_from);
  return m;
}

/// Tolerance proportionality (an adaptive integrator's slope of log error on log tolerance, the tolerance as dt),
/// judged by the order's rules against the slope the pair declares, p / (min(p, p_hat) + 1), over the window of
/// proportionality_options.  A slope steadily above that band is not the pair's failure by itself: a problem may be
/// kind to the pair (a `b` super-convergent on it, order 5 for a 4(3) pair, gives 5/4).  Where the study measured the
/// pair's orders at fixed steps (`measured`), the slope those orders give decides it: within its band a pass, with the
/// note; outside it a failure, the orders cannot explain the error.  Where nothing was measured, undetermined, with
/// the sweep that would decide it (`fixed_ids`: the methods to add).  A slope below the band fails as an order does.
/// `output_limited`: runs left out because the output times set their steps (said when the fit is undetermined).
/// `basis`: where the expected slope is not the declared orders', what it is from (said after it).
inline OrderVerdict judge_proportionality(const OrderFit& f, double expected, double tolerance, std::size_t output_limited = 0,
                                          const MeasuredOrders& measured = {}, const std::string& fixed_ids = "",
                                          const std::string& basis = "") {
  const std::string limited = output_limited ? fmt::format("; {} run(s) left out: most of their steps were cut to land on the output "
                                                           "times, which set their error whatever the tolerance", output_limited)
                                             : std::string();
  if (f.finished == 0)
    return {"undetermined", (output_limited ? std::string("no run's steps were its controller's") : "no run reached t_end") + limited,
            output_limited ? "fewer output times (the spec's samples), smaller tolerances or a longer t_end"
                           : "let them finish: a larger tol.max_steps, or larger tolerances (the adaptive runs' checks say why each stopped)"};
  OrderContext c;
  c.expected = expected, c.tolerance = tolerance, c.periods = NAN;
  OrderVerdict v = judge_order(f, c);
  // The order's words are a step size's: here the abscissa is the tolerance.
  for (std::string* text : {&v.reason, &v.action})
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"step sizes per decade in dt", "tolerances per decade (tol.per_decade) in tol"},
                                   {"step sizes per decade", "tolerances per decade (tol.per_decade)"},
                                   {"smaller steps", "tighter tolerances"},
                                   {"larger steps", "looser tolerances"},
                                   {"the largest dt", "the loosest tolerance"},
                                   {"the smallest dt", "the tightest tolerance"},
                                   {"at the smallest", "at the tightest"},
                                   {"small-dt end", "tight end"},
                                   {"a factor 1.75 in dt", "a decade of tolerance"},
                                   {"(pre-asymptotic)", "(the runs are not resolved)"},
                                   {" dt", " tol"}})
      for (std::size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size())) text->replace(at, from.size(), to);
  const std::string observed = fmt::format("{:.2f} in [{:.2f}, {:.2f}] (99%)", f.order, f.lo, f.hi);
  const std::string declared = fmt::format("{:.3g} +/- {}", expected, tolerance);
  const std::string band = basis.empty() ? declared : declared + " (" + basis + ")";
  if (const std::size_t at = v.reason.find(declared); !basis.empty() && at != std::string::npos) v.reason.replace(at, declared.size(), band);
  const double s = measured.known() ? measured.slope() : NAN;
  const std::string orders = measured.known() ? fmt::format("the orders measured at fixed steps in this study, {:.2f} ({}) and {:.2f} ({}), give "
                                                            "{:.2f} / (min({:.2f}, {:.2f}) + 1) = {:.2f}",
                                                            measured.p, measured.p_from, measured.p_hat, measured.p_hat_from, measured.p,
                                                            measured.p, measured.p_hat, s)
                                              : std::string();
  // Across the declared band's upper edge, within the measured orders' band: those orders explain it.
  if (f.determined && measured.known() && v.verdict == "undetermined" && f.lo <= expected + tolerance && f.hi > expected + tolerance &&
      f.lo >= s - tolerance && f.hi <= s + tolerance)
    return {"pass", fmt::format("{} crosses the declared {}'s upper edge, and lies within {:.2f} +/- {}: {}; the problem is kind to the pair",
                                observed, band, s, tolerance, orders), ""};
  if (f.determined && f.lo > expected + tolerance) {
    if (measured.known()) {
      if (f.lo >= s - tolerance && f.hi <= s + tolerance)
        v = {"pass", fmt::format("{} is above the declared {}, and within {:.2f} +/- {}: {}; the problem is kind to the pair", observed,
                                 band, s, tolerance, orders), ""};
      else if (f.asymptotic && f.lo > s + tolerance && measured.declared_p > 0 && measured.p > measured.declared_p + tolerance)
        v = {"undetermined",
             fmt::format("{} is above the declared {}, and above {:.2f} +/- {}: {}; but {}'s fixed-step order is above its declared "
                         "{} (a small leading error term): at the larger steps of these runs its error may fall faster still, so "
                         "those orders do not bound the slope",
                         observed, band, s, tolerance, orders, measured.p_from, measured.declared_p),
             fmt::format("judge it where {}'s fixed-step slopes settle on its order (a harder problem, tighter tolerances)", measured.p_from)};
      else if (f.asymptotic && (f.lo > s + tolerance || f.hi < s - tolerance))
        v = {"fail", fmt::format("{} is above the declared {}, and outside {:.2f} +/- {}: {}, which do not explain it", observed, band, s,
                                 tolerance, orders), ""};
      else
        v = {"undetermined", fmt::format("{} is above the declared {}; {}, and its interval straddles {:.2f} +/- {}", observed, band,
                                         orders, s, tolerance),
             fmt::format("add tolerances per decade in tol {}..{}", short_num(f.dt_min), short_num(f.dt_max))};
    } else if (!measured.p_from.empty() && !measured.p_hat_from.empty()) {
      v = {"undetermined",
           fmt::format("{} is above {}: the problem may be kind to the pair (a super-convergent b steepens the slope), or the pair or "
                       "its controller is not what it declares; its fixed-step sweeps ran here ({}, {}), but {} did not settle to tell",
                       observed, band, measured.p_from, measured.p_hat_from,
                       std::isfinite(measured.p) ? measured.p_hat_from + "'s order" : measured.p_from + "'s order"),
           "give the fixed-step sweeps more step sizes (a larger max_steps, or dt_per_decade), so that their orders settle"};
    } else {
      v = {"undetermined",
           fmt::format("{} is above {}: the problem may be kind to the pair (a super-convergent b steepens the slope), or the pair or "
                       "its controller is not what it declares; no fixed-step orders of the pair were measured here to tell",
                       observed, band),
           "measure its orders at fixed steps in the same study (integrators = [" + (fixed_ids.empty() ? std::string("ID, ID-embedded") : fixed_ids) +
               "], dt = \"auto\"): the slope they give then decides it"};
    }
  }
  if (std::isfinite(f.steeper_below) && v.verdict != "pass")
    v = {"undetermined",
         fmt::format("{} over tol {}..{} is not its asymptotic range: the error falls faster below it ({:.2f} from tol {} to "
                     "the window), and scatters there too much for a window of agreeing local slopes",
                     observed, short_num(f.dt_min), short_num(f.dt_max), f.steeper_below, short_num(f.steeper_from)),
         fmt::format("add tolerances per decade (tol.per_decade) in tol {}..{}", short_num(f.steeper_from), short_num(f.dt_min))};
  if (v.verdict == "undetermined") {
    // Errors at the window's tightest tolerance within 100 x their noise floor: round-off, not the interval, limits it.
    if (f.determined && f.min_floor > 0 && f.min_error <= 100 * f.min_floor && v.reason.find("straddles") != std::string::npos)
      v.reason += fmt::format("; its tightest tolerance's error {} is within 100 x its noise floor {} (round-off or the reference's bound)",
                              short_num(f.min_error), short_num(f.min_floor));
    v.reason += limited;
  }
  return v;
}

}  // namespace study
