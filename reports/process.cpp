#include "reports/process.hpp"
#include "study/common/interrupt.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

extern char** environ;

namespace report {
namespace {
std::string sigabbrev(int signal) {
  const char* name = ::sigabbrev_np(signal);
  return name ? std::string("SIG") + name : "signal";
}
}  // namespace


void kill_running_groups() {
  for (auto& g : running_groups)
    if (const int group = g.load(); group > 0) ::kill(-group, SIGKILL);
}

std::string ProcessResult::describe(std::chrono::milliseconds limit) const {
  std::string tail = error;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  if (const auto nl = tail.rfind('\n'); nl != std::string::npos) tail = tail.substr(nl + 1);  // its last line
  if (!started) return error;
  if (timed_out) return "timed out after " + std::to_string(limit.count() / 1000.0).substr(0, 5) + " s and was stopped";
  if (cancelled) return "stopped (interrupted)";
  if (signal)
    return "killed by signal " + std::to_string(signal) + " (" + sigabbrev(signal) + (signal == SIGXFSZ ? ": a file-size limit, ulimit -f" : "") +
           ")" + (tail.empty() ? "" : ": " + tail);
  return "exit status " + std::to_string(exit_code) + (tail.empty() ? "" : ": " + tail);
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          std::chrono::milliseconds limit) {
  ProcessResult r;
  if (argv.empty() || argv.front().empty()) {
    r.error = "no program given";
    return r;
  }
  std::string program = argv.front();
  // A path with a '/' is taken from our directory, not from `cwd` (where the child starts).
  if (program.find('/') != std::string::npos) program = std::filesystem::absolute(program).string();
  std::vector<char*> args;
  args.push_back(program.data());
  std::vector<std::string> rest(argv.begin() + 1, argv.end());
  for (auto& a : rest) args.push_back(a.data());
  args.push_back(nullptr);

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    r.error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  // Its own process group, so that a time-out or Ctrl-C also stops what it started (gnuplot's helpers).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Every signal at its default, none blocked: our ignored SIGXFSZ (main.cpp, so that a write over `ulimit -f` fails
  // with EFBIG instead of killing us) would make the child's failed writes go unnoticed, and gnuplot does not check
  // them; by default SIGXFSZ stops it, which the caller sees as a failed plot.
  sigset_t all, none;
  sigfillset(&all);
  sigdelset(&all, SIGKILL), sigdelset(&all, SIGSTOP);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, program.c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    r.not_found = rc == ENOENT;
    r.error = "cannot start '" + argv.front() + "': " + std::strerror(rc) +
              (rc == ENOENT ? " (not found: install it, or name the program's path)" : "");
    return r;
  }
  r.started = true;
  std::size_t slot = max_running;  // recorded for a second Ctrl-C (no free slot: it is still killed by the flag)
  for (std::size_t k = 0; k < max_running && slot == max_running; ++k) {
    int free = 0;
    if (running_groups[k].compare_exchange_strong(free, pid)) slot = k;
  }
  auto forget = [&] {
    if (slot < max_running) running_groups[slot].store(0);
  };
  const auto start = std::chrono::steady_clock::now();
  bool open = true;
  std::array<char, 4096> buf{};
  auto drain = [&](int wait_ms) -> std::size_t {  // the bytes read (the kept text stops growing at 4 KiB)
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) return 0;
    const ssize_t n = ::read(fds[0], buf.data(), buf.size());
    if (n <= 0) {
      open = false;
      return 0;
    }
    r.error.append(buf.data(), static_cast<std::size_t>(n));
    if (r.error.size() > 4096) r.error.erase(0, r.error.size() - 4096);
    return static_cast<std::size_t>(n);
  };
  int status = 0;
  while (true) {
    if (open) drain(20);
    else std::this_thread::sleep_for(std::chrono::milliseconds(20));
    // Exited? Asked without reaping it: until it is reaped its group cannot be reused, so killing the group below
    // reaches only what it left behind.
    siginfo_t info{};
    const int w = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if (w == 0 && info.si_pid == pid) break;
    if (w < 0 && errno != EINTR) break;
    const bool late = std::chrono::steady_clock::now() - start > limit, stop = study::interrupted();
    if (late || stop) {
      ::kill(-pid, SIGKILL);  // the whole group: no child of it outlives the limit
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      forget();
      r.timed_out = late && !stop, r.cancelled = stop;
      ::close(fds[0]);
      return r;
    }
  }
  // What it left running in its group goes first (the leader is not reaped yet, so the group is still its own):
  // a helper that kept writing would hold the drain below for ever.
  ::kill(-pid, SIGKILL);
  while (open && drain(0) > 0) {  // what it wrote just before it exited, to the end
  }
  ::close(fds[0]);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  forget();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace report
