// What the leader of an MPI launch spends per item (study/plan/wire.hpp): a run's bytes packed on the rank that ran
// it and unpacked on the leader, for a problem of 2 and of 12 coordinates (64 trajectory samples, as specs default to).
// The rank model's dispatch time (study/scripts/rank-model, docs/ranks.md) is these plus a message each way.
#include <benchmark/benchmark.h>

#include "study/plan/wire.hpp"

namespace {

study::StudyResult one_run(std::size_t dim, std::size_t samples) {
  study::StudyResult res;
  res.runs.resize(1);
  study::Run& r = res.runs[0];
  r.integrator = r.id = "rk4", r.dt = 0.01, r.steps = 1000, r.global = 1e-9, r.energy_class = "drifting";
  r.final_q.assign(dim, 0.5), r.final_v.assign(dim, 0.25);
  r.sample_t.assign(samples, 1.0), r.sample_error.assign(samples, 1e-9), r.sample_energy.assign(samples, 1e-12);
  r.sample_q.assign(samples, std::vector<double>(dim, 0.5)), r.sample_v.assign(samples, std::vector<double>(dim, 0.25));
  return res;
}

void BM_run_bytes(benchmark::State& state) {
  const study::StudyResult res = one_run(static_cast<std::size_t>(state.range(0)), 64);
  study::StudyResult into;
  into.runs.resize(1);
  const study::Spec spec;
  const study::engine::Task task{study::TaskKind::run, 0, 0, 1000, 0};
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string b = study::engine::pack_task(task, spec, res);
    study::engine::unpack_task(b, task, spec, into);
    bytes = b.size();
    benchmark::DoNotOptimize(into.runs[0].sample_q.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_run_bytes)->Arg(2)->Arg(12)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
