#pragma once
/// The sweep engine: references, then every (integrator, dt) run, long energy run and stability search of
/// every spec, spread over threads; then the order fits.  Results do not depend on the number of threads.
/// The stages, in order, are listed in study/stages.hpp.

#include <vector>

#include "study/common/interrupt.hpp"
#include "study/measure/runners.hpp"
#include "study/plan/options.hpp"
#include "study/results/results.hpp"
#include "study/spec/spec.hpp"

namespace study {

/// Runs the specs with the hand-written integrators (or, for tests, the methods `runner` dispatches to).
/// Throws SpecError / std::invalid_argument for bad input, reference::ReferenceError, Interrupted.
std::vector<StudyResult> run_studies(const std::vector<Spec>& specs, const EngineOptions& options, const TaskRunner& runner = {});

}  // namespace study
