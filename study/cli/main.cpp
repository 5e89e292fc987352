// The `study` command: run convergence studies, render reports, gate CI on error orders.  One file per command
// in this folder (run.cpp, report.cpp, check.cpp, ...); here the program: parsing, signals and exit statuses.
#include <unistd.h>

#include <cerrno>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "integrators/method.hpp"
#include "reference/reference.hpp"
#include "reports/process.hpp"
#include "study/reader/model.hpp"
#include "study/check/baseline.hpp"
#include "study/cli.hpp"
#include "study/cli/options.hpp"
#include "study/common/atomic_file.hpp"
#include "study/common/data_dir.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/printable.hpp"
#include "study/common/suggest.hpp"
#include "study/measure/runners.hpp"
#include "study/methods/library.hpp"
#include "study/plan/spread.hpp"
#include "study/ranks/ranks.hpp"
#include "study/results/write.hpp"
#include "study/spec/spec.hpp"
#ifndef STUDY_NO_BENCH
#include "study/bench/steppers.hpp"
#endif

namespace study::cli {
namespace {

/// CLOCK_MONOTONIC in ns; clock_gettime is async-signal-safe.
long long monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}
std::atomic<long long> first_signal_ns{0};
static_assert(std::atomic<long long>::is_always_lock_free, "the signal handler stores into it");

extern "C" void on_interrupt(int sig) {
  int none = 0;
  interrupt_signal.compare_exchange_strong(none, sig);  // the first signal names the exit status
  const long long now = monotonic_ns();
  long long unset = 0;
  first_signal_ns.compare_exchange_strong(unset, now);  // before the flag: a repeat on another thread sees the time
  if (!interrupt_flag.exchange(true)) return;
  // A repeat within half a second is the same request, delivered twice: GNU timeout, a job runner or
  // `kill -- -PGID` signals the process and then its group.  Only a later one means "stop now" (files are
  // written atomically; staging folders are left for the next run to remove), gnuplot too.
  if (now - first_signal_ns.load() < 500'000'000LL) return;
  report::kill_running_groups();
  std::_Exit(interrupted_status());
}

/// Under mpirun or srun every rank of `study run` reads the same command line: a rank other than the first keeps its
/// usage errors and --help to itself (rank 0 prints them), until the command runs.  Only `run` (no other command
/// spreads over ranks), and only under a launcher that is there: its rank variables alone, set by hand, would make a
/// refused command line exit 0 in silence.
class QuietRank {
 public:
  QuietRank(int argc, char** argv) {
    const bool run = argc > 1 && std::string_view(argv[1]) == "run";
    if (run && ranks::launched_processes() > 1 && ranks::launched_rank() > 0 && ranks::launcher_present())
      out_ = std::cout.rdbuf(&sink_), err_ = std::cerr.rdbuf(&sink_);
  }
  ~QuietRank() { speak(); }
  void speak() {
    if (out_) std::cout.rdbuf(out_), std::cerr.rdbuf(err_), out_ = err_ = nullptr;
  }
  /// Whether it is still quiet: the command line was refused (or was --help) before the command ran.
  bool quiet() const { return out_ != nullptr; }

 private:
  std::stringbuf sink_;
  std::streambuf *out_ = nullptr, *err_ = nullptr;
};

int study_main_quietly(int argc, char** argv, QuietRank& quiet_rank);

int study_main(int argc, char** argv) {
  QuietRank quiet_rank(argc, argv);
  const int rc = study_main_quietly(argc, argv, quiet_rank);
  // Refused before the command ran: rank 0 says why and gives the status.  This rank ends with 0, as a rank that
  // ends with another status first makes the launcher kill the others at once, rank 0 before it has said why.
  return quiet_rank.quiet() ? 0 : rc;
}

int study_main_quietly(int argc, char** argv, QuietRank& quiet_rank) {
  CLI::App app{"study: measure how accurate ODE integrators really are (orders, energy drift, cost) against "
               "high-precision references"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("study ") + STUDY_VERSION + " (source revision " + source_revision() +
                                       (ranks::built_with_mpi() ? ", with MPI" : ", without MPI") + ")",
                       "print the version and the source revision, and exit");
  const std::vector<Command> commands{add_list(app),    add_run(app),      add_report(app), add_check(app),  add_compare(app),
                                      add_history(app), add_baseline(app), add_bench(app),  add_method(app), add_reference(app)};

  if (argc > 1 && argv[1][0] != '-') {  // an unknown command gets a suggestion, not just "a subcommand is required"
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      std::cerr << "study: unknown command '" << argv[1] << "'" << study::did_you_mean(argv[1], names)
                << "; commands: " << study::join(names) << " (see study --help)\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is a usage error: 2, as documented.  An unknown option
    // gets a suggestion from the command's own (--acuracy: did you mean --accuracy?).
    if (argc > 1 && dynamic_cast<const CLI::ExtrasError*>(&e)) {
      const CLI::App* sub = nullptr;
      try {
        sub = app.get_subcommand(argv[1]);
      } catch (const CLI::Error&) {
      }
      if (sub) {
        std::vector<std::string> names;
        for (const auto* opt : sub->get_options())
          for (const auto& n : opt->get_lnames()) names.push_back("--" + n);
        for (int i = 2; i < argc; ++i) {
          const std::string arg = argv[i], flag = arg.substr(0, arg.find('='));
          if (flag.rfind("--", 0) == 0 && std::find(names.begin(), names.end(), flag) == names.end()) {
            std::cerr << "study " << argv[1] << ": unknown option '" << flag << "'" << study::did_you_mean(flag, names) << " (see study "
                      << argv[1] << " --help)\n";
            return 2;
          }
        }
      }
    }
    if (argc > 1 && std::string(argv[1]) == "compare" && dynamic_cast<const CLI::RequiredError*>(&e)) {
      std::cerr << "study compare: give two results folders, the old one first: study compare OLD NEW (see study compare --help)\n";
      return 2;
    }
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  // An option given as "" is an error, not its default (--out "" would write into the current folder, --problem ""
  // would run the default study).
  for (const auto* sub : app.get_subcommands())
    for (const auto* opt : sub->get_options())
      for (const auto& value : opt->results())
        if (value.empty() && opt->get_type_size() != 0) {
          std::cerr << "study " << sub->get_name() << ": " << (opt->get_name().empty() ? "an argument" : opt->get_name())
                    << " \"\": an empty value; give one (see study " << sub->get_name() << " --help)\n";
          return 2;
        }
  std::signal(SIGINT, on_interrupt);  // every command stops at the next check of the flag; a second signal at once
  std::signal(SIGTERM, on_interrupt);
  // Beyond a file size limit (ulimit -f) a write fails with EFBIG, which the writer reports (naming the file) and
  // cleans up after; SIGXFSZ's default would kill the process with no message and leave its staging folder.
  std::signal(SIGXFSZ, SIG_IGN);
  ode::stop_hook = &study::stop_if_interrupted;  // asked inside a step's long linear algebra too
  const Command* command = nullptr;
  for (const auto& c : commands)
    if (*c.app) command = &c;
  const std::string name = command->app->get_name();
  quiet_rank.speak();  // a rank's own errors go to the leader from here on (study/cli/run.cpp)
  try {
    return command->run();
  } catch (const Interrupted&) {
    std::cerr << "\nstudy " << name << ": interrupted; " << command->interrupted
              << (command->interrupted_more ? command->interrupted_more() : std::string()) << "\n";
    return interrupted_status();
  } catch (const study::SpecError& e) {
    std::cerr << "study: " << study::printable_message(e.what()) << "\n";
    return 2;
  } catch (const study::tables::TableError& e) {
    std::cerr << "study: " << study::printable_message(e.what()) << "\n";
    return 2;
  } catch (const report::ReportError& e) {
    std::cerr << "study " << name << ": " << study::printable_message(e.what()) << "\n";
    return 2;
#ifndef STUDY_NO_BENCH
  } catch (const bench::BenchError& e) {
    std::cerr << "study bench: " << study::printable_message(e.what()) << "\n";
    return 2;
#endif
  } catch (const check::BaselineError& e) {
    std::cerr << "study " << name << ": " << study::printable_message(e.what()) << "\n";
    return 2;
  } catch (const reference::ReferenceError& e) {
    std::cerr << "study " << name << ": " << study::printable_message(e.what()) << "\n";
    return 1;
  } catch (const study::RankFailure& e) {  // a rank of an MPI launch lost or stopped: the machine's failure
    std::cerr << "study " << name << ": " << study::printable_message(e.what()) << "\n";
    return 1;
  } catch (const study::WriteError& e) {  // the machine's failure (a full disk), not the input's
    std::cerr << "study " << name << ": " << study::printable_message(e.what()) << "\n";
    return 1;
  } catch (const study::DataDirError& e) {
    std::cerr << "study: " << study::printable_message(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "study " << name << ": " << study::printable_message(e.what()) << "\n";
    return 2;
  }
}

}  // namespace

}  // namespace study::cli

namespace study {
namespace {

/// The exit status of a command that returned `rc`, after its standard output is flushed: a write that failed (a
/// full device, a closed pipe whose SIGPIPE is ignored) fails the command, with a message, whatever it computed: a
/// CI job piping the gate's output must not pass on output nobody got.  An interrupted command keeps its 130 or 143.
int output_written(int rc, std::string_view command) {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed || is_interrupted_status(rc)) return rc;
  int err = errno;
  if (err == 0) {  // the write failed earlier, its errno since overwritten: one byte more says why (the output is lost)
    std::clearerr(stdout);
    err = ::write(STDOUT_FILENO, "\n", 1) < 0 ? errno : 0;
  }
  const std::string why = err == EPIPE ? "the reader of the pipe has closed it" : err ? std::strerror(err) : "a write failed";
  std::string name = "study";
  if (!command.empty() && command.front() != '-') name += ' ', name += command;
  std::cerr << name << ": could not write to standard output (" << why << "): the output is lost\n";
  return rc == 0 ? 1 : rc;
}

}  // namespace

/// Every error is a message and an exit status: nothing uncaught reaches the runtime (an abort, exit 134).
int cli_main(int argc, char** argv) {
  try {
    if (const auto errors = registration_errors(); !errors.empty()) {  // a registration refused: before anything runs
      for (const auto& e : errors) std::cerr << "study: this program's registration of " << e << "\n";
      return 2;
    }
    return output_written(cli::study_main(argc, argv), argc > 1 ? argv[1] : "");
  } catch (const std::exception& e) {
    std::cerr << "study: " << study::printable_message(e.what()) << "\n";
    return 2;
  } catch (...) {
    std::cerr << "study: an unknown error\n";
    return 2;
  }
}

}  // namespace study
