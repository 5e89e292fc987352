#pragma once
/// register_pair<M, Problem>(): an integrator of your program's on a problem of your program's.  Lighter than
/// problem.hpp (no reference solver): put it in a file of its own, so that an edit to the integrator recompiles
/// this file and the integrators' one, in parallel, and not the problem's.

#include <string>
#include <tuple>

#include "integrators/concept.hpp"
#include "study/extend/registration.hpp"
#include "study/measure/measure_impl.hpp"
#include "study/measure/binding.hpp"

namespace study {

/// Registers integrator M on problem Problem, both your program's (register_integrator<M>() and
/// register_problem<Problem>() each run theirs on the shipped ones only); both must be registered too, which
/// cli_main checks.
template <class M, template <class> class Problem>
void register_pair() {
  using P = Problem<double>;
  static_assert(ode::check_integrator<M, P>());
  extend_detail::guarded("a pair", [] {
    register_runner({std::string(M{}.info().id), std::string(P::id)},
        [](TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const engine::Context& ctx, StudyResult& res,
           std::size_t slot) { engine::run_task_on<std::tuple<M>>(P(spec.params), kind, spec, si, steps, ctx, res, slot); });
  });
}

/// A problem given as a class rather than as its template: refused in a sentence.
template <class M, class NotATemplate>
void register_pair() {
  static_assert(extend_detail::always_false<NotATemplate>,
                "register_pair<M, MyProblem>() takes the problem's class template, as register_problem does, not a class "
                "such as MyProblem<double>");
}

}  // namespace study
