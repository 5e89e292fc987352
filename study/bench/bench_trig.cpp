// The long double sine and cosine of the round-off shadows (study/problems/trig.hpp) against glibc's sinl and
// cosl, side by side: the pendulum's angles (|theta| < pi) and a long harmonic run's phases (up to 1e4).
// Run: build/release/bench_trig
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "study/problems/trig.hpp"

namespace {

std::vector<long double> arguments(long double span) {
  std::vector<long double> x(4096);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = span * (2.0L * static_cast<long double>(i) / static_cast<long double>(x.size()) - 1);
  return x;
}

template <class F>
void run(benchmark::State& state, long double span, F f) {
  const auto x = arguments(span);
  for (auto _ : state)
    for (long double v : x) benchmark::DoNotOptimize(f(v));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(x.size()));
}

void BM_glibc_sinl_pendulum(benchmark::State& s) { run(s, 3.1L, [](long double v) { return std::sin(v); }); }
void BM_sin_of_pendulum(benchmark::State& s) { run(s, 3.1L, [](long double v) { return study::sin_of(v); }); }
void BM_glibc_cosl_pendulum(benchmark::State& s) { run(s, 3.1L, [](long double v) { return std::cos(v); }); }
void BM_cos_of_pendulum(benchmark::State& s) { run(s, 3.1L, [](long double v) { return study::cos_of(v); }); }
void BM_glibc_sinl_phase_1e4(benchmark::State& s) { run(s, 1e4L, [](long double v) { return std::sin(v); }); }
void BM_sin_of_phase_1e4(benchmark::State& s) { run(s, 1e4L, [](long double v) { return study::sin_of(v); }); }

}  // namespace

BENCHMARK(BM_glibc_sinl_pendulum);
BENCHMARK(BM_sin_of_pendulum);
BENCHMARK(BM_glibc_cosl_pendulum);
BENCHMARK(BM_cos_of_pendulum);
BENCHMARK(BM_glibc_sinl_phase_1e4);
BENCHMARK(BM_sin_of_phase_1e4);
BENCHMARK_MAIN();
