#pragma once
/// Internal: one solve of a problem by id, implemented in solvers.cpp (the Odeint translation unit).

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/budget.hpp"
#include "reference/decimal.hpp"
#include "study/problems/params.hpp"

namespace reference::detail {

/// The reference and certifying solves of one request, with what the bound needs.
struct Solved {
  std::vector<std::pair<std::string, std::string>> params;  ///< effective parameters, canonical digits
  std::vector<Real> q0, v0;                                 ///< the initial state used
  std::vector<std::vector<Real>> q, v, check_q, check_v;
  std::optional<std::vector<std::vector<Real>>> exact_q, exact_v;
  std::uint64_t evaluations = 0;
  Real time_scale = 1;  ///< period / 2 pi: turns a length into a velocity scale
  /// A problem of the user's: its force, energy and exact solution at a few states, so that an edited problem
  /// under the same id and parameters does not reuse a cached reference (empty for the shipped ones, whose code is
  /// this build's).
  std::string fingerprint;
};

/// The effective parameters and initial state of a problem (cheap: no solve), for the cache key.
Solved describe(const std::string& problem, const study::ParamValues& params,
                const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial);

/// Solves at tol and tol / factor; exact states too where the problem has them and the start is its own.
Solved solve_twice(const std::string& problem, const study::ParamValues& params,
                   const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial,
                   const std::vector<Real>& times, Real tol, Real check_tol, std::uint64_t max_steps, const WorkBudget& budget, bool concurrent);

}  // namespace reference::detail
