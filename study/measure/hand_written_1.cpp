// The hand-written methods' tasks on the first part of the problem list (see run_task_part).
#include "study/measure/binding.hpp"

namespace study::engine {

bool run_hand_written_first(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
                           std::size_t slot) {
  return run_task_part<ode::AllMethods, 0, hand_written_split>(kind, spec, si, steps, ctx, res, slot);
}

}  // namespace study::engine
