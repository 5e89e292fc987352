#pragma once
/// How a study is run (threads, caches, progress): read by the stages from the context on (study/engine.hpp).

#include <atomic>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "study/plan/spread.hpp"

namespace study {

/// Where the work stands, for a progress line.
struct Progress {
  std::string phase;               ///< "references", "runs"
  std::size_t done = 0, total = 0; ///< the phase's work items (a reference; an integrator's sweep or run)
  std::string what;                ///< the item last started ("" when none)
  /// The seconds left, about: each kind's items left at the mean seconds its finished items took, over the threads.
  /// NaN: not known yet (a kind with items left has none finished), or spread over ranks.
  double seconds_left = NAN;
  long runs = 0;                   ///< runs finished so far in this call (measured or taken from the run cache)
};

/// How to run.  A signal stops the work through study/common/interrupt.hpp, not through an option.
struct EngineOptions {
  int jobs = 1;
  std::optional<std::filesystem::path> cache_dir;  ///< reference cache (default: reference::default_cache_dir())
  bool use_cache = true;  ///< read and write the caches: references, round-off shadows, whole runs
  /// The weighted work (--max-work) the reference solves of the request share; null: unbounded.
  std::shared_ptr<std::atomic<double>> reference_work;
  bool reuse_runs = true;  ///< take runs from the run cache (false: measure them again, and refresh the cache)
  /// Called from the main thread as work completes.
  std::function<void(const Progress&)> progress;
  /// The processes the work is spread over (an MPI launch, study/ranks/); null: this one, with its threads.
  std::shared_ptr<Spread> spread;
  /// Where the engine records which rank ran each item, and in how long (null: nowhere).
  std::shared_ptr<WorkLog> log;
};

}  // namespace study
