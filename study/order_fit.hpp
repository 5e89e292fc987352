#pragma once
/// Observed order of convergence: least-squares slope of log(error) on log(dt) over an automatically chosen
/// asymptotic window.  A mean of pairwise log-ratios would telescope to the end points; least squares uses
/// every point.  Points are left out when not finite, when the error is too large to be asymptotic, or when
/// it is within a factor of the noise floor (round-off, or the reference's own error); the window is the
/// run of the smallest remaining dts (the asymptotic end), at least 3 points.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace study {

/// One measurement: step size, error, and the error level below which it is noise.
struct ErrorPoint {
  double dt = 0;
  double error = 0;
  double floor = 0;
};

/// The fitted order and how it was obtained.
struct OrderFit {
  bool determined = false;
  std::string reason;              ///< why not determined
  double order = 0;                ///< least-squares slope
  double r2 = 0;                   ///< coefficient of determination of the log-log fit
  double dt_min = 0, dt_max = 0;   ///< the window
  std::size_t points = 0;          ///< points in the window
  std::vector<double> local_slopes;  ///< slopes between neighbours in the window, smallest dt first
};

/// Settings of the window choice.
struct FitOptions {
  double max_error = 0.5;        ///< larger errors are pre-asymptotic whatever the slopes (units of the error)
  double floor_factor = 10;      ///< keep errors above floor_factor x floor
  double slope_band = 0.15;      ///< local slopes within this of the fitted slope and of each other
  std::size_t max_points = 5;    ///< window length at most
  std::size_t preferred_points = 4;  ///< windows this long are searched first (3 points show only 2 slopes)
  std::size_t min_points = 3;
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

/// Fits the order over the asymptotic window of `points` (any order): among windows of consecutive usable
/// points, the one of the smallest dts (then the longest) whose local slopes all agree with its fitted slope
/// within slope_band -- so noise at the small-dt end and pre-asymptotic bends at the large end are both left
/// out by the data themselves.
inline OrderFit fit_order(std::vector<ErrorPoint> points, const FitOptions& o = {}) {
  std::sort(points.begin(), points.end(), [](const ErrorPoint& a, const ErrorPoint& b) { return a.dt < b.dt; });
  auto usable = [&](const ErrorPoint& p) {
    return std::isfinite(p.error) && p.error > 0 && p.error <= o.max_error && p.error > o.floor_factor * p.floor;
  };
  const std::size_t m = points.size();
  std::vector<double> x(m), y(m);
  for (std::size_t i = 0; i < m; ++i) x[i] = std::log(points[i].dt), y[i] = std::log(points[i].error);

  // The asymptotic end first: windows starting at the smallest usable dt, longest first (up to max_points),
  // then starting one point further up.  A window whose local slopes wander more than slope_band from its fit
  // is pre-asymptotic or noisy and is skipped.
  OrderFit fit;
  std::size_t longest_run = 0;
  for (std::size_t first = 0, run = 0; first < m; ++first) {
    run = usable(points[first]) ? run + 1 : 0;
    longest_run = std::max(longest_run, run);
  }
  for (std::size_t shortest : {std::max(o.preferred_points, o.min_points), o.min_points})
  for (std::size_t first = 0; first < m && !fit.determined; ++first) {
    for (std::size_t n = std::min(m - first, o.max_points); n >= shortest && !fit.determined; --n) {
      if (!std::all_of(points.begin() + first, points.begin() + first + n, usable)) continue;
      const std::vector<double> wx(x.begin() + first, x.begin() + first + n), wy(y.begin() + first, y.begin() + first + n);
      double slope = 0, r2 = 0;
      least_squares(wx, wy, slope, r2);
      std::vector<double> local;
      bool consistent = true;
      for (std::size_t i = 1; i < n; ++i) {
        local.push_back((wy[i] - wy[i - 1]) / (wx[i] - wx[i - 1]));
        consistent = consistent && std::abs(local.back() - slope) <= o.slope_band;
      }
      // Slopes that trend across the window (still converging) are not asymptotic either.
      const auto [lo, hi] = std::minmax_element(local.begin(), local.end());
      consistent = consistent && *hi - *lo <= o.slope_band;
      if (consistent) fit = {true, "", slope, r2, points[first].dt, points[first + n - 1].dt, n, local};
    }
  }
  if (!fit.determined) {
    fit.reason = longest_run < o.min_points
                     ? "only " + std::to_string(longest_run) + " consecutive usable point(s) of " + std::to_string(m) +
                           " between the noise floor and the pre-asymptotic range (need " + std::to_string(o.min_points) + ")"
                     : "no window of " + std::to_string(o.min_points) + "+ points has consistent local slopes (within " +
                           std::to_string(o.slope_band) + ")";
  }
  return fit;
}

}  // namespace study
