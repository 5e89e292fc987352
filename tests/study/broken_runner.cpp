// The deliberately broken methods' tasks, compiled once for both programs that run them: the gate test's (broken_study.cpp)
// and the held-out corpus (corpus.cpp), which each compiled them before (the gate's 5 breakages and all 13 on four
// problems: 17 and 49 s).
#include "tests/study/broken_methods.hpp"
#include "tests/study/broken_runner.hpp"
#include "tests/study/broken_task.hpp"

namespace broken {

Breakage breakage(std::string_view name) {
  Breakage b;
  with_breakage(name, [&](auto methods) {
    using Methods = decltype(methods);
    b.id = std::string(std::get<0>(Methods{}).info().id);
    b.run = [](study::TaskKind kind, const study::Spec& spec, const study::SpecIntegrator& si, long steps,
               const study::engine::Context& ctx, study::StudyResult& res, std::size_t slot) {
      broken::run_task<Methods>(kind, spec, si, steps, ctx, res, slot);
    };
  });
  return b;
}

}  // namespace broken
