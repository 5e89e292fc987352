#pragma once
/// Certified high-precision reference trajectories: the state (q, v) of any problem at requested times,
/// in float128, with an error bound computed beside it, cached on disk.
///
///   error bound = 2 |x(tol) - x(tol/100)| + 100 eps evaluations   (truncation; worst-case round-off)
///                 and, where the problem has an exact solution, at least |x(tol) - exact|.
/// Bounds are relative to the largest |q| over the start and the samples (velocities: the largest |v|, and at
/// least that length per time scale period/2 pi).

#include <cstdint>
#include <atomic>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/budget.hpp"
#include "reference/decimal.hpp"
#include "study/common/printable.hpp"
#include "study/problems/params.hpp"

namespace reference {

/// What to compute.
struct Request {
  std::string problem;
  study::ParamValues params;
  std::vector<Real> times;  ///< increasing, >= 0
  /// Start from this state instead of the problem's own (e.g. the double-rounded one an integrator starts from).
  std::optional<std::pair<std::vector<Real>, std::vector<Real>>> initial;
};

/// How to compute it.
struct Options {
  double tolerance = 1e-28;           ///< Bulirsch–Stoer tolerance of the reference solve (scaled units)
  double check_factor = 100;          ///< the certifying solve uses tolerance / check_factor
  std::optional<std::filesystem::path> cache_dir;  ///< default: default_cache_dir()
  bool use_cache = true;
  std::uint64_t max_steps = 10'000'000;  ///< per interval between requested times; beyond it the solve fails
  /// The work limit the solves share (--max-work): unbounded by default.
  WorkBudget budget;
  bool concurrent = true;  ///< run the certifying solve on a second thread (same result; false: one thread only)
};

/// A certified reference trajectory.
struct Reference {
  std::string problem;
  std::vector<std::pair<std::string, std::string>> params;  ///< every parameter, as used (canonical digits)
  std::vector<Real> times;
  std::vector<std::vector<Real>> q, v;  ///< [time][component]
  Real error_bound = 0;                 ///< relative (see above)
  Real position_bound = 0, velocity_bound = 0;  ///< absolute, in the problem's units
  Real two_tolerance_bound = 0;         ///< relative, from the second solve alone
  std::optional<Real> exact_error;      ///< relative, where an exact solution exists
  std::string bound_method;             ///< "two-tolerance" or "two-tolerance+exact"
  double tolerance = 0, check_tolerance = 0;
  std::uint64_t evaluations = 0;        ///< of the reference solve
  bool from_cache = false;
};

/// A reference that could not be computed (names the problem, parameters and the time reached).
struct ReferenceError : study::EchoError {  // its message echoes input: printable
  using study::EchoError::EchoError;
};

/// $STUDY_CACHE_DIR, else $XDG_CACHE_HOME/ode-study/reference, else ~/.cache/ode-study/reference.
std::filesystem::path default_cache_dir();

/// Computes (or reads from the cache) the reference for `request`.  Throws study::UnknownProblem,
/// study::ParamError, std::invalid_argument (bad times) or ReferenceError.
Reference compute(const Request& request, const Options& options = {});

}  // namespace reference
