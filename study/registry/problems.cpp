// Problems by id at run time, shipped or a user program's (study/registry/extensions.hpp).
#include <algorithm>

#include "study/common/suggest.hpp"
#include "study/problems/all.hpp"
#include "study/registry/extensions.hpp"

namespace study {

std::vector<std::string> all_problem_ids() {
  std::vector<std::string> ids;
  for (const auto id : problem_ids()) ids.emplace_back(id);
  for (const auto& p : extensions().problems) ids.push_back(p.defaults.id);
  return ids;
}

ProblemFacts problem_facts(std::string_view id, const ParamValues& params) {
  if (const UserProblem* user = find_user_problem(id)) return user->facts(params);
  const auto shipped = problem_ids();
  if (std::find(shipped.begin(), shipped.end(), id) == shipped.end()) {
    const auto ids = all_problem_ids();
    throw UnknownProblem("unknown problem '" + std::string(id) + "'" + did_you_mean(id, ids) + "; problems: " + join(ids));
  }
  ProblemFacts f;
  with_problem<double>(id, params, [&](const auto& p) { f = facts_of(p); });
  return f;
}

}  // namespace study
