// Stage 2b: the plan -- every (integrator, dt) run, long energy run and stability search of every spec, each with
// its own result slot, so that results do not depend on the order in which threads finish them.
#include <algorithm>
#include <cstdio>

#include "reference/cache.hpp"

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
  // Longest first, so that the pool (and the ranks, study/ranks/) does not end waiting on one big run (the order of
  // results is fixed by slots).
  std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) { return task_cost(a, specs) > task_cost(b, specs); });
  return tasks;
}

double task_cost(const Task& t, const std::vector<Spec>& specs) {
  const Spec& spec = specs[t.spec];
  const double per_step = spec.integrators[t.integrator].evals_per_step * spec.evaluation_cost;
  if (t.automatic) return 2.0 * per_step * static_cast<double>(spec.steps[std::min<std::size_t>(spec.steps.size(), spec.auto_dt->runs) - 1]);
  if (t.to_floor) return 2.0 * per_step * static_cast<double>(spec.steps.back());  // about the whole range at 4 per decade
  if (t.kind == TaskKind::energy) return per_step * *spec.energy_t_end / spec.energy_dt;
  if (t.kind == TaskKind::stability) return per_step * 1e3;  // a bisection over one-step maps of the harmonic oscillator
  return per_step * static_cast<double>(t.steps);
}

std::string plan_digest(const std::vector<Spec>& specs, const std::vector<Task>& tasks) {
  // Everything a rank reads from the specs and its files that decides a result: ranks that read different specs,
  // method tables or options (files that differ between nodes) differ here.
  std::string text;
  char buf[320];
  for (const Spec& spec : specs) {
    std::snprintf(buf, sizeof buf,
                  " t_end %a samples %d local %d tol %a repeats %d past_floor %d pattern '%s' %a energy %a %a plot %a auto %d %a\n",
                  spec.t_end, spec.samples, spec.local_points, spec.reference_tol, spec.repeats, spec.past_floor, spec.dt_pattern.c_str(),
                  spec.dt_amplitude, spec.energy_t_end.value_or(-1), spec.energy_dt, spec.plot_dt, spec.auto_dt ? spec.auto_dt->runs : -1,
                  spec.auto_dt ? spec.auto_dt->seconds : -1);
    text.append(spec.name).append(" ").append(spec.problem).append(buf);
    // Appended piece by piece: GCC 12 warns (-Wstringop-overflow, a false positive) on " " + a + b here.
    for (const auto& [name, value] : spec.params) text.append(" ").append(name).append("=").append(value);
    for (const auto& i : spec.integrators) {
      text.append(" ").append(i.choice.label()).append("@").append(i.table);
      if (i.choice.table) text.append(" {").append(i.choice.table->identity).append("}");  // every coefficient
    }
    for (const auto& m : spec.metrics) text.append(" ").append(m);
    for (long n : spec.steps) text.append(" ").append(std::to_string(n));
    text += "\n";
  }
  for (const Task& t : tasks) {
    std::snprintf(buf, sizeof buf, "%d %zu %zu %ld %zu %d %zu %d\n", static_cast<int>(t.kind), t.spec, t.integrator, t.steps, t.slot,
                  t.automatic, t.sweep, t.to_floor);
    text += buf;
  }
  return reference::cache::digest_hex(text);
}

std::string describe(const Task& t, const std::vector<Spec>& specs) {
  const Spec& spec = specs[t.spec];
  return spec.name + ": " + spec.integrators[t.integrator].choice.label() +
         (t.automatic ? " (automatic sweep)" : t.to_floor ? " (step sizes to the noise floor)"
          : t.kind == TaskKind::run ? " dt=" + std::to_string(spec.t_end / static_cast<double>(t.steps)) : "");
}

}  // namespace study::engine
