/// bench_growth [Google Benchmark flags]: how the cost of a study grows with the work asked of it (docs/bench.md,
/// "Cost growth"), through the engine `study run` calls, on one thread:
///   growth/runs      methods x step sizes (Kepler e = 0.6): time per force evaluation, flat if cost is linear;
///   growth/t_end     t_end x 1, x 10, x 100 (Kepler, rk4, four step sizes), cold and warm: time and peak heap;
///   growth/reference the certified reference's tolerance, 1e-20 to 1e-29 (Kepler, 10 periods): its evaluations;
///   growth/bodies    a softened cluster of 5 to 16 bodies (Plummer, velocity-verlet): time per pair force.
/// Wall time (the engine's work runs on a thread of its own). Every iteration is cold where the benchmark says so: the caches it does not keep are emptied (untimed) first.
/// Counters: runs, steps (summed over runs), evaluations (the runs' force evaluations), time_per_eval, peak_heap_MB
/// (the most heap held at once during the iteration: what this program's operator new hands out; C libraries'
/// malloc and over-aligned allocations are not counted).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "reference/reference.hpp"
#include "study/engine.hpp"
#include "study/problems/kepler.hpp"
#include "study/spec/spec.hpp"

// ---- heap accounting: what operator new hands out, its size kept in a header in front of the block ----
namespace {
std::atomic<long long> heap_now{0}, heap_peak{0};
constexpr std::size_t header = alignof(std::max_align_t);

void* take(std::size_t n) {
  if (n > SIZE_MAX - header) throw std::bad_alloc();
  void* raw = std::malloc(n + header);
  if (!raw) throw std::bad_alloc();
  *static_cast<std::size_t*>(raw) = n;
  const long long now = heap_now.fetch_add(static_cast<long long>(n)) + static_cast<long long>(n);
  long long peak = heap_peak.load();
  while (now > peak && !heap_peak.compare_exchange_weak(peak, now)) {
  }
  return static_cast<char*>(raw) + header;
}
void give(void* p) noexcept {
  if (!p) return;
  void* raw = static_cast<char*>(p) - header;
  heap_now.fetch_sub(static_cast<long long>(*static_cast<std::size_t*>(raw)));
  std::free(raw);
}
}  // namespace

// Over-aligned allocations (alignof > max_align_t) keep the library's default; nothing here asks for them.
void* operator new(std::size_t n) { return take(n); }
void* operator new[](std::size_t n) { return take(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return take(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { give(p); }
void operator delete[](void* p) noexcept { give(p); }
void operator delete(void* p, std::size_t) noexcept { give(p); }
void operator delete[](void* p, std::size_t) noexcept { give(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { give(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { give(p); }

namespace {

namespace fs = std::filesystem;

/// This process's cache folder, removed at exit.
const fs::path& cache() {
  static const fs::path dir = fs::temp_directory_path() / ("bench-growth-" + std::to_string(::getpid()));
  return dir;
}

/// What an iteration starts with: the reference, computed by an untimed run before the first (warm, as a user's
/// second run of a spec they edit), or an empty cache (cold).
enum class Keep { references, nothing };

/// The engine on `toml`, every iteration; counters from the last one.
void run_spec(benchmark::State& state, const std::string& toml, Keep keep) {
  const study::Spec spec = study::parse_spec(toml, "bench-growth.toml");
  study::EngineOptions o;
  o.cache_dir = cache();
  std::vector<study::StudyResult> res;
  if (keep == Keep::references) res = study::run_studies({spec}, o);  // the reference, untimed
  long long peak = 0;
  for (auto _ : state) {
    state.PauseTiming();
    if (keep == Keep::nothing) fs::remove_all(cache());
    fs::remove_all(cache() / "roundoff"), fs::remove_all(cache() / "runs");  // shadows and runs: always cold
    const long long start = heap_now.load();
    heap_peak = start;
    state.ResumeTiming();
    res = study::run_studies({spec}, o);
    peak = std::max(peak, heap_peak.load() - start);
  }
  double steps = 0, evals = 0;
  for (const auto& r : res.front().runs) steps += static_cast<double>(r.steps), evals += static_cast<double>(r.force_evals);
  state.counters["runs"] = static_cast<double>(res.front().runs.size());
  state.counters["steps"] = steps;
  state.counters["evaluations"] = evals;
  state.counters["time_per_eval"] = benchmark::Counter(evals, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["peak_heap_MB"] = static_cast<double>(peak) / 1e6;
}

/// Kepler e = 0.6 over 20 time units (3.2 periods), step sizes 0.1 / 2^k for k < `dts`.
std::string kepler(const std::string& integrators, int dts, double t_end) {
  std::string list;
  for (int k = 0; k < dts; ++k) list += fmt::format("{}{}", k ? ", " : "", 0.1 / std::ldexp(1.0, k));
  return fmt::format("name = \"growth\"\nproblem = \"kepler\"\nparams = {{ e = 0.6 }}\nt_end = {}\nintegrators = [{}]\n"
                     "dt = [{}]\nmetrics = [\"global\"]\n",
                     t_end, integrators, list);
}

const std::vector<std::string> methods{"euler", "symplectic-euler", "velocity-verlet", "rk2-heun",
                                       "rk4", "yoshida4", "blanes-moan4", "yoshida6"};

void runs(benchmark::State& state) {
  std::string list;
  for (long i = 0; i < state.range(0); ++i) list += fmt::format("{}\"{}\"", i ? ", " : "", methods[static_cast<std::size_t>(i)]);
  run_spec(state, kepler(list, static_cast<int>(state.range(1)), 20.0), Keep::references);
}

/// Cold: the reference included; warm: the runs and their shadows only.
void t_end(benchmark::State& state, Keep keep) {
  run_spec(state, kepler("\"rk4\"", 4, 20.0 * static_cast<double>(state.range(0))), keep);
}

void bodies(benchmark::State& state) {
  run_spec(state,
           fmt::format("name = \"growth\"\nproblem = \"plummer\"\nparams = {{ n = {} }}\nt_end = 50.0\n"
                       "integrators = [\"velocity-verlet\"]\ndt = [0.01, 0.005, 0.0025, 0.00125]\nmetrics = [\"global\"]\n",
                       state.range(0)),
           Keep::references);
  const double n = static_cast<double>(state.range(0));
  state.counters["pairs"] = n * (n - 1) / 2;
}

/// A certified reference as `study` computes one (the solve and its certifying solve at 1/100 of the tolerance),
/// Kepler e = 0.6 over 10 periods at 100 times, no cache.
void reference_tolerance(benchmark::State& state) {
  const reference::Real span = 10 * study::Kepler<reference::Real>{}.period();
  std::vector<reference::Real> times;
  for (int k = 1; k <= 100; ++k) times.push_back(span * k / 100);
  reference::Options o;
  o.use_cache = false;
  o.tolerance = std::pow(10.0, -static_cast<double>(state.range(0)));
  reference::Reference r;
  for (auto _ : state) r = reference::compute({.problem = "kepler", .params = {}, .times = times, .initial = {}}, o);
  state.counters["evaluations"] = static_cast<double>(r.evaluations);
  // log10, because Google Benchmark prints small counters with SI prefixes it cannot show below 1e-24.
  state.counters["log10_bound"] = std::log10(static_cast<double>(r.error_bound));
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RegisterBenchmark("growth/runs", runs)
      ->ArgNames({"methods", "dts"})
      ->ArgsProduct({{1, 2, 4, 8}, {4, 8, 12}})
      ->UseRealTime()->Unit(benchmark::kMillisecond);
  for (const auto& [name, keep] : {std::pair{"growth/t_end/cold", Keep::nothing}, std::pair{"growth/t_end/warm", Keep::references}})
    benchmark::RegisterBenchmark(name, t_end, keep)->ArgName("times")->Arg(1)->Arg(10)->Arg(100)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("growth/reference", reference_tolerance)
      ->ArgName("digits")
      ->DenseRange(20, 28, 2)
      ->Arg(29)
      ->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("growth/bodies", bodies)->ArgName("n")->Arg(5)->Arg(8)->Arg(12)->Arg(16)->UseRealTime()->Unit(benchmark::kMillisecond);
  int status = 0;
  try {
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::cerr << "bench_growth: " << e.what() << "\n";
    status = 1;
  }
  benchmark::Shutdown();
  std::error_code ec;
  fs::remove_all(cache(), ec);
  return status;
}
