// Stage 2b: the plan -- every (integrator, dt) run, long energy run and stability search of every spec, each with
// its own result slot, so that results do not depend on the order in which threads finish them.
#include <algorithm>

#include "study/plan/plan.hpp"

namespace study::engine {

std::vector<Task> plan(const std::vector<Spec>& specs, std::vector<StudyResult>& results) {
  std::vector<Task> tasks;
  for (std::size_t s = 0; s < specs.size(); ++s) {
    const Spec& spec = specs[s];
    auto& res = results[s];
    const bool sweeps = spec.wants("global") || spec.wants("local") || spec.wants("energy") || spec.wants("walltime") ||
                        spec.wants("reversibility");
    for (std::size_t i = 0; i < spec.integrators.size(); ++i) {
      if (sweeps && spec.auto_dt) {
        tasks.push_back({TaskKind::run, s, i, 0, res.runs.size(), true, res.sweeps.size()});
        res.runs.resize(res.runs.size() + spec.steps.size() + spec.auto_dt->between.size()), res.sweeps.emplace_back();
      } else if (sweeps && spec.past_floor > 0) {
        tasks.push_back({TaskKind::run, s, i, 0, res.runs.size(), false, res.sweeps.size(), true});
        res.runs.resize(res.runs.size() + spec.steps.size());
        res.sweeps.push_back({spec.integrators[i].choice.label(), false, {}, ""});
      } else if (sweeps) {
        Sweep fixed{spec.integrators[i].choice.label(), false, {}, "the spec's step sizes"};
        for (std::size_t k = 0; k < spec.steps.size(); ++k)
          tasks.push_back({TaskKind::run, s, i, spec.steps[k], res.runs.size()}), res.runs.emplace_back(), fixed.dts.push_back(spec.dt(k));
        res.sweeps.push_back(std::move(fixed));
      }
      if (spec.energy_t_end) tasks.push_back({TaskKind::energy, s, i, 0, res.energy_long.size()}), res.energy_long.emplace_back();
      if (spec.wants("stability")) tasks.push_back({TaskKind::stability, s, i, 0, res.stability.size()}), res.stability.emplace_back();
    }
  }
  // Longest first, so that the pool does not end waiting on one big run (the order of results is fixed by slots).
  auto cost = [&](const Task& t) {
    if (t.automatic) return 2.0 * static_cast<double>(specs[t.spec].steps[std::min<std::size_t>(specs[t.spec].steps.size(), specs[t.spec].auto_dt->runs) - 1]);
    if (t.to_floor) return 2.0 * static_cast<double>(specs[t.spec].steps.back());  // about the whole range at 4 per decade
    return t.kind == TaskKind::energy ? static_cast<double>(*specs[t.spec].energy_t_end / specs[t.spec].energy_dt)
                                  : static_cast<double>(t.steps);
  };
  std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) { return cost(a) > cost(b); });
  return tasks;
}

std::string describe(const Task& t, const std::vector<Spec>& specs) {
  const Spec& spec = specs[t.spec];
  return spec.name + ": " + spec.integrators[t.integrator].choice.label() +
         (t.automatic ? " (automatic sweep)" : t.to_floor ? " (step sizes to the noise floor)"
          : t.kind == TaskKind::run ? " dt=" + std::to_string(spec.t_end / static_cast<double>(t.steps)) : "");
}

}  // namespace study::engine
