#pragma once
/// The sweep engine: references, then every (integrator, dt) run, long energy run and stability search of
/// every spec, spread over threads; then the order fits.  Results do not depend on the number of threads.

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "study/results.hpp"
#include "study/spec.hpp"

namespace study {

/// How to run.
struct EngineOptions {
  int jobs = 1;
  std::optional<std::filesystem::path> cache_dir;  ///< reference cache (default: reference::default_cache_dir())
  bool use_cache = true;
  /// Called from the main thread as work completes: (phase, done, total, what).
  std::function<void(const std::string&, std::size_t, std::size_t, const std::string&)> progress;
  const std::atomic<bool>* interrupted = nullptr;  ///< set by a signal handler: stop between tasks
};

/// Thrown when the run was interrupted; nothing has been written.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

/// Runs the specs.  Throws SpecError / std::invalid_argument for bad input, reference::ReferenceError, Interrupted.
std::vector<StudyResult> run_studies(const std::vector<Spec>& specs, const EngineOptions& options);

}  // namespace study
