#pragma once
/// How a study is run (threads, caches, progress): read by the stages from the context on (study/engine.hpp).

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "study/plan/spread.hpp"

namespace study {

/// How to run.  A signal stops the work through study/common/interrupt.hpp, not through an option.
struct EngineOptions {
  int jobs = 1;
  std::optional<std::filesystem::path> cache_dir;  ///< reference cache (default: reference::default_cache_dir())
  bool use_cache = true;  ///< read and write the caches: references, round-off shadows, whole runs
  /// The weighted work (--max-work) the reference solves of the request share; null: unbounded.
  std::shared_ptr<std::atomic<double>> reference_work;
  bool reuse_runs = true;  ///< take runs from the run cache (false: measure them again, and refresh the cache)
  /// Called from the main thread as work completes: (phase, done, total, what).
  std::function<void(const std::string&, std::size_t, std::size_t, const std::string&)> progress;
  /// The processes the work is spread over (an MPI launch, study/ranks/); null: this one, with its threads.
  std::shared_ptr<Spread> spread;
  /// Where the engine records which rank ran each item, and in how long (null: nowhere).
  std::shared_ptr<WorkLog> log;
};

}  // namespace study
