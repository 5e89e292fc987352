#pragma once
/// Where integrator ids meet method types: one task of the engine, for the methods of a list (the
/// hand-written ones in engine.cpp; deliberately broken ones in tests/study/broken_study.cpp).

#include <stdexcept>

#include "study/engine.hpp"
#include "study/engine_impl.hpp"
#include "study/problems/all.hpp"
#include "study/registry.hpp"

namespace study::engine {

/// Measures one task (a run, the long energy run, or the stability search) of `si` on the spec's problem.
template <class Methods>
void run_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
              std::size_t slot) {
  with_problem<double>(spec.problem, spec.params, [&](const auto& p) {
    with_method<Methods>(si.choice, [&](const auto& m) {
      using P = std::decay_t<decltype(p)>;
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
  });
}

}  // namespace study::engine
