// `study bench`: every integrator's time per step beside Boost.Odeint's steppers and the force floor, into bench.json.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "study/reader/model.hpp"
#include "study/cli/options.hpp"
#include "study/cli/report.hpp"
#include "study/common/atomic_file.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/results_folder.hpp"
#include "study/spec/spec.hpp"
#ifndef STUDY_NO_BENCH
#include "study/bench/steppers.hpp"
#endif

namespace study::cli {
namespace {

struct BenchArgs {
  std::string out = "results";
  double min_time = 0.1;
  int repetitions = 3;
  std::string filter;
  bool console = false, quiet = false, no_report = false;
};

/// `study bench`: the stepper benchmark into DIR/bench.json, then the report again if DIR has results.
int run_bench(const BenchArgs& a) {
#ifdef STUDY_NO_BENCH
  (void)a;
#if defined(__SANITIZE_ADDRESS__)
  throw study::SpecError("bench: this `study` is the sanitizer build, which times nothing; use the release build "
                         "(./study/scripts/bench builds it and runs the benchmark)");
#else
  throw study::SpecError("bench: this `study` was built without the stepper benchmark (HARNESS_STEPPER_BENCH=OFF, as "
                         "the first build of ./study/scripts/main is); ./study/scripts/bench builds it and runs the "
                         "benchmark, or: cmake --preset release && cmake --build --preset study");
#endif
#else
#if !defined(NDEBUG) || defined(__SANITIZE_ADDRESS__)
  std::cerr << "study bench: warning: this `study` is a debug or sanitizer build; its timings say little about the "
               "integrators (build the release preset: cmake --workflow --preset build)\n";
#endif
  check_output_dir(a.out, "--out", true);
  bench::Options o;
  o.min_time = a.min_time, o.repetitions = a.repetitions, o.filter = a.filter, o.console = a.console;
  std::ostringstream quiet_log;
  const auto doc = bench::run(o, a.quiet ? static_cast<std::ostream&>(quiet_log) : std::cerr);
  stop_if_interrupted();  // a signal during the timing: nothing written, exit 130 (143 for SIGTERM)
  const std::filesystem::path file = std::filesystem::path(a.out) / "bench.json";
  {  // not while a run publishes the folder (it carries bench.json over: a new one could be lost); released before
     // the report, which takes the lock itself
    const study::FolderLock lock(a.out, true);
    study::write_atomic(file, doc.dump(2) + "\n");
  }
  if (!a.quiet) {
    std::cout << "\n" << report::bench_markdown(*report::load_bench(a.out)) << "wrote " << file.string() << "\n";
  }
  if (a.no_report) return EXIT_SUCCESS;
  if (!std::filesystem::exists(std::filesystem::path(a.out) / "results.json")) {
    if (!a.quiet)
      std::cout << "no results.json in " << a.out << ": the report needs a study too (`study run --out " << a.out
                << "`, which renders the report with this table)\n";
    return EXIT_SUCCESS;
  }
  ReportArgs rep;
  rep.results = a.out;
  try {
    return run_report(rep, a.quiet);
  } catch (const Interrupted&) {  // the true cause: bench.json is there, only its report is not
    std::cerr << "\nstudy bench: interrupted; " << file.string() << " was written, the report was not\n";
    return interrupted_status();
  }
#endif
}

}  // namespace

Command add_bench(CLI::App& app) {
  auto a = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "time every integrator per step beside Boost.Odeint's steppers and the force "
                                          "floor (kepler, harmonic, outer-solar-system); writes bench.json, which the "
                                          "report includes");
  cmd->add_option("--out,-o", a->out, "results directory to write bench.json into (default: results)");
  cmd->add_option("--min-time", a->min_time, "seconds of timing per benchmark and repetition (default 0.1)")
      ->check(CLI::Range(1e-6, 60.0))
      ->check(finite());
  cmd->add_option("--repetitions", a->repetitions, "repetitions, interleaved at random; the fastest is kept (default 3)")
      ->check(CLI::Range(1, 100));
  cmd->add_option("--filter", a->filter, "only benchmarks whose problem/integrator matches this regular expression "
                                         "(e.g. 'kepler/rk4'); the floor and Odeint counterparts come along");
  cmd->add_flag("--console", a->console, "show Google Benchmark's own table as it runs");
  cmd->add_flag("--quiet,-q", a->quiet, "no progress and no table");
  cmd->add_flag("--no-report", a->no_report, "do not render REPORT.md again afterwards");
  cmd->footer("Takes about 30 s with the defaults. Run it on a quiet machine, on the release build; "
              "the table is in REPORT.md under 'Time per step against Boost.Odeint'.");
  return {cmd, [a] { return run_bench(*a); }};
}

}  // namespace study::cli
