#pragma once
/// Interruption (SIGINT, SIGTERM): one flag, one helper, one exception for every command.  The command's signal
/// handler sets the flag; every loop that can run long (a run's steps, its shadow and time reversal, a long energy
/// run, a reference solve, a table's order conditions, the thread pool between tasks, gnuplot, copying a folder)
/// asks it (the stepping loops through InterruptPoll), so that a signal stops a command within a second, even inside
/// one long task (`study bench` between its timed blocks).

#include <atomic>
#include <chrono>
#include <stdexcept>

namespace study {

/// The flag: set by the signal handler (a lock-free store, safe there), read everywhere.
inline std::atomic<bool> interrupt_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler stores into it");

/// The signal that set it (SIGINT, SIGTERM): the exit status is 128 plus its number, as a shell reports a process
/// that signal killed (130 for Ctrl-C, 143 for SIGTERM), so a job runner sees which one stopped the command.
inline std::atomic<int> interrupt_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler stores into it");
/// The exit status of a command the signal stopped.
inline int interrupted_status() {
  const int sig = interrupt_signal.load(std::memory_order_relaxed);
  return 128 + (sig > 0 ? sig : 2);
}
/// Whether `rc` is such a status.
inline bool is_interrupted_status(int rc) { return rc == 130 || rc == 143; }

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

/// Asks the flag about every 10 ms of a loop, whatever one iteration costs: a fixed count of steps is microseconds
/// of an explicit method on a small problem but seconds of a 64-stage implicit table (4096 steps of 4 ms each were
/// 16 s without an answer to Ctrl-C).  Call it once per iteration; it reads the clock only when it asks, and
/// doubles or halves the iterations between two asks to keep them 5 to 20 ms apart.
class InterruptPoll {
 public:
  void operator()() {
    if (--left_ > 0) return;
    stop_if_interrupted();
    const auto now = std::chrono::steady_clock::now();
    const auto apart = now - last_;
    if (apart < std::chrono::milliseconds(5) && every_ < (long{1} << 20)) every_ *= 2;
    else if (apart > std::chrono::milliseconds(20) && every_ > 1) every_ /= 2;
    last_ = now, left_ = every_;
  }

 private:
  long every_ = 1, left_ = 1;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace study
