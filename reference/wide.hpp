#pragma once
/// The truth against which the references' error bounds are tested: the same problem solved in 50 decimal
/// digits (Boost.Multiprecision cpp_bin_float_50) by Odeint's Bulirsch–Stoer at a tolerance far below the
/// float128 reference's (1e-36 against 1e-28), from the problem's own start and parameters in that precision.
/// Slow (software arithmetic); used by tests/reference/test_reference_bound.cpp only.

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "reference/decimal.hpp"
#include "study/problems/params.hpp"

namespace reference {

/// States at the requested times, rounded to float128 (far below any bound they are compared with).
struct WideSolution {
  std::vector<std::vector<Real>> q, v;
  std::uint64_t evaluations = 0;
};

/// Solves `problem` with `params` to each of `times` (increasing, > 0) at `tolerance` in 50 digits, from the
/// problem's own start or from `initial` (positions, velocities).  Throws study::UnknownProblem, study::ParamError or
/// ReferenceError.
WideSolution solve_wide(const std::string& problem, const study::ParamValues& params, const std::vector<Real>& times,
                        const std::string& tolerance = "1e-36",
                        const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial = {});

}  // namespace reference
