#pragma once
/// Integrators and problems of the user's own program (docs/extend.md):
/// registered by study/extend.hpp before study::cli_main runs, and kept here type-erased, as the spec reader,
/// the context and `study list` need them.  Filled before any study starts and read-only after:
/// no lock.  The shipped `study` registers nothing.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "integrators/adaptive.hpp"
#include "integrators/method.hpp"
#include "study/registry/choice.hpp"
#include "study/problems/params.hpp"

namespace study {

/// What the spec reader, the context and `study list` need of a problem with given parameters, in double.
struct ProblemFacts {
  std::string id, summary, source;
  std::size_t dim = 0;
  bool has_exact = false, conservative = true, bounded = false, periodic = false;
  bool velocity_dependent = false;  ///< its force reads velocities: integrators that need a(q) cannot run it
  bool linear = false;              ///< its force is linear in q and v, with constant coefficients (optional P::linear)
  double period = 1;                ///< its time scale (study/problems/concept.hpp)
  /// What one force evaluation costs, in two-body evaluations: the problem's evaluation_cost() where it declares
  /// one, else B(B - 1)/2 pair forces for B bodies (static `bodies`), else 1.  Cost estimates weigh steps by it.
  double evaluation_cost = 1;
  std::string time_unit, length_unit;  ///< "" when dimensionless or not given
  std::vector<double> q0, v0;       ///< its initial state
  std::vector<ParamInfo> params;    ///< its parameters, with defaults
};

/// The facts of problem p (any type satisfying StudyProblem, in double).
template <class P>
ProblemFacts facts_of(const P& p) {
  ProblemFacts f;
  f.id = P::id, f.summary = P::summary, f.source = P::source, f.dim = P::dim;
  f.has_exact = P::has_exact, f.conservative = P::conservative, f.bounded = P::bounded, f.periodic = P::periodic;
  f.velocity_dependent = !ode::PositionForce<P>;
  if constexpr (requires { { P::linear } -> std::convertible_to<bool>; }) f.linear = P::linear;
  f.period = static_cast<double>(p.period());
  if constexpr (requires { static_cast<double>(p.evaluation_cost()); }) f.evaluation_cost = static_cast<double>(p.evaluation_cost());
  else if constexpr (requires { static_cast<double>(P::bodies); }) f.evaluation_cost = std::max(1.0, P::bodies * (P::bodies - 1.0) / 2);
  if (!(f.evaluation_cost >= 1) || !std::isfinite(f.evaluation_cost))  // else the cost estimate could be 0 or NaN
    throw ParamError(std::string(P::id) + ": its evaluation_cost() is " + std::to_string(f.evaluation_cost) +
                     "; it must be a finite number >= 1 (the cost of a force evaluation in two-body evaluations)");
  if constexpr (requires { std::string_view(P::time_unit); }) f.time_unit = P::time_unit;
  if constexpr (requires { std::string_view(P::length_unit); }) f.length_unit = P::length_unit;
  const auto s = p.initial();
  for (std::size_t i = 0; i < P::dim; ++i) f.q0.push_back(static_cast<double>(s.q[i])), f.v0.push_back(static_cast<double>(s.v[i]));
  f.params.assign(P::params.begin(), P::params.end());
  return f;
}

/// An integrator of the user's: its id, and its Info for a choice (substeps, options checked as for a built-in).
struct UserIntegrator {
  std::string id;
  std::function<ode::Info(const IntegratorChoice&)> info;  ///< throws std::invalid_argument for a bad option
};

/// A problem of the user's: its facts with default parameters, and with given ones (throws ParamError).
struct UserProblem {
  ProblemFacts defaults;
  std::function<ProblemFacts(const ParamValues&)> facts;
  std::vector<std::string> integrators;  ///< the built-in integrators compiled on it; empty: all, and method tables
};

/// A step-size controller of the user's (study/extend/controller.hpp): its name, its parameters (a spec's
/// controller = { kind = NAME, ... } gives them), and a fresh one for a tolerance and the parameters given.
struct UserController {
  std::string name;
  std::vector<std::string> parameters;
  std::function<std::unique_ptr<ode::StepController>(double tol, const std::map<std::string, double>& params)> make;
};

/// Everything registered of what the spec reader, the context and `study list` need: the ids, facts and which pairs
/// run.  How a registration runs (its task runners) is kept by the measure stage (study/measure/runners.hpp), its benchmark
/// rows by the bench (study/bench/user.hpp).
struct Extensions {
  std::vector<UserIntegrator> integrators;
  std::vector<UserProblem> problems;
  std::vector<UserController> controllers;
  std::set<std::pair<std::string, std::string>> runnable;  ///< (integrator, problem) pairs with a runner; "": every shipped one
  std::vector<std::string> errors;  ///< registrations refused (a taken or malformed id): study::cli_main reports them
  bool empty() const { return integrators.empty() && problems.empty() && controllers.empty(); }
};

inline Extensions& extensions() {
  static Extensions registered;
  return registered;
}

inline const UserIntegrator* find_user_integrator(std::string_view id) {
  for (const auto& i : extensions().integrators)
    if (i.id == id) return &i;
  return nullptr;
}

inline const UserController* find_user_controller(std::string_view name) {
  for (const auto& c : extensions().controllers)
    if (c.name == name) return &c;
  return nullptr;
}

inline const UserProblem* find_user_problem(std::string_view id) {
  for (const auto& p : extensions().problems)
    if (p.defaults.id == id) return &p;
  return nullptr;
}

/// What cli_main reports before anything runs (exit 2): registrations refused, and pairs (register_pair) whose
/// integrator or problem was not registered itself.
inline std::vector<std::string> registration_errors() {
  std::vector<std::string> errors = extensions().errors;
  for (const auto& [integrator, problem] : extensions().runnable) {
    if (integrator.empty() || problem.empty()) continue;
    if (!find_user_integrator(integrator))
      errors.push_back("the pair (" + integrator + ", " + problem + "): register_integrator<" + integrator +
                       "'s type>() too; register_pair adds the one on the other only");
    if (!find_user_problem(problem))
      errors.push_back("the pair (" + integrator + ", " + problem + "): register_problem<" + problem +
                       "'s template>() too; register_pair adds the one on the other only");
  }
  return errors;
}

/// The key of the runner (study/measure/runners.hpp) of choice c on `problem` when either is the user's; none when
/// both are shipped (the engine's own dispatch runs them).  Throws std::invalid_argument when the program did not
/// compile the pair (both the user's but not registered together; an integrator the problem was not compiled with).
inline std::optional<std::pair<std::string, std::string>> runner_key(const IntegratorChoice& c, std::string_view problem) {
  const UserProblem* user_problem = find_user_problem(problem);
  const bool user_method = !c.table && find_user_integrator(c.id);
  if (!user_method && !user_problem) return std::nullopt;
  if (user_problem && !user_method && !user_problem->integrators.empty()) {
    const auto& only = user_problem->integrators;
    if (c.table || std::find(only.begin(), only.end(), c.id) == only.end()) {
      std::string list;
      for (const auto& id : only) list += (list.empty() ? "" : ", ") + id;
      throw std::invalid_argument(c.id + " was not compiled on " + std::string(problem) + ": this program registered it with " +
                                  "study::register_problem<" + std::string(problem) + "'s template, std::tuple<...>>(), "
                                  "which compiles only " + list + " on it");
    }
  }
  const auto key = std::make_pair(user_method ? c.id : std::string(), user_problem ? std::string(problem) : std::string());
  if (extensions().runnable.count(key)) return key;
  throw std::invalid_argument(c.id + " and " + std::string(problem) + " are both your program's, but were not registered "
                              "together: add study::register_pair<" + c.id + "'s type, " + std::string(problem) +
                              "'s template>() to your program (docs/extend.md)");
}

/// The facts of problem `id`, shipped or the user's, with `params` (study/spec/spec.cpp); throws UnknownProblem
/// (study/problems/all.hpp, naming the valid ids) or ParamError.
ProblemFacts problem_facts(std::string_view id, const ParamValues& params);
/// Every problem id: the shipped ones, then the user's.
std::vector<std::string> all_problem_ids();

}  // namespace study
