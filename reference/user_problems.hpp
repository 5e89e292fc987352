#pragma once
/// Problems of the user's own program (registered by study/extend/problem.hpp, which compiles their float128
/// solves there), found by id when solvers.cpp does not know the id.  Filled before any study starts, read-only
/// after: no lock.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/solvers.hpp"

namespace reference::detail {

using Start = std::optional<std::pair<std::vector<Real>, std::vector<Real>>>;

/// The solves of one problem type, as solvers.hpp declares them for the shipped ones.
struct UserSolver {
  std::function<Solved(const study::ParamValues&, const Start&)> describe;
  std::function<Solved(const study::ParamValues&, const Start&, const std::vector<Real>& times, Real tol, Real check_tol,
                       std::uint64_t max_steps, const WorkBudget& budget, bool concurrent)>
      solve_twice;
};

inline std::map<std::string, UserSolver, std::less<>>& user_solvers() {
  static std::map<std::string, UserSolver, std::less<>> solvers;
  return solvers;
}

inline const UserSolver* find_user_solver(std::string_view id) {
  const auto& all = user_solvers();
  const auto it = all.find(id);
  return it == all.end() ? nullptr : &it->second;
}

}  // namespace reference::detail
