// The Odeint translation unit: instantiates the float128 Bulirsch–Stoer solve for every problem.
#include "reference/solvers.hpp"

#include "reference/solvers_impl.hpp"
#include "reference/user_problems.hpp"
#include "study/problems/all.hpp"

namespace reference::detail {

Solved describe(const std::string& problem, const study::ParamValues& params,
                const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial) {
  if (const UserSolver* user = find_user_solver(problem)) return user->describe(params, initial);
  Solved out;
  study::with_problem<Real>(problem, params, [&](const auto& p) { describe_into(p, params, out, initial, problem); });
  return out;
}

Solved solve_twice(const std::string& problem, const study::ParamValues& params,
                   const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial,
                   const std::vector<Real>& times, Real tol, Real check_tol, std::uint64_t max_steps, const WorkBudget& budget, bool concurrent) {
  if (const UserSolver* user = find_user_solver(problem))
    return user->solve_twice(params, initial, times, tol, check_tol, max_steps, budget, concurrent);
  Solved out;
  study::with_problem<Real>(problem, params, [&](const auto& p) {
    out = solve_twice_of(p, problem, params, initial, times, tol, check_tol, max_steps, budget, concurrent);
  });
  return out;
}

}  // namespace reference::detail
