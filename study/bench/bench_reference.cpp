// The cost of a certified reference: Kepler e = 0.6 over 10 periods in float128 (no cache).
// Run: build/release/bench_reference   (counters: log10 of the true relative error and of the bound)
#include <benchmark/benchmark.h>

#include <cmath>

#include "reference/reference.hpp"
#include "study/problems/kepler.hpp"

namespace {

void run(benchmark::State& state, double tolerance, double check_factor) {
  const reference::Real span = 10 * study::Kepler<reference::Real>{}.period();
  std::vector<reference::Real> times;
  for (int k = 1; k <= 100; ++k) times.push_back(span * k / 100);
  reference::Options o;
  o.use_cache = false;
  o.tolerance = tolerance;
  o.check_factor = check_factor;
  reference::Reference r;
  for (auto _ : state) {
    r = reference::compute({.problem = "kepler", .params = {}, .times = times, .initial = {}}, o);
    benchmark::DoNotOptimize(r.q.back().front());
  }
  // log10, because Google Benchmark prints small counters with SI prefixes it cannot show below 1e-24.
  state.counters["log10_true_error"] = std::log10(static_cast<double>(*r.exact_error));
  state.counters["log10_bound"] = std::log10(static_cast<double>(r.error_bound));
  state.counters["evaluations"] = static_cast<double>(r.evaluations);
}

/// One certified reference as `study` computes it: the solve at 1e-28 and its certifying solve at 1e-30.
void BM_KeplerReferenceCertified(benchmark::State& state) { run(state, 1e-28, 100); }
/// The reference solve alone (the certifying solve made as cheap as allowed: 10x tighter).
void BM_KeplerReferenceSolve(benchmark::State& state) { run(state, 1e-28, 10); }

}  // namespace

BENCHMARK(BM_KeplerReferenceCertified)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KeplerReferenceSolve)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
