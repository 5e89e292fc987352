// Stage 2b: the plan -- every (integrator, dt) run, long energy run and stability search of every spec, each with
// its own result slot, so that results do not depend on the order in which threads finish them.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "reference/cache.hpp"

#include "study/plan/plan.hpp"
#include "study/registry/integrators.hpp"  // a table's identity, for the plan's digest

namespace study::engine {

std::vector<Task> plan(const std::vector<Spec>& specs, std::vector<StudyResult>& results) {
  std::vector<Task> tasks;
  for (std::size_t s = 0; s < specs.size(); ++s) {
    const Spec& spec = specs[s];
    auto& res = results[s];
    const bool sweeps = spec.wants("global") || spec.wants("local") || spec.wants("energy") || spec.wants("walltime") ||
                        spec.wants("reversibility");
    // Where orders are fitted, an integrator's sweep is one task, which may go on in wider arithmetic where round-off
    // ended an order's range (study/fit/wide.hpp): it holds the slots of those runs too.
    const bool orders = fits_orders(spec);
    for (std::size_t i = 0; i < spec.integrators.size(); ++i) {
      auto reserve_wide = [&](Task& t) {
        if (!orders) return;
        t.wide = true, t.wide_slot = res.wide_runs.size(), t.wide_sweep = res.wide_sweeps.size();
        res.wide_runs.resize(res.wide_runs.size() + wide_slots(spec));
        res.wide_sweeps.resize(res.wide_sweeps.size() + wide_arithmetics().size());
      };
      if (sweeps && spec.auto_dt) {
        tasks.push_back({TaskKind::run, s, i, 0, res.runs.size(), true, res.sweeps.size()});
        res.runs.resize(res.runs.size() + spec.steps.size() + spec.auto_dt->between.size()), res.sweeps.emplace_back();
        reserve_wide(tasks.back());
      } else if (sweeps && (spec.past_floor > 0 || orders)) {
        tasks.push_back({TaskKind::run, s, i, 0, res.runs.size(), false, res.sweeps.size(), true});
        res.runs.resize(res.runs.size() + spec.steps.size());
        res.sweeps.push_back({spec.integrators[i].choice.label(), false, {}, ""});
        reserve_wide(tasks.back());
      } else if (sweeps) {
        Sweep fixed{spec.integrators[i].choice.label(), false, {}, "the spec's step sizes"};
        for (std::size_t k = 0; k < spec.steps.size(); ++k)
          tasks.push_back({TaskKind::run, s, i, spec.steps[k], res.runs.size()}), res.runs.emplace_back(), fixed.dts.push_back(spec.dt(k));
        res.sweeps.push_back(std::move(fixed));
      }
      if (spec.energy_t_end) tasks.push_back({TaskKind::energy, s, i, 0, res.energy_long.size()}), res.energy_long.emplace_back();
      if (spec.wants("stability")) tasks.push_back({TaskKind::stability, s, i, 0, res.stability.size()}), res.stability.emplace_back();
    }
    // Adaptive integrators: one task per tolerance (its index in `steps`), integrator indexing spec.adaptive.
    for (std::size_t i = 0; i < spec.adaptive.size(); ++i)
      for (std::size_t k = 0; k < spec.tolerances.size(); ++k)
        tasks.push_back({TaskKind::adaptive, s, i, static_cast<long>(k), res.adaptive_runs.size()}), res.adaptive_runs.emplace_back();
    if (spec.energy_t_end && spec.energy_tol > 0)  // each pair's long energy run, after the fixed-step integrators'
      for (std::size_t i = 0; i < spec.adaptive.size(); ++i)
        tasks.push_back({TaskKind::adaptive_energy, s, i, 0, res.energy_long.size()}), res.energy_long.emplace_back();
  }
  // Longest first, so that the pool (and the ranks, study/ranks/) does not end waiting on one big run (the order of
  // results is fixed by slots).
  std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) { return task_cost(a, specs) > task_cost(b, specs); });
  return tasks;
}

std::pair<std::size_t, std::size_t> run_slots(const Task& t, const Spec& spec) {
  if (t.kind != TaskKind::run) return {0, 0};
  if (t.automatic) return {t.slot, spec.steps.size() + spec.auto_dt->between.size()};
  if (t.to_floor) return {t.slot, spec.steps.size()};
  return {t.slot, 1};
}

std::size_t wide_slots(const Spec& spec) {
  return (spec.steps.size() + (spec.auto_dt ? spec.auto_dt->between.size() : 0)) * wide_arithmetics().size();
}

double task_cost(const Task& t, const std::vector<Spec>& specs) {
  const Spec& spec = specs[t.spec];
  if (t.kind == TaskKind::adaptive)  // its steps unknown: as many as a fixed step of the tolerance's tenth root would take
    return spec.adaptive[t.integrator].evals_per_step * spec.evaluation_cost * (1 + spec.repeats) * spec.t_end / spec.time_scale /
           std::pow(spec.tolerances[static_cast<std::size_t>(t.steps)], 0.2) * 10;
  if (t.kind == TaskKind::adaptive_energy)  // the same guess over energy_t_end, one run
    return spec.adaptive[t.integrator].evals_per_step * spec.evaluation_cost * *spec.energy_t_end / spec.time_scale /
           std::pow(spec.energy_tol, 0.2) * 10;
  const double per_step = spec.integrators[t.integrator].evals_per_step * spec.evaluation_cost;
  if (t.automatic) return 2.0 * per_step * static_cast<double>(spec.steps[std::min<std::size_t>(spec.steps.size(), spec.auto_dt->runs) - 1]);
  if (t.to_floor && spec.past_floor > 0) return 2.0 * per_step * static_cast<double>(spec.steps.back());  // about the range at 4 per decade
  if (t.to_floor) {  // the spec's step sizes, each
    double steps = 0;
    for (long n : spec.steps) steps += static_cast<double>(n);
    return per_step * steps;
  }
  if (t.kind == TaskKind::energy) return per_step * *spec.energy_t_end / spec.energy_dt;
  if (t.kind == TaskKind::stability) return per_step * 1e3;  // a bisection over one-step maps of the harmonic oscillator
  return per_step * static_cast<double>(t.steps);
}

std::string plan_digest(const std::vector<Spec>& specs, const std::vector<Task>& tasks) {
  // Everything a rank reads from the specs and its files that decides a result: ranks that read different specs,
  // method tables or options (files that differ between nodes) differ here.
  std::string text;
  char buf[400];
  for (const Spec& spec : specs) {
    std::snprintf(buf, sizeof buf,
                  " t_end %a samples %d local %d tol %a repeats %d past_floor %d pattern '%s' %a energy %a %a %a plot %a auto %d %a wide %a\n",
                  spec.t_end, spec.samples, spec.local_points, spec.reference_tol, spec.repeats, spec.past_floor, spec.dt_pattern.c_str(),
                  spec.dt_amplitude, spec.energy_t_end.value_or(-1), spec.energy_dt, spec.energy_tol, spec.plot_dt, spec.auto_dt ? spec.auto_dt->runs : -1,
                  spec.auto_dt ? spec.auto_dt->seconds : -1, spec.wide_budget);
    text.append(spec.name).append(" ").append(spec.problem).append(buf);
    for (double x : spec.accuracy) std::snprintf(buf, sizeof buf, " accuracy %a", x), text.append(buf);
    // Appended piece by piece: GCC 12 warns (-Wstringop-overflow, a false positive) on " " + a + b here.
    for (const auto& [name, value] : spec.params) text.append(" ").append(name).append("=").append(value);
    for (const auto& i : spec.integrators) {
      text.append(" ").append(i.choice.label()).append("@").append(i.table);
      if (i.choice.table) text.append(" {").append(i.choice.table->identity).append("}");  // every coefficient
    }
    for (const auto& a : spec.adaptive) {
      text.append(" adaptive ").append(a.label).append(" {").append(a.choice.table ? a.choice.table->identity : "odeint " + a.odeint).append("}");
      for (const auto& [k, v] : a.params) std::snprintf(buf, sizeof buf, " %s %a", k.c_str(), v), text.append(buf);
    }
    for (double tol : spec.tolerances) std::snprintf(buf, sizeof buf, " tol %a", tol), text.append(buf);
    std::snprintf(buf, sizeof buf, " max_steps %ld", spec.adaptive_max_steps), text.append(buf);
    for (const auto& m : spec.metrics) text.append(" ").append(m);
    for (long n : spec.steps) text.append(" ").append(std::to_string(n));
    text += "\n";
  }
  for (const Task& t : tasks) {
    std::snprintf(buf, sizeof buf, "%d %zu %zu %ld %zu %d %zu %d %d %zu %zu\n", static_cast<int>(t.kind), t.spec, t.integrator, t.steps,
                  t.slot, t.automatic, t.sweep, t.to_floor, t.wide, t.wide_slot, t.wide_sweep);
    text += buf;
  }
  return reference::cache::digest_hex(text);
}

std::string describe(const Task& t, const std::vector<Spec>& specs) {
  const Spec& spec = specs[t.spec];
  if (t.kind == TaskKind::adaptive_energy)
    return spec.name + ": " + spec.adaptive[t.integrator].label + " long energy run, tol=" + fmt::format("{:g}", spec.energy_tol);
  if (t.kind == TaskKind::adaptive)
    return spec.name + ": " + spec.adaptive[t.integrator].label + " tol=" + fmt::format("{:g}", spec.tolerances[static_cast<std::size_t>(t.steps)]);
  return spec.name + ": " + spec.integrators[t.integrator].choice.label() +
         (t.automatic ? " (automatic sweep)" : t.to_floor ? (spec.past_floor > 0 ? " (step sizes to the noise floor)" : " (the spec's step sizes)")
          : t.kind == TaskKind::run ? " dt=" + std::to_string(spec.t_end / static_cast<double>(t.steps)) : "");
}

}  // namespace study::engine
