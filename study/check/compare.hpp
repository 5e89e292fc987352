#pragma once
/// `study compare OLD NEW`: two results folders, run for run and fit for fit (Google Benchmark's compare.py,
/// pytest-benchmark's --benchmark-compare): runs matched by (study, method, dt), fits by (study, method, metric).
/// Worse means beyond a threshold the user sets; timing never fails unless a time tolerance is given.  Reads results
/// files only.

#include <string>
#include <vector>

#include "study/reader/accuracy.hpp"
#include "study/reader/model.hpp"
#include "study/check/check.hpp"

namespace check {

struct CompareOptions {
  /// An error (at a step size both ran, above 1000 times the old run's noise floor) larger by more than this fraction
  /// is worse.
  double error_tolerance = 0.01;
  /// An observed order lower by more than this, with the two intervals apart, is worse.
  double order_tolerance = report::order_tolerance;
  /// A time per step slower by more than this fraction and more than the timing noise is worse; NaN: timing is
  /// reported, never judged.
  double time_tolerance = NAN;
  /// A cost to an accuracy target (both estimated: interpolated or extrapolated) larger by more than this fraction is
  /// worse; NaN: the two costs' uncertainties combined (report::combined_spread of their spreads), at least
  /// error_tolerance.  A cost of unbounded uncertainty is not compared.
  double cost_tolerance = NAN;
  /// The accuracy targets costs are compared at (empty: the decades from 1e-3 down to the old study's smallest error).
  std::vector<double> targets;
};

/// One method of one study in both folders.
struct MethodChange {
  std::string study, problem, method;
  struct OrderChange {
    std::string metric, old_verdict, new_verdict;
    double old_order = NAN, old_lo = NAN, old_hi = NAN, new_order = NAN, new_lo = NAN, new_hi = NAN;
  };
  std::vector<OrderChange> orders;
  /// new / old global error at each step size both ran where the old error is above 1000 x its noise floor.
  std::vector<std::pair<double, double>> error_ratios;  ///< (dt, ratio)
  double time_ratio = NAN;  ///< median over the common runs of new / old ns per step (minimum of the repeats)
  double time_noise = NAN;  ///< the timing noise of that ratio: old's and new's median / min - 1, added
  struct CostChange {
    double target = 0;
    report::CostToAccuracy old_cost, new_cost;
  };
  std::vector<CostChange> costs;
  std::vector<std::string> energy;         ///< "dt 0.01: bounded -> drifting (max 2.1e-06 -> 4.3e-05)"
  /// The long energy run, bounded (or at round-off) before and a drift or too large now: what changed ("" if not).
  std::string long_run_worse;
  /// What the method declares that changed: "expected global order 3 -> 2", "coefficients changed (predicted error
  /// coefficient 0.0589 -> 0.0417)" -- not judged, said, since the numbers above follow from it.
  std::vector<std::string> notes;
  std::vector<double> newly_diverged;      ///< step sizes where only the new run diverged
  std::vector<double> no_longer_diverged;  ///< and the other way round
};

struct Comparison {
  std::vector<MethodChange> methods;
  std::vector<std::string> added, removed;  ///< "study" or "study: method"
  std::vector<std::string> changed;         ///< "study: why": the same name, another experiment (not compared)
  /// The judgement, one outcome per (study, method, aspect): fail = worse beyond its threshold, pass = not worse,
  /// undetermined = nothing to compare (no common step size above the noise floor, no fit in one of them).
  Verdict verdict;
};

/// What makes two studies of one name another experiment: the problem, its parameters, the span, the step pattern
/// changed ("the problem's parameters changed (e 0.8 -> 0.7)"); "" when it is the same experiment.
std::string experiment_change(const report::Study& old, const report::Study& now);

/// Compares two loaded results.  Throws report::ReportError when either is older than schema 2.
Comparison compare(const report::Results& old, const report::Results& now, const CompareOptions& options = {});

}  // namespace check
