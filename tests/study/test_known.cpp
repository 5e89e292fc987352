// Numbers the engine computes, each against a value worked out apart from the code: the run cache's keys (two
// runs that differ in one field never share an entry; the executable named by its build ID read from the file),
// a cached run read back field by field, the defaults a spec gets when a key is absent (docs/specs.md), the
// stability limits of methods and their substeps (closed forms), the automatic sweep's stopping rules (runs
// whose errors are set by hand), the reference times and scales of a study's context.
#include <catch2/catch.hpp>

#include "tests/support.hpp"

#include <elf.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "study/measure/measure.hpp"
#include "study/measure/parallel.hpp"
#include "study/measure/runners.hpp"
#include "study/measure/stability_search.hpp"
#include "study/measure/stability_theory.hpp"
#include "study/plan/context.hpp"
#include "study/results/orders.hpp"
#include "study/spec/spec.hpp"

namespace {

struct KeyCase {
  const char* field;
  std::function<void(study::Spec&, long&, study::engine::Context&, std::string&, std::string&)> change;
};

}  // namespace

TEST_CASE("a run's cache key changes with every field that decides the run's bits, and only then", "[known]") {
  study::Spec base;
  base.problem = "kepler";
  base.t_end = 5;
  base.samples = 64;
  base.local_points = 8;
  base.metrics = {"global", "local"};
  study::engine::Context base_ctx;
  base_ctx.exact_params = {{"e", "0.6"}};
  base_ctx.ref_digest = "0123456789abcdef";
  const long base_n = 100;
  auto key = [](const study::Spec& s, long n, const study::engine::Context& c, const std::string& type,
                const std::string& label, bool shadow) {
    const study::engine::Grid grid{s, n};
    return shadow ? study::engine::shadow_key(type, label, grid, c) : study::engine::run_key(type, label, grid, c);
  };
  const std::string run0 = key(base, base_n, base_ctx, "rk4-type", "rk4", false);
  const std::string shadow0 = key(base, base_n, base_ctx, "rk4-type", "rk4", true);
  REQUIRE_FALSE(run0.empty());  // the test executable has a GNU build ID (Debian's linker default)
  REQUIRE_FALSE(shadow0.empty());
  // Deterministic: the same inputs give the same key.
  CHECK(key(base, base_n, base_ctx, "rk4-type", "rk4", false) == run0);
  CHECK(run0 != shadow0);

  // Each field changed alone; `shadow` says whether the round-off shadow (the run's end state in long double)
  // depends on it too: samples, metrics and the reference do not change where a run ends.
  const std::vector<std::pair<KeyCase, bool>> cases{
      {{"method type", [](auto&, auto&, auto&, auto& type, auto&) { type = "rk4-other"; }}, true},
      {{"label", [](auto&, auto&, auto&, auto&, auto& label) { label = "rk4 x2"; }}, true},
      {{"problem", [](auto& s, auto&, auto&, auto&, auto&) { s.problem = "two-body"; }}, true},
      {{"parameter value", [](auto&, auto&, auto& c, auto&, auto&) { c.exact_params["e"] = "0.61"; }}, true},
      {{"parameter name", [](auto&, auto&, auto& c, auto&, auto&) { c.exact_params = {{"f", "0.6"}}; }}, true},
      {{"second parameter", [](auto&, auto&, auto& c, auto&, auto&) { c.exact_params["mu"] = "1"; }}, true},
      {{"t_end by one ulp", [](auto& s, auto&, auto&, auto&, auto&) { s.t_end = std::nextafter(5.0, 6.0); }}, true},
      {{"steps", [](auto&, auto& n, auto&, auto&, auto&) { n = 101; }}, true},
      {{"step pattern", [](auto& s, auto&, auto&, auto&, auto&) { s.dt_pattern = "alternating"; }}, true},
      {{"pattern amplitude", [](auto& s, auto&, auto&, auto&, auto&) { s.dt_amplitude = 0.25; }}, true},
      {{"samples", [](auto& s, auto&, auto&, auto&, auto&) { s.samples = 65; }}, false},
      {{"local points", [](auto& s, auto&, auto&, auto&, auto&) { s.local_points = 9; }}, false},
      {{"a metric added", [](auto& s, auto&, auto&, auto&, auto&) { s.metrics.insert("energy"); }}, false},
      {{"a metric swapped", [](auto& s, auto&, auto&, auto&, auto&) { s.metrics = {"global", "energy"}; }}, false},
      {{"reference digest", [](auto&, auto&, auto& c, auto&, auto&) { c.ref_digest = "0123456789abcdee"; }}, false},
  };
  for (const auto& [c, shadow_too] : cases) {
    study::Spec s = base;
    long n = base_n;
    study::engine::Context ctx = base_ctx;
    std::string type = "rk4-type", label = "rk4";
    c.change(s, n, ctx, type, label);
    INFO("changed: " << c.field);
    CHECK(key(s, n, ctx, type, label, false) != run0);
    if (shadow_too) CHECK(key(s, n, ctx, type, label, true) != shadow0);
    else CHECK(key(s, n, ctx, type, label, true) == shadow0);
  }
}

TEST_CASE("a cached run reads back with every field to the same bits, non-finite numbers included", "[known]") {
  testing::TempDir dir("known-run-cache");
  study::Run r;
  r.integrator = "rk4 x2", r.id = "rk4", r.substeps = 2, r.dt = 0.1 / 3, r.steps = 150, r.status = "diverged";
  r.diverged_step = 77, r.diverged_t = 2.5666666666666664, r.reason = "non-finite state";
  r.global = 1.0 / 7, r.position = 2.0 / 7, r.max = std::numeric_limits<double>::infinity();
  r.local = 3e-300, r.local_position = 4.9406564584124654e-324, r.roundoff = 1e-16, r.reversal = -0.0;
  r.energy_max_rel = 5.5, r.energy_final_rel = -6.25, r.energy_drift_per_time = -std::numeric_limits<double>::infinity();
  r.energy_class = "drifting", r.energy_roundoff = 7e-17, r.angular_momentum_max_rel = 8.125;
  r.final_q = {1.5, std::nan("")}, r.final_v = {-2.5, 0.1};
  r.force_evals = 1234567890123ULL, r.jacobian_evals = 42, r.iterations = 99;
  r.sample_t = {0, 0.5, 1}, r.sample_error = {0, 1e-9, 2e-9}, r.sample_energy = {0, -1e-12, 3e-12};
  r.sample_q = {{1, 2}, {3, 4}, {5, 6}}, r.sample_v = {{-1, -2}, {-3, -4}, {-5, -6}};
  study::engine::store_run(dir.path, "a key", r);
  const auto back = study::engine::load_run(dir.path, "a key");
  REQUIRE(back);
  CHECK_FALSE(study::engine::load_run(dir.path, "another key"));
  const auto same = [](double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
  };
  const auto same_all = [&](const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same(a[i], b[i])) return false;
    return true;
  };
  CHECK(back->integrator == r.integrator);
  CHECK(back->id == r.id);
  CHECK(back->substeps == 2);
  CHECK(same(back->dt, r.dt));
  CHECK(back->steps == 150);
  CHECK(back->status == "diverged");
  CHECK(back->diverged_step == 77);
  CHECK(same(back->diverged_t, r.diverged_t));
  CHECK(back->reason == r.reason);
  CHECK(same(back->global, r.global));
  CHECK(same(back->position, r.position));
  CHECK(same(back->max, r.max));
  CHECK(same(back->local, r.local));
  CHECK(same(back->local_position, r.local_position));
  CHECK(same(back->roundoff, r.roundoff));
  CHECK(same(back->reversal, r.reversal));
  CHECK(same(back->energy_max_rel, r.energy_max_rel));
  CHECK(same(back->energy_final_rel, r.energy_final_rel));
  CHECK(same(back->energy_drift_per_time, r.energy_drift_per_time));
  CHECK(back->energy_class == "drifting");
  CHECK(same(back->energy_roundoff, r.energy_roundoff));
  CHECK(same(back->angular_momentum_max_rel, r.angular_momentum_max_rel));
  CHECK(same_all(back->final_q, r.final_q));
  CHECK(same_all(back->final_v, r.final_v));
  CHECK(back->force_evals == r.force_evals);
  CHECK(back->jacobian_evals == 42);
  CHECK(back->iterations == 99);
  CHECK(same_all(back->sample_t, r.sample_t));
  CHECK(same_all(back->sample_error, r.sample_error));
  CHECK(same_all(back->sample_energy, r.sample_energy));
  REQUIRE(back->sample_q.size() == 3);
  REQUIRE(back->sample_v.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(same_all(back->sample_q[i], r.sample_q[i]));
    CHECK(same_all(back->sample_v[i], r.sample_v[i]));
  }
}

TEST_CASE("a cached round-off shadow reads back to the same long double bits", "[known]") {
  testing::TempDir dir("known-shadow-cache");
  study::engine::Shadow s;
  s.end.emplace(std::vector<long double>{1.0L / 3, -0.0L}, std::vector<long double>{2.0L / 7, 1e-4000L});
  study::engine::store_shadow(dir.path, "k", s);
  const auto back = study::engine::load_shadow(dir.path, "k");
  REQUIRE(back);
  REQUIRE(back->end);
  CHECK(back->end->first == s.end->first);
  CHECK(std::signbit(back->end->first[1]));
  CHECK(back->end->second == s.end->second);
  study::engine::store_shadow(dir.path, "failed", study::engine::Shadow{});
  const auto none = study::engine::load_shadow(dir.path, "failed");
  REQUIRE(none);
  CHECK_FALSE(none->end);
}

TEST_CASE("a spec without the optional keys gets the documented defaults (docs/specs.md)", "[known]") {
  testing::TempDir dir("known-defaults");
  const auto spec = study::load_spec(dir.file("d.toml", R"(
name = "d"
problem = "harmonic"
t_end = 2.0
integrators = ["rk4"]
dt = [0.1, 0.05, 0.025]
)"));
  CHECK(spec.title == "d");  // the name
  CHECK(spec.metrics == std::set<std::string>{"global", "local", "energy", "walltime"});
  CHECK(spec.repeats == 3);
  CHECK(spec.reference_tol == 1e-28);
  CHECK(spec.samples == 64);
  CHECK(spec.local_points == 8);
  CHECK(spec.dt_pattern == "");
  CHECK(spec.dt_amplitude == 0);
  CHECK_FALSE(spec.energy_t_end);
  CHECK_FALSE(spec.auto_dt);
  REQUIRE(spec.steps == std::vector<long>{20, 40, 80});
  // plot_dt: mid-sweep, the second of three.
  CHECK(spec.plot_dt == 0.05);
  REQUIRE(spec.integrators.size() == 1);
  // RK4's own orders: global 4, local 5; four evaluations a step.
  CHECK(spec.integrators[0].expected_global == 4);
  CHECK(spec.integrators[0].expected_local == 5);
  CHECK(spec.integrators[0].evals_per_step == 4);
  CHECK(spec.integrators[0].choice.substeps == 1);

  const auto with_energy = study::load_spec(dir.file("e.toml", R"(
name = "e"
problem = "harmonic"
t_end = 2.0
integrators = ["rk4", { id = "rk4", substeps = 3 }]
dt = [0.1, 0.05]
energy_t_end = 40.0
)"));
  // energy_dt: the largest dt of the sweep.
  CHECK(with_energy.energy_dt == 0.1);
  REQUIRE(with_energy.integrators.size() == 2);
  CHECK(with_energy.integrators[1].evals_per_step == 12);  // 4 evaluations x 3 substeps

  const auto automatic = study::load_spec(dir.file("a.toml", R"(
name = "a"
problem = "harmonic"
t_end = 2.0
integrators = ["rk4"]
dt = "auto"
)"));
  REQUIRE(automatic.auto_dt);
  CHECK(automatic.auto_dt->runs == 16);
  CHECK(automatic.auto_dt->seconds == 0);
  // docs/specs.md, "Automatic sweeps": a ladder t_end / (N0 2^k), N0 a power of two (at least 4) whose first step
  // lies in (T/16, T/8] (T = 2 pi for the unit oscillator: (0.3927, 0.7854]), halving down to 2^24 steps.  By hand:
  // t_end = 2 needs N0 >= 2 / 0.7854 = 2.55, so N0 = 4 (the floor), dt 0.5; levels 2^2 ... 2^24: 23 of them.
  REQUIRE(automatic.steps.size() == 23);
  CHECK(automatic.steps.front() == 4);
  for (std::size_t i = 1; i < automatic.steps.size(); ++i) CHECK(automatic.steps[i] == 2 * automatic.steps[i - 1]);
  CHECK(automatic.steps.back() == 1L << 24);
  CHECK(study::AutoSweep::max_steps == 1L << 24);
  // t_end = 100: N0 >= 100 / 0.7854 = 127.3, so 128 (dt 0.78125, inside (0.3927, 0.7854]); 2^7 ... 2^24: 18 levels.
  const auto longer = study::load_spec(dir.file("b.toml", R"(
name = "b"
problem = "harmonic"
t_end = 100.0
integrators = ["rk4"]
dt = { auto = true, runs = 5, seconds = 2.5 }
)"));
  REQUIRE(longer.auto_dt);
  CHECK(longer.auto_dt->runs == 5);
  CHECK(longer.auto_dt->seconds == 2.5);
  REQUIRE(longer.steps.size() == 18);
  CHECK(longer.steps.front() == 128);
  // A range: dt = 0.1 10^(-i/2) down to 0.01, each rounded to t_end / N: N = 20, round(63.25) = 63, 200.
  const auto range = study::load_spec(dir.file("r.toml", R"(
name = "r"
problem = "harmonic"
t_end = 2.0
integrators = ["rk4"]
dt = { max = 0.1, min = 0.01, per_decade = 2 }
)"));
  CHECK(range.steps == std::vector<long>{20, 63, 200});
  CHECK(range.plot_dt == 2.0 / 63);
  // plot_dt under auto: the ladder's third step.
  CHECK(automatic.plot_dt == 2.0 / 16);
}

// ---- stability theory (study/measure/stability_theory.hpp)


namespace {

using Tableau = std::pair<std::vector<std::vector<long double>>, std::vector<long double>>;

Tableau rk4_tableau() {
  return {{{0, 0, 0, 0}, {0.5L, 0, 0, 0}, {0, 0.5L, 0, 0}, {0, 0, 1, 0}}, {1 / 6.0L, 1 / 3.0L, 1 / 3.0L, 1 / 6.0L}};
}

/// The trace of k velocity-Verlet steps of tau_i h on x'' = -x, from the closed form of one step's matrix
/// [[1 - t^2/2, t], [-t (1 - t^2/4), 1 - t^2/2]] (Hairer, Lubich, Wanner, GNI §I.5): another route than the
/// drift and kick products the code multiplies.
double verlet_composition_limit(const std::vector<double>& taus) {
  auto trace = [&](double h) {
    double m00 = 1, m01 = 0, m10 = 0, m11 = 1;
    for (double tau : taus) {
      const double t = tau * h, c = 1 - t * t / 2, s = t, r = -t * (1 - t * t / 4);
      const double a00 = c * m00 + s * m10, a01 = c * m01 + s * m11, a10 = r * m00 + c * m10, a11 = r * m01 + c * m11;
      m00 = a00, m01 = a01, m10 = a10, m11 = a11;
    }
    return m00 + m11;
  };
  double lo = 0, hi = 0;
  for (int i = 1; i <= 100000 && hi == 0; ++i) (std::abs(trace(1e-4 * i)) <= 2 ? lo : hi) = 1e-4 * i;
  while (hi - lo > 1e-14) {
    const double mid = (lo + hi) / 2;
    (std::abs(trace(mid)) <= 2 ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

TEST_CASE("stability limits on the imaginary axis match their closed forms (Hairer & Wanner, GNI)", "[known]") {
  using study::runge_kutta_limit;
  const auto [a4, b4] = rk4_tableau();
  // RK4: |R(iy)|^2 = 1 - y^6/72 + y^8/576 <= 1 up to y = 2 sqrt 2 (Hairer & Wanner II, §IV.2).
  CHECK(runge_kutta_limit(a4, b4) == Approx(2 * std::sqrt(2.0)).epsilon(1e-12));
  const long double y = 1.3L;
  const long double r4 = std::sqrt(1 - std::pow(y, 6) / 72 + std::pow(y, 8) / 576);
  CHECK(static_cast<double>(study::runge_kutta_amplification(a4, b4, y)) == Approx(static_cast<double>(r4)).epsilon(1e-15));
  // Kutta's third-order method: |R(iy)|^2 = 1 - y^4/12 + y^6/36, stable up to y = sqrt 3.
  // The search allows |R| up to 1 + 1e-12 (Gauss methods' round-off), which moves the limit by 1e-12 / (d|R|/dy):
  // 2.3e-12 here (d|R|/dy = 0.43 at sqrt 3), 4e-13 for RK4 (2.5 at 2 sqrt 2).
  CHECK(runge_kutta_limit({{0, 0, 0}, {0.5L, 0, 0}, {-1, 2, 0}}, {1 / 6.0L, 2 / 3.0L, 1 / 6.0L}) ==
        Approx(std::sqrt(3.0)).epsilon(3e-12));
  // Euler, Heun: |R(iy)| > 1 for every y > 0.
  CHECK(runge_kutta_limit({{0}}, {1}) == 0);
  CHECK(runge_kutta_limit({{0, 0}, {1, 0}}, {0.5L, 0.5L}) == 0);
  // Implicit midpoint: |R(iy)| = |(1 + iy/2) / (1 - iy/2)| = 1, A-stable.
  CHECK(std::isinf(runge_kutta_limit({{0.5L}}, {1})));
  CHECK(static_cast<double>(study::runge_kutta_amplification({{0.5L}}, {1}, 7)) == Approx(1).epsilon(1e-15));
  // Backward Euler: |R(iy)| = 1 / |1 - iy| = 1 / sqrt(1 + y^2).
  CHECK(static_cast<double>(study::runge_kutta_amplification({{1}}, {1}, 2)) == Approx(1 / std::sqrt(5.0)).epsilon(1e-15));

  // Splittings: Verlet (drift 1/2, kick 1, drift 1/2) and symplectic Euler (kick, drift): trace 2 - (omega h)^2.
  CHECK(study::splitting_limit({{false, 0.5L}, {true, 1}, {false, 0.5L}}) == Approx(2).epsilon(1e-12));
  CHECK(study::splitting_limit({{true, 1}, {false, 1}}) == Approx(2).epsilon(1e-12));
  // Two Verlet steps of h/2 in one: the limit doubles.
  CHECK(study::splitting_limit({{false, 0.25L}, {true, 0.5L}, {false, 0.5L}, {true, 0.5L}, {false, 0.25L}}) ==
        Approx(4).epsilon(1e-12));
  // The triple jump (Yoshida 4) from its table, against the product of three Verlet steps' closed-form matrices.
  const double w1 = 1 / (2 - std::cbrt(2.0)), w0 = -std::cbrt(2.0) / (2 - std::cbrt(2.0));
  const double yoshida = verlet_composition_limit({w1, w0, w1});
  CHECK(yoshida > 1.0);
  CHECK(yoshida < 2.0);
  CHECK(study::composition_limit<ode::Yoshida4>() == Approx(yoshida).epsilon(1e-9));
  CHECK(study::stability_theory(ode::Yoshida4{}).limit == Approx(yoshida).epsilon(1e-9));
}

TEST_CASE("the stability limit of k substeps of h/k is k times the method's", "[known]") {
  CHECK(study::stability_theory(ode::Rk4{}).limit == Approx(2 * std::sqrt(2.0)).epsilon(1e-15));
  for (int k : {1, 2, 3, 7}) {
    INFO("k = " << k);
    const auto rk4 = study::stability_theory(ode::Substeps<ode::Rk4>{ode::Rk4{}, k});
    CHECK(rk4.limit == Approx(k * 2 * std::sqrt(2.0)).epsilon(1e-15));
    CHECK((rk4.basis.find(std::to_string(k) + " substeps") != std::string::npos) == (k > 1));
    const auto verlet = study::stability_theory(ode::Substeps<ode::VelocityVerlet>{ode::VelocityVerlet{}, k});
    CHECK(verlet.limit == Approx(2.0 * k).epsilon(1e-15));
  }
  CHECK(study::stability_theory(ode::Substeps<ode::Euler>{ode::Euler{}, 4}).limit == 0);
  CHECK(std::isinf(study::stability_theory(ode::Substeps<ode::ImplicitMidpoint>{ode::ImplicitMidpoint{}, 4}).limit));
}

namespace {

/// Symplectic Euler (stable up to omega h = 2) whose "Newton iteration" gives up from h = `gives_up` on: the stability
/// search must stop there and say why, not call the method unstable.
struct GivesUp {
  double gives_up = 1.5;
  constexpr ode::Info info() const { return {.id = "gives-up", .summary = "test", .order = 1, .evals_per_step = 1}; }
  template <class P>
  void step(typename P::State& s, typename P::real_type h, const P& p) const {
    if (h >= gives_up) throw ode::ConvergenceError("gives up");
    ode::SymplecticEuler::step(s, h, p);
  }
};

}  // namespace

TEST_CASE("the stability search: where the iteration stops converging, the limit is there and the note says why", "[known]") {
  const std::string newton = "the Newton iteration of the stage equations stops converging here; the method itself may be stable beyond";
  study::IntegratorChoice choice;
  choice.id = "gives-up";
  // Scanned in steps of 0.01: stable at 1.49, gives up at 1.50; bisected to 1e-9 below 1.5.
  const auto st = study::engine::stability(GivesUp{1.5}, choice);
  CHECK(st.limit == Approx(1.5).margin(1e-8));
  CHECK(st.limit < 1.5);
  CHECK_FALSE(st.beyond_search);
  CHECK(st.note == newton);
  // Giving up at the first step tried (0.01): limit 0, and the reason is the iteration, not |lambda| > 1.
  const auto first = study::engine::stability(GivesUp{0.005}, choice);
  CHECK(first.limit == 0);
  CHECK(first.note == newton);
  // Symplectic Euler itself (trace 2 - (omega h)^2): stable up to 2 exactly, with no note.
  const auto plain = study::engine::stability(GivesUp{100}, choice);
  CHECK(plain.limit == Approx(2).margin(1e-8));
  CHECK(plain.note.empty());
  CHECK(std::isnan(plain.theory));  // no theory for an id it does not know
}

TEST_CASE("the thread pool: after a task throws, or once stop() is true, no new task starts", "[known]") {
  std::atomic<int> ran{0};
  auto quiet = [](std::size_t, std::size_t) {};
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> order(1000);
  std::iota(order.begin(), order.end(), std::size_t{0});
  const std::vector<std::size_t> free(1000, none);  // no item waits for another
  // One thread takes the tasks in order: task 3 throws, so tasks 0 to 3 ran, and its exception reaches the caller.
  CHECK_THROWS_WITH(study::parallel_for_after(
                        order, free, 1,
                        [&](std::size_t i) {
                          ++ran;
                          if (i == 3) throw std::runtime_error("task 3 failed");
                        },
                        quiet, [] { return false; }),
                    "task 3 failed");
  CHECK(ran == 4);
  // A stop flag that turns true after the fifth task: five ran.
  ran = 0;
  study::parallel_for_after(order, free, 1, [&](std::size_t) { ++ran; }, quiet, [&] { return ran.load() >= 5; });
  CHECK(ran == 5);
  // Otherwise every task once, on any number of threads.
  std::vector<std::atomic<int>> once(order.size());
  study::parallel_for_after(order, free, 2, [&](std::size_t i) { ++once[i]; }, quiet, [] { return false; });
  CHECK(std::all_of(once.begin(), once.end(), [](const auto& x) { return x.load() == 1; }));
}

// ---- the automatic sweep's stopping rules (study/measure/sweep.cpp), on runs whose errors are set by hand


namespace {

/// An automatic sweep of one integrator (declared order 2) over the ladder 4, 8, ..., 2^k steps of t_end = 2, run
/// with a fake runner whose errors are `error(dt)` and whose round-off is `roundoff(error)`.
struct FakeSweep {
  study::Spec spec;
  study::StudyResult res;
  std::function<double(double)> error;
  std::function<double(double)> roundoff = [](double) { return 1e-17; };
  std::chrono::milliseconds pause{0};

  explicit FakeSweep(int runs, int levels = 23) {
    spec.problem = "harmonic", spec.t_end = 2, spec.metrics = {"global"};
    for (long n = 4, i = 0; i < levels; ++i, n *= 2) spec.steps.push_back(n);
    spec.auto_dt = study::AutoSweep{};
    spec.auto_dt->runs = runs;
    spec.auto_dt->between = study::between_halvings(spec.steps);
    study::SpecIntegrator si;
    si.choice.id = "fake";
    si.expected_global = 2, si.expected_local = 3;
    spec.integrators.push_back(si);
  }

  /// The sweep's step sizes (as numbers of steps) and why it stopped.
  std::pair<std::vector<long>, std::string> run() {
    res = {};
    res.spec = spec;
    res.runs.resize(spec.steps.size() + spec.auto_dt->between.size());
    res.sweeps.resize(1);
    const study::engine::Task t{study::TaskKind::run, 0, 0, 0, 0, true, 0};
    const study::TaskRunner fake = [&](study::TaskKind, const study::Spec& s, const study::SpecIntegrator& si, long n,
                                       const study::engine::Context&, study::StudyResult& r, std::size_t slot) {
      std::this_thread::sleep_for(pause);
      study::Run& run = r.runs[slot];
      run.integrator = si.choice.label(), run.id = si.choice.id, run.steps = n, run.dt = s.t_end / static_cast<double>(n);
      run.global = run.max = error(run.dt);
      run.roundoff = roundoff(run.global);
    };
    study::engine::auto_sweep(t, spec, study::engine::Context{}, res, fake);
    std::vector<long> ns;
    for (double dt : res.sweeps[0].dts) ns.push_back(std::lround(spec.t_end / dt));
    return {ns, res.sweeps[0].stop};
  }
};

}  // namespace

namespace {

/// A range with dt.past_floor = K over N = 4, 8, ..., 2048 steps of t_end = 2 (dt = 0.5 ... 2^-10), run with a fake
/// runner: its global error is `error(dt)`, its round-off 1e-6 whatever the step.
struct FloorSweep {
  study::Spec spec;
  study::StudyResult res;
  std::function<double(double)> error = [](double dt) { return 0.1 * dt * dt; };
  std::function<double(double)> largest;  ///< the largest error over the run (default: the global error)
  double end_roundoff = 1e-6;              ///< the round-off of the end state (Run::roundoff)
  double largest_roundoff = NAN;           ///< the largest over the samples (Run::roundoff_max; NaN: not measured)

  explicit FloorSweep(int past_floor) {
    spec.problem = "harmonic", spec.t_end = 2, spec.metrics = {"global"}, spec.past_floor = past_floor;
    for (long n = 4; n <= 2048; n *= 2) spec.steps.push_back(n);
    study::SpecIntegrator si;
    si.choice.id = "fake";
    si.expected_global = 2, si.expected_local = 3;
    spec.integrators.push_back(si);
  }

  /// The step counts run, largest dt first.
  std::vector<long> run() {
    res = {};
    res.spec = spec;
    res.runs.resize(spec.steps.size());
    res.sweeps.resize(1);
    const study::engine::Task t{study::TaskKind::run, 0, 0, 0, 0, false, 0, true};
    const study::TaskRunner fake = [&](study::TaskKind, const study::Spec& s, const study::SpecIntegrator& si, long n,
                                       const study::engine::Context&, study::StudyResult& r, std::size_t slot) {
      study::Run& run = r.runs[slot];
      run.integrator = si.choice.label(), run.id = si.choice.id, run.steps = n, run.dt = s.t_end / static_cast<double>(n);
      run.global = error(run.dt), run.max = largest ? largest(run.dt) : run.global;
      run.roundoff = end_roundoff;
      run.roundoff_max = largest_roundoff;
    };
    study::engine::sweep_to_floor(t, spec, study::engine::Context{}, res, fake);
    std::vector<long> ns;
    for (const auto& r : res.runs)
      if (r.steps > 0) ns.push_back(r.steps);
    return ns;
  }
};

}  // namespace

TEST_CASE("a range with dt.past_floor stops after that many step sizes in a row within 10 x the floor, not after one",
          "[known]") {
  // 0.1 dt^2 against a floor of 1e-6: 2.44e-5 at N = 128 (above 10 x the floor), 6.10e-6 at N = 256 and 1.53e-6 at
  // N = 512 (within it): the second in a row ends the sweep, and the two smaller step sizes are never run.
  FloorSweep f(2);
  CHECK(f.run() == std::vector<long>{4, 8, 16, 32, 64, 128, 256, 512});
  CHECK(f.res.sweeps[0].stop ==
        "the global error 1.53e-06 at dt 0.003906 is within 10 x its noise floor 1e-06 (the largest over the run too), at 2 "
        "step size(s) in a row "
        "(dt.past_floor = 2): the 2 smaller step size(s) of the range would measure round-off alone");
  CHECK(f.res.sweeps[0].cause == study::SweepStop::floor);
  CHECK(f.res.sweeps[0].dts == std::vector<double>{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625});
  // An error crossing zero at N = 64 (1e-7: within the floor) and back above it at N = 128 starts the count again.
  f.error = [](double dt) { return dt == 2.0 / 64 ? 1e-7 : 0.1 * dt * dt; };
  CHECK(f.run() == std::vector<long>{4, 8, 16, 32, 64, 128, 256, 512});
  // A global error that cancels at t_end from N = 64 on (1e-7) while the largest error over the run is 0.1 dt^2:
  // the largest error decides, as above.
  f.error = [](double dt) { return dt <= 2.0 / 64 ? 1e-7 : 0.1 * dt * dt; };
  f.largest = [](double dt) { return 0.1 * dt * dt; };
  CHECK(f.run() == std::vector<long>{4, 8, 16, 32, 64, 128, 256, 512});
  // Three in a row: N = 256, 512, 1024; one step size left out.
  FloorSweep three(3);
  CHECK(three.run() == std::vector<long>{4, 8, 16, 32, 64, 128, 256, 512, 1024});
  CHECK_THAT(three.res.sweeps[0].stop, Catch::EndsWith("the 1 smaller step size(s) of the range would measure round-off alone"));
  // Never that many in a row before the range ends: every step size, as without the key.
  FloorSweep many(5);
  CHECK(many.run().size() == 10);
  CHECK(many.res.sweeps[0].stop == "the spec's step sizes");
  CHECK(many.res.sweeps[0].cause == study::SweepStop::none);
  // Never before plot_dt, the step the report draws every method at: at N = 1024 here, the third in a row.
  FloorSweep plotted(2);
  plotted.spec.plot_dt = 2.0 / 1024;
  CHECK(plotted.run() == std::vector<long>{4, 8, 16, 32, 64, 128, 256, 512, 1024});
  CHECK_THAT(plotted.res.sweeps[0].stop, Catch::Contains("at 3 step size(s) in a row"));
  // 100 x the floor (the automatic sweep's stop) is not the rule: 2.44e-5 at N = 128 is within it, not within 10 x.
  FloorSweep near(1);
  CHECK(near.run() == std::vector<long>{4, 8, 16, 32, 64, 128, 256});
  // A decaying problem: the end state is 1e-4 of the largest, and so are its error (1e-5 dt^2) and round-off (1e-10);
  // the largest error over the run, 0.1 dt^2, has the round-off of the largest state, 1e-6 (the largest over the
  // samples).  Both are within 10 x their floors at N = 256 (6.1e-10 <= 1e-9, 6.1e-6 <= 1e-5) and 512: the sweep
  // stops there, as above.  Against the end state's round-off the largest error would reach 10 x 1e-10 only below
  // dt 1e-4: every step size of the range was run (the damped oscillator's 7th-order tables ran 11 levels past their
  // floor).
  FloorSweep decaying(2);
  decaying.error = [](double dt) { return 1e-5 * dt * dt; };
  decaying.largest = [](double dt) { return 0.1 * dt * dt; };
  decaying.end_roundoff = 1e-10, decaying.largest_roundoff = 1e-6;
  CHECK(decaying.run() == std::vector<long>{4, 8, 16, 32, 64, 128, 256, 512});
  // The floor of the largest error's fit is that round-off too: the largest of the end's and the samples'.
  const study::Run& r = decaying.res.runs[7];
  CHECK(study::engine::error_point(r, "max", 0).floor == 1e-6);
  CHECK(study::engine::error_point(r, "global", 0).floor == 1e-10);
  CHECK(study::engine::error_point(r, "max", 1e-3).floor == 1e-3);  // and the reference's bound, where it is larger
}

TEST_CASE("advice after a range that dt.past_floor stopped says nothing of dt = auto's step sizes", "[known]") {
  const study::OrderVerdict v{"undetermined", "the interval straddles the band", "add step sizes per decade in dt 0.002..0.01"};
  const study::OrderFit no_fit;
  const auto range = study::advise(v, no_fit, {}, {study::SweepStop::floor, 9, study::SweepStop::none, false});
  CHECK(range.action == v.action);
  const auto automatic = study::advise(v, no_fit, {}, {study::SweepStop::floor, 9, study::SweepStop::none, true});
  CHECK(automatic.action == v.action + " (dt = \"auto\" takes at most two step sizes per halving: give dt as a range with a "
                                       "larger per_decade there)");
}

TEST_CASE("an automatic sweep stops once every order is decided over 4 points, not before", "[known]") {
  FakeSweep f(12);
  f.error = [](double dt) { return 0.1 * dt * dt; };  // exactly second order: decided (pass) as soon as it may be
  const auto [ns, stop] = f.run();
  CHECK(ns == std::vector<long>{4, 8, 16, 32});
  CHECK_THAT(stop, Catch::StartsWith("every order is decided (global pass over dt 0.0625..0.5, max pass over dt 0.0625..0.5)"));
  CHECK(f.res.sweeps[0].cause == study::SweepStop::decided);
  // A first-order error judged against order 2: decided too (fail), over the same 4 runs.
  f.error = [](double dt) { return 0.1 * dt; };
  const auto [ns1, stop1] = f.run();
  CHECK(ns1 == std::vector<long>{4, 8, 16, 32});
  CHECK_THAT(stop1, Catch::StartsWith("every order is decided (global fail"));
}

TEST_CASE("an automatic sweep passes the accuracy asked for at an error equal to it, and not an ulp above", "[known]") {
  FakeSweep f(12);
  f.error = [](double dt) { return dt * dt / 8; };  // exact in binary: 1/2048 at N = 32 (dt 1/16), where the orders decide
  f.spec.accuracy = {1.0 / 2048};
  const auto [ns, stop] = f.run();
  CHECK(ns == std::vector<long>{4, 8, 16, 32});
  CHECK_THAT(stop, Catch::Contains("passed the accuracy 0.000488281 asked for"));
  // The target an ulp below that error: not passed at N = 32, so one more halving (1/8192 at N = 64).
  f.spec.accuracy = {std::nextafter(1.0 / 2048, 0.0)};
  const auto [more, why] = f.run();
  CHECK(more == std::vector<long>{4, 8, 16, 32, 64});
  CHECK_THAT(why, Catch::Contains("passed the accuracy"));
}

TEST_CASE("an automatic sweep skips a level while the error is above 0.5, from the third run on", "[known]") {
  FakeSweep f(12);
  // 1000 dt^2: 250, 62.5, 15.6 at N = 4, 8, 16 (the first three are always run), then above 0.5 at N = 16 and 64
  // (0.977): each is followed by a skipped level; 0.061 at N = 256 and below it every level, until 4 usable points.
  f.error = [](double dt) { return 1000 * dt * dt; };
  const auto [ns, stop] = f.run();
  CHECK(ns == std::vector<long>{4, 8, 16, 64, 256, 512, 1024, 2048});
  CHECK_THAT(stop, Catch::StartsWith("every order is decided"));
}

TEST_CASE("an automatic sweep stops within 100 x its noise floor, and not outside it", "[known]") {
  FakeSweep f(12);
  f.error = [](double dt) { return 0.1 * dt * dt; };
  // Round-off = error / 64: the error is within 100 x its floor at the first run where a stop is allowed (the
  // third: a fit needs 3 points).
  f.roundoff = [](double e) { return e / 64; };
  const auto [inside, why_inside] = f.run();
  CHECK(inside == std::vector<long>{4, 8, 16});
  CHECK_THAT(why_inside, Catch::StartsWith("the global error 0.00156 at dt 0.125 is within 100 x its noise floor 2.44e-05"));
  // Round-off = error / 100 with an error of 2^-10 at N = 16: 100 x the floor is the error itself, to the bit:
  // within (the rule is error <= 100 x floor).
  f.error = [](double dt) { return std::ldexp(1.0, -10) * (dt / 0.125) * (dt / 0.125); };
  f.roundoff = [](double e) { return e / 100; };
  REQUIRE(100 * (std::ldexp(1.0, -10) / 100) == std::ldexp(1.0, -10));
  CHECK(f.run().first == std::vector<long>{4, 8, 16});
  f.error = [](double dt) { return 0.1 * dt * dt; };
  // Round-off = error / 128: never within 100 x; the orders decide instead, after 4 runs.
  f.roundoff = [](double e) { return e / 128; };
  const auto [outside, why_outside] = f.run();
  CHECK(outside == std::vector<long>{4, 8, 16, 32});
  CHECK_THAT(why_outside, Catch::StartsWith("every order is decided"));
  // A "floor" above the error (a shadow that parted from the run) stops nothing while the error is above 1e-6 (and
  // the fit has no point above its floor): 0.1 dt^2 first falls below 1e-6 at N = 1024 (3.8e-7), where it stops.
  f.roundoff = [](double e) { return 2 * e; };
  const auto [parted, why_parted] = f.run();
  CHECK(parted == std::vector<long>{4, 8, 16, 32, 64, 128, 256, 512, 1024});
  CHECK_THAT(why_parted, Catch::StartsWith("the global error 3.81e-07 at dt 0.001953 is within 100 x its noise floor 7.63e-07"));
  // Below 1e-6 an error at or under its floor is the floor reached.
  f.error = [](double dt) { return 1e-8 * dt * dt; };
  const auto [floor, why_floor] = f.run();
  CHECK(floor == std::vector<long>{4, 8, 16});
  CHECK_THAT(why_floor, Catch::Contains("within 100 x its noise floor"));
}

TEST_CASE("an error of exactly 0.5 is usable: it may stop a sweep at its floor and is not skipped over", "[known]") {
  FakeSweep f(12);
  // 32 dt^2: 8, 2, then exactly 0.5 at N = 16; round-off 0.5 / 64: within 100 x the floor there.
  f.error = [](double dt) { return 32 * dt * dt; };
  f.roundoff = [](double e) { return e / 64; };
  const auto [ns, stop] = f.run();
  // Then one usable point is too few for a fit: the levels between the halvings either side of it are filled in,
  // N = 12 (32 / 36 = 0.89, pre-asymptotic) and N = 24 (32 / 144 = 0.22, usable), and two usable points still are.
  CHECK(ns == std::vector<long>{4, 8, 12, 16, 24});  // largest step first
  CHECK_THAT(stop, Catch::StartsWith("the global error 0.5 at dt 0.125 is within 100 x its noise floor 0.00781; then 2 step "
                                     "size(s) between the halvings, dt 0.08333..0.1667, left the orders undecided"));
  CHECK(f.res.sweeps[0].cause == study::SweepStop::between);
  // Just above 0.5 at N = 16 (0.50000000000000011): pre-asymptotic, the next level (N = 32) is skipped.
  f.error = [](double dt) { return dt == 0.125 ? std::nextafter(0.5, 1.0) : 32 * dt * dt; };
  const auto [skipped, why] = f.run();
  REQUIRE(skipped.size() >= 4);
  CHECK(std::find(skipped.begin(), skipped.end(), 32) == skipped.end());
  CHECK(std::find(skipped.begin(), skipped.end(), 64) != skipped.end());
}

TEST_CASE("an interval that straddles its band is decided by a step size between the halvings", "[known]") {
  FakeSweep f(16);
  // 0.1 dt^2, 6 % high at N = 8, 32, 128 (N = 8 4^k): local slopes 2 -/+ log2(1.06) = 1.916, 2.084, 1.916 over
  // N = 4 ... 32, within 0.2 of each other.  Round-off e / 50 below an error of 5e-4: the error 4.14e-4 at N = 32
  // is within 100 x its floor, where the halvings end after 4 runs.  Their fit by hand (x = log dt, residuals
  // -0.2a, 0.6a, -0.6a, 0.2a with a = ln 1.06; t(0.99, 2) = 9.925): 1.983 +/- 0.236, widened by the floor at N = 32
  // (1.5 ln 2 / (5 ln^2 2) / 49 = 0.0088): [1.738, 2.228], which straddles 2 +/- 0.2.  The levels between the
  // halvings inside the window are N = 6, 12, 24, largest step first: with N = 6 (error exactly 0.1 dt^2) the
  // 5-point fit is 1.980 in [1.860, 2.100] (t(0.99, 3) = 5.841): a pass, decided after one of them.
  f.error = [](double dt) {
    const long n = std::lround(2 / dt);
    return 0.1 * dt * dt * (n == 8 || n == 32 || n == 128 ? 1.06 : 1.0);
  };
  f.roundoff = [](double e) { return e < 5e-4 ? e / 50 : 1e-17; };
  const auto [ns, stop] = f.run();
  CHECK(ns == std::vector<long>{4, 6, 8, 16, 32});
  CHECK(stop == "every order is decided (global pass over dt 0.0625..0.5, max pass over dt 0.0625..0.5), with 1 step size(s) "
                "between the halvings");
  CHECK(f.res.sweeps[0].cause == study::SweepStop::decided);
  // The halvings alone: the same 4 points leave it undetermined, as computed above.
  std::vector<study::ErrorPoint> four;
  for (long n : {4, 8, 16, 32}) four.push_back({2.0 / n, f.error(2.0 / n), f.roundoff(f.error(2.0 / n))});
  const auto fit = study::fit_order(four);
  CHECK_THAT(fit.lo, Catch::WithinAbs(1.738, 1e-3));
  CHECK_THAT(fit.hi, Catch::WithinAbs(2.228, 1e-3));
  // A budget of 4 runs: spent on the halvings, nothing is left for the levels between them.
  FakeSweep g(4);
  g.error = f.error, g.roundoff = f.roundoff;
  const auto [ns4, stop4] = g.run();
  CHECK(ns4 == std::vector<long>{4, 8, 16, 32});
  CHECK(g.res.sweeps[0].cause == study::SweepStop::runs);
}

TEST_CASE("an automatic sweep spends exactly its budget of runs, and stops at the ladder's end", "[known]") {
  // Errors that never settle on a slope: 0.01 and 0.001 in turn.  No order is ever decided.
  const auto zigzag = [](double dt) { return std::lround(2 / dt) % 3 == 1 ? 1e-2 : 1e-3; };
  for (int runs : {3, 5, 6}) {
    FakeSweep f(runs);
    f.error = zigzag;
    const auto [ns, stop] = f.run();
    INFO("runs = " << runs);
    CHECK(ns.size() == static_cast<std::size_t>(runs));
    CHECK(stop == "the budget of " + std::to_string(runs) + " runs is spent; the orders are not all decided (raise dt.runs)");
    CHECK(f.res.sweeps[0].cause == study::SweepStop::runs);
  }
  FakeSweep shorter(12, 5);  // the ladder 4 ... 64
  shorter.error = zigzag;
  const auto [ns, stop] = shorter.run();
  CHECK(ns == std::vector<long>{4, 8, 16, 32, 64});
  CHECK(stop == "the ladder ends at 64 steps; the orders are not all decided");
  CHECK(shorter.res.sweeps[0].cause == study::SweepStop::ladder);
}

TEST_CASE("an automatic sweep does not start a run that would exceed its budget of seconds", "[known]") {
  FakeSweep f(12);
  f.error = [](double dt) { return std::lround(2 / dt) % 3 == 1 ? 1e-2 : 1e-3; };
  f.pause = std::chrono::milliseconds(20);
  // After the first run (>= 20 ms) the next, twice as many steps, is expected to take >= 40 ms more: past 50 ms.
  f.spec.auto_dt->seconds = 0.05;
  const auto [ns, stop] = f.run();
  CHECK(ns == std::vector<long>{4});
  CHECK_THAT(stop, Catch::StartsWith("the budget of 0.05 s would be exceeded by the next run"));
  CHECK(f.res.sweeps[0].cause == study::SweepStop::seconds);
  // No seconds budget: the runs budget decides.
  f.spec.auto_dt->seconds = 0;
  f.spec.auto_dt->runs = 3;
  f.pause = std::chrono::milliseconds(1);
  CHECK(f.run().first.size() == 3);
}

// ---- the study context (study/plan/context.cpp): reference times, scales, parameters

TEST_CASE("the reference holds every sample time and one-step start and end, a substep's start included", "[known]") {
  for (double omega : {1.0, 2.0}) {
    INFO("omega = " << omega);
    testing::TempDir dir("known-context");
    const auto spec = study::load_spec(dir.file("c.toml", fmt::format(R"(
name = "c"
problem = "harmonic"
params = {{ omega = {}, x0 = 0.5, v0 = 3 }}
t_end = 1.0
integrators = ["rk4", {{ id = "rk4", substeps = 2 }}]
dt = [0.25]
samples = 8
local_points = 1
metrics = ["global", "local"]
)", omega)));
    study::EngineOptions o;
    o.use_cache = false;
    study::StudyResult res;
    const auto ctx = study::engine::make_context(spec, o, res);
    // By hand: n = 4, h = 0.25; 8 samples of 4 steps: every grid point; one local point at tau = 0.37 t_end, with
    // its end tau + h and the starts tau - h (one step back) and tau - h/2 (rk4 x2's substep back).
    using R = study::engine::RefReal;
    const std::vector<R> want{R(0),    R(0.37) - R(0.25), R(0.37) - R(0.125), R(0.25),
                              R(0.37), R(0.5),            R(0.37) + R(0.25),  R(0.75), R(1)};
    std::vector<R> got;
    for (const auto& [t, state] : ctx.ref.at) got.push_back(t);
    CHECK(got == want);
    // Each state is the exact solution x0 cos wt + v0/w sin wt (Harmonic's closed form) to the reference's bound.
    double q_scale = 0, v_max = 0;
    for (const auto& [t, state] : ctx.ref.at) {
      const double td = static_cast<double>(t);
      const double q = 0.5 * std::cos(omega * td) + 3 / omega * std::sin(omega * td);
      const double v = -0.5 * omega * std::sin(omega * td) + 3 * std::cos(omega * td);
      CHECK(static_cast<double>(state.first[0]) == Approx(q).epsilon(1e-14));
      CHECK(static_cast<double>(state.second[0]) == Approx(v).epsilon(1e-14));
      q_scale = std::max(q_scale, std::abs(q)), v_max = std::max(v_max, std::abs(v));
    }
    // Scales: the largest |q|; the largest |v|, at least Q per time scale (omega Q) -- docs/specs.md.
    CHECK(ctx.ref.q_scale == Approx(q_scale).epsilon(1e-14));
    CHECK(ctx.ref.v_scale == Approx(std::max(v_max, omega * q_scale)).epsilon(1e-14));
    CHECK(res.position_scale == ctx.ref.q_scale);
    CHECK(res.velocity_scale == ctx.ref.v_scale);
    CHECK(res.reference_bound == ctx.ref.bound);
    CHECK(ctx.ref.bound > 0);
    CHECK(ctx.ref.bound < 1e-20);
    CHECK(res.reference_tolerance == 1e-28);
    CHECK(res.period == Approx(2 * std::acos(-1.0) / omega).epsilon(1e-15));
    CHECK(res.periodic);
    CHECK(res.conservative);
    // Every parameter, defaults included, as the exact value of its double (40 significant digits).
    CHECK(ctx.exact_params.at("x0") == "0.5");
    CHECK(ctx.exact_params.at("v0") == "3");
    CHECK(ctx.exact_params.at("omega") == (omega == 1 ? "1" : "2"));
    // No cache asked for: no cache folders, no digest.
    CHECK_FALSE(ctx.run_cache);
    CHECK_FALSE(ctx.shadow_cache);
  }
}

TEST_CASE("a parameter's exact value is its double's, digit for digit", "[known]") {
  testing::TempDir dir("known-params");
  const auto spec = study::load_spec(dir.file("p.toml", R"(
name = "p"
problem = "harmonic"
params = { omega = "0.1" }
t_end = 1.0
integrators = ["rk4"]
dt = [0.5]
metrics = ["walltime"]
)"));
  study::EngineOptions o;
  o.use_cache = false;
  study::StudyResult res;
  const auto ctx = study::engine::make_context(spec, o, res);
  // The double nearest 0.1 is 0.1000000000000000055511151231257827021181583404541015625 (exact binary value).
  CHECK(ctx.exact_params.at("omega") == "0.1000000000000000055511151231257827021182");
  CHECK(ctx.exact_params.at("x0") == "1");
  CHECK(ctx.exact_params.at("v0") == "0");
  CHECK_FALSE(ctx.ref.present());  // walltime needs no reference
}

TEST_CASE("a reference table's digest changes with every time, state, scale and the bound", "[known]") {
  using R = study::engine::RefReal;
  study::engine::RefTable base;
  base.at[R(0)] = {{1.0L, 2.0L}, {3.0L}};
  base.at[R(0.5)] = {{4.0L, 5.0L}, {6.0L}};
  base.q_scale = 7, base.v_scale = 8, base.bound = 1e-25;
  const std::string d0 = study::engine::reference_digest(base);
  CHECK(d0.size() == 32);  // XXH3-128 in hex
  CHECK(study::engine::reference_digest(base) == d0);
  std::vector<std::function<void(study::engine::RefTable&)>> changes{
      [](auto& t) { t.at.erase(R(0.5)), t.at[R(0.25)] = {{4.0L, 5.0L}, {6.0L}}; },
      [](auto& t) { t.at[R(0.5)].first[1] = std::nextafter(5.0L, 6.0L); },
      [](auto& t) { t.at[R(0)].second[0] = 3.5L; },
      [](auto& t) { t.q_scale = 7.5; },
      [](auto& t) { t.v_scale = 8.5; },
      [](auto& t) { t.bound = 2e-25; },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    INFO("change " << i);
    auto t = base;
    changes[i](t);
    CHECK(study::engine::reference_digest(t) != d0);
  }
}

// ---- the run cache's executable identity

namespace {

/// This test executable's GNU build ID, read from its .note.gnu.build-id section in /proc/self/exe (ELF64 section
/// headers: another route than the loaded program headers the engine walks).
std::string build_id_from_file() {
  std::ifstream f("/proc/self/exe", std::ios::binary);
  auto read = [&](std::size_t offset, void* into, std::size_t size) {  // only what is needed: the file is large
    f.seekg(static_cast<std::streamoff>(offset));
    f.read(static_cast<char*>(into), static_cast<std::streamsize>(size));
    REQUIRE(f.good());
  };
  Elf64_Ehdr eh;
  read(0, &eh, sizeof eh);
  auto section = [&](std::size_t i) {
    Elf64_Shdr sh;
    read(eh.e_shoff + i * eh.e_shentsize, &sh, sizeof sh);
    return sh;
  };
  const Elf64_Shdr names = section(eh.e_shstrndx);
  std::string table(names.sh_size, '\0');
  read(names.sh_offset, table.data(), table.size());
  for (std::size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr sh = section(i);
    if (std::string(table.c_str() + sh.sh_name) != ".note.gnu.build-id") continue;
    std::string note(sh.sh_size, '\0');
    read(sh.sh_offset, note.data(), note.size());
    Elf64_Nhdr nh;
    std::memcpy(&nh, note.data(), sizeof nh);
    const char* desc = note.data() + sizeof nh + ((nh.n_namesz + 3) / 4) * 4;
    std::string hex;
    for (std::size_t b = 0; b < nh.n_descsz; ++b) hex += fmt::format("{:02x}", static_cast<unsigned char>(desc[b]));
    return hex;
  }
  return {};
}

}  // namespace

TEST_CASE("a run's cache key names this executable by its GNU build ID", "[known]") {
  const std::string id = build_id_from_file();
  REQUIRE(id.size() == 40);  // a SHA-1: ld's default --build-id
  study::Spec s;
  s.problem = "harmonic", s.t_end = 1;
  const study::engine::Grid grid{s, 10};
  const std::string key = study::engine::run_key("t", "l", grid, study::engine::Context{});
  CHECK_THAT(key, Catch::Contains("\nexecutable " + id + "\n"));
}

// ---- the order fits' inputs (study/results/orders.cpp)

TEST_CASE("an order point's noise floor is the reference's bound or the run's round-off, one step 4 eps", "[known]") {
  // docs/specs.md, "The window": the reference's bound and the run's measured round-off (else its random walk,
  // eps sqrt(n)); one step: 4 eps.
  const double eps = std::numeric_limits<double>::epsilon();
  study::Run r;
  r.dt = 0.1, r.steps = 100, r.global = 1e-5, r.max = 2e-5, r.local = 3e-7;
  auto g = study::engine::error_point(r, "global", 0);
  CHECK(g.dt == 0.1);
  CHECK(g.error == 1e-5);
  CHECK(g.floor == eps * 10);
  CHECK(study::engine::error_point(r, "max", 0).error == 2e-5);
  CHECK(study::engine::error_point(r, "max", 0).floor == eps * 10);
  const auto l = study::engine::error_point(r, "local", 0);
  CHECK(l.error == 3e-7);
  CHECK(l.floor == 4 * eps);
  r.roundoff = 1e-13;
  CHECK(study::engine::error_point(r, "global", 0).floor == 1e-13);
  CHECK(study::engine::error_point(r, "local", 0).floor == 4 * eps);
  for (const char* metric : {"global", "max", "local"}) CHECK(study::engine::error_point(r, metric, 1e-12).floor == 1e-12);

  study::Spec spec;
  spec.metrics = {"global", "local", "energy"};
  CHECK(study::engine::order_metrics(spec) == std::vector<std::string>{"global", "max", "local"});
  spec.metrics = {"local"};
  CHECK(study::engine::order_metrics(spec) == std::vector<std::string>{"local"});
  spec.metrics = {"global"};
  CHECK(study::engine::order_metrics(spec) == std::vector<std::string>{"global", "max"});
  spec.metrics = {"energy", "walltime"};
  CHECK(study::engine::order_metrics(spec).empty());

  // The verdict's context: t_end in periods where the solution is periodic; exactness on constant acceleration for
  // global order >= 2 and local order >= 3 (a quadratic solution).
  study::StudyResult res;
  res.spec.t_end = 10, res.spec.problem = "harmonic", res.period = 4, res.periodic = true;
  auto expecting = [](int global, int local) {
    study::SpecIntegrator si;
    si.expected_global = global, si.expected_local = local;
    return si;
  };
  const auto c = study::engine::order_context(res, "global", expecting(4, 5));
  CHECK(c.expected == 4);
  CHECK(c.tolerance == 0.2);
  CHECK(c.periods == 2.5);
  CHECK(c.exact.empty());
  CHECK(study::engine::order_context(res, "local", expecting(4, 5)).expected == 5);
  res.periodic = false;
  CHECK(std::isnan(study::engine::order_context(res, "global", expecting(4, 5)).periods));
  res.spec.problem = "projectile";
  CHECK_FALSE(study::engine::order_context(res, "global", expecting(2, 3)).exact.empty());
  CHECK(study::engine::order_context(res, "global", expecting(1, 2)).exact.empty());
  CHECK(study::engine::order_context(res, "max", expecting(2, 3)).exact.size() > 0);
  CHECK(study::engine::order_context(res, "local", expecting(1, 2)).exact.empty());
  CHECK_FALSE(study::engine::order_context(res, "local", expecting(2, 3)).exact.empty());

  // The coefficients' order: known where a condition of the next order fails (verner6: order 6, its principal error
  // coefficient 1.45e-6), one more for one-step errors; unknown for a method without a table or one whose every
  // checked order holds (a lower bound only).
  study::SpecIntegrator v6 = expecting(7, 8);
  v6.predicted.order = 6, v6.predicted.error_coefficient = 1.45e-6;
  CHECK(study::engine::order_context(res, "global", v6).predicted == 6);
  CHECK(study::engine::order_context(res, "max", v6).predicted == 6);
  CHECK(study::engine::order_context(res, "local", v6).predicted == 7);
  v6.predicted.error_coefficient = NAN;
  CHECK(std::isnan(study::engine::order_context(res, "global", v6).predicted));
  CHECK(std::isnan(study::engine::order_context(res, "global", expecting(4, 5)).predicted));
}
