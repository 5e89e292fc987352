#pragma once
/// What the float128 runs of the wider arithmetics are measured against (study/measure/wide.cpp, measure_impl.hpp).

#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "study/plan/context.hpp"
#include "study/problems/all.hpp"

namespace study::engine {

/// Whether float128 runs on PR are measured against its exact solution, from the problem's own float128 start: a
/// shipped problem that has one (its float128 error is held by tests/reference/test_exact_wide.cpp; a user's exact()
/// is not).
template <class PR>
inline constexpr bool exact_wide_truth = std::is_same_v<typename PR::real_type, RefReal> && PR::has_exact && shipped_problem<PR>;

/// The float128 runs' truth (what wide_in measures them against) and its relative error bound.
struct WideTruth {
  std::string kind;  ///< "exact solution" or "float128 reference"
  double bound = 0;
};

/// On a shipped problem with an exact solution (exact_wide_truth): that solution's float128 error, relative to the
/// scales and the largest over the reference's times; else the float128 reference's bound.  The exact solution's
/// error: what the problem makes of the rounding of its start and parameters, 100 x the change that 4 ulps in every
/// parameter make, and the roundings of the closed form itself, 10 eps per time scale (period / 2 pi: a phase that grows
/// with t) times what the closed form may amplify them by (a problem's exact_condition(): the pendulum's elliptic
/// functions near the separatrix, 1 / (1 - k^2)).
/// tests/reference/test_exact_wide.cpp holds it above the truth from a 50-digit solve, near Kepler's e = 1 and the
/// pendulum's separatrix too.
WideTruth float128_truth(const Spec& spec, const Context& ctx, const StudyResult& res);

/// Where a wide sweep's halvings stop at its arithmetic's noise floor: once every order still open has had its own
/// error (a global one with the largest over the run too) within `factor` x its floor twice in a row (an error crossing
/// zero dips once, as dt.past_floor).  A local order open alone stops where the one-step errors get there, not halvings
/// later where the global ones would.
class FloorWatch {
 public:
  explicit FloorWatch(double factor) : factor_(factor) {}
  /// After each run of the sweep, with the orders still open.
  bool reached(const WideRun& w, const std::vector<std::string>& open);

 private:
  double factor_;
  std::map<std::string, int> in_a_row_;
};

}  // namespace study::engine
