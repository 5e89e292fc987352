// run_studies: the stages of a study (study/stages.hpp) top-down, spread over threads.
#include "study/engine.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "study/cancel.hpp"
#include "study/methods.hpp"
#include "study/stages.hpp"

namespace study {
namespace {

/// Runs `work(i)` for i < count on `jobs` threads, reporting progress from this thread; rethrows the first error.
void parallel(std::size_t count, int jobs, const std::function<void(std::size_t)>& work, const EngineOptions& o,
              const std::string& phase, const std::function<std::string(std::size_t)>& describe) {
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < count;) {
      if (error || (o.interrupted && *o.interrupted)) continue;
      try {
        work(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
      ++done;
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, jobs); ++j) threads.emplace_back(worker);
  std::size_t shown = static_cast<std::size_t>(-1);
  while (true) {
    const std::size_t d = done.load(), n = std::min(next.load(), count);
    if (o.progress && d != shown) o.progress(phase, d, count, n > 0 ? describe(n - 1) : std::string());
    shown = d;
    if (d >= count || ((error || (o.interrupted && *o.interrupted)) && next.load() >= count)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& t : threads) t.join();
  if (o.progress && shown != done.load()) o.progress(phase, done.load(), count, "");
  if (error) std::rethrow_exception(error);
  if (o.interrupted && *o.interrupted) throw Interrupted();
}

}  // namespace

void run_hand_written_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const engine::Context& ctx,
                           StudyResult& res, std::size_t slot) {
  if (!engine::run_hand_written_first(kind, spec, si, steps, ctx, res, slot) &&
      !engine::run_hand_written_second(kind, spec, si, steps, ctx, res, slot))
    with_problem<double>(spec.problem, spec.params, [](const auto&) {});  // throws UnknownProblem, naming the valid ids
}

std::vector<StudyResult> run_studies(const std::vector<Spec>& specs, const EngineOptions& o, const TaskRunner& runner) {
  const TaskRunner run_task = runner ? runner : TaskRunner(&run_hand_written_task);
  cancel_flag.store(o.interrupted);  // the long loops inside each task ask it (study/cancel.hpp)
  std::vector<StudyResult> results(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) results[i].spec = specs[i];

  std::vector<engine::Context> contexts(specs.size());
  parallel(specs.size(), o.jobs, [&](std::size_t i) { contexts[i] = engine::make_context(specs[i], o, results[i]); }, o,
           "references", [&](std::size_t i) { return specs[i].name + " (" + specs[i].problem + ")"; });

  const std::vector<engine::Task> tasks = engine::plan(specs, results);

  parallel(tasks.size(), o.jobs, [&](std::size_t k) {
    const engine::Task& t = tasks[k];
    if (t.automatic) engine::auto_sweep(t, specs[t.spec], contexts[t.spec], results[t.spec], run_task, o);
    else run_task(t.kind, specs[t.spec], specs[t.spec].integrators[t.integrator], t.steps, contexts[t.spec], results[t.spec], t.slot);
  }, o, "runs", [&](std::size_t k) { return engine::describe(tasks[k], specs); });
  for (auto& res : results) std::erase_if(res.runs, [](const Run& r) { return r.steps == 0; });  // unused ladder slots

  for (auto& res : results) engine::fit_orders(res);
  return results;
}

}  // namespace study
