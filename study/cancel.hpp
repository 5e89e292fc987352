#pragma once
/// Cancellation of long work (SIGINT, SIGTERM): the engine points this at its interruption flag, and every loop
/// that can run long (a run's steps, its shadow, its time reversal, a long energy run) asks every few thousand
/// steps, so that a signal stops a study within a second even inside one long task.

#include <atomic>
#include <stdexcept>

namespace study {

/// The flag a signal handler sets; null: never cancelled.
inline std::atomic<const std::atomic<bool>*> cancel_flag{nullptr};

/// Whether the work should stop now.
inline bool cancelled() {
  const std::atomic<bool>* f = cancel_flag.load(std::memory_order_relaxed);
  return f && f->load(std::memory_order_relaxed);
}

/// Thrown when the work was interrupted; nothing has been written.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

/// Throws Interrupted when the work should stop (for loops without a result to keep).
inline void stop_if_cancelled() {
  if (cancelled()) throw Interrupted();
}

/// How often (in steps) the loops ask: a few microseconds of work at the cheapest, never a measurable cost.
inline constexpr long cancel_check_interval = 4096;

}  // namespace study
