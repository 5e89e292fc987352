#pragma once
/// Interruption (SIGINT, SIGTERM): one flag, one helper, one exception for every command.  The command's signal
/// handler sets the flag; every loop that can run long (a run's steps, its shadow and time reversal, a long energy
/// run, a reference solve, a table's order conditions, the thread pool between tasks, gnuplot, copying a folder)
/// asks it, so that a signal stops a command within a second, even inside one long task.  (`study bench` asks only
/// once Google Benchmark's run is over: it then writes nothing.)

#include <atomic>
#include <stdexcept>

namespace study {

/// The flag: set by the signal handler (a lock-free store, safe there), read everywhere.
inline std::atomic<bool> interrupt_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler stores into it");

/// Whether the work should stop now.
inline bool interrupted() { return interrupt_flag.load(std::memory_order_relaxed); }

/// Thrown when the work was interrupted; nothing half-written is left (the command says what was not written).
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

/// Throws Interrupted when the work should stop.
inline void stop_if_interrupted() {
  if (interrupted()) throw Interrupted();
}

/// How often (in steps) the stepping loops ask: a few microseconds of work at the cheapest, never a measurable cost.
inline constexpr long interrupt_check_interval = 4096;

}  // namespace study
