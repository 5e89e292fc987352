#pragma once
/// Stage 3, adaptive runs (study/measure/adaptive.cpp): one task is one adaptive integrator at one tolerance.

#include "study/plan/context.hpp"
#include "study/plan/plan.hpp"
#include "study/results/results.hpp"

namespace study::engine {

/// Before the study: a pilot run of each adaptive pair at the loosest tolerance (tol.max) from 0 to t_end, its
/// controller's own steps and no reference, whose tries (accepted and rejected) the work estimate scales to each
/// tolerance (spec.adaptive[i].pilot_tries).  At most 20000 tries; a pilot that does not reach t_end within them (or
/// stops otherwise) leaves tol.max_steps, the bound of a run in flight, as the estimate.
void adaptive_pilots(Spec& spec);

/// Runs task t (kind adaptive: t.integrator indexes spec.adaptive, t.steps spec.tolerances) into res.adaptive_runs[t.slot].
void adaptive_task(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res);

}  // namespace study::engine
