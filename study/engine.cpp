// run_studies: the stages of a study (study/stages.hpp) top-down, spread over threads.
#include "study/engine.hpp"

#include <functional>

#include "study/common/interrupt.hpp"
#include "study/stages.hpp"

namespace study {
namespace {

/// Runs `work(i)` for i < count on `jobs` threads (study/measure/parallel.hpp), reporting progress; rethrows the first
/// error; Interrupted when the signal's flag stopped it.
void parallel(std::size_t count, int jobs, const std::function<void(std::size_t)>& work, const EngineOptions& o,
              const std::string& phase, const std::function<std::string(std::size_t)>& describe) {
  parallel_for(count, jobs, work,
               [&](std::size_t done, std::size_t started) {
                 if (o.progress) o.progress(phase, done, count, started > 0 && done < count ? describe(started - 1) : std::string());
               },
               interrupted);
  stop_if_interrupted();
}

}  // namespace

void run_hand_written_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const engine::Context& ctx,
                           StudyResult& res, std::size_t slot) {
  // An integrator or problem of a user's program: its registration compiled the pair (study/extend.hpp).
  if (const TaskRunner* user = find_runner(si.choice, spec.problem)) return (*user)(kind, spec, si, steps, ctx, res, slot);
  if (!engine::run_hand_written_first(kind, spec, si, steps, ctx, res, slot) &&
      !engine::run_hand_written_second(kind, spec, si, steps, ctx, res, slot))
    with_problem<double>(spec.problem, spec.params, [](const auto&) {});  // throws UnknownProblem, naming the valid ids
}

std::vector<StudyResult> run_studies(const std::vector<Spec>& specs, const EngineOptions& o, const TaskRunner& runner) {
  const TaskRunner run_task = runner ? runner : TaskRunner(&run_hand_written_task);
  std::vector<StudyResult> results(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) results[i].spec = specs[i];

  std::vector<engine::Context> contexts(specs.size());
  parallel(specs.size(), o.jobs, [&](std::size_t i) { contexts[i] = engine::make_context(specs[i], o, results[i]); }, o,
           "references", [&](std::size_t i) { return specs[i].name + " (" + specs[i].problem + ")"; });

  const std::vector<engine::Task> tasks = engine::plan(specs, results);

  parallel(tasks.size(), o.jobs, [&](std::size_t k) {
    const engine::Task& t = tasks[k];
    if (t.automatic) engine::auto_sweep(t, specs[t.spec], contexts[t.spec], results[t.spec], run_task);
    else if (t.to_floor) engine::sweep_to_floor(t, specs[t.spec], contexts[t.spec], results[t.spec], run_task);
    else run_task(t.kind, specs[t.spec], specs[t.spec].integrators[t.integrator], t.steps, contexts[t.spec], results[t.spec], t.slot);
  }, o, "runs", [&](std::size_t k) { return engine::describe(tasks[k], specs); });
  for (auto& res : results) std::erase_if(res.runs, [](const Run& r) { return r.steps == 0; });  // unused ladder slots

  for (auto& res : results) engine::fit_orders(res);
  return results;
}

}  // namespace study
