#pragma once
/// One engine task with a deliberately broken method list (tests/study/broken_methods.hpp), on the problems the
/// broken studies use only (the ci profile's and the corpus's broken specs): every breakage instantiated on all
/// problems would cost minutes of compile time, most of it under the sanitizers.

#include <stdexcept>
#include <string>

#include "study/measure/binding.hpp"

namespace broken {

template <class Methods>
void run_task(study::TaskKind kind, const study::Spec& spec, const study::SpecIntegrator& si, long steps,
              const study::engine::Context& ctx, study::StudyResult& res, std::size_t slot) {
  using namespace study;
  auto on = [&](const auto& p) { engine::run_task_on<Methods>(p, kind, spec, si, steps, ctx, res, slot); };
  if (spec.problem == "kepler") on(Kepler<double>(spec.params));
  else if (spec.problem == "harmonic") on(Harmonic<double>(spec.params));
  else if (spec.problem == "projectile") on(Projectile<double>(spec.params));
  else if (spec.problem == "damped-oscillator") on(DampedOscillator<double>(spec.params));
  else throw std::invalid_argument("broken methods run on kepler, harmonic, projectile or damped-oscillator, not " + spec.problem);
}

}  // namespace broken
