#pragma once
/// Stage 3, adaptive runs (study/measure/adaptive.cpp): one task is one adaptive integrator at one tolerance.

#include "study/plan/context.hpp"
#include "study/plan/plan.hpp"
#include "study/results/results.hpp"

namespace study::engine {

/// Runs task t (kind adaptive: t.integrator indexes spec.adaptive, t.steps spec.tolerances) into res.adaptive_runs[t.slot].
void adaptive_task(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res);

}  // namespace study::engine
