#pragma once
/// Every test problem, templated on the scalar type.  Adding one: a new file plus one entry here.

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "study/problems/arenstorf.hpp"
#include "study/problems/central_force.hpp"
#include "study/problems/damped_oscillator.hpp"
#include "study/problems/earth_moon.hpp"
#include "study/problems/harmonic.hpp"
#include "study/problems/henon_heiles.hpp"
#include "study/problems/kepler.hpp"
#include "study/problems/outer_solar_system.hpp"
#include "study/problems/pendulum.hpp"
#include "study/problems/plummer.hpp"
#include "study/problems/projectile.hpp"

namespace study {

template <class Real>
using AllProblems = std::tuple<Projectile<Real>, CentralForce<Real>, EarthMoon<Real>, Kepler<Real>, Harmonic<Real>,
                               Pendulum<Real>, HenonHeiles<Real>, OuterSolarSystem<Real>, DampedOscillator<Real>,
                               Plummer<Real>, Arenstorf<Real>>;

/// Whether P is one of the shipped problems: their exact solutions (where they have one) are held by the tests to
/// their float128 error (tests/reference/test_exact_wide.cpp), a user's are not.
template <class P>
inline constexpr bool shipped_problem = []<class... Ps>(std::tuple<Ps...>*) {
  return (std::is_same_v<P, Ps> || ...);
}(static_cast<AllProblems<typename P::real_type>*>(nullptr));

/// The ids of all problems, in list order.
inline std::array<std::string_view, std::tuple_size_v<AllProblems<double>>> problem_ids() {
  return std::apply([](auto... p) { return std::array<std::string_view, sizeof...(p)>{decltype(p)::id...}; },
                    AllProblems<double>{});
}

/// An unknown problem id.
struct UnknownProblem : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Calls f(std::type_identity<P>{}) for every problem type P in AllProblems<Real>, constructing none.
template <class Real, class F>
void for_each_problem_type(F&& f) {
  [&]<class... P>(std::tuple<P...>*) { (f(std::type_identity<P>{}), ...); }(static_cast<AllProblems<Real>*>(nullptr));
}

/// Constructs the problem `id` in precision Real from `values` and calls f(problem); throws UnknownProblem
/// (naming the nearest id and all valid ones) or ParamError.
template <class Real, class F>
void with_problem(std::string_view id, const ParamValues& values, F&& f) {
  bool found = false;
  for_each_problem_type<Real>([&](auto tag) {
    using P = typename decltype(tag)::type;
    if (!found && P::id == id) found = true, f(P(values));
  });
  if (!found) {
    const auto ids = problem_ids();
    throw UnknownProblem("unknown problem '" + std::string(id) + "'" + did_you_mean(id, ids) + "; problems: " + join(ids));
  }
}

/// Calls f(P{}) -- default parameters -- for every problem type in AllProblems<Real>.
template <class Real, class F>
void for_each_problem(F&& f) {
  std::apply([&](auto... p) { (f(p), ...); }, AllProblems<Real>{});
}

}  // namespace study
