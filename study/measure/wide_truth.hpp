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

/// The noise floor of a wide run of n steps: wide_reference_factor x the reference's bound, and round-off, estimated
/// from the double runs' measured round-off scaled to the arithmetic's unit roundoff: at n where double ran (the same
/// operations, rounded finer), else from the nearest n it ran below, grown in proportion to the steps (one-step
/// methods accumulate round-off like sqrt(n) to n: the larger is the safer floor), else eps sqrt(n).  And the digits
/// of a table's coefficients: as written, its weights miss consistency by r_1 (exactly: PredictedOrder::consistency),
/// so that a step advances the flow by (1 + r_1) h, an error of r_1 per time scale T (period / 2 pi) that no step size
/// removes; and its conditions of order k miss by r_k (PredictedOrder::residuals), an error of r_k (h / T)^(k - 1) per
/// time scale: sum_k r_k (h / T)^(k - 1) (1 + t_end / T) for the global errors, sum_k r_k (h / T)^k for one step.
/// Below it the method measured is the digits', not the one they stand for.  (Each digit's half-unit, added, is no
/// floor: Kahan and Li's 26-digit 8th-order composition falls as h^8 to 6e-27 on Kepler's problem, where they add to
/// 2e-25, its weights summing to 1 exactly.)
struct WideFloors {
  double global = 0, max = 0, local = 0;
};
WideFloors wide_floors(const std::vector<const Run*>& runs, long n, double reference_bound, const std::string& arithmetic,
                       const PredictedOrder& digits, double t_end, double time_scale);

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
