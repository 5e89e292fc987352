#pragma once
/// The CI gate: compares a results directory with what the integrators declare and with a committed
/// baseline of error constants.  Reads results files only (like the renderer); never recomputes.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "study/reader/model.hpp"
#include "study/check/baseline.hpp"

namespace check {

/// How strict the gate is.
struct Options {
  double order_tolerance = report::order_tolerance;  ///< |observed - expected| allowed for an order
  double identity_factor = 10;   ///< identities hold within this many times the runs' measured round-off
  double reversal_allowance = 100;  ///< symmetric methods return to the start within this many eps per step
  /// Only these studies (names) and integrators (labels or ids) are checked, and each must be in the results;
  /// empty: every one.
  std::vector<std::string> studies, integrators;
};

/// One check and its verdict: pass, fail, or undetermined (the data cannot decide; `off` then says why and
/// `action` what would decide it).
struct Outcome {
  enum Status { pass, fail, undetermined };
  Status status = pass;
  std::string study, problem, integrator, metric;
  std::string expected, observed, window, off;  ///< off: how far from the expectation (failures), or why undetermined
  std::string action;                           ///< undetermined: what would decide it
  /// "ci-kepler (kepler) | rk4 | global order | expected 4 +/- 0.2 | observed 1.00 | dt 0.0125..0.1, 4 points | off by 3.00"
  std::string line() const;
};

/// Every check made on a results directory.
struct Verdict {
  std::vector<Outcome> outcomes;
  std::size_t count(Outcome::Status s) const;
  /// At least one check was judged (passed or failed), none failed (strict: and none is undetermined either).
  /// A gate with nothing judged does not pass: it would pass on an empty or unreadable study.
  bool passed(bool strict = false) const {
    return count(Outcome::pass) > 0 && count(Outcome::fail) == 0 && (!strict || count(Outcome::undetermined) == 0);
  }
};

/// Runs every check on `results`; the baseline's error constants too when one is given.
Verdict run_checks(const report::Results& results, const Baseline* baseline, const Options& options = {});

/// The verdict as JUnit XML (one testsuite per study, one testcase per check) for CI servers; `name` names the whole.
std::string junit_xml(const Verdict& verdict, const std::string& name = "study check");

}  // namespace check
