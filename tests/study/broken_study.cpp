/// broken_study BREAKAGE OUT_DIR SPEC...: runs the specs with one integrator deliberately broken (see
/// broken_methods.hpp) and writes the results where `study check` can judge them.  Exit 2 on bad arguments.

#include <iostream>
#include <string>
#include <vector>

#include "study/engine.hpp"
#include "study/results/write.hpp"
#include "tests/study/broken_methods.hpp"
#include "tests/study/broken_runner.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: broken_study rk4-wrong-weight|velocity-verlet-no-half|symplectic-euler-swapped|rk2-midpoint-as-ralston|rk4-slowed "
                 "OUT_DIR SPEC...\n";
    return 2;
  }
  std::vector<study::Spec> specs;
  for (int i = 3; i < argc; ++i) specs.push_back(study::load_spec(argv[i]));
  study::EngineOptions o;
  o.jobs = 2;
  std::vector<study::StudyResult> results;
  if (!broken::with_gate_breakage(argv[1], [](auto) {})) {
    std::cerr << "broken_study: unknown breakage '" << argv[1] << "'\n";
    return 2;
  }
  const broken::Breakage breakage = broken::breakage(argv[1]);
  // The broken method stands in for its id; every other integrator is the hand-written one.
  results = study::run_studies(specs, o, [&](study::TaskKind kind, const study::Spec& spec, const study::SpecIntegrator& si,
                                             long steps, const study::engine::Context& ctx, study::StudyResult& res, std::size_t slot) {
    if (si.choice.id == breakage.id) breakage.run(kind, spec, si, steps, ctx, res, slot);
    else study::run_hand_written_task(kind, spec, si, steps, ctx, res, slot);
  });
  study::Meta meta = study::collect_meta();
  study::write_results(argv[2], results, meta);
  std::cout << "broken_study: " << argv[1] << " results in " << argv[2] << "\n";
  return 0;
}
