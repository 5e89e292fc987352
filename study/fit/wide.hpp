#pragma once
/// Orders decided in wider arithmetic where double runs out (DESIGN.md §6: the order is the method's, accuracy and
/// cost are the arithmetic's).  A 6th- to 10th-order method reaches double round-off one or two halvings after its
/// h^(p+1) term fades, so no sweep in double shows its asymptotic range; the same method on the same problem in long
/// double, then in float128 (113 bits), against a reference certified well below, does.  The engine (study/results/
/// orders.cpp) and the gate (study/check/) judge an order with these rules from the same points: double's fit first,
/// and only where round-off ended its range, the wider arithmetics' in turn, narrowest first.

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "study/fit/order_fit.hpp"

namespace study {

/// The arithmetics an order may be decided in, narrowest first (results.json: orders[].arithmetic, wide_runs[]).
inline const std::vector<std::string>& wide_arithmetics() {
  static const std::vector<std::string> names{"long double", "float128"};
  return names;
}

/// A wide arithmetic's unit roundoff against double's: what scales a double run's measured round-off to its estimate
/// there (the same operations, rounded at 2^-64 and 2^-113 in place of 2^-53).
inline double roundoff_ratio(const std::string& arithmetic) {
  return arithmetic == "long double" ? std::ldexp(1.0, -11) : arithmetic == "float128" ? std::ldexp(1.0, -60) : 1.0;
}

/// The factor on the reference's bound in a wide point's noise floor: with the fit's floor_factor (10) the errors it
/// judges lie at least 100 x above what the reference is certified to (double's fits keep 10 x: there round-off is
/// the floor long before the reference's 1e-25).
inline constexpr double wide_reference_factor = 10;

/// Where round-off ended the asymptotic range of an undetermined fit: the largest dt whose error lies within
/// near_floor_factor (100) x a noise floor that is round-off's (over 10 x the reference's bound: a wider arithmetic
/// lowers it), so that a smaller step could not help.  0 when the fit passes, or is undetermined for another reason no
/// wider arithmetic changes: the method exact by design, an order above the band at whole periods (a cancellation of
/// the problem's), one-step errors at steps that do not resolve the problem, or no point at round-off.  A fail whose
/// window ends at round-off is asked again too: slopes that look steady below the order may still rise at smaller
/// steps (an 8th-order method's local slopes 8.7 at double's and long double's floor, 9 in float128).
inline double roundoff_ended_at(const OrderFit& f, const std::vector<ErrorPoint>& points, const OrderVerdict& v,
                                const OrderContext& c, double reference_bound, const FitOptions& o = {}) {
  if (!c.exact.empty()) return 0;
  if (v.verdict == "fail")
    return window_at_floor(f, c, o) && f.min_floor > 10 * reference_bound ? (f.floor_below > 0 ? f.floor_below : f.dt_min) : 0;
  if (v.verdict != "undetermined") return 0;
  const double lo_band = c.expected - c.tolerance, hi_band = c.expected + c.tolerance;
  if (f.determined) {
    const double whole = std::round(c.periods);
    const bool at_period = std::isfinite(c.periods) && whole >= 1 && std::abs(c.periods - whole) <= at_period_tolerance;
    if (f.lo > hi_band && at_period) return 0;
    const bool resolved = f.dt_min <= c.resolved_dt * (1 + 1e-9);
    // Below the band over steps that do not resolve the problem yet: round-off ended it only where the resolved
    // steps' errors reach their floor (a wider arithmetic then measures them); else smaller steps would decide.
    if (f.hi < lo_band && f.asymptotic && !resolved) {
      double at = 0;
      for (const ErrorPoint& p : points)
        if (p.dt <= c.resolved_dt * (1 + 1e-9) && std::isfinite(p.error) && p.error <= o.near_floor_factor * p.floor &&
            p.floor > 10 * reference_bound)
          at = std::max(at, p.dt);
      return at;
    }
  }
  // Only where the error is in the usable range and its floor below it: at large steps on a sensitive orbit the
  // long double shadow parts from the run, and that "round-off" is no floor (seed 000's e = 0.965 orbit: 2.5 beside
  // an error of 24 at dt 0.0625).  An error at round-off (below 1e-6) may sit at or under its floor.
  double at = 0;
  for (const ErrorPoint& p : points)
    if (std::isfinite(p.error) && p.error <= o.max_error && (p.floor < p.error || p.error < 1e-6) &&
        p.error <= o.near_floor_factor * p.floor && p.floor > 10 * reference_bound)
      at = std::max(at, p.dt);
  // The next halving below the window would bring the error to within 10 x its floor (judge_order's rule).
  if (at == 0 && f.determined && f.min_floor > 10 * reference_bound && f.min_error / std::exp2(c.expected) <= o.floor_factor * f.min_floor)
    at = f.dt_min;
  return at;
}

/// The points of one wide arithmetic.
struct WidePoints {
  std::string arithmetic;
  std::vector<ErrorPoint> points;
};

/// An order's fit and verdict, and the arithmetic it was decided in.
struct ArithmeticVerdict {
  OrderFit fit;
  OrderVerdict verdict;
  std::string arithmetic = "double";
  double roundoff_dt = 0;  ///< where round-off ended double's range (0: it did not)
};

/// Double's fit and verdict (`fit`, `v`: advised for the sweep), then, where round-off ended double's range, each
/// wide arithmetic's in turn until one decides.  A wide verdict names its arithmetic and why it was needed: "pass 7.99
/// in [7.97, 8.01] (99%) lies within 8 +/- 0.2 (float128: double reaches round-off at dt 0.01 before the order
/// settles)".  A fail decides in float128 only, the widest, and only where its window reaches float128's own noise
/// floor: below the order at a narrower floor, or above float128's, the slopes may still rise.  Undetermined in every
/// arithmetic that ran: the widest one's verdict (a double fail asked again stays a fail only when none ran).
inline ArithmeticVerdict judge_in_arithmetics(const OrderFit& fit, const OrderVerdict& v, const std::vector<ErrorPoint>& points,
                                              const std::vector<WidePoints>& wide, const OrderContext& c, double reference_bound,
                                              const FitOptions& o = {}) {
  ArithmeticVerdict d{fit, v, "double", 0};
  d.roundoff_dt = roundoff_ended_at(fit, points, judge_order(fit, c), c, reference_bound, o);
  // An order undetermined for another reason rides on the wide runs another order needed: the same step sizes with
  // less round-off, and under dt = "auto" the halvings double's sweep stopped short of (its round-off ended it).
  const bool rides = d.roundoff_dt <= 0 && v.verdict == "undetermined" && c.exact.empty();
  if (v.verdict == "pass" || (d.roundoff_dt <= 0 && !rides)) return d;
  for (const WidePoints& w : wide) {
    if (w.points.empty()) continue;
    const OrderFit f = fit_order(w.points, o);
    OrderContext in = c;
    in.widest = w.arithmetic == wide_arithmetics().back();
    OrderVerdict wv = judge_order(f, in);
    // A fail only where the window reaches this arithmetic's noise floor: slopes that look steady below the order
    // may still rise at smaller steps (7.3 to 7.8 for an 8th-order method before they settle at 8), and a sweep
    // stopped above its floor (its budget) has not seen them do it.  Unless they settle on the order the coefficients
    // predict: the leading error term the order conditions leave does not fade as the step shrinks.
    if (wv.verdict == "fail" && settles_on_predicted(f, c)) {
      wv.reason += fmt::format(", the order {} its coefficients give", c.predicted);
    } else if (wv.verdict == "fail" && w.arithmetic != wide_arithmetics().back()) {
      wv.verdict = "undetermined";
      wv.reason += fmt::format(", in {}: slopes below the order may still rise at smaller steps, which only {} can tell",
                               w.arithmetic, wide_arithmetics().back());
      wv.action = fmt::format("give the {} runs the budget to go on (a larger wide_budget)", wide_arithmetics().back());
    } else if (wv.verdict == "fail" && !window_at_floor(f, c, o)) {
      wv.verdict = "undetermined";
      wv.reason = fmt::format("{}, but the {} sweep stopped at dt {}, above its noise floor: slopes below the order may still "
                              "rise at smaller steps", wv.reason, w.arithmetic, short_num(f.dt_min));
      wv.action = "run the wide arithmetic further (a larger wide_budget)";
    }
    wv.reason += rides ? fmt::format(" ({}: the runs another order needed, where double's round-off ended its range)", w.arithmetic)
                       : fmt::format(" ({}: double reaches round-off at dt {} before the order settles)", w.arithmetic, short_num(d.roundoff_dt));
    d.fit = f, d.verdict = wv, d.arithmetic = w.arithmetic;
    if (wv.verdict != "undetermined") break;
  }
  return d;
}

}  // namespace study
