#pragma once
/// Where integrator ids meet method types: one task of the engine, for the methods of a list (the
/// hand-written ones and tables in hand_written_*.cpp; deliberately broken ones in tests/study/broken_runner.hpp).
/// A method's type is bound to the problem's here (study/measure/stepper.hpp) and goes no further; the stability
/// search, which steps x'' = -x whatever the problem, is the one measurement compiled per method.

#include <array>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

#include "study/measure/runners.hpp"
#include "study/measure/measure.hpp"
#include "study/problems/all.hpp"
#include "study/registry/integrators.hpp"
#include "study/measure/stability_search.hpp"
#include "study/measure/stepper.hpp"

namespace study::engine {

/// The stability search of the hand-written method or table c (x'' = -x, whatever the study's problem), compiled once
/// (hand_written_stability.cpp), not in each part of the problem list.
Stability hand_written_stability(const IntegratorChoice& c);

/// The stability search of method m, chosen as c.
template <class Methods, class M>
Stability stability_of(const M& m, const IntegratorChoice& c) {
  if constexpr (std::is_same_v<Methods, ode::AllMethods>) return hand_written_stability(c);
  else return stability(m, c);
}

/// Measures one task (a run, the long energy run, or the stability search) of `si` on problem p.  The method's
/// type ends here: runs are measured through MethodOn<P>, compiled once per problem (study/measure/measure.cpp).
template <class Methods, class P>
void run_task_on(const P& p, TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                 StudyResult& res, std::size_t slot) {
  with_method<Methods>(si.choice, [&](const auto& m) {
    using M = std::decay_t<decltype(m)>;
    if constexpr (ode::accepts<M, P>) {
      switch (kind) {
        case TaskKind::run: res.runs[slot] = reuse_or_measure(*bind<P>(m), p, spec, si.choice, steps, ctx); break;
        case TaskKind::energy: res.energy_long[slot] = energy_run(*bind<P>(m), p, spec, si.choice); break;
        case TaskKind::stability: res.stability[slot] = stability_of<Methods>(m, si.choice); break;
        case TaskKind::wide_long_double:
        case TaskKind::wide_float128:
          res.wide_runs[slot] = reuse_or_measure_wide(*bind<P>(m), p, spec, si.choice, steps, ctx, arithmetic_of(kind));
          break;
        case TaskKind::adaptive:
        case TaskKind::adaptive_energy: throw std::logic_error("an adaptive task is run by adaptive_task (study/measure/adaptive.cpp)");
      }
    } else {
      throw std::invalid_argument(si.choice.id + " cannot integrate " + spec.problem + ": it needs a position-only force");
    }
  });
}

/// Measures one task of `si` on the spec's problem.
template <class Methods>
void run_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
              std::size_t slot) {
  with_problem<double>(spec.problem, spec.params,
                       [&](const auto& p) { run_task_on<Methods>(p, kind, spec, si, steps, ctx, res, slot); });
}

/// run_task for the problems at indices [First, Last) of AllProblems only; false when the spec's problem is
/// not one of them.  The hand-written methods' instantiations are spread this way over translation units that
/// compile in parallel (hand_written_*.cpp).
template <class Methods, std::size_t First, std::size_t Last>
bool run_task_part(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
                   std::size_t slot) {
  bool found = false;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto one = [&]<class P>(std::type_identity<P>) {
      if (found || P::id != spec.problem) return;
      found = true;
      run_task_on<Methods>(P(spec.params), kind, spec, si, steps, ctx, res, slot);
    };
    (one(std::type_identity<std::tuple_element_t<First + I, AllProblems<double>>>{}), ...);
  }(std::make_index_sequence<Last - First>{});
  return found;
}

/// The hand-written methods on a quarter of AllProblems each: hand_written_<k>.cpp compiles part k (1 to 4), the
/// problems at [hand_written_bounds[k - 1], hand_written_bounds[k]): four files keep two cores busy to the end of the
/// build (two halves took 91 and 85 s; docs/build.md).  Each returns false when the spec's problem is not in its part.
inline constexpr std::array<std::size_t, 5> hand_written_bounds{0, 2, 5, 8, std::tuple_size_v<AllProblems<double>>};
static_assert(hand_written_bounds[0] < hand_written_bounds[1] && hand_written_bounds[1] < hand_written_bounds[2] &&
                  hand_written_bounds[2] < hand_written_bounds[3] && hand_written_bounds[3] < hand_written_bounds[4],
              "every part of the problem list holds a problem");
using HandWrittenPart = bool (*)(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                                 StudyResult& res, std::size_t slot);
bool run_hand_written_1(TaskKind, const Spec&, const SpecIntegrator&, long, const Context&, StudyResult&, std::size_t);
bool run_hand_written_2(TaskKind, const Spec&, const SpecIntegrator&, long, const Context&, StudyResult&, std::size_t);
bool run_hand_written_3(TaskKind, const Spec&, const SpecIntegrator&, long, const Context&, StudyResult&, std::size_t);
bool run_hand_written_4(TaskKind, const Spec&, const SpecIntegrator&, long, const Context&, StudyResult&, std::size_t);
inline constexpr std::array<HandWrittenPart, 4> hand_written_parts{&run_hand_written_1, &run_hand_written_2, &run_hand_written_3,
                                                                   &run_hand_written_4};

}  // namespace study::engine
