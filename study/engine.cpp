// run_studies: the stages of a study (study/stages.hpp) top-down, spread over threads.
#include "study/engine.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string_view>

#include "study/common/interrupt.hpp"
#include "study/measure/adaptive.hpp"
#include "study/plan/wire.hpp"
#include "study/stages.hpp"

namespace study {
namespace {

/// Runs a phase's items: over the ranks of an MPI launch (o.spread), else on this process's `jobs` threads
/// (study/measure/parallel.hpp), reporting progress; records each item's rank and seconds in o.log; rethrows the
/// first error; Interrupted when the signal's flag stopped it.
void run_phase(Phase phase, const EngineOptions& o, const std::function<double(std::size_t)>& cost,
               const std::function<std::string(std::size_t)>& kind) {
  std::vector<WorkLog::Item> items(phase.count);
  const long runs_before = engine::runs_finished().load();  // the count is the process's: this call's runs only
  // For an ETA, per kind of item: the items left at the mean seconds of those finished (the plan's cost estimates
  // are bounds, an automatic sweep's its whole budget: as weights they made the ETA far too short).
  struct KindWork {  // items in all, items finished and their seconds
    double total = 0;
    std::atomic<double> done{0}, seconds{0};
  };
  std::map<std::string, KindWork> work_of;
  for (std::size_t i = 0; i < phase.count; ++i) work_of[kind(i)].total += 1;
  auto finished_item = [&](std::size_t i, double seconds) {
    KindWork& w = work_of.at(kind(i));
    w.done += 1, w.seconds += seconds;
  };
  phase.done = [&](std::size_t i, int rank, double seconds) { items.at(i) = {kind(i), phase.describe(i), cost(i), rank, seconds}; };
  auto report = [&](const std::string& name, std::size_t done, std::size_t total, const std::string& what) {
    if (!o.progress) return;
    // The items left over the threads that can take them (no more threads than items), and never less than one item
    // of the slowest kind still to come (the first to finish are the short ones).
    double left = o.spread ? NAN : 0, items_left = 0, longest = 0;
    for (const auto& [k, w] : work_of) {
      const double rest = std::max(0.0, w.total - w.done.load());
      if (rest <= 0) continue;
      items_left += rest;
      const double mean = w.done.load() > 0 ? w.seconds.load() / w.done.load() : NAN;
      left += rest * mean, longest = std::max(longest, mean);
    }
    if (items_left > 0) left = std::max(left / std::min<double>(std::max(1, o.jobs), items_left), longest);
    o.progress(Progress{.phase = name, .done = done, .total = total, .what = what, .seconds_left = left,
                        .runs = engine::runs_finished().load() - runs_before});
  };
  phase.progress = [&](std::size_t done, std::size_t total, const std::string& what) { report(phase.name, done, total, what); };
  const auto t0 = std::chrono::steady_clock::now();
  if (o.spread) {
    o.spread->run(phase, o.jobs);
  } else {
    // One process, items that wait for others (a spec's runs for its reference): the threads go on with what may start.
    // Progress by kind, in the order the kinds first come (references, then runs), as the phases were once run.
    std::vector<double> seconds(phase.count);
    std::vector<std::string> kinds;
    std::map<std::string, std::size_t> total;
    for (std::size_t i = 0; i < phase.count; ++i)
      if (total[kind(i)]++ == 0) kinds.push_back(kind(i));
    std::map<std::string, std::atomic<std::size_t>> finished;
    for (const auto& k : kinds) finished[k] = 0;
    std::size_t shown = 0;  // the kind progress speaks of; each, once done, says so before the next is shown
    parallel_for_after(phase.order, phase.after, o.jobs,
                       [&](std::size_t i) {
                         const auto start = std::chrono::steady_clock::now();
                         phase.work(i);
                         seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                         ++finished.at(kind(i));
                         finished_item(i, seconds[i]);
                       },
                       [&](std::size_t, std::size_t started) {
                         if (!o.progress || kinds.empty()) return;  // no items: nothing to speak of
                         for (; shown + 1 < kinds.size() && finished.at(kinds[shown]) == total[kinds[shown]]; ++shown)
                           report(kinds[shown], total[kinds[shown]], total[kinds[shown]], "");
                         const std::string& k = kinds[shown];
                         report(k, finished.at(k), total[k], finished.at(k) < total[k] && started != Phase::none ? phase.describe(started) : "");
                       },
                       interrupted);
    stop_if_interrupted();
    for (std::size_t i = 0; i < phase.count; ++i) phase.done(i, 0, seconds[i]);
  }
  if (o.log && (!o.spread || o.spread->leader())) {
    o.log->items.insert(o.log->items.end(), items.begin(), items.end());
    o.log->walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
}

}  // namespace

void run_hand_written_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const engine::Context& ctx,
                           StudyResult& res, std::size_t slot) {
  // An integrator or problem of a user's program: its registration compiled the pair (study/extend.hpp).
  if (const TaskRunner* user = find_runner(si.choice, spec.problem)) return (*user)(kind, spec, si, steps, ctx, res, slot);
  for (const auto part : engine::hand_written_parts)
    if (part(kind, spec, si, steps, ctx, res, slot)) return;
  with_problem<double>(spec.problem, spec.params, [](const auto&) {});  // throws UnknownProblem, naming the valid ids
}

std::vector<StudyResult> run_studies(const std::vector<Spec>& specs, const EngineOptions& o, const TaskRunner& runner) {
  const TaskRunner run_task = runner ? runner : TaskRunner(&run_hand_written_task);
  std::vector<StudyResult> results(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) results[i].spec = specs[i];
  if (o.spread) {  // every rank must plan the same work before any starts (the plan reserves slots: on a copy)
    std::vector<StudyResult> scratch = results;
    o.spread->agree(engine::plan_digest(specs, engine::plan(specs, scratch)), engine::machine_identity());
  }

  std::vector<engine::Context> contexts(specs.size());
  Phase references{.name = "references",
                   .count = specs.size(),
                   .order = {},
                   .after = {},
                   .work = [&](std::size_t i) { contexts[i] = engine::make_context(specs[i], o, results[i]); },
                   .pack = [&](std::size_t i) { return engine::pack_context(contexts[i], results[i]); },
                   .unpack =
                       [&](std::size_t i, std::string_view b) {
                         engine::unpack_context(b, contexts[i], results[i]);
                         engine::cache_folders(o, contexts[i]);  // this rank's own
                       },
                   .describe = [&](std::size_t i) { return specs[i].name + " (" + specs[i].problem + ")"; },
                   .done = {},
                   .progress = {}};
  auto reference_cost = [&](std::size_t i) {
    return study::reference_cost(specs[i].t_end, specs[i].time_scale, specs[i].evaluation_cost) * reference_work_per_evaluation;
  };
  for (std::size_t i = 0; i < specs.size(); ++i) references.order.push_back(i);  // the longest first
  std::stable_sort(references.order.begin(), references.order.end(),
                   [&](std::size_t a, std::size_t b) { return reference_cost(a) > reference_cost(b); });

  // The plan reads the specs only: made before the references, so that over ranks a spec's runs start as soon as
  // its reference is done, while other references are still being computed.
  const std::vector<engine::Task> tasks = engine::plan(specs, results);
  Phase runs{.name = "runs",
             .count = tasks.size(),
             .order = {},
             .after = {},
             .work =
                 [&](std::size_t k) {
                   const engine::Task& t = tasks[k];
                   if (t.kind == TaskKind::adaptive || t.kind == TaskKind::adaptive_energy) engine::adaptive_task(t, specs[t.spec], contexts[t.spec], results[t.spec]);
                   else if (t.automatic) engine::auto_sweep(t, specs[t.spec], contexts[t.spec], results[t.spec], run_task);
                   else if (t.to_floor) engine::sweep_to_floor(t, specs[t.spec], contexts[t.spec], results[t.spec], run_task);
                   else run_task(t.kind, specs[t.spec], specs[t.spec].integrators[t.integrator], t.steps, contexts[t.spec], results[t.spec], t.slot);
                   engine::wide_sweeps(t, specs[t.spec], contexts[t.spec], results[t.spec], run_task);
                 },
             .pack = [&](std::size_t k) { return engine::pack_task(tasks[k], specs[tasks[k].spec], results[tasks[k].spec]); },
             .unpack = [&](std::size_t k, std::string_view b) { engine::unpack_task(b, tasks[k], specs[tasks[k].spec], results[tasks[k].spec]); },
             .describe = [&](std::size_t k) { return engine::describe(tasks[k], specs); },
             .done = {},
             .progress = {}};
  auto task_cost = [&](std::size_t k) { return engine::task_cost(tasks[k], specs); };

  {  // one phase, references first, each spec's runs after its reference (over the threads, and the ranks)
    const std::size_t S = specs.size();
    auto either = [&](std::size_t i, const auto& ref, const auto& run) { return i < S ? ref(i) : run(i - S); };
    Phase all{.name = "references and runs",
              .count = S + tasks.size(),
              .order = references.order,
              .after = std::vector<std::size_t>(S, Phase::none),
              .work = [&](std::size_t i) { i < S ? references.work(i) : runs.work(i - S); },
              .pack = [&](std::size_t i) { return either(i, references.pack, runs.pack); },
              .unpack = [&](std::size_t i, std::string_view b) { i < S ? references.unpack(i, b) : runs.unpack(i - S, b); },
              .describe = [&](std::size_t i) { return either(i, references.describe, runs.describe); },
              .done = {},
              .progress = {}};
    for (std::size_t k = 0; k < tasks.size(); ++k) all.order.push_back(S + k), all.after.push_back(tasks[k].spec);
    run_phase(all, o, [&](std::size_t i) { return either(i, reference_cost, task_cost); },
              [&](std::size_t i) { return i < S ? "references" : "runs"; });
  }
  if (o.spread && !o.spread->leader()) return {};  // the leader holds every result: it fits and writes them

  for (auto& res : results) {  // unused ladder and wide slots
    std::erase_if(res.runs, [](const Run& r) { return r.steps == 0; });
    std::erase_if(res.wide_runs, [](const WideRun& r) { return r.steps == 0; });
    std::erase_if(res.wide_sweeps, [](const WideSweep& w) { return w.integrator.empty(); });
  }

  for (auto& res : results) engine::fit_orders(res), engine::fit_proportionality(res);
  return results;
}

}  // namespace study
