#pragma once
/// The sweep engine: references, then every (integrator, dt) run, long energy run and stability search of
/// every spec, spread over threads; then the order fits.  Results do not depend on the number of threads.

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "study/cancel.hpp"
#include "study/results.hpp"
#include "study/spec.hpp"

namespace study {

/// How to run.
struct EngineOptions {
  int jobs = 1;
  std::optional<std::filesystem::path> cache_dir;  ///< reference cache (default: reference::default_cache_dir())
  bool use_cache = true;  ///< read and write the caches: references, round-off shadows, whole runs
  bool reuse_runs = true;  ///< take runs from the run cache (false: measure them again, and refresh the cache)
  /// Called from the main thread as work completes: (phase, done, total, what).
  std::function<void(const std::string&, std::size_t, std::size_t, const std::string&)> progress;
  const std::atomic<bool>* interrupted = nullptr;  ///< set by a signal handler: stop between tasks
};

namespace engine {
struct Context;
}

/// What one unit of work measures.
enum class TaskKind { run, energy, stability };

/// Measures one task of one integrator of a spec into res (its runs, energy_long or stability, at `slot`).
/// The one place where integrator ids meet method types: run_task<Methods> (study/methods.hpp).
using TaskRunner = std::function<void(TaskKind, const Spec&, const SpecIntegrator&, long steps, const engine::Context&,
                                      StudyResult& res, std::size_t slot)>;

/// The TaskRunner of the hand-written integrators (ode::AllMethods), the default.
void run_hand_written_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const engine::Context& ctx,
                           StudyResult& res, std::size_t slot);

/// Runs the specs with the hand-written integrators (or, for tests, the methods `runner` dispatches to).
/// Throws SpecError / std::invalid_argument for bad input, reference::ReferenceError, Interrupted.
std::vector<StudyResult> run_studies(const std::vector<Spec>& specs, const EngineOptions& options, const TaskRunner& runner = {});

}  // namespace study
