#pragma once
/// Where integrator ids meet method types: one task of the engine, for the methods of a list (the
/// hand-written ones in engine.cpp; deliberately broken ones in tests/study/broken_study.cpp).

#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

#include "study/engine.hpp"
#include "study/engine_impl.hpp"
#include "study/problems/all.hpp"
#include "study/registry.hpp"

namespace study::engine {

/// Measures one task (a run, the long energy run, or the stability search) of `si` on problem p.
template <class Methods, class P>
void run_task_on(const P& p, TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                 StudyResult& res, std::size_t slot) {
  with_method<Methods>(si.choice, [&](const auto& m) {
    using M = std::decay_t<decltype(m)>;
    if constexpr (ode::accepts<M, P>) {
      switch (kind) {
        case TaskKind::run: res.runs[slot] = reuse_or_measure(m, p, spec, si.choice, steps, ctx); break;
        case TaskKind::energy: res.energy_long[slot] = energy_run(m, p, spec, si.choice); break;
        case TaskKind::stability: res.stability[slot] = stability(m, si.choice); break;
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
/// compile in parallel (engine_methods_*.cpp).
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

/// The hand-written methods on the problems at [0, split) and [split, end) of AllProblems.
inline constexpr std::size_t hand_written_split = 6;
bool run_hand_written_first(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                            StudyResult& res, std::size_t slot);
bool run_hand_written_second(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                             StudyResult& res, std::size_t slot);

}  // namespace study::engine
