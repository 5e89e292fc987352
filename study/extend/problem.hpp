#pragma once
/// register_problem<Problem>(): a problem of your own beside the shipped ones, with every built-in integrator
/// and method table, its reference solved in float128 like theirs (docs/extend.md).  Heavier than an integrator (Boost.Odeint's Bulirsch–Stoer in float128, every built-in method on the
/// problem): keep it in a file of its own, which an edit to an integrator does not recompile.

#include <string>

#include "integrators/concept.hpp"
#include "reference/solvers_impl.hpp"
#include "reference/user_problems.hpp"
#include "study/extend/registration.hpp"
#include "study/measure/measure_impl.hpp"
#include "study/measure/binding.hpp"
#include "study/problems/concept.hpp"

namespace study {
namespace extend_detail {

/// What the problem's code computes at a few states, in float128: part of its reference's cache key, so that an
/// edited force, energy, period, start or exact solution is not answered from the cache of the old one.
template <class P>
std::string fingerprint(const P& p) {
  using Real = typename P::real_type;
  std::string text;
  auto add = [&](const Real& x) { text += reference::to_decimal(x) + " "; };
  const auto s = p.initial();
  for (const Real& scale : {Real(1), Real(0.75)}) {
    typename P::Vec q = s.q, v = s.v, a{};
    for (std::size_t i = 0; i < P::dim; ++i) q[i] = q[i] * scale + Real(i + 1) / 64, v[i] = v[i] * scale - Real(i + 1) / 128;
    ode::force(p, q, v, a);
    for (const Real& x : a) add(x);
    typename P::State at = s;
    at.q = q, at.v = v;
    add(p.energy(at));
  }
  for (std::size_t i = 0; i < P::dim; ++i) add(s.q[i]), add(s.v[i]);
  add(p.period());
  if constexpr (P::has_exact) {
    const auto e = p.exact(p.period() / 7);
    for (std::size_t i = 0; i < P::dim; ++i) add(e.q[i]), add(e.v[i]);
  }
  return text;
}

/// Whether P = Problem<double> rebinds to Problem<long double> (a one-parameter class template, not an alias).
template <class P, template <class> class Problem>
concept RebindsTo = requires { typename Rebind<P, long double>::type; } &&
                    std::is_same_v<typename Rebind<P, long double>::type, Problem<long double>>;

/// register_problem's work, once its static checks hold (so that a failed check is the one error shown).
template <template <class> class Problem, class Methods>
void register_problem_checked() {
  using P = Problem<double>;
  using Wide = Problem<reference::Real>;
  static_assert(std::tuple_size_v<Methods> > 0, "Methods names at least one built-in integrator (or leave it out: all)");
  extend_detail::guarded("problem '" + std::string(P::id) + "'", [] {
    const std::string id(P::id);
    if (!extend_detail::claim_id(id, "problem")) return;
    std::vector<std::string> only;
    if constexpr (!std::is_same_v<Methods, ode::AllMethods>) ode::for_each_method<Methods>([&](auto m) { only.emplace_back(m.info().id); });
    ProblemFacts defaults;
    try {
      defaults = facts_of(P(ParamValues{}));
    } catch (const ParamError& e) {
      throw std::invalid_argument(std::string("its own defaults (its params array) are refused: ") + e.what());
    }
    extensions().problems.push_back({defaults, [](const ParamValues& v) { return facts_of(P(v)); }, only});
    using reference::detail::Solved;
    using reference::detail::Start;
    reference::detail::user_solvers()[id] = {
        [id](const ParamValues& values, const Start& initial) {
          Solved out;
          const Wide p(values);
          reference::detail::describe_into(p, values, out, initial, id);
          out.fingerprint = extend_detail::fingerprint(p);
          return out;
        },
        [id](const ParamValues& values, const Start& initial, const std::vector<reference::Real>& times, reference::Real tol,
             reference::Real check_tol, std::uint64_t max_steps, const reference::WorkBudget& budget, bool concurrent) {
          const Wide p(values);
          Solved out = reference::detail::solve_twice_of(p, id, values, initial, times, tol, check_tol, max_steps, budget, concurrent);
          out.fingerprint = extend_detail::fingerprint(p);
          return out;
        }};
    register_runner({std::string(), id}, [](TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps,
                                                   const engine::Context& ctx, StudyResult& res, std::size_t slot) {
      engine::run_task_on<Methods>(P(spec.params), kind, spec, si, steps, ctx, res, slot);
    });
  });
}

}  // namespace extend_detail

/// Registers Problem (a class template on its scalar type, satisfying StudyProblem: study/problems/concept.hpp)
/// under Problem<double>::id: the built-in integrators and method tables run on it in double, its reference is
/// solved in float128 (and certified against exact(t) when it has one).  Methods, a std::tuple of built-in
/// integrator types (e.g. std::tuple<ode::Rk4, ode::GaussLegendre4>), compiles only those on it, without the
/// method tables: a shorter build, and a spec choosing another is refused.  Call before study::cli_main; an
/// id that is taken or malformed is reported there (exit 2).
template <template <class> class Problem, class Methods = ode::AllMethods>
void register_problem() {
  using P = Problem<double>;
  using Wide = Problem<reference::Real>;
  static_assert(extend_detail::RebindsTo<P, Problem>,
                "a problem is a class template on its scalar type alone, template <class Real> class P (the study "
                "rebinds it to long double and float128); for a template with more parameters, derive a one-parameter "
                "class template from it (an alias template will not do)");
  if constexpr (extend_detail::RebindsTo<P, Problem>) {
    static_assert(check_problem<P>());
    if constexpr (StudyProblem<P>)
      static_assert(StudyProblem<Wide>, "the problem compiles in double but not in float128 (its reference is solved "
                                        "in it): write it on its template parameter Real, with using std::sqrt etc.");
    if constexpr (StudyProblem<P> && StudyProblem<Wide>) extend_detail::register_problem_checked<Problem, Methods>();
  }
}

/// A problem given as a class (MyProblem<double>, or one written in double only) rather than as its template:
/// refused in a sentence, not with "no matching function".
template <class NotATemplate, class Methods = ode::AllMethods>
void register_problem() {
  static_assert(extend_detail::always_false<NotATemplate>,
                "register_problem takes the problem's class template, register_problem<MyProblem>() for template "
                "<class Real> class MyProblem, not a class such as MyProblem<double>: its reference is solved in "
                "float128 and its accuracy checked in long double, so a problem is written on its scalar type (one "
                "written in double only could not have a reference more accurate than the methods it judges)");
}

}  // namespace study
