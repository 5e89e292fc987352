#pragma once
/// Starting an external program (gnuplot) without a shell: an argument vector, a working directory, a time limit,
/// its standard error kept for the message, and the interruption flag checked while it runs.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace report {

/// How a program run ended.
struct ProcessResult {
  bool started = false;      ///< false: it could not be started (error says why: not found, not executable)
  bool not_found = false;    ///< it could not be started because there is no such program
  bool timed_out = false;    ///< killed at the time limit
  bool cancelled = false;    ///< killed because the interruption flag was set
  int exit_code = -1;        ///< its exit status when it exited on its own; -1 otherwise
  int signal = 0;            ///< the signal that ended it, if any
  std::string error;         ///< why it did not start, or the last lines of its standard error (at most 4 KiB)
  bool ok() const { return started && !timed_out && !cancelled && exit_code == 0; }
  /// One line for a message: "exit status 1: <stderr>", "timed out after 60 s", "not found: gnuplot".
  std::string describe(std::chrono::milliseconds limit) const;
};

/// The process groups of the programs run_process is running (0: a free slot; several run at once when plots are
/// drawn in parallel): a signal handler that exits at once (a second Ctrl-C) kills them (kill(-group, SIGKILL) is
/// async-signal-safe), since the terminal's Ctrl-C does not reach a group of its own.
inline constexpr std::size_t max_running = 16;
inline std::atomic<int> running_groups[max_running]{};
/// Kills every running group (async-signal-safe).
void kill_running_groups();

/// Runs argv[0] (found on PATH when it has no '/') with the arguments argv[1..], in `cwd` (empty: ours), standard
/// input from /dev/null, standard output discarded, standard error captured, in a process group of its own.  Kills
/// the group (SIGKILL: it and whatever it started) after `limit` or as soon as a signal sets the interruption flag (study/common/interrupt.hpp), and what it
/// left running when it exits.  Never throws for the program's own failures: they are in the result.
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          std::chrono::milliseconds limit);

}  // namespace report
