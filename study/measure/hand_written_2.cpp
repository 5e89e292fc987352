// The hand-written methods' tasks on the second part of the problem list (see run_task_part).
#include "study/measure/binding.hpp"

namespace study::engine {

bool run_hand_written_second(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
                            std::size_t slot) {
  return run_task_part<ode::AllMethods, hand_written_split, std::tuple_size_v<AllProblems<double>>>(kind, spec, si, steps, ctx, res, slot);
}

}  // namespace study::engine
