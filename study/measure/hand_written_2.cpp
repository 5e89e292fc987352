// The hand-written methods' tasks on part 2 of 4 of the problem list (see run_task_part, hand_written_bounds).
#include "study/measure/binding.hpp"

namespace study::engine {

bool run_hand_written_2(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
                        std::size_t slot) {
  return run_task_part<ode::AllMethods, hand_written_bounds[1], hand_written_bounds[2]>(kind, spec, si, steps, ctx, res, slot);
}

}  // namespace study::engine
