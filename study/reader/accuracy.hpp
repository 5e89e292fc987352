#pragma once
/// "Which method reaches my accuracy at the least cost, and how sure is that?" -- answered from a study's runs only
/// (DiffEqDevTools' work-precision sets; Hairer & Wanner's precision diagrams).  Each method's cost to reach a
/// relative global error X is interpolated on its own log-log curve of error against cost between the two runs that
/// bracket X, extrapolated from its fitted order a decade at most beyond its last usable run, and otherwise bounded
/// or "not reached", with the reason.  The Pareto front is the set of runs no other run beats on both axes.

#include <functional>
#include <string>
#include <vector>

#include "study/reader/model.hpp"

namespace report {

/// How a cost to an accuracy was found.
enum class Reach {
  interpolated,  ///< between two consecutive usable runs that bracket the target (linear in log-log)
  extrapolated,  ///< from the nearest usable run along the fitted order, at most a decade of error beyond it
  at_most,       ///< a run reached the target but no estimate is allowed (a run at the noise floor, an unusable
                 ///< neighbour): the cost of the cheapest run that reached it, an upper bound
  not_reached    ///< no run reached it and nothing can be estimated (`why` says what stopped it)
};

/// A run is usable for interpolation when it ended well and its error is in the asymptotic range: at most 0.5
/// (larger errors are pre-asymptotic, as for the order fits) and more than 10 times its noise floor.
inline constexpr double pre_asymptotic_error = 0.5;
inline constexpr double floor_factor = 10;
/// Extrapolation reaches at most these factors of error beyond the nearest usable run: below its smallest error
/// (smaller steps: deeper into the asymptotic range, round-off checked) three decades, above its largest (larger
/// steps than any run: pre-asymptotic, perhaps unstable) one.
inline constexpr double extrapolation_down = 1000, extrapolation_up = 10;

struct CostToAccuracy {
  std::string integrator;
  double target = 0;
  Reach how = Reach::not_reached;
  double evals = NAN;    ///< force evaluations (counted; implicit methods: every iteration)
  double seconds = NAN;  ///< wall time of the bare stepping loop (minimum of the repeats) for the whole run
  double dt = NAN;       ///< the step size that reaches the target (interpolated like the costs)
  double noise = NAN;    ///< the relative timing noise of the runs it rests on: the largest median / min - 1
  /// The least the cost can be, in force evaluations: the estimate itself, or for an upper bound the cost of the
  /// larger step that did not reach the target (0 when there is none).
  double lower = NAN;
  double order = NAN;    ///< extrapolated: the fitted order used
  /// Interpolated or extrapolated: the relative uncertainty of the cost (evaluations and seconds alike), from the data:
  /// the cost lies within a factor 1 +- spread.  Interpolated: the local slopes' spread between the bracketing runs
  /// (each neighbouring segment's slope against the bracket's, over the distance from that end to the target; with no
  /// neighbour, the fitted order's 99 % interval); extrapolated: the fitted order's 99 % interval over the distance
  /// extrapolated.  NaN: not known (an upper bound, or no neighbour and no interval).
  double spread = NAN;
  std::string why;       ///< not_reached, at_most, extrapolated: the reason, in words
  bool estimated() const { return how == Reach::interpolated || how == Reach::extrapolated || how == Reach::at_most; }
};

/// The noise floor of a run's global error: the one its order fit used (results.json orders[].points), else the
/// larger of the reference's bound and the measured round-off (eps sqrt(n) when not measured).
double noise_floor(const Study& s, const RunRow& r);
/// Usable for interpolation (above).
bool usable(const Study& s, const RunRow& r);

/// The cost for `integrator` of study `s` to reach relative global error `target` (> 0).
CostToAccuracy cost_to_reach(const Study& s, const std::string& integrator, double target);

/// Two relative uncertainties together: each figure within a factor 1 + s of its value, their ratio within
/// (1 + a)(1 + b) - 1 (NaN when either is NaN).
inline double combined_spread(double a, double b) { return (1 + a) * (1 + b) - 1; }

/// The cheapest method to a target, by force evaluations or by wall time, and how sure that is.
struct Ranking {
  double target = 0;
  bool by_time = false;
  std::vector<CostToAccuracy> order;  ///< every method with a cost (estimated), cheapest first
  std::vector<CostToAccuracy> none;   ///< the methods that did not reach it, with why
  /// runner-up's cost / winner's - 1 (NaN: fewer than two methods with a cost).
  double margin = NAN;
  /// by time: the timing noise of the two (the sum of their relative noises).
  double noise = NAN;
  /// The first two costs' uncertainties combined, combined_spread (NaN when either is not known; infinite when
  /// either is: an interval of orders that reaches 0 bounds nothing).
  double uncertainty = NAN;
  /// What a margin must exceed to name a winner: the uncertainty, combined with the timing noise by time.
  double bound() const {
    const double u = std::isnan(uncertainty) ? 0 : uncertainty, n = by_time && std::isfinite(noise) ? noise : 0;
    return !std::isnan(uncertainty) || (by_time && std::isfinite(noise)) ? combined_spread(u, n) : NAN;
  }
  /// No winner: the margin lies within bound().
  bool tie() const { return std::isfinite(margin) && !std::isnan(bound()) && margin <= bound(); }
  /// When tie(): every method whose cost lies within the first's by the two's uncertainties (and timing noise), in
  /// cost order, the first included.
  std::vector<std::string> tied;
  double tied_within = NAN;  ///< the largest margin among the tied methods: their costs lie within it of the first's
  /// Rivals that may be cheaper than the first after all (an upper bound of theirs, or of the first's, leaves it
  /// open; or a method whose sweep ended before the target, after fewer evaluations than the first needs, with no
  /// order to project it by): empty when the first is the cheapest for sure.
  std::vector<std::string> undecided;
};
Ranking rank(const Study& s, double target, bool by_time);

/// "Is mine cheaper than dopri5 here, by how much, and is it real?": one method's cost to a target against another's.
enum class Versus {
  cheaper,      ///< the ratio's whole interval lies below 1
  dearer,       ///< above 1
  tie,          ///< the interval holds 1: the difference is within the figures' uncertainty
  cannot_tell,  ///< a cost is only bounded, or its uncertainty is not known, and the bounds leave it open
  not_reached   ///< one of the two has no cost to this target
};
struct HeadToHead {
  std::string integrator, against;
  double target = 0;
  bool by_time = false;
  CostToAccuracy mine, theirs;
  /// mine / theirs, the estimates' ratio (an upper bound's: the ratio of the bounds as they are).
  double ratio = NAN;
  /// The ratio's interval.  Two estimates: ratio / (1 + u) to ratio (1 + u), u the two costs' uncertainties combined
  /// (combined_spread) and by wall time the two's timing noise too, as rank() weighs a margin.  An upper bound: its
  /// cost lies between the larger step's that did not reach the target (Reach::at_most's lower) and its own.
  double lo = NAN, hi = NAN;
  Versus verdict = Versus::not_reached;
  std::string why;  ///< cannot_tell and not_reached: why, in words
};
/// `integrator`'s cost to `target` against `against`'s, by force evaluations or wall time.
HeadToHead head_to_head(const Study& s, const std::string& integrator, const std::string& against, double target, bool by_time);
/// A head-to-head as a table cell: "0.93× (0.89–0.97) cheaper", "1.01× (0.97–1.05) tie", "≤0.5× (0–0.5) cheaper",
/// "≥0.8× (0.8–2.4) cannot tell", "not reached" (mine), "dopri5 did not reach it" (theirs).
std::string versus_cell(const HeadToHead& h);
/// The method of study s that `name` means for a head-to-head: its label, else the one method whose id it is (a pair's
/// id names its adaptive runs when the study has no fixed-step method of that label); "" when none or several.
std::string versus_label(const Study& s, const std::string& name);

/// The default targets of a study: the decades from 1e-3 down to the smallest error any of its runs reached (a run
/// that ended well); 1e-3 alone when no run reached it.
std::vector<double> default_targets(const Study& s);
/// The same over every study of the results.
std::vector<double> default_targets(const Results& r);
/// Every third of `decades` from the first (1e-3, 1e-6, ...): the targets of a summary.
std::vector<double> every_third(const std::vector<double>& decades);
/// The targets a user gave, largest first, each once.
std::vector<double> sorted_targets(std::vector<double> targets);
/// The median of `x` (NaN when empty).
double median(std::vector<double> x);

/// One run on a Pareto front.
struct FrontPoint {
  std::string integrator;
  double dt = 0, error = 0, cost = 0;
};
/// The runs of `s` in their asymptotic range (ended well, error at most 0.5 and more than 10 times the noise floor:
/// round-off does not decide a front, nor a run that lost the orbit) that no other such run beats on both error and cost (force evaluations, or wall time), cheapest
/// first: their errors fall strictly as the cost grows.
std::vector<FrontPoint> pareto_front(const Study& s, bool by_time);
/// The front in words: "rk4 from error 2.10e-02 to 3.40e-07, then yoshida6 at error 1.20e-13" (methods in the order the
/// front meets them as the cost grows, each over the errors it holds).
std::string describe_front(const std::vector<FrontPoint>& front);

/// The error constant of a method: the median over its global fit's window of error / dt^p, p its expected order
/// (NaN without a window or an expected order).  Comparable across runs of the same method whatever their steps.
double error_constant(const Study& s, const std::string& integrator);
/// The median time per step of a method's runs that ended well (minimum of each run's repeats), in ns; NaN if none.
double time_per_step(const Study& s, const std::string& integrator);

/// A cost for a table cell: "5.31e+03", "≈5.3e+03" (extrapolated), "≤8.19e+03" (at most), "not reached".
std::string cost_cell(const CostToAccuracy& c, bool by_time);
/// The methods of a tie with their costs and uncertainties, in cost order: "rk4 120 ±1.2 %, a 121 or b ≈125";
/// `name` writes each method's name (Markdown escapes it, a terminal line does not).
std::string tie_list(const Ranking& r, const std::function<std::string(const std::string&)>& name);
/// A fraction as a percentage: "3.1 %" below 9.5 %, else "32 %".
std::string percent(double x);
/// A cost's uncertainty beside it: " ±3.1 %", " ±>1000 %" ("" when 0 or not known).
std::string spread_text(const CostToAccuracy& c);
/// A target as written in tables and headings: "1e-08", "2.5e-07".
std::string target_text(double target);

}  // namespace report
