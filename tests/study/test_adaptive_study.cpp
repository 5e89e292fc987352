// Adaptive integrators through the study: a tolerance sweep's runs take Odeint's steps and have the errors of Odeint's
// states against the closed form; results are the same bytes on any number of threads; a run that stops early is a
// result with its cause; the spec refuses what cannot run; study check judges tolerance proportionality.
#include <catch2/catch.hpp>

#include "tests/support.hpp"
#include "tests/study/results_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <tuple>
#include <fstream>

#include "integrators/adaptive.hpp"
#include "reference/odeint_controlled.hpp"
#include "study/check/check.hpp"
#include "study/check/compare.hpp"
#include "study/engine.hpp"
#include "study/results/orders.hpp"
#include "study/measure/adaptive.hpp"
#include "study/measure/measure.hpp"
#include "study/problems/all.hpp"
#include "study/results/write.hpp"

namespace {

study::EngineOptions adaptive_options(int jobs) {
  study::EngineOptions o;
  o.jobs = jobs;
  o.use_cache = false;
  return o;
}

const char* adaptive_spec = R"(
name = "adaptive"
problem = "harmonic"
t_end = 10.0
samples = 8
repeats = 1
adaptive = ["dopri5", { id = "fehlberg4", controller = { kind = "pi", beta = 0.08 } }, "odeint-dopri5"]
tol = { max = 1e-4, min = 1e-9, per_decade = 1 }
)";

std::string adaptive_spec_error(const testing::TempDir& dir, const std::string& text) {
  try {
    study::load_spec(dir.file("bad.toml", text));
  } catch (const study::SpecError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a tolerance sweep's runs take Odeint's steps, and their errors are those of Odeint's states against cos t", "[engine][adaptive]") {
  testing::TempDir dir("engine-adaptive");
  // Steps cut to land on the output times, as Odeint's integrate_times cuts them (free steps: the next test).
  std::string cut_spec = adaptive_spec;
  cut_spec.replace(cut_spec.find("per_decade = 1 }"), 16, "per_decade = 1, outputs = \"cut\" }");
  const auto spec = study::load_spec(dir.file("adaptive.toml", cut_spec));
  REQUIRE(spec.adaptive_cut);
  REQUIRE(spec.tolerances == std::vector<double>{1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9});
  REQUIRE(spec.adaptive.size() == 3);
  CHECK(spec.adaptive[2].label == "odeint-dopri5");
  CHECK(spec.adaptive[2].odeint == "dopri5");
  // The slope an error-per-step controller gives (h ~ tol^(1/(q+1)) over t_end/h steps of local error h^(p+1)):
  // p / (min(p, p_hat) + 1): Dormand-Prince 5(4) 5/5, Fehlberg 4(5) 4/5.
  CHECK(spec.adaptive[0].expected_slope == 1.0);
  CHECK(spec.adaptive[1].expected_slope == 0.8);
  CHECK(spec.adaptive[1].label == "fehlberg4 (adaptive, pi beta=0.08)");
  const auto one = study::run_studies({spec}, adaptive_options(1));
  const auto& res = one.at(0);
  REQUIRE(res.adaptive_runs.size() == 18);
  // Odeint's own Dormand-Prince beside ours: at each tolerance the same steps and so the same errors, to the bit.
  for (std::size_t k = 0; k < 6; ++k) {
    const auto &ours = res.adaptive_runs[k], &peer = res.adaptive_runs[12 + k];
    CHECK(peer.integrator == "odeint-dopri5");
    CHECK(peer.tol == ours.tol);
    CHECK(peer.accepted == ours.accepted);
    CHECK(peer.rejected == ours.rejected);
    CHECK(peer.force_evals == ours.force_evals);
    CHECK(peer.global == ours.global);
    CHECK(peer.h_min == ours.h_min);
  }
  const study::Harmonic<double> p(study::ParamValues{});
  const auto times = spec.adaptive_times();
  for (const auto& r : res.adaptive_runs) {
    INFO(r.integrator << " tol " << r.tol);
    CHECK(r.status == "ok");
    // The energy error: 0 at the start, its largest over the output times at least the end's.
    CHECK(r.energy_max_rel > 0);
    CHECK(r.energy_max_rel >= std::abs(r.energy_final_rel));
    // One timed repeat (repeats = 1): its seconds are both the least and the median.
    CHECK(r.seconds_min > 0);
    CHECK(r.seconds_median == r.seconds_min);
    if (r.controller != "odeint" || r.integrator == "odeint-dopri5") continue;
    // The same first step (HNW's estimate, an input), then Odeint's own controlled Dormand-Prince through its
    // integrate_times: the same counts, and the end state whose distance from (cos 10, -sin 10) is the error.
    long evals = 0;
    const double dt0 = ode::starting_step(p.initial(), p, 4, r.tol, r.tol, times[1] - times[0], evals);
    const auto theirs = reference::odeint::run_controlled("dopri5", p, times, dt0, r.tol, r.tol, 0, false);
    CHECK(r.accepted == theirs.accepted);
    CHECK(r.rejected == theirs.rejected);
    CHECK(r.force_evals == static_cast<std::uint64_t>(theirs.evals + evals));  // and the starting step's 2
    // Its samples: at each output time, the distance of Odeint's state from (cos t, -sin t) and its energy against 1/2.
    REQUIRE(r.sample_error.size() == times.size());
    REQUIRE(r.sample_energy.size() == times.size());
    for (std::size_t j = 0; j < times.size(); ++j) {
      const auto& s = theirs.at_times[j];
      CHECK(r.sample_energy[j] == ((s.q[0] * s.q[0] + s.v[0] * s.v[0]) / 2 - 0.5) / 0.5);
      CHECK(r.sample_error[j] == Approx(std::max(std::abs(s.q[0] - std::cos(times[j])) / res.position_scale,
                                                 std::abs(s.v[0] + std::sin(times[j])) / res.velocity_scale)).epsilon(0).margin(1e-15));
    }
    CHECK(r.sample_error.back() == r.global);
    CHECK(r.sample_energy.back() == r.energy_final_rel);
    const auto& end = theirs.at_times.back();
    const double dq = std::abs(end.q[0] - std::cos(10.0)) / res.position_scale, dv = std::abs(end.v[0] + std::sin(10.0)) / res.velocity_scale;
    // The reference is certified to 1e-24 or so; libm's cos and sin of 10 are within an ulp of the closed form: the two
    // distances agree to a few ulps of the O(1) state, whatever the error's size (1e-4 .. 1e-9).
    CHECK(r.global == Approx(std::max(dq, dv)).epsilon(0).margin(1e-15));
    CHECK(r.h_min > 0);
    CHECK(r.h_max >= r.h_min);
    // Round-off, measured by replaying the accepted steps in long double: some ulps of the O(1) state over at most a
    // few hundred steps (a random walk: eps sqrt(n) ~ 4e-15), never 0 and far below the errors.
    CHECK(r.roundoff_max > 0);
    CHECK(r.roundoff_max < 1e-13);
    CHECK(r.roundoff <= r.roundoff_max);
    CHECK(r.seconds_min > 0);
  }
  // Tolerance proportionality: Dormand-Prince's slope near 1 passes; each pair has its verdict.
  REQUIRE(res.proportionality.size() == 3);
  CHECK(res.proportionality[0].verdict.verdict == "pass");
  CHECK(res.proportionality[0].fit.order == Approx(1.0).margin(0.2));
  // The same bytes on 2 threads (timings aside).
  const auto two = study::run_studies({spec}, adaptive_options(2));
  CHECK(testing::without_timings(one) == testing::without_timings(two));
}

TEST_CASE("free steps (the default): the controller's own steps, as Odeint's integrate_adaptive takes them, each output time "
          "observed by a step to it", "[engine][adaptive]") {
  testing::TempDir dir("engine-adaptive-free");
  const auto spec = study::load_spec(dir.file("adaptive.toml", adaptive_spec));
  REQUIRE_FALSE(spec.adaptive_cut);
  const auto res = study::run_studies({spec}, adaptive_options(2)).at(0);
  const study::Harmonic<double> p(study::ParamValues{});
  const auto times = spec.adaptive_times();
  namespace oi = boost::numeric::odeint;
  using Flat = std::array<double, 2>;
  for (const auto& r : res.adaptive_runs) {
    if (r.integrator != "dopri5 (adaptive)") continue;
    INFO("tol " << r.tol);
    // Odeint's controlled Dormand-Prince through its integrate_adaptive from the same first step: the same counts,
    // only the last step cut (to end on t_end), and every accepted state, to observe the output times from.
    long evals = 0;
    const double dt0 = ode::starting_step(p.initial(), p, 4, r.tol, r.tol, times[1] - times[0], evals);
    std::vector<std::pair<double, Flat>> accepted{{0.0, Flat{1.0, 0.0}}};
    reference::odeint::ControlledLimits limits;
    limits.land = false;
    limits.on_accept = [&](const double* x, double t) { accepted.push_back({t, Flat{x[0], x[1]}}); };
    const auto theirs = reference::odeint::run_controlled("dopri5", p, times, dt0, r.tol, r.tol, 0, false, limits);
    CHECK(r.accepted == theirs.accepted);
    CHECK(r.rejected == theirs.rejected);
    CHECK(r.force_evals == static_cast<std::uint64_t>(theirs.evals + evals));  // the steps to the output times not counted
    CHECK(r.cut <= 1);
    CHECK(theirs.cut == r.cut);
    // At each output time: a Dormand-Prince step of Odeint's own stepper to it from the last accepted state before it,
    // against (cos t, -sin t); at t_end the state the run ended on.
    REQUIRE(r.sample_error.size() == times.size());
    for (std::size_t j = 0; j < times.size(); ++j) {
      std::size_t k = 0;
      while (k + 1 < accepted.size() && accepted[k + 1].first <= times[j]) ++k;
      Flat x = accepted[k].second;
      if (j + 1 < times.size() && times[j] > accepted[k].first) {
        oi::runge_kutta_dopri5<Flat> stepper;
        stepper.do_step([](const Flat& y, Flat& d, double) { d[0] = y[1], d[1] = -y[0]; }, x, accepted[k].first, times[j] - accepted[k].first);
      }
      CHECK(r.sample_error[j] == Approx(std::max(std::abs(x[0] - std::cos(times[j])) / res.position_scale,
                                                 std::abs(x[1] + std::sin(times[j])) / res.velocity_scale)).epsilon(0).margin(1e-15));
    }
  }
}

TEST_CASE("an adaptive pair's work is estimated from a pilot run at tol.max, scaled as the controller scales its step", "[engine][adaptive]") {
  // Kepler e = 0.9 over 20: the estimate of each run's tries is 4 pilot (tol.max / tol)^(1/5) for Dormand-Prince (q = 4),
  // and must hold every measured run's tries (accepted + rejected), without being a bound of another order: within 16 x.
  testing::TempDir dir("engine-adaptive-pilot");
  auto spec = study::load_spec(dir.file("pilot.toml", R"(
name = "pilot"
problem = "kepler"
params = { e = 0.9 }
t_end = 20.0
repeats = 1
adaptive = ["dopri5", { id = "fehlberg78", controller = "pi" }, "odeint-cash-karp54"]
tol = { max = 1e-4, min = 1e-10, per_decade = 1 }
)"));
  const double bound = study::estimate_cost(spec).evaluations;
  study::engine::adaptive_pilots(spec);
  for (const auto& a : spec.adaptive) {
    INFO(a.label);
    CHECK(a.pilot_tries > 10);
    CHECK(a.pilot_tries < 2000);
  }
  const double estimate = study::estimate_cost(spec).evaluations;
  CHECK(estimate < bound / 10);  // tol.max_steps = 1e6 a run, before: a thousand times the work
  CHECK_THAT(study::estimate_cost(spec).biggest, Catch::StartsWith("its reference"));  // the pairs' runs now weigh less
  const auto res = study::run_studies({spec}, adaptive_options(2)).at(0);
  for (const auto& r : res.adaptive_runs) {
    const study::SpecAdaptive* a = nullptr;
    for (const auto& x : spec.adaptive) a = x.label == r.integrator ? &x : a;
    const double q = std::min(a->order, a->order_hat);
    const double estimated = 4 * a->pilot_tries * std::pow(1e-4 / r.tol, 1 / (q + 1));
    const double tries = static_cast<double>(r.accepted + r.rejected);
    INFO(r.integrator << " at tol " << r.tol << ": " << tries << " tries, estimated " << estimated);
    CHECK(tries <= estimated);
    CHECK(estimated <= 16 * tries);
  }
  // A pilot that cannot reach t_end within its tries (tol.max_steps = 20: Kepler e = 0.9 takes about 100 at 1e-4)
  // says where it stopped, and the estimate counts tol.max_steps a run, not its tries.
  auto capped = study::load_spec(dir.file("capped.toml", R"(
name = "capped"
problem = "kepler"
params = { e = 0.9 }
t_end = 20.0
adaptive = ["dopri5"]
tol = { max = 1e-4, min = 1e-6, per_decade = 1, max_steps = 20 }
)"));
  study::engine::adaptive_pilots(capped);
  CHECK(capped.adaptive[0].pilot_tries == 0);
  CHECK_THAT(capped.adaptive[0].pilot_stop, Catch::StartsWith("its pilot run at tol.max reached t = ") && Catch::EndsWith(" of 20 in 20 tries"));
}

TEST_CASE("an adaptive run that stops at tol.max_steps is a result with its cause, and study check says so", "[engine][adaptive]") {
  testing::TempDir dir("engine-adaptive-limit");
  const auto spec = study::load_spec(dir.file("limit.toml", R"(
name = "limit"
problem = "kepler"
params = { e = 0.9 }
t_end = 20.0
repeats = 1
adaptive = ["cash-karp5"]
tol = { max = 1e-3, min = 1e-10, per_decade = 1, max_steps = 200 }
)"));
  const auto res = study::run_studies({spec}, adaptive_options(2));
  int stopped = 0;
  for (const auto& r : res.at(0).adaptive_runs)
    if (r.status == "step-limit") {
      ++stopped;
      CHECK(r.accepted + r.rejected == 200);
      CHECK(r.t_reached < 20.0);
      CHECK(std::isnan(r.global));
      CHECK(r.reason.find("tol.max_steps") != std::string::npos);
    }
  CHECK(stopped >= 3);  // the tightest tolerances need thousands of steps
  auto meta = study::collect_meta();
  study::write_results(dir.path / "out", res, meta);
  const auto verdict = check::run_checks(report::load(dir.path / "out"), nullptr);
  int said = 0;
  for (const auto& o : verdict.outcomes)
    if (o.metric == "adaptive run") {
      ++said;
      CHECK(o.status == check::Outcome::undetermined);
      CHECK(o.action.find("tol.max_steps") != std::string::npos);
    }
  CHECK(said == stopped);
  // Steps held to max_dt = 0.1 can reach t_end = 20 only in 200 steps, all of them at the cap: the pericentre passes
  // of e = 0.9 need smaller ones, so every run stops at its 200, and says that its steps were held to max_dt (ours
  // and Odeint's alike).
  const auto capped = study::load_spec(dir.file("capped.toml", R"(
name = "capped"
problem = "kepler"
params = { e = 0.9 }
t_end = 20.0
repeats = 1
adaptive = [{ id = "cash-karp5", controller = { kind = "pi", max_dt = 0.1, fac_max = 5 } }, { id = "odeint-dopri5", controller = { kind = "odeint", max_dt = 0.1 } }]
tol = { max = 1e-3, min = 1e-5, per_decade = 1, max_steps = 200 }
)"));
  const auto held = study::run_studies({capped}, adaptive_options(2));
  REQUIRE(held.at(0).adaptive_runs.size() == 6);
  for (const auto& r : held.at(0).adaptive_runs) {
    INFO(r.integrator << " at tol " << r.tol << ": " << r.reason);
    CHECK(r.status == "step-limit");
    CHECK_THAT(r.reason, Catch::Contains("its steps were held to the controller's max_dt = 0.1"));
    if (r.integrator.find("pi") != std::string::npos) CHECK_THAT(r.reason, Catch::Contains("the pi controller was given fac_max = 5"));
  }
}

TEST_CASE("a spec's adaptive integrators and tolerances: what cannot run is refused, naming the key", "[engine][adaptive]") {
  testing::TempDir dir("engine-adaptive-bad");
  const std::string head = "name = \"x\"\nproblem = \"kepler\"\nt_end = 1.0\n";
  const std::string tol = "tol = { max = 1e-4, min = 1e-8, per_decade = 2 }\n";
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"rk4\"]\n" + tol), Catch::Contains("'rk4' is a built-in integrator without embedded weights"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri6\"]\n" + tol), Catch::Contains("'dopri6' is not a method table (did you mean 'dopri5'?)"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = 5 }]\n" + tol), Catch::Contains("id must be a string"));
  // The PI exponent 1/(q+1) - 0.75 beta is 0.125 - 0.15 < 0 for Fehlberg 7(8) (q = 7) at beta 0.2: refused, with the bound 1/6.
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"fehlberg78\", controller = { kind = \"pi\", beta = 0.2 } }]\n" + tol),
             Catch::Contains("(beta < 0.167)"));
  CHECK(adaptive_spec_error(dir, head + "adaptive = [{ id = \"dopri5\", controller = { kind = \"pi\", beta = 0.2 } }]\n" + tol) == "no error");
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"dopri5\", controller = { kind = \"pi\", safe = 1e-300 } }]\n" + tol),
             Catch::Contains("safe = 1e-300 is out of range (0.5 to 1"));
  // The pairs' long energy run takes energy_tol: asked for where there are pairs, with energy_t_end, in tol's range.
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_t_end = 100.0\n" + tol),
             Catch::Contains("energy_t_end: the spec lists adaptive pairs only: give energy_tol") && Catch::Contains("energy_tol = 1e-04"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_t_end = 100.0\nenergy_tol = 1e-8\nenergy_dt = 0.1\n" + tol),
             Catch::Contains("energy_dt: is the fixed-step integrators' step in the long energy run, but the spec lists none"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_tol = 1e-8\n" + tol),
             Catch::Contains("energy_tol: is a setting of the long energy run: give energy_t_end too"));
  CHECK_THAT(adaptive_spec_error(dir, head + "integrators = [\"rk4\"]\ndt = [0.1]\nenergy_t_end = 100.0\nenergy_tol = 1e-8\n"),
             Catch::Contains("energy_tol: is the adaptive pairs' tolerance in the long energy run, but the spec lists no adaptive pairs"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_t_end = 100.0\nenergy_tol = \"1e-8\"\n" + tol),
             Catch::Contains("energy_tol: must be a number"));
  for (const char* bad : {"1e-16", "1.0", "nan"})
    CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_t_end = 100.0\nenergy_tol = " + bad + "\n" + tol),
               Catch::Contains("energy_tol: must be a number from 1e-15 to below 1"));
  CHECK(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_t_end = 100.0\nenergy_tol = 1e-15\n" + tol) == "no error");
  // Shorter than Kepler's time scale 2 pi: it cannot tell a drift (and at 1e-300 it would take no step).
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_t_end = 6.28\nenergy_tol = 1e-8\n" + tol),
             Catch::Contains("bad.toml:5: energy_t_end: the pairs' long run (energy_tol) must span at least kepler's time scale, 6.283185307179586"));
  CHECK(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\nenergy_t_end = 6.2832\nenergy_tol = 1e-8\n" + tol) == "no error");
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"rk38\"]\n" + tol), Catch::Contains("'rk38' has no embedded weights"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"rk38\"]\n" + tol), Catch::Contains("dopri5"));  // the pairs there are
  CHECK_THAT(adaptive_spec_error(dir, head + tol), Catch::Contains("tol: is the adaptive integrators' tolerance sweep"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\n"), Catch::Contains("adaptive: needs the tolerances"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\ntol = { max = 1e-4, min = 1e-18, per_decade = 2 }\n"),
             Catch::Contains("1e-15 <= min <= max < 1"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\ntol = { max = 1e-4, min = 1e-8, per_decade = 2, max_steps = 5 }\n"),
             Catch::Contains("tol.max_steps: must be a whole number from 10 to 1000000000"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\ntol = { max = 1e-4, min = 1e-8, per_decade = 2, max_steps = 1e6 }\n"),
             Catch::Contains("TOML's whole numbers have no exponent: write 1000000"));
  // A step cap under which t_end cannot be reached within tol.max_steps is refused before any run, naming both: t_end =
  // 1 in steps of at most 1e-300, or of 1e-7 (1e7 steps against 1e6).
  for (const char* cap : {"1e-300", "1e-7"})
    CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"odeint-dopri5\", controller = { kind = \"odeint\", max_dt = " + cap + " } }]\n" + tol),
               Catch::Contains("controller max_dt = 1e-") && Catch::Contains(" cannot work: t_end = 1 needs at least") && Catch::Contains("tol.max_steps = 1000000") &&
                   Catch::Contains("give max_dt >= 1e-06"));
  CHECK(adaptive_spec_error(dir, head + "adaptive = [{ id = \"dopri5\", controller = { kind = \"pi\", max_dt = 1e-5 } }]\n" + tol) == "no error");
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"dopri5\", controller = \"p1\" }]\n" + tol),
             Catch::Contains("unknown controller 'p1' (did you mean 'pi'?)"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"dopri5\", controller = { kind = \"pi\", beta = 0.5 } }]\n" + tol),
             Catch::Contains("beta = 0.5 is out of range (0 to 0.2)"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"dopri5\", controller = { kind = \"odeint\", beta = 0.05 } }]\n" + tol),
             Catch::Contains("'beta' is not a parameter of the odeint controller"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"odeint-dopri5\", controller = \"pi\" }]\n" + tol),
             Catch::Contains("Boost.Odeint's own stepper under its own controller"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"odeint-dopri4\"]\n" + tol), Catch::Contains("(did you mean 'odeint-dopri5'?)"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [{ id = \"dopri5\", rtol = 1e-6 }]\n" + tol),
             Catch::Contains("'rtol' is not an adaptive integrator's option"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\", \"dopri5\"]\n" + tol), Catch::Contains("'dopri5 (adaptive)' is listed twice"));
  CHECK_THAT(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\ndt = [0.1]\n" + tol), Catch::Contains("dt: is the fixed-step integrators' sweep"));
  // A tolerance sweep alone, or beside a fixed-step sweep.
  CHECK(adaptive_spec_error(dir, head + "adaptive = [\"dopri5\"]\n" + tol) == "no error");
  CHECK(adaptive_spec_error(dir, head + "integrators = [\"rk4\"]\ndt = [0.1, 0.05, 0.025]\nadaptive = [\"dopri5\"]\n" + tol) == "no error");
}

namespace {

/// The check's outcome on a pair whose errors are 0.3 tol^slope at 2 tolerances a decade from 1e-3 to 1e-11 (round-off
/// 1e-16), declared `expected`; where `p` and `p_hat` are given, the study also ran the pair's table and its embedded
/// weights at fixed steps, with errors dt^p and dt^p_hat exactly (the orders its fixed-step sweeps measure).
check::Outcome proportionality_outcome(double slope, double expected, double p = 0, double p_hat = 0,
                                       const std::function<double(double)>& error = {}) {
  report::Results results;
  report::Study s;
  s.name = "x", s.problem = "kepler", s.t_end = 1, s.ref_bound = 1e-25;
  s.adaptive.push_back({"pair (adaptive)", "pair", "odeint", "", 5, 4, 6, expected});
  s.adaptive.back().fixed_steps = "pair";
  report::ProportionalityRow row;
  row.integrator = "pair (adaptive)", row.expected = expected, row.verdict = "pass";
  for (double tol = 1e-3; tol > 1e-11 * 0.99; tol /= std::sqrt(10.0))
    row.points.push_back({tol, error ? error(tol) : 0.3 * std::pow(tol, slope), 1e-16});
  s.proportionality.push_back(row);
  for (const auto& [method, order] : {std::pair<std::string, double>{"pair", p}, {"pair-embedded", p_hat}}) {
    if (order == 0) continue;
    s.integrators.push_back(method);
    report::OrderRow o;
    o.integrator = method, o.metric = "global";
    for (double dt = 0.1; dt > 0.1 / 200; dt /= 2) o.sweep.push_back({dt, std::pow(dt, order), 1e-16});
    s.orders.push_back(o);
  }
  results.studies.push_back(s);
  results.schema_version = study::results_schema_version;
  const auto v = check::run_checks(results, nullptr);
  for (const auto& o : v.outcomes)
    if (o.metric == "tolerance proportionality") return o;
  FAIL("no proportionality outcome");
  return {};
}

}  // namespace

TEST_CASE("study check judges tolerance proportionality against the pair's slope, both ways", "[engine][adaptive]") {
  // Points with error = C tol^s exactly: s = 1 against expected 1 passes, s = 0.5 fails (off by 0.50), and a pair that
  // expects 0.8 passes at 0.8 and fails at 0.55.
  CHECK(proportionality_outcome(1.0, 1.0).status == check::Outcome::pass);
  const auto off = proportionality_outcome(0.5, 1.0);
  CHECK(off.status == check::Outcome::fail);
  CHECK(off.off == "off by 0.50");
  CHECK(off.metric == "tolerance proportionality");
  CHECK(proportionality_outcome(0.8, 0.8).status == check::Outcome::pass);
  CHECK(proportionality_outcome(0.55, 0.8).status == check::Outcome::fail);  // the band is +/- 0.2, as the orders'
}

TEST_CASE("a slope above the declared band is judged on the orders the study measured at fixed steps", "[engine][adaptive]") {
  // A 4(3) pair declares 4 / (3 + 1) = 1.  On a problem where its b is super-convergent (order 5 at fixed steps, its
  // b_hat 3) the controller's h ~ tol^(1/4) over 1/h steps of error h^6 gives tol^(5/4): slope 1.25.
  const auto kind = proportionality_outcome(1.25, 1.0, 5, 3);
  CHECK(kind.status == check::Outcome::pass);
  CHECK_THAT(kind.off, Catch::Contains("within 1.25 +/- 0.2") && Catch::Contains("5.00 (pair) and 3.00 (pair-embedded)") &&
                           Catch::Contains("kind to the pair"));
  // The same slope with nothing measured at fixed steps: not a failure, the sweep that decides it named.
  const auto unknown = proportionality_outcome(1.25, 1.0);
  CHECK(unknown.status == check::Outcome::undetermined);
  CHECK_THAT(unknown.off, Catch::Contains("may be kind to the pair"));
  CHECK_THAT(unknown.action, Catch::Contains("integrators = [\"pair\", \"pair-embedded\"]"));
  // Faster than the measured orders explain (1.6 against 1.25 +/- 0.2): a failure, named against them.
  const auto fast = proportionality_outcome(1.6, 1.0, 5, 3);
  CHECK(fast.status == check::Outcome::fail);
  CHECK_THAT(fast.off, Catch::Contains("off by 0.35 from the measured orders' 1.25"));
  // The declared orders measured (4 and 3): 1.25 is outside 1 +/- 0.2 and outside what they give: a failure.
  CHECK(proportionality_outcome(1.25, 1.0, 4, 3).status == check::Outcome::fail);
  // Below the band the measured orders change nothing: a failure, as an order's.
  CHECK(proportionality_outcome(0.5, 1.0, 5, 3).status == check::Outcome::fail);
}

TEST_CASE("the engine finds a pair's fixed-step orders where the study measured them: its table's, and its b_hat's", "[engine][adaptive]") {
  // Odeint's dopri5 is measured by our table of the same coefficients; errors dt^5 and dt^4 (max, preferred) and a
  // global metric of another slope, which is not the one read.
  study::StudyResult res;
  study::SpecAdaptive a;
  a.choice.id = "odeint-dopri5", a.fixed_steps = "dopri5";
  for (const auto& [method, metric, order] : {std::tuple<std::string, std::string, double>{"dopri5", "max", 5}, {"dopri5", "global", 3},
                                              {"dopri5-embedded", "global", 4}, {"rk4", "max", 4}}) {
    study::Order o;
    o.integrator = method, o.metric = metric;
    for (double dt = 0.1; dt > 0.1 / 100; dt /= 2) o.points.push_back({dt, std::pow(dt, order), 1e-16});
    res.orders.push_back(o);
  }
  std::string ids;
  const study::MeasuredOrders m = study::engine::measured_pair_orders(res, a, ids);
  CHECK(m.p == Approx(5).epsilon(1e-12));
  CHECK(m.p_hat == Approx(4).epsilon(1e-12));
  CHECK(m.p_from == "dopri5");
  CHECK(m.p_hat_from == "dopri5-embedded");
  CHECK(m.slope() == Approx(1.0).epsilon(1e-12));
  CHECK(ids == "\"dopri5\", \"dopri5-embedded\"");
  a.fixed_steps = "cash-karp5";  // not measured here
  CHECK_FALSE(study::engine::measured_pair_orders(res, a, ids).known());
}

TEST_CASE("a pair's measured orders fall back from the largest error to the error at t_end, and say when nothing settled",
          "[engine][adaptive]") {
  // The largest error of cash-karp5 scatters (dt^5 times 1, 3, 0.3 in turn: neighbours' slopes 5 + log2 3 = 6.58, 1.68,
  // 6.74, ...), its error at t_end is dt^5 exactly: 5 from "global".  Its embedded weights' largest error scatters and
  // they have no "global" row: run, not settled.
  study::StudyResult res;
  study::SpecAdaptive a;
  a.choice.id = "cash-karp5", a.fixed_steps = "cash-karp5";
  const double wiggle[] = {1, 3, 0.3};
  for (const auto& [method, metric, scatter] : {std::tuple<std::string, std::string, bool>{"cash-karp5", "max", true},
                                                {"cash-karp5", "global", false}, {"cash-karp5-embedded", "max", true}}) {
    study::Order o;
    o.integrator = method, o.metric = metric;
    int k = 0;
    for (double dt = 0.1; dt > 0.1 / 100; dt /= 2) o.points.push_back({dt, std::pow(dt, 5) * (scatter ? wiggle[k++ % 3] : 1.0), 1e-16});
    res.orders.push_back(o);
  }
  std::string ids;
  const study::MeasuredOrders m = study::engine::measured_pair_orders(res, a, ids);
  CHECK(m.p == Approx(5).epsilon(1e-12));
  CHECK(m.p_from == "cash-karp5");
  CHECK(std::isnan(m.p_hat));
  CHECK(m.p_hat_from == "cash-karp5-embedded");
  // A slope above the band with that: undetermined, naming the sweep that did not settle (not "none measured").
  std::vector<study::ErrorPoint> points;
  for (double tol = 1e-3; tol > 0.99e-9; tol /= std::sqrt(10.0)) points.push_back({tol, 0.3 * std::pow(tol, 1.6), 1e-16});
  const auto v = study::judge_proportionality(study::fit_order(points, study::proportionality_options()), 1.0, 0.2, 0, m, ids);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("its fixed-step sweeps ran here (cash-karp5, cash-karp5-embedded), but cash-karp5-embedded's "
                                       "order did not settle"));
}

TEST_CASE("a proportionality window above a tight end that falls faster is not asymptotic, so it may pass but never fail",
          "[engine][adaptive]") {
  // As Owren-Zennaro 5(4) on Kepler e = 0.6: a shoulder from tol 1e-3 to 3.162e-6 where the error falls as tol^0.6
  // (6 points, their decade slopes 0.6), then slope 1 down to 1e-11 with a wiggle of 1, 1.8, 0.55 (decade slopes 0.74,
  // 0.74, 1.52, ...: no window of more than 3 points agrees there).  The longest agreeing window is the shoulder;
  // from the tightest point (1e-11, the 11th of the wiggle: x 1.8) to it the error falls at slope
  // 1 - log10(1.8) / 5.5 = 0.95 (5.5 decades), faster than 0.6 + 0.2: not a failure.
  int k = 0;
  const double wiggle[] = {1, 1.8, 0.55};
  const auto shoulder = [&](double tol) {
    if (tol > 3.1e-6) return 5e-6 * std::pow(tol / 3.16227766017e-6, 0.6);
    return 5e-6 * (tol / 3.16227766017e-6) * wiggle[k++ % 3];
  };
  const auto o = proportionality_outcome(0, 1.0, 0, 0, shoulder);
  CHECK(o.status == check::Outcome::undetermined);
  CHECK(o.window == "tol 3.162e-06..0.001, 6 points");
  CHECK_THAT(o.observed, Catch::StartsWith("0.60 in [0.60, 0.60]"));
  CHECK_THAT(o.off, Catch::Contains("is not its asymptotic range: the error falls faster below it (0.95 from tol 1e-11 to the window)"));
}

TEST_CASE("a narrow proportionality interval across the band's edge says so, not that it is too wide", "[engine][adaptive]") {
  // Slope 1.2 exactly with a wiggle of +/- 3 % between neighbours: 9 points, 99 % half-width about 0.013, across 1.2.
  int k = 0;
  const auto edge = [&k](double tol) { return 0.3 * std::pow(tol, 1.2) * (k++ % 2 ? 0.97 : 1.03); };
  const auto o = proportionality_outcome(0, 1.0, 0, 0, edge);
  CHECK(o.status == check::Outcome::undetermined);
  CHECK_THAT(o.observed, Catch::StartsWith("1.20 in [1.1"));
  CHECK_THAT(o.off, Catch::Contains("a narrow interval across the band's upper edge 1.2, where the slope sits"));
}

TEST_CASE("across the declared band's upper edge, a slope the measured orders explain passes", "[engine][adaptive]") {
  // Slope 1.21 with a wiggle of +/- 3 % between neighbours: a 99 % interval of about +/- 0.013 across 1 +/- 0.2's edge
  // 1.2.  With orders 6 and 4 measured at fixed steps (a b super-convergent here) the pair's slope is 6 / (4 + 1) = 1.2:
  // within 1.2 +/- 0.2, a pass that names them; with 5 and 4 measured, 1.0: undetermined, as with none.
  int k = 0;
  const auto edge = [&k](double tol) { return 0.3 * std::pow(tol, 1.21) * (k++ % 2 ? 0.97 : 1.03); };
  const auto kind = proportionality_outcome(0, 1.0, 6, 4, edge);
  CHECK(kind.status == check::Outcome::pass);
  CHECK_THAT(kind.observed, Catch::StartsWith("1.21 in ["));
  k = 0;
  const auto plain = proportionality_outcome(0, 1.0, 5, 4, edge);
  CHECK(plain.status == check::Outcome::undetermined);
  CHECK_THAT(plain.off, Catch::Contains("across the band's upper edge 1.2"));
  // Slope 1.6 with b measured at 5.5, above its declared 5 (a small leading term), and b_hat at 4: 5.5 / 5 = 1.1 does not
  // explain it, but at the controller's larger steps b's error may fall faster still: undetermined, not a failure.
  // With b at its declared 5 (1.0), the same slope fails.
  const auto above = proportionality_outcome(1.6, 1.0, 5.5, 4);
  CHECK(above.status == check::Outcome::undetermined);
  CHECK_THAT(above.off, Catch::Contains("but pair's fixed-step order is above its declared 5"));
  CHECK(proportionality_outcome(1.6, 1.0, 5, 4).status == check::Outcome::fail);
}

TEST_CASE("on a linear problem a pair's expected slope takes its weights' orders there, where Merson's b_hat is of order 5", "[engine][adaptive]") {
  // Merson 4(3): its b_hat is of order 5 on linear problems (HNW I, §II.4, "Merson's method"), its b of order 4 there
  // too (R(z) = 1 + z + ... + z^4/24 + z^5/144), so the estimate is of order 4 and the slope 4 / (4 + 1) = 0.8 on the
  // harmonic oscillator; on Kepler's problem the declared 4 / (3 + 1) = 1.
  testing::TempDir dir("engine-adaptive-linear");
  const std::string table = R"(
[methods.merson43]
kind = "runge-kutta"
a = [[], ["1/3"], ["1/6", "1/6"], ["1/8", "0", "3/8"], ["1/2", "0", "-3/2", "2"]]
b = ["1/6", "0", "0", "2/3", "1/6"]
order = 4
b_hat = ["1/10", "0", "3/10", "2/5", "1/5"]
order_hat = 3
source = "Merson (1957); HNW I, Table II.4.2"
)";
  for (const auto& [problem, slope, basis] : {std::tuple<std::string, double, std::string>{"harmonic", 0.8, "orders 4(5) on linear problems"},
                                              {"kepler", 1.0, ""}}) {
    INFO(problem);
    const auto spec = study::load_spec(dir.file(problem + ".toml", "name = \"m\"\nproblem = \"" + problem + "\"\nt_end = 10.0\n" +
                                                                       "adaptive = [\"merson43\"]\ntol = { max = 1e-3, min = 1e-6, per_decade = 1 }\n" + table));
    REQUIRE(spec.adaptive.size() == 1);
    CHECK(spec.adaptive[0].expected_slope == Approx(slope).epsilon(1e-15));
    if (basis.empty()) CHECK(spec.adaptive[0].slope_basis.empty());
    else CHECK_THAT(spec.adaptive[0].slope_basis, Catch::StartsWith(basis));
  }
}

TEST_CASE("a proportionality interval that straddles its band at round-off says so", "[engine][adaptive]") {
  // Five tolerances 1e-9 .. 1e-11, errors 1e-3 tol with a wiggle of +/- 30 %, round-off 1e-16: the tightest error, 0.7e-14,
  // is within 100 x its floor, and the 99 % interval (5 points, residuals of 0.3 in log) straddles 1 +/- 0.2.
  std::vector<study::ErrorPoint> points;
  int k = 0;
  for (double tol = 1e-9; tol > 0.99e-11; tol /= std::sqrt(10.0)) points.push_back({tol, 1e-3 * tol * (k++ % 2 ? 1.3 : 0.7), 1e-16});
  const auto fit = study::fit_order(points, study::proportionality_options());
  REQUIRE(fit.determined);
  const auto v = study::judge_proportionality(fit, 1.0, 0.2);
  CHECK(v.verdict == "undetermined");
  CHECK_THAT(v.reason, Catch::Contains("straddles") && Catch::Contains("within 100 x its noise floor 1e-16"));
  CHECK_THAT(v.action, Catch::Contains("tolerances per decade (tol.per_decade)"));
}

TEST_CASE("the proportionality window lies over the clean range of a hand-made error curve", "[engine][adaptive]") {
  // Loose tolerances (1e-3 .. 1e-4) where the output times set the steps: the error falls as tol^0.2 only.  Then
  // 3e-6 (tol / 1e-4) with a wiggle of +/- 8 % from one tolerance to the next (where the steps fall against the
  // output times), down to round-off: the floor is 1e-16 here, so the tightest points (tol 1e-11: 3e-13) stay usable.
  // Over each decade the wiggle cancels (two steps of half a decade): slope 1 exactly; between neighbours it is
  // 1 +/- ln(1.08 / 0.92) / ln(sqrt 10) = 1 +/- 0.14, local slopes 0.28 apart, beyond the 0.2 they must agree within.
  int k = 0;
  double slope = 1;
  const auto wiggly = [&k, &slope](double tol) {
    if (tol > 1.01e-4) return 3e-6 * std::pow(tol / 1e-4, 0.2);
    return 3e-6 * std::pow(tol / 1e-4, slope) * (k++ % 2 ? 0.92 : 1.08);
  };
  const auto o = proportionality_outcome(0, 1.0, 0, 0, wiggly);
  CHECK(o.status == check::Outcome::pass);
  // The window: the tightest tolerance up four decades (1e-11 .. 1e-7), 9 points, away from the loose end.
  CHECK(o.window == "tol 1e-11..1e-07, 9 points");
  CHECK_THAT(o.observed, Catch::StartsWith("1.00 in [0.9"));
  // A broken pair under the same wiggle (slope 0.5): its decade slopes agree, so the window is asymptotic and it fails
  // (local slopes between neighbours, 0.64 and 0.36, would leave it undetermined).
  k = 0, slope = 0.5;
  const auto broken = proportionality_outcome(0, 1.0, 0, 0, wiggly);
  CHECK(broken.status == check::Outcome::fail);
  CHECK(broken.off == "off by 0.50");
  // A tight end that steepens (slope 1.3 below tol 1e-9, as Fehlberg 7(8) on the pendulum below 1e-10) is passed over:
  // its error falls faster than the window's.  The longest window whose slopes agree wins over the tail's own (1e-11
  // .. 1e-9, 5 points): 9 points from 3.162e-10, whose decade slope (to 3.162e-9) is 1 + 0.3 log10(1e-9 / 3.162e-10)
  // = 1.15, within 0.2 of the rest; from 1e-10 it would be 1.3, and the window stops short of it.
  double tail = 1.3;
  const auto bent = [&tail](double t) { return t >= 0.99e-9 ? 3e-6 * (t / 1e-4) : 3e-11 * std::pow(t / 1e-9, tail); };
  const auto steep = proportionality_outcome(0, 1.0, 0, 0, bent);
  CHECK(steep.status == check::Outcome::pass);
  CHECK(steep.window == "tol 3.162e-10..3.162e-06, 9 points");
  // An error that stops falling there (slope 0.05) is never passed over: the window is the tail's, and it fails.
  tail = 0.05;
  const auto flat = proportionality_outcome(0, 1.0, 0, 0, bent);
  CHECK(flat.status == check::Outcome::fail);
  CHECK(flat.window == "tol 1e-11..1e-09, 5 points");
}

namespace {

/// A study with one adaptive pair whose error is 0.3 tol at tolerances 1e-3 .. 1e-9 (a decade apart), round-off 1e-15.
/// A pair at tolerances 1e-3 .. 1e-9 with errors 0.3 tol (times `factor`) at 600 (1e-3 / tol)^(1/5) force evaluations
/// (times `cost`): a straight log-log curve, so that its cost to an error X is 600 cost (3e-4 factor / X)^(1/5) exactly.
report::Study adaptive_study(double factor = 1.0, double cost = 1.0) {
  report::Study s;
  s.name = "x", s.problem = "kepler", s.t_end = 1, s.ref_bound = 1e-25, s.metrics = {"global"};
  s.adaptive.push_back({"pair (adaptive)", "pair", "odeint", "", 5, 4, 6, 1.0});
  report::ProportionalityRow p;
  p.integrator = "pair (adaptive)", p.expected = 1, p.verdict = "pass", p.observed = 1, p.lo = 0.98, p.hi = 1.02;
  for (double tol = 1e-3; tol > 5e-10; tol /= 10) {
    report::AdaptiveRow r;
    r.integrator = "pair (adaptive)", r.status = "ok", r.tol = tol, r.global = r.max = 0.3 * tol * factor, r.roundoff = r.roundoff_max = 1e-15;
    r.accepted = 100, r.force_evals = 600 * cost * std::pow(1e-3 / tol, 0.2);
    s.adaptive_runs.push_back(r);
    p.points.push_back({tol, r.max, 1e-15});
  }
  s.proportionality.push_back(p);
  s.adaptive_work = report::adaptive_work_of(s);  // as the loader derives it
  return s;
}

report::Results results_of(const report::Study& s) {
  report::Results r;
  r.schema_version = study::results_schema_version;
  r.studies.push_back(s);
  return r;
}

}  // namespace

TEST_CASE("a baseline holds an adaptive pair's error at three of its tolerances, and the check fails when it moves", "[engine][adaptive]") {
  // Errors 3e-4 .. 3e-10 at tolerances 1e-3 .. 1e-9: those at most 0.1 and 1e3 x above the round-off 1e-15 are all 7;
  // the largest, middle and smallest tolerance are kept: 1e-3, 1e-6, 1e-9.
  const auto base = check::baseline_of(results_of(adaptive_study()));
  const check::BaselineEntry* e = base.find("x", "pair (adaptive)");
  REQUIRE(e);
  REQUIRE(e->points.size() == 3);
  CHECK(e->points[0].dt == Approx(1e-3));
  CHECK(e->points[1].dt == Approx(1e-6));
  CHECK(e->points[2].dt == Approx(1e-9));
  CHECK(e->points[1].global == Approx(3e-7));
  auto status = [&](double factor) {
    for (const auto& o : check::run_checks(results_of(adaptive_study(factor)), &base).outcomes)
      if (o.metric == "error constant") return o.status;
    return check::Outcome::undetermined;
  };
  CHECK(status(1.0) == check::Outcome::pass);
  CHECK(status(1.009) == check::Outcome::pass);  // within the tolerance, 1 %
  CHECK(status(1.02) == check::Outcome::fail);
  CHECK(status(0.97) == check::Outcome::fail);   // better is a change too: regenerate the baseline
}

TEST_CASE("study compare judges an adaptive pair: its cost to each accuracy, its slope, runs that stop now", "[engine][adaptive]") {
  auto outcome = [](const report::Study& before, const report::Study& after, const std::string& metric) {
    const auto c = check::compare(results_of(before), results_of(after));
    for (const auto& o : c.verdict.outcomes)
      if (o.metric == metric) return o;
    return check::Outcome{};
  };
  const auto same = adaptive_study();
  CHECK(outcome(same, same, "cost to accuracy").status == check::Outcome::pass);
  // Errors 2 % larger at the same costs: the cost to an accuracy grows by 1.02^(1/5) = 0.40 %, within 1 %: not worse;
  // the error at a tolerance is said, not judged.
  const auto drift = check::compare(results_of(same), results_of(adaptive_study(1.02)));
  REQUIRE(drift.methods.size() == 1);
  CHECK(drift.methods[0].method == "pair (adaptive)");
  CHECK(drift.verdict.count(check::Outcome::fail) == 0);
  REQUIRE(drift.methods[0].notes.size() == 1);
  CHECK_THAT(drift.methods[0].notes[0], Catch::StartsWith("error at tolerance: new / old 1.02 at tol"));
  // 1e-6 lies between tol 1e-5 (error 3e-6) and 1e-6 (3e-7): 600 (300)^(1/5) = 1876.1 evaluations before.
  const auto& at6 = drift.methods[0].costs;
  const auto it = std::find_if(at6.begin(), at6.end(), [](const auto& c) { return std::abs(c.target - 1e-6) < 1e-18; });
  REQUIRE(it != at6.end());
  CHECK(it->old_cost.evals == Approx(600 * std::pow(300.0, 0.2)).epsilon(1e-12));
  CHECK(it->new_cost.evals / it->old_cost.evals == Approx(std::pow(1.02, 0.2)).epsilon(1e-12));
  // Errors 50 times larger at the same costs: 50^(1/5) = 2.19 times the evaluations to every accuracy: worse.
  const auto fifty = outcome(same, adaptive_study(50), "cost to accuracy");
  CHECK(fifty.status == check::Outcome::fail);
  CHECK_THAT(fifty.off, Catch::StartsWith("× 2.19 force evaluations to reach"));
  // The same errors at three times the evaluations: worse by 3 (the error at each tolerance unchanged).
  const auto dear = outcome(same, adaptive_study(1, 3), "cost to accuracy");
  CHECK(dear.status == check::Outcome::fail);
  CHECK_THAT(dear.off, Catch::StartsWith("× 3 force evaluations to reach"));
  // 1.5 % dearer fails, 0.5 % does not (the tolerance 1 %: the curve is straight, its uncertainty 0).
  CHECK(outcome(same, adaptive_study(1, 1.015), "cost to accuracy").status == check::Outcome::fail);
  CHECK(outcome(same, adaptive_study(1, 1.005), "cost to accuracy").status == check::Outcome::pass);
  // A changed table (b_hat), controller or parameter is named.
  auto table = adaptive_study(), tuned = adaptive_study();
  table.adaptive[0].coefficients = std::string(32, 'a');
  tuned.adaptive[0].coefficients = std::string(32, 'b');
  tuned.adaptive[0].controller = "pi", tuned.adaptive[0].params = {{"beta", 0.08}};
  const auto notes = check::compare(results_of(table), results_of(tuned)).methods.at(0).notes;
  REQUIRE(notes.size() == 3);
  CHECK(notes[0] == "its coefficients changed (b or b_hat: the table's digest aaaaaaaa -> bbbbbbbb)");
  CHECK(notes[1] == "its controller changed (odeint -> pi)");
  CHECK(notes[2] == "controller parameter beta default -> 0.08");
  // Results whose runs were cut to land on the output times, against free runs: said, with what it changes.
  auto cut = adaptive_study(), free = adaptive_study();
  cut.adaptive_cut = true, free.adaptive_cut = false;
  const auto outputs = check::compare(results_of(cut), results_of(free)).methods.at(0).notes;
  REQUIRE(outputs.size() == 1);
  CHECK(outputs[0] == "its runs' output times changed (tol.outputs cut -> free): the controller now chooses every step");
  // With --time-tolerance, a pair's time per tried step, matched by tolerance: 1.5 ms against 1 ms a run of 100 tries
  // (100 accepted, none rejected) is 1.5 times, its noise 1 % + 1 %: worse beyond 20 %.
  auto timed = adaptive_study(), slower = adaptive_study();
  for (auto& r : timed.adaptive_runs) r.seconds_min = 1e-3, r.seconds_median = 1.01e-3;
  for (auto& r : slower.adaptive_runs) r.seconds_min = 1.5e-3, r.seconds_median = 1.515e-3;
  check::CompareOptions with_time;
  with_time.time_tolerance = 0.2;
  const auto time = check::compare(results_of(timed), results_of(slower), with_time);
  REQUIRE(time.methods.size() == 1);
  CHECK(time.methods[0].time_ratio == Approx(1.5).epsilon(1e-12));
  CHECK(time.methods[0].time_noise == Approx(0.02).epsilon(1e-9));
  const auto* judged = [&]() -> const check::Outcome* {
    for (const auto& o : time.verdict.outcomes)
      if (o.metric == "time per step") return &o;
    return nullptr;
  }();
  REQUIRE(judged);
  CHECK(judged->status == check::Outcome::fail);
  CHECK_THAT(judged->observed, Catch::StartsWith("new / old 1.500 (median over the tolerances, per tried step)"));
  auto stops = adaptive_study();
  stops.adaptive_runs.back().status = "step-limit", stops.adaptive_runs.back().reason = "1000 steps (tol.max_steps)";
  const auto stopped = outcome(same, stops, "adaptive run");
  CHECK(stopped.status == check::Outcome::fail);
  CHECK_THAT(stopped.observed, Catch::Contains("tol 1e-09"));
  auto worse = adaptive_study();
  worse.proportionality[0].verdict = "fail", worse.proportionality[0].observed = 0.5, worse.proportionality[0].lo = 0.45, worse.proportionality[0].hi = 0.55;
  CHECK(outcome(same, worse, "tolerance proportionality").status == check::Outcome::fail);
  // A slope that moves towards the expected one is better, however far it moves: 1.50 failing -> 1.12 passing.
  auto off = adaptive_study();
  off.proportionality[0].verdict = "fail", off.proportionality[0].observed = 1.5, off.proportionality[0].lo = 1.45, off.proportionality[0].hi = 1.55;
  auto back = adaptive_study();
  back.proportionality[0].observed = 1.12, back.proportionality[0].lo = 1.1, back.proportionality[0].hi = 1.14;
  CHECK(outcome(off, back, "tolerance proportionality").status == check::Outcome::pass);
  CHECK(outcome(back, off, "tolerance proportionality").status == check::Outcome::fail);
  auto slightly = adaptive_study();
  slightly.proportionality[0].observed = 0.95, slightly.proportionality[0].lo = 0.9, slightly.proportionality[0].hi = 1.0;  // overlapping
  CHECK(outcome(same, slightly, "tolerance proportionality").status == check::Outcome::pass);
  // The interval rule at both edges, each side of the expected slope 1: before 1.00 in [0.95, 1.05].  Moved away by
  // 0.30 (beyond the tolerance 0.2): below to 0.70, worse only when the new interval ends below 0.95; above to 1.30,
  // only when it starts above 1.05.  Touching is not apart.
  auto base = adaptive_study();
  base.proportionality[0].observed = 1.0, base.proportionality[0].lo = 0.95, base.proportionality[0].hi = 1.05;
  auto moved = [&](double observed, double lo, double hi) {
    auto x = base;
    x.proportionality[0].observed = observed, x.proportionality[0].lo = lo, x.proportionality[0].hi = hi;
    return outcome(base, x, "tolerance proportionality").status;
  };
  CHECK(moved(0.70, 0.45, 0.96) == check::Outcome::pass);
  CHECK(moved(0.70, 0.45, 0.95) == check::Outcome::pass);
  CHECK(moved(0.70, 0.45, 0.94) == check::Outcome::fail);
  CHECK(moved(1.30, 1.04, 1.55) == check::Outcome::pass);
  CHECK(moved(1.30, 1.05, 1.55) == check::Outcome::pass);
  CHECK(moved(1.30, 1.06, 1.55) == check::Outcome::fail);
}

TEST_CASE("runs whose steps the output times set are left out of the slope's fit, not failed", "[engine][adaptive]") {
  // The harmonic oscillator over 5 time units with 64 output times (a step of at most 0.078): at tolerances from
  // 1e-3 down, Dormand-Prince's own steps would be longer, so most are cut to land on the output times and the error
  // (about 4e-9) no longer depends on the tolerance; a fit through those runs read slope 0 and failed.
  testing::TempDir dir("engine-adaptive-output");
  const auto spec = study::load_spec(dir.file("cut.toml", R"(
name = "cut"
problem = "harmonic"
t_end = 5.0
repeats = 1
adaptive = ["dopri5"]
tol = { max = 1e-3, min = 1e-8, per_decade = 1, outputs = "cut" }
)"));
  const auto res = study::run_studies({spec}, adaptive_options(2));
  const auto& p = res.at(0).proportionality.at(0);
  CHECK(p.output_limited >= 3);
  CHECK(p.verdict.verdict != "fail");
  CHECK_THAT(p.verdict.reason, Catch::Contains("cut to land on the output times"));
  long limited = 0;
  for (const auto& r : res.at(0).adaptive_runs) limited += 2 * r.cut > r.accepted;
  CHECK(static_cast<std::size_t>(limited) == p.output_limited);
  // results.json says how many, and the report reads it back.
  const auto doc = study::to_json(res, study::Meta{});
  CHECK(doc["studies"][0]["adaptive"]["proportionality"][0]["output_limited"] == p.output_limited);
  study::write_results(dir.path / "out", res, study::Meta{});
  CHECK(report::load(dir.path / "out").studies.at(0).proportionality.at(0).output_limited == static_cast<long>(p.output_limited));
  // Free steps (the default): the controller chooses every step, none is left out, and the loose tolerances measure it:
  // slope 1 for Dormand-Prince, none left out.
  const auto free_spec = study::load_spec(dir.file("free.toml", R"(
name = "free"
problem = "harmonic"
t_end = 5.0
repeats = 1
adaptive = ["dopri5"]
tol = { max = 1e-3, min = 1e-8, per_decade = 1 }
)"));
  const auto free = study::run_studies({free_spec}, adaptive_options(2));
  const auto& f = free.at(0).proportionality.at(0);
  CHECK(f.output_limited == 0);
  for (const auto& r : free.at(0).adaptive_runs) CHECK(r.cut <= 1);
  INFO(f.verdict.reason);
  CHECK(f.verdict.verdict == "pass");
  CHECK(f.fit.points == 5);  // the window: four decades up from the tightest, 1e-8 .. 1e-4
}

TEST_CASE("adaptive runs are cached like fixed-step ones: a re-run gives the same bytes and is timed again, and another tolerance "
          "or controller parameter or pair has its own entry", "[engine][adaptive][cache]") {
  testing::TempDir dir("adaptive-cache");
  const auto spec = study::load_spec(dir.file("a.toml", adaptive_spec));
  auto cached = adaptive_options(2);
  cached.cache_dir = dir.path / "cache", cached.use_cache = true;
  const auto fresh = study::run_studies({spec}, adaptive_options(2));
  const auto cold = study::run_studies({spec}, cached);
  const std::filesystem::path runs = dir.path / "cache" / "runs";
  std::size_t stored = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(runs)) ++stored;
  CHECK(stored == 18);  // 3 pairs at 6 tolerances (1e-4 .. 1e-9, one a decade)
  const auto warm = study::run_studies({spec}, cached);
  CHECK(testing::without_timings(cold) == testing::without_timings(fresh));
  CHECK(testing::without_timings(warm) == testing::without_timings(fresh));
  for (std::size_t i = 0; i < warm[0].adaptive_runs.size(); ++i) {
    INFO(warm[0].adaptive_runs[i].integrator << " tol " << warm[0].adaptive_runs[i].tol);
    CHECK(!cold[0].adaptive_runs[i].reused);
    CHECK(warm[0].adaptive_runs[i].reused);
    CHECK(warm[0].adaptive_runs[i].seconds_min > 0);  // measured again, not stored
    CHECK(warm[0].adaptive_runs[i].sample_error == fresh[0].adaptive_runs[i].sample_error);  // the samples too (not in results.json)
    CHECK(warm[0].adaptive_runs[i].sample_energy == fresh[0].adaptive_runs[i].sample_energy);
    CHECK(warm[0].adaptive_runs[i].sample_energy.size() == 9);
  }
  // The key holds what decides the run: the tolerance, the controller's parameters, the pair; not the repeats.
  const study::SpecAdaptive& pi = spec.adaptive[1];
  const study::engine::Context ctx{};
  const std::string key = study::engine::adaptive_key(pi, 1e-6, spec, ctx);
  CHECK(key == study::engine::adaptive_key(pi, 1e-6, spec, ctx));
  CHECK(key != study::engine::adaptive_key(pi, 1e-6 * (1 + 1e-15), spec, ctx));
  study::SpecAdaptive tuned = pi;
  tuned.params["beta"] = 0.09;
  CHECK(key != study::engine::adaptive_key(tuned, 1e-6, spec, ctx));
  CHECK(key != study::engine::adaptive_key(spec.adaptive[0], 1e-6, spec, ctx));
  study::SpecAdaptive lower = pi;  // a table may declare a lower order than its coefficients give: other exponents
  lower.order_hat -= 1;
  CHECK(key != study::engine::adaptive_key(lower, 1e-6, spec, ctx));
  study::Spec more = spec;
  more.repeats = 5;
  CHECK(key == study::engine::adaptive_key(pi, 1e-6, more, ctx));
  more.samples = 9;
  CHECK(key != study::engine::adaptive_key(pi, 1e-6, more, ctx));
}

TEST_CASE("a pair's long energy run (energy_tol) takes Odeint's steps, samples its energy where Odeint's states are, and "
          "drifts where the fixed-step symplectic run stays bounded", "[engine][adaptive]") {
  testing::TempDir dir("adaptive-long");
  const auto spec = study::load_spec(dir.file("long.toml", R"(
name = "long"
problem = "harmonic"
t_end = 10.0
samples = 8
repeats = 1
integrators = ["velocity-verlet"]
dt = [0.1, 0.05, 0.025]
adaptive = ["dopri5", "odeint-dopri5"]
tol = { max = 1e-4, min = 1e-6, per_decade = 1 }
energy_t_end = 2000.0
energy_dt = 0.1
energy_tol = 1e-5
)"));
  const auto all = study::run_studies({spec}, adaptive_options(2));
  const auto& res = all.at(0);
  REQUIRE(res.energy_long.size() == 3);
  const auto &verlet = res.energy_long[0], &ours = res.energy_long[1], &peer = res.energy_long[2];
  CHECK(verlet.integrator == "velocity-verlet");
  CHECK(verlet.tol == 0);
  CHECK(ours.integrator == "dopri5 (adaptive)");
  CHECK(peer.integrator == "odeint-dopri5");
  CHECK(ours.tol == 1e-5);
  CHECK(ours.status == "ok");
  // 121 samples at 0.2 .. 2000, log-uniform over four decades (t = 2000 10^(-4 (120 - i) / 120)), the last t_end.
  REQUIRE(ours.t.size() == 121);
  for (std::size_t i = 0; i < 120; ++i) CHECK(ours.t[i] == Approx(2000 * std::pow(10.0, -4.0 * (120.0 - i) / 120.0)).epsilon(1e-14));
  CHECK(ours.t.back() == 2000.0);
  // Odeint's controlled Dormand-Prince through its integrate_times over the same times: the same steps, so the same
  // samples and envelope to the bit.
  CHECK(peer.steps == ours.steps);
  CHECK(peer.t == ours.t);
  CHECK(peer.rel_error == ours.rel_error);
  CHECK(peer.envelope == ours.envelope);
  CHECK(peer.max_rel == ours.max_rel);
  CHECK(ours.dt == Approx(2000.0 / static_cast<double>(ours.steps)).epsilon(1e-12));  // the mean step
  // Each sample is the energy (q^2 + v^2) / 2 of Odeint's state at that time against the start's 1/2.
  const study::Harmonic<double> p(study::ParamValues{});
  std::vector<double> times{0};
  for (double t : ours.t) times.push_back(t);
  long evals = 0;
  const double dt0 = ode::starting_step(p.initial(), p, 4, 1e-5, 1e-5, times[1] - times[0], evals);
  const auto theirs = reference::odeint::run_controlled("dopri5", p, times, dt0, 1e-5, 1e-5, 0, false);
  REQUIRE(theirs.at_times.size() == times.size());
  CHECK(theirs.accepted == ours.steps);
  for (std::size_t k = 0; k < ours.t.size(); ++k) {
    const auto& s = theirs.at_times[k + 1];
    CHECK(ours.rel_error[k] == ((s.q[0] * s.q[0] + s.v[0] * s.v[0]) / 2 - 0.5) / 0.5);
    // The envelope: the largest error of every step so far, never below the sample's own, never falling.
    CHECK(ours.envelope[k] >= std::abs(ours.rel_error[k]));
    if (k > 0) CHECK(ours.envelope[k] >= ours.envelope[k - 1]);
  }
  CHECK(ours.max_rel == ours.envelope.back());
  // A Runge-Kutta method is not symplectic: on the harmonic oscillator each step scales the energy by |R(ih)|^2 != 1,
  // so at the nearly constant step the controller keeps, the error grows linearly in t (exponent 1): a drift. Velocity
  // Verlet's stays bounded (GNI, Hairer, Lubich & Wanner, I.1 and IX.8).
  CHECK(ours.growth_exponent == Approx(1.0).margin(0.1));
  CHECK(ours.growth_lo > 0.5);
  CHECK(verlet.growth_hi < 0.5);
  // Written, read back, judged by the one rule; the runs' samples at their output times, one copy with results.json.
  study::write_results(dir.path / "out", all, study::Meta{});
  const auto loaded = report::load(dir.path / "out");
  const report::Study& s = loaded.studies.at(0);
  REQUIRE(s.energy_long.size() == 3);
  CHECK(s.energy_long[1].tol == 1e-5);
  CHECK(report::long_run_behaviour(s.energy_long[1]) == report::LongBehaviour::drifting);
  CHECK(report::long_run_behaviour(s.energy_long[0]) == report::LongBehaviour::bounded);
  const auto samples = report::adaptive_samples(loaded, s);
  REQUIRE(samples.at("dopri5 (adaptive)").size() == 3);
  const auto& at5 = samples.at("dopri5 (adaptive)").at(1e-5);
  REQUIRE(at5.size() == 9);
  CHECK(at5.front().energy == 0);
  CHECK(at5.back().t == 10.0);
  // Hand edits refused, naming both copies: a sample's energy at t_end, a run results.json does not have, the file gone.
  const auto csv = dir.path / "out" / "long" / "adaptive_samples.csv";
  const std::string text = testing::read_file(csv);
  std::string edited = text;
  const auto last = edited.rfind(',', edited.size() - 2);
  edited.replace(last + 1, edited.size() - last - 2, "0.5");
  std::ofstream(csv, std::ios::trunc) << edited;
  CHECK_THROWS_WITH(report::adaptive_samples(loaded, s), Catch::Contains("adaptive_samples.csv: 'odeint-dopri5' at tol 1e-06") &&
                                                             Catch::Contains("energy error 0.5") && Catch::Contains("results.json's run has"));
  // A middle row deleted: the rows after it are not at their output times.
  std::string gap = text;
  const auto first_end = gap.find('\n', gap.find('\n') + 1), second_end = gap.find('\n', first_end + 1);
  gap.erase(first_end + 1, second_end - first_end);  // the second row: dopri5 at tol 1e-4, t = 1.25
  std::ofstream(csv, std::ios::trunc) << gap;
  CHECK_THROWS_WITH(report::adaptive_samples(loaded, s), Catch::Contains("'dopri5 (adaptive)' at tol 0.0001: its sample 2 is at t = 2.5, but its output times are t_end j / 8") &&
                                                             Catch::Contains("rows missing, moved or added"));
  std::ofstream(csv, std::ios::trunc) << text << "dopri5 (adaptive),3e-05,10,1e-5,1e-6\n";
  CHECK_THROWS_WITH(report::adaptive_samples(loaded, s), Catch::Contains("a sample of 'dopri5 (adaptive)' at tol 3e-05, an adaptive run results.json does not have"));
  std::filesystem::remove(csv);
  CHECK_THROWS_WITH(report::load(dir.path / "out"), Catch::Contains("adaptive_samples.csv: missing, but results.json has 6 adaptive runs (their samples)"));
}

TEST_CASE("a pair's long-run envelope is the largest energy error of every accepted step, not of its samples", "[engine][adaptive]") {
  // Kepler e = 0.6: the energy error peaks at each pericentre passage and falls back, so the envelope of every step
  // lies above the samples' own errors where a sample falls between passages.
  testing::TempDir dir("adaptive-envelope");
  const auto spec = study::load_spec(dir.file("kepler.toml", R"(
name = "envelope"
problem = "kepler"
params = { e = 0.6 }
t_end = 6.283185307179586
samples = 8
repeats = 1
adaptive = ["dopri5"]
tol = { max = 1e-4, min = 1e-6, per_decade = 1 }
energy_t_end = 300.0
energy_tol = 1e-4
)"));
  const auto res = study::run_studies({spec}, adaptive_options(1)).at(0);
  REQUIRE(res.energy_long.size() == 1);
  const auto& e = res.energy_long[0];
  REQUIRE(e.t.size() == 121);
  // Odeint's controlled Dormand-Prince through the same times: every accepted step's energy, its running largest.
  const study::Kepler<double> p(spec.params);
  std::vector<double> times{0};
  for (double t : e.t) times.push_back(t);
  long evals = 0;
  const double dt0 = ode::starting_step(p.initial(), p, 4, 1e-4, 1e-4, times[1] - times[0], evals);
  const double e0 = p.energy(p.initial());
  std::vector<std::pair<double, double>> steps;  // (t, |relative energy error|) of every accepted step
  reference::odeint::ControlledLimits limits{0, {}, [&](const double* x, double t) {
                                               study::Kepler<double>::State s;
                                               for (std::size_t i = 0; i < 2; ++i) s.q[i] = x[i], s.v[i] = x[2 + i];
                                               steps.emplace_back(t, std::abs((p.energy(s) - e0) / std::abs(e0)));
                                             }};
  reference::odeint::run_controlled("dopri5", p, times, dt0, 1e-4, 1e-4, 0, false, limits);
  REQUIRE(static_cast<long>(steps.size()) == e.steps);
  std::size_t above = 0;
  for (std::size_t k = 0; k < e.t.size(); ++k) {
    double peak = 0;
    for (const auto& [t, err] : steps)
      if (t <= e.t[k] * (1 + 1e-15)) peak = std::max(peak, err);
    CHECK(e.envelope[k] == peak);
    above += peak > std::abs(e.rel_error[k]);
  }
  CHECK(above > 10);  // the case is one where the two differ
  // Out of steps before energy_t_end: a result with its cause, the limit and the key that names it.
  study::Spec short_of = spec;
  short_of.adaptive_max_steps = 500;
  const auto stopped = study::run_studies({short_of}, adaptive_options(1)).at(0).energy_long.at(0);
  CHECK(stopped.status == "step-limit");
  CHECK_THAT(stopped.reason, Catch::StartsWith("500 tries (tol.max_steps: steps accepted or rejected) before energy_t_end = 300, at t = ") &&
                                 Catch::EndsWith(": raise tol.max_steps, or a larger energy_tol"));
  CHECK(stopped.diverged_t > 0);
  CHECK(stopped.diverged_t < 300);
  CHECK(stopped.steps < 500);
  CHECK(stopped.t.back() <= stopped.diverged_t);
}
