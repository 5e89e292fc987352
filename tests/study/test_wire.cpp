// The bytes ranks send each other (study/plan/wire.hpp): every number back to its bits, and a whole study spread over
// two "ranks" in one process (a pair of test Spreads, every item run by the follower and sent as bytes) gives the
// results of one process.
#include <catch2/catch.hpp>

#include "tests/support.hpp"
#include "tests/study/results_text.hpp"

#include <bit>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "study/engine.hpp"
#include "study/plan/wire.hpp"
#include "study/results/write.hpp"

namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

/// Doubles no decimal round trip keeps: a NaN with a payload, -0, infinities, the smallest subnormal, 1/3.
const std::vector<double> awkward{std::bit_cast<double>(std::uint64_t{0x7ff8000000000123}), -0.0,
                                  std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::denorm_min(), 1.0 / 3.0};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (bits(a[i]) != bits(b[i])) return false;
  return true;
}

/// One rank's end of a pair of test Spreads: the leader hands every item, in the phase's order and after its `after`
/// item, to the follower, and unpacks what comes back; it runs nothing itself, so every result crosses as bytes.
struct Channel {
  std::mutex m;
  std::condition_variable cv;
  struct Msg {
    std::string kind;  // "need", "item", "result", "over"
    std::size_t item = 0;
    std::string bytes;
  };
  std::deque<Msg> to_follower, to_leader;
  void put(std::deque<Msg>& q, Msg msg) {
    std::lock_guard lock(m);
    q.push_back(std::move(msg));
    cv.notify_all();
  }
  Msg take(std::deque<Msg>& q) {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return !q.empty(); });
    Msg msg = std::move(q.front());
    q.pop_front();
    return msg;
  }
};

class PairSpread final : public study::Spread {
 public:
  PairSpread(Channel& c, int rank) : c_(c), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return 2; }
  void agree(const std::string& plan, const std::string&) override { plans.push_back(plan); }
  void run(const study::Phase& phase, int) override {
    if (rank_ == 1) {
      while (true) {
        auto msg = c_.take(c_.to_follower);
        if (msg.kind == "over") return;
        if (msg.kind == "need") {
          phase.unpack(msg.item, msg.bytes);
          continue;
        }
        phase.work(msg.item);
        c_.put(c_.to_leader, {"result", msg.item, phase.pack(msg.item)});
      }
    }
    std::map<std::size_t, std::string> kept;
    std::set<std::size_t> sent;
    for (std::size_t k = 0; k < phase.count; ++k) {
      const std::size_t i = phase.order.empty() ? k : phase.order[k];
      const std::size_t after = phase.after.empty() ? study::Phase::none : phase.after[i];
      if (after != study::Phase::none && sent.insert(after).second) c_.put(c_.to_follower, {"need", after, kept.at(after)});
      c_.put(c_.to_follower, {"item", i, {}});
      auto msg = c_.take(c_.to_leader);
      REQUIRE(msg.item == i);
      phase.unpack(i, msg.bytes);
      kept[i] = msg.bytes;
      sent.insert(i);  // the follower ran it: it has its bytes
      phase.done(i, 1, 0.0);
    }
    c_.put(c_.to_follower, {"over", 0, {}});
  }
  std::vector<std::string> plans;

 private:
  Channel& c_;
  int rank_;
};


}  // namespace

TEST_CASE("a run, a sweep, a long energy run and a stability search cross as bytes to their bits", "[wire]") {
  study::Spec spec;
  spec.steps = {10, 20};
  study::StudyResult from, to;
  from.runs.resize(1), to.runs.resize(1);
  study::Run& r = from.runs[0];
  r.integrator = "rk4 x2", r.id = "rk4", r.substeps = 2, r.dt = awkward[5], r.steps = 20, r.status = "diverged";
  r.diverged_step = 7, r.diverged_t = awkward[1], r.reason = "blew up", r.energy_class = "drifting";
  r.global = awkward[0], r.position = awkward[2], r.max = awkward[3], r.local = awkward[4], r.local_position = 2.5;
  r.roundoff = 1e-300, r.roundoff_max = awkward[4] * 3, r.reversal = -1e300, r.energy_max_rel = 3, r.energy_final_rel = 4, r.energy_drift_per_time = 5;
  r.energy_roundoff = 6, r.angular_momentum_max_rel = 7, r.ns_per_step_min = 8.5, r.ns_per_step_median = 9.5;
  r.force_evals = 123456789012345ULL, r.jacobian_evals = 11, r.iterations = 12, r.reused = true;
  r.final_q = awkward, r.final_v = {1, 2}, r.sample_t = awkward, r.sample_error = {0.5}, r.sample_energy = {};
  r.sample_q = {awkward, {1.0}}, r.sample_v = {{}, awkward};

  const study::engine::Task run_task{study::TaskKind::run, 0, 0, 20, 0};
  study::engine::unpack_task(study::engine::pack_task(run_task, spec, from), run_task, spec, to);
  const study::Run& s = to.runs[0];
  CHECK(s.integrator == "rk4 x2");
  CHECK(s.id == "rk4");
  CHECK(s.substeps == 2);
  CHECK(s.steps == 20);
  CHECK(s.status == "diverged");
  CHECK(s.diverged_step == 7);
  CHECK(s.reason == "blew up");
  CHECK(s.energy_class == "drifting");
  CHECK(s.force_evals == 123456789012345ULL);
  CHECK(s.jacobian_evals == 11);
  CHECK(s.iterations == 12);
  CHECK(s.reused);
  CHECK(same_bits({s.dt, s.diverged_t, s.global, s.position, s.max, s.local, s.local_position, s.roundoff, s.roundoff_max, s.reversal},
                  {r.dt, r.diverged_t, r.global, r.position, r.max, r.local, r.local_position, r.roundoff, r.roundoff_max, r.reversal}));
  CHECK(same_bits({s.energy_max_rel, s.energy_final_rel, s.energy_drift_per_time, s.energy_roundoff, s.angular_momentum_max_rel,
                   s.ns_per_step_min, s.ns_per_step_median},
                  {3, 4, 5, 6, 7, 8.5, 9.5}));
  CHECK(same_bits(s.final_q, awkward));
  CHECK(same_bits(s.final_v, {1, 2}));
  CHECK(same_bits(s.sample_t, awkward));
  CHECK(same_bits(s.sample_error, {0.5}));
  CHECK(s.sample_energy.empty());
  REQUIRE(s.sample_q.size() == 2);
  CHECK(same_bits(s.sample_q[0], awkward));
  CHECK(same_bits(s.sample_q[1], {1.0}));
  REQUIRE(s.sample_v.size() == 2);
  CHECK(s.sample_v[0].empty());
  CHECK(same_bits(s.sample_v[1], awkward));

  // A range to the noise floor: both step sizes' slots and its sweep.
  from.runs.resize(2), to = {}, to.runs.resize(2), from.sweeps.resize(1), to.sweeps.resize(1);
  from.runs[1].dt = 0.05;
  from.sweeps[0] = {"rk4 x2", false, awkward, "noise floor", study::SweepStop::floor, study::SweepStop::between};
  const study::engine::Task floor_task{study::TaskKind::run, 0, 0, 0, 0, false, 0, true};
  study::engine::unpack_task(study::engine::pack_task(floor_task, spec, from), floor_task, spec, to);
  CHECK(bits(to.runs[1].dt) == bits(0.05));
  CHECK(to.runs[0].integrator == "rk4 x2");
  CHECK(to.sweeps[0].integrator == "rk4 x2");
  CHECK(same_bits(to.sweeps[0].dts, awkward));
  CHECK(to.sweeps[0].stop == "noise floor");
  CHECK(to.sweeps[0].cause == study::SweepStop::floor);
  CHECK(to.sweeps[0].halvings == study::SweepStop::between);
  CHECK_FALSE(to.sweeps[0].automatic);

  from.energy_long = {{.integrator = "ruth3", .dt = awkward[5], .steps = 600, .status = "diverged", .diverged_t = awkward[1], .t = awkward,
                       .rel_error = {1e-3, 2e-3}, .envelope = {1e-3, 3e-3}, .max_rel = awkward[4], .growth_exponent = 1.5,
                       .growth_lo = 1.25, .growth_hi = 1.75}};
  to.energy_long.resize(1);
  const study::engine::Task energy_task{study::TaskKind::energy, 0, 0, 0, 0};
  study::engine::unpack_task(study::engine::pack_task(energy_task, spec, from), energy_task, spec, to);
  const study::EnergyLong& e = to.energy_long[0];
  CHECK(e.integrator == "ruth3");
  CHECK(e.steps == 600);
  CHECK(e.status == "diverged");
  CHECK(same_bits({e.dt, e.diverged_t, e.growth_exponent, e.growth_lo, e.growth_hi, e.max_rel}, {awkward[5], -0.0, 1.5, 1.25, 1.75, awkward[4]}));
  CHECK(same_bits(e.t, awkward));
  CHECK(same_bits(e.rel_error, {1e-3, 2e-3}));
  CHECK(same_bits(e.envelope, {1e-3, 3e-3}));
  CHECK(e.tol == 0);
  // An adaptive pair's long run: its tolerance and why it stopped cross too.
  from.energy_long[0].integrator = "dopri5 (adaptive)", from.energy_long[0].tol = awkward[2], from.energy_long[0].status = "step-limit";
  from.energy_long[0].reason = "1000 steps (tol.max_steps) before t_end";
  const study::engine::Task pair_energy_task{study::TaskKind::adaptive_energy, 0, 0, 0, 0};
  study::engine::unpack_task(study::engine::pack_task(pair_energy_task, spec, from), pair_energy_task, spec, to);
  CHECK(to.energy_long[0].integrator == "dopri5 (adaptive)");
  CHECK(bits(to.energy_long[0].tol) == bits(awkward[2]));
  CHECK(to.energy_long[0].status == "step-limit");
  CHECK(to.energy_long[0].reason == "1000 steps (tol.max_steps) before t_end");
  CHECK(same_bits(to.energy_long[0].envelope, {1e-3, 3e-3}));

  // An adaptive run: its counts, numbers and samples at the output times, every bit.
  study::AdaptiveRun a;
  a.integrator = "dopri5 (adaptive)", a.id = "dopri5", a.controller = "pi", a.tol = awkward[3], a.status = "ok", a.reason = "";
  a.accepted = 12, a.rejected = 3, a.cut = 2, a.force_evals = 92, a.global = awkward[0], a.energy_final_rel = -awkward[1];
  a.sample_error = awkward, a.sample_energy = {0.0, -0.0, awkward[2]};
  from.adaptive_runs = {a};
  to.adaptive_runs.resize(1);
  const study::engine::Task adaptive_task{study::TaskKind::adaptive, 0, 0, 0, 0};
  study::engine::unpack_task(study::engine::pack_task(adaptive_task, spec, from), adaptive_task, spec, to);
  const study::AdaptiveRun& b = to.adaptive_runs[0];
  CHECK(b.integrator == a.integrator);
  CHECK(b.controller == "pi");
  CHECK((b.accepted == 12 && b.rejected == 3 && b.cut == 2 && b.force_evals == 92));
  CHECK(same_bits({b.tol, b.global, b.energy_final_rel}, {awkward[3], awkward[0], -awkward[1]}));
  CHECK(same_bits(b.sample_error, awkward));
  CHECK(same_bits(b.sample_energy, {0.0, -0.0, awkward[2]}));

  from.stability = {{"leapfrog", 2.0, true, "a note", std::numeric_limits<double>::infinity(), "A-stable"}};
  to.stability.resize(1);
  const study::engine::Task stability_task{study::TaskKind::stability, 0, 0, 0, 0};
  study::engine::unpack_task(study::engine::pack_task(stability_task, spec, from), stability_task, spec, to);
  const study::Stability& st = to.stability[0];
  CHECK(st.integrator == "leapfrog");
  CHECK(bits(st.limit) == bits(2.0));
  CHECK(st.beyond_search);
  CHECK(st.note == "a note");
  CHECK(bits(st.theory) == bits(std::numeric_limits<double>::infinity()));
  CHECK(st.theory_basis == "A-stable");
}

TEST_CASE("a context crosses as bytes: float128 times, long double states, the problem's facts", "[wire]") {
  using study::engine::RefReal;
  study::engine::Context ctx, back;
  study::StudyResult res, res_back;
  const RefReal third = RefReal(1) / 3;  // 113 bits of 1/3: no double or long double holds it
  const long double tenth = 1.0L / 10;   // 64 bits of 1/10
  ctx.ref.at[third] = {{tenth, -0.0L}, {std::numeric_limits<long double>::denorm_min()}};
  ctx.ref.at[RefReal(0)] = {{1.0L}, {2.0L}};
  ctx.ref.q_scale = 1.5, ctx.ref.v_scale = awkward[5], ctx.ref.bound = 1e-30;
  ctx.exact_params = {{"e", "0.59999999999999997779553950749686919152736663818359375"}};
  ctx.run_cache = "/cache/runs", ctx.reuse_runs = false, ctx.ref_digest = "abc123";
  res.conservative = true, res.bounded = false, res.periodic = true, res.period = 2 * awkward[5];
  res.time_unit = "yr", res.length_unit = "AU", res.position_scale = 3, res.velocity_scale = 4, res.reference_bound = 5e-29;
  res.reference_tolerance = 1e-28;

  back.run_cache = "/mine/runs";  // where the receiving rank caches: its own, not the sender's
  study::engine::unpack_context(study::engine::pack_context(ctx, res), back, res_back);
  REQUIRE(back.ref.at.size() == 2);
  REQUIRE(back.ref.at.count(third) == 1);
  const auto& [q, v] = back.ref.at.at(third);
  REQUIRE(q.size() == 2);
  CHECK(q[0] == tenth);
  CHECK(std::signbit(q[1]));
  REQUIRE(v.size() == 1);
  CHECK(v[0] == std::numeric_limits<long double>::denorm_min());
  CHECK(back.ref.at.at(RefReal(0)).second == std::vector<long double>{2.0L});
  CHECK(bits(back.ref.v_scale) == bits(awkward[5]));
  CHECK(back.ref.bound == 1e-30);
  CHECK(back.exact_params == ctx.exact_params);
  CHECK_FALSE(back.shadow_cache);
  CHECK(back.run_cache == std::filesystem::path("/mine/runs"));
  CHECK(back.reuse_runs);
  CHECK(back.ref_digest == "abc123");
  CHECK(study::engine::reference_digest(back.ref) == study::engine::reference_digest(ctx.ref));
  CHECK(res_back.conservative);
  CHECK_FALSE(res_back.bounded);
  CHECK(res_back.periodic);
  CHECK(bits(res_back.period) == bits(2 * awkward[5]));
  CHECK(res_back.time_unit == "yr");
  CHECK(res_back.length_unit == "AU");
  CHECK(res_back.position_scale == 3);
  CHECK(res_back.velocity_scale == 4);
  CHECK(res_back.reference_bound == 5e-29);
  CHECK(res_back.reference_tolerance == 1e-28);

  // Bytes that are not a message of this layout are refused, not read as zeros.
  const std::string good = study::engine::pack_context(ctx, res);
  CHECK_THROWS_AS(study::engine::unpack_context(good.substr(0, good.size() / 2), back, res_back), std::runtime_error);
  CHECK_THROWS_AS(study::engine::unpack_context("not cbor at all", back, res_back), std::runtime_error);
  const study::engine::Task run_task{study::TaskKind::run, 0, 0, 20, 0};
  study::Spec spec;
  study::StudyResult two;
  two.runs.resize(1);
  CHECK_THROWS_AS(study::engine::unpack_task(good, run_task, spec, two), std::runtime_error);  // a context is not a run
}

TEST_CASE("a study whose every item runs on the other of two ranks gives the results of one process", "[wire]") {
  testing::TempDir dir("wire-pair");
  const auto kepler = study::load_specs(dir.file("k.toml", R"(
name = "k"
problem = "kepler"
t_end = 3.0
integrators = ["rk4", "velocity-verlet", { id = "rk4", substeps = 2 }]
dt = { max = 0.05, min = 0.002, per_decade = 3, past_floor = 2 }
metrics = ["global", "local", "energy", "walltime"]
energy_t_end = 30.0
energy_dt = 0.01
repeats = 1
scan = { e = [0.0, 0.7] }
)"));
  const auto harmonic = study::load_spec(dir.file("h.toml", R"(
name = "h"
problem = "harmonic"
t_end = 6.0
integrators = ["ruth3", "gauss-legendre4"]
dt = "auto"
metrics = ["global", "energy", "stability"]
repeats = 1
)"));
  std::vector<study::Spec> specs = kepler;
  specs.push_back(harmonic);
  study::EngineOptions o;
  o.jobs = 2;
  o.use_cache = false;
  const auto alone = study::run_studies(specs, o);

  Channel channel;
  auto lead = std::make_shared<PairSpread>(channel, 0), follow = std::make_shared<PairSpread>(channel, 1);
  study::EngineOptions lo = o, fo = o;
  lo.spread = lead, fo.spread = follow, lo.log = std::make_shared<study::WorkLog>();
  std::vector<study::StudyResult> from_follower;
  std::thread other([&] { from_follower = study::run_studies(specs, fo); });
  const auto led = study::run_studies(specs, lo);
  other.join();

  CHECK(from_follower.empty());  // the leader holds every result
  REQUIRE(lead->plans.size() == 1);
  CHECK(lead->plans == follow->plans);  // the same plan on both
  CHECK(testing::without_timings(led) == testing::without_timings(alone));
  // Every item ran on rank 1, references first (the longest first), each study's runs after its reference.
  REQUIRE(lo.log->items.size() > specs.size());
  for (std::size_t i = 0; i < lo.log->items.size(); ++i) CHECK(lo.log->items[i].rank == 1);
  CHECK(lo.log->items[0].phase == "references");
  CHECK(lo.log->items[specs.size()].phase == "runs");
}

TEST_CASE("ranks that read different specs or method tables plan differently: the plan's digest tells them apart", "[wire]") {
  testing::TempDir dir("wire-digest");
  auto digest_of = [&](const std::string& text) {
    std::vector<study::Spec> specs{study::load_spec(dir.file("d.toml", text))};
    std::vector<study::StudyResult> results(1);
    return study::engine::plan_digest(specs, study::engine::plan(specs, results));
  };
  const std::string spec = R"(
name = "d"
problem = "harmonic"
t_end = 6.0
integrators = ["rk4", "my-rk3"]
dt = [0.1, 0.05]
metrics = ["global", "energy"]
energy_t_end = 60.0
energy_dt = 0.1

[methods.my-rk3]
kind = "runge-kutta"
a = [[], ["1/2"], ["-1", "2"]]
b = ["1/6", "2/3", "1/6"]
order = 3
)";
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = spec;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::string base = digest_of(spec);
  CHECK(digest_of(spec) == base);  // the same specs: the same digest
  // Another 3rd-order method under the same id (Heun's, Hairer-Norsett-Wanner table II.1.1): files that differ
  // between the nodes in their coefficients only.
  CHECK(digest_of(with(R"(a = [[], ["1/2"], ["-1", "2"]]
b = ["1/6", "2/3", "1/6"])", R"(a = [[], ["1/3"], ["0", "2/3"]]
b = ["1/4", "0", "3/4"])")) != base);
  CHECK(digest_of(with("energy_dt = 0.1", "energy_dt = 0.05")) != base);
  CHECK(digest_of(with("t_end = 6.0", "t_end = 3.0")) != base);
  CHECK(digest_of(with(R"("rk4", )", R"({ id = "rk4", substeps = 2 }, )")) != base);
}

TEST_CASE("the plan's estimate of a task: steps times force evaluations a step times one's cost, longest first", "[wire]") {
  testing::TempDir dir("wire-cost");
  const std::vector<study::Spec> specs{study::load_spec(dir.file("c.toml", R"(
name = "c"
problem = "harmonic"
t_end = 6.0
integrators = ["rk4", "velocity-verlet"]
dt = [0.1, 0.05]
metrics = ["global", "energy"]
energy_t_end = 60.0
energy_dt = 0.1
)"))};
  std::vector<study::StudyResult> results(1);
  const auto tasks = study::engine::plan(specs, results);
  std::vector<double> costs;
  for (const auto& t : tasks) costs.push_back(study::engine::task_cost(t, specs));
  // By hand: harmonic's force costs 1; RK4 evaluates it 4 times a step, velocity Verlet once.  Energy runs: 60 / 0.1 =
  // 600 steps; the sweep: 60 and 120 steps.  RK4: 2400, 480, 240; Verlet: 600, 120, 60; handed out longest first.
  CHECK(costs == std::vector<double>{2400, 600, 480, 240, 120, 60});
  // At 3 step sizes the orders are fitted: each integrator's sweep one task (its orders may go on in wider arithmetic),
  // 60 + 120 + 240 steps: RK4 1680, Verlet 420.
  std::vector<study::Spec> fitted{specs[0]};
  fitted[0].steps = {60, 120, 240};
  std::vector<study::StudyResult> fitted_results(1);
  costs.clear();
  for (const auto& t : study::engine::plan(fitted, fitted_results)) costs.push_back(study::engine::task_cost(t, fitted));
  CHECK(costs == std::vector<double>{2400, 1680, 600, 420});
}
