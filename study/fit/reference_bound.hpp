#pragma once
/// Whether a reference is good enough to measure errors against: an error within a hundredth of the reference's own
/// certified bound is not the method's error (a bound of 0.35, Kepler at e = 0.9999999999 over a long span, makes
/// every error of the study meaningless).  The run warns (study/cli/run.cpp); the gate refuses the study
/// (study/check/check.cpp), as every verdict of it would rest on the reference.

#include <cmath>
#include <string>

#include <fmt/format.h>

namespace study {

/// How far below the largest error measured against it a reference's certified bound must lie.
inline constexpr double reference_margin = 100;

/// Why errors as large as `largest_error` cannot be measured against a reference certified to `bound` (solved at
/// `tolerance`), with what would help; "" when they can (or when nothing was measured: largest_error not finite or
/// not positive, or the bound 0, an exact solution).
inline std::string reference_bound_problem(double bound, double largest_error, double tolerance) {
  if (!(bound > 0) || !std::isfinite(largest_error) || !(largest_error > 0)) return "";
  if (bound * reference_margin <= largest_error) return "";
  return fmt::format("its reference's certified error bound {:.2e} is not {:g} times below the largest error measured "
                     "against it ({:.2e}): no error of this study can be told from the reference's own; a tighter "
                     "reference_tol (now {:.0e}), a shorter t_end or milder parameters would give a reference to measure with",
                     bound, reference_margin, largest_error, tolerance);
}

/// The largest error (global, max or local) of the runs that did not diverge: what a reference is measured against.
/// Runs: the engine's or the results loader's rows (each with status, global, max and local).
template <class Runs>
double largest_error(const Runs& runs) {
  double largest = 0;
  for (const auto& r : runs)
    if (r.status == "ok")
      for (const double e : {r.global, r.max, r.local})
        if (std::isfinite(e) && e > largest) largest = e;
  return largest;
}

}  // namespace study
