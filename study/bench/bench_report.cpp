/// bench_report [--results DIR] [Google Benchmark flags]: how long `study report` takes on a results folder (default:
/// results), with its plots drawn and without (docs/report.md, "Regeneration time").  Each iteration renders into a fresh
/// temporary folder, removed afterwards; the results folder is only read.

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "study/reader/model.hpp"
#include "reports/render.hpp"

namespace {

namespace fs = std::filesystem;

void render(benchmark::State& state, const fs::path& results, bool plots) {
  const fs::path out = fs::temp_directory_path() / ("bench-report-" + std::to_string(::getpid()));
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(out);
    fs::create_directories(out);
    state.ResumeTiming();
    report::Options o;
    o.results = results, o.out = out, o.plots = plots;
    const auto outcome = report::render(o);
    if (plots && !outcome.missing.empty()) state.SkipWithError(("plots missing: " + outcome.problem).c_str());
  }
  fs::remove_all(out);
}

}  // namespace

int main(int argc, char** argv) {
  fs::path results = "results";
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--results") == 0 && i + 1 < argc) results = argv[++i];
    else rest.push_back(argv[i]);
  }
  try {
    (void)report::load(results);  // a missing or malformed folder is an error before anything is timed
  } catch (const std::exception& e) {
    std::cerr << "bench_report: " << e.what() << "\n";
    return 2;
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 2;
  benchmark::RegisterBenchmark("report/plots drawn", [results](benchmark::State& s) { render(s, results, true); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3)
      ->Repetitions(3)
      ->DisplayAggregatesOnly();
  benchmark::RegisterBenchmark("report/markdown and plot data only", [results](benchmark::State& s) { render(s, results, false); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3)
      ->Repetitions(3)
      ->DisplayAggregatesOnly();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
