// Time per step of every hand-written integrator on kepler, harmonic and outer-solar-system, side by side in
// one binary with Boost.Odeint's counterparts on the same problem and state type, and the floor: a bare loop of
// force evaluations.  Each pair is first checked to compute the same trajectory (the same method: to
// round-off; McLachlan's 4th-order method against ours: within their truncation errors).
// Run: build/release/bench_steppers [--table FILE.md] [Google Benchmark options]
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "integrators/all.hpp"
#include "reference/odeint_steppers.hpp"
#include "study/problems/harmonic.hpp"
#include "study/problems/kepler.hpp"
#include "study/problems/outer_solar_system.hpp"

namespace {

constexpr long block = 1000;  ///< steps per benchmark iteration, from the initial state

/// A problem under test: its step and a name.
template <class P>
struct Case {
  std::string name;
  P problem;
  double h;
};

/// One step of our method m.
template <class M, class P>
auto ours(const P& p) {
  return [stepper = ode::make_stepper<P>(M{}), &p](typename P::State& s, double h) mutable { stepper.step(s, h, p); };
}
/// One step of an Odeint adapter.
template <class A, class P>
auto theirs(const P& p) {
  return [a = A(p)](typename P::State& s, double h) mutable { a.step(s, h); };
}

template <class P, class Step>
typename P::State run(const P& p, Step step, double h, long n) {
  auto s = p.initial();
  for (long k = 0; k < n; ++k) step(s, h);
  return s;
}

template <class State>
double distance(const State& a, const State& b) {
  double d = 0, scale = 0;
  for (std::size_t i = 0; i < a.q.size(); ++i) d = std::max(d, std::abs(a.q[i] - b.q[i])), scale = std::max(scale, std::abs(b.q[i]));
  return d / scale;
}

/// A benchmark of `block` steps per iteration; counter ns_per_step.
template <class P, class MakeStep>
void time_steps(benchmark::State& state, const Case<P>& c, MakeStep make) {
  auto step = make(c.problem);
  for (auto _ : state) {
    auto s = c.problem.initial();
    for (long k = 0; k < block; ++k) step(s, c.h);
    benchmark::DoNotOptimize(s);
  }
  state.counters["ns_per_step"] = benchmark::Counter(static_cast<double>(block), benchmark::Counter::kIsIterationInvariantRate |
                                                                                     benchmark::Counter::kInvert);
}

/// The floor: `block` force evaluations along a precomputed trajectory, each position depending on the
/// previous force (q + 0 a: one multiply-add, which IEEE arithmetic may not drop), as a step's would.
template <class P>
void time_floor(benchmark::State& state, const Case<P>& c) {
  std::vector<typename P::Vec> path;
  auto s = c.problem.initial();
  auto rk4 = ode::make_stepper<P>(ode::Rk4{});
  for (long k = 0; k < block; ++k) path.push_back(s.q), rk4.step(s, c.h, c.problem);
  volatile double zero_v = 0;
  const double zero = zero_v;
  typename P::Vec a{};
  for (auto _ : state) {
    for (long k = 0; k < block; ++k) {
      typename P::Vec q = path[static_cast<std::size_t>(k)];
      q[0] += zero * a[0];
      c.problem.accel(q, a);
    }
    benchmark::DoNotOptimize(a);
  }
  state.counters["ns_per_step"] = benchmark::Counter(static_cast<double>(block), benchmark::Counter::kIsIterationInvariantRate |
                                                                                     benchmark::Counter::kInvert);
}

/// A pair of our method and Odeint's, and how closely they must agree after `block` steps.
struct Check {
  std::string problem, ours, theirs, criterion;
  double distance = 0, allowance = 0;
  bool ok() const { return distance <= allowance; }
};
std::vector<Check> checks;

/// Registers every benchmark of a problem, after checking each pair.
template <class P>
void register_case(const Case<P>& c) {
  const P& p = c.problem;
  const double eps = std::numeric_limits<double>::epsilon();
  auto same_method = [&](const std::string& a, const std::string& b, auto mine, auto odeint) {
    // The same arithmetic in another order: round-off, which grows at most like eps n with the error
    // propagation of a bounded orbit (1e3 eps n leaves room for its constant).
    const double d = distance(run(p, mine, c.h, block), run(p, odeint, c.h, block));
    checks.push_back({c.name, a, b, "same method: within 1e3 eps n", d, 1e3 * eps * block});
  };
  same_method("euler", "odeint euler", ours<ode::Euler>(p), theirs<reference::odeint::Euler<P>>(p));
  same_method("rk4", "odeint runge_kutta4", ours<ode::Rk4>(p), theirs<reference::odeint::RungeKutta4<P>>(p));
  same_method("velocity-verlet", "odeint velocity_verlet", ours<ode::VelocityVerlet>(p), theirs<reference::odeint::VelocityVerlet<P>>(p));
  // Odeint's symplectic_euler drifts first (q with the old p, then p from the new q): our symplectic-euler-drift.
  same_method("symplectic-euler-drift", "odeint symplectic_euler", ours<ode::SymplecticEulerDrift>(p),
              theirs<reference::odeint::SymplecticEuler<P>>(p));
  // Different 4th-order methods: they agree within the sum of their errors against RK4 at h/16.
  const auto truth = run(p, ours<ode::Rk4>(p), c.h / 16, block * 16);
  for (const auto& [name, end] : {std::pair{std::string("yoshida4"), run(p, ours<ode::Yoshida4>(p), c.h, block)},
                                  std::pair{std::string("blanes-moan4"), run(p, ours<ode::BlanesMoan4>(p), c.h, block)}}) {
    const auto mc = run(p, theirs<reference::odeint::McLachlan4<P>>(p), c.h, block);
    checks.push_back({c.name, name, "odeint symplectic_rkn_sb3a_mclachlan", "both 4th order: within 10 x the sum of their errors",
                      distance(end, mc), 10 * (distance(end, truth) + distance(mc, truth)) + 1e3 * eps * block});
  }

  auto add = [&](const std::string& name, auto fn) {
    benchmark::RegisterBenchmark((c.name + "/" + name).c_str(), fn)->Unit(benchmark::kMicrosecond);
  };
  add("floor (1 force evaluation)", [c](benchmark::State& s) { time_floor(s, c); });
  ode::for_each_method([&](auto m) {
    using M = decltype(m);
    add(std::string(m.info().id), [c](benchmark::State& s) { time_steps(s, c, [](const P& q) { return ours<M>(q); }); });
  });
  add("odeint euler", [c](benchmark::State& s) { time_steps(s, c, [](const P& q) { return theirs<reference::odeint::Euler<P>>(q); }); });
  add("odeint runge_kutta4", [c](benchmark::State& s) { time_steps(s, c, [](const P& q) { return theirs<reference::odeint::RungeKutta4<P>>(q); }); });
  add("odeint velocity_verlet", [c](benchmark::State& s) { time_steps(s, c, [](const P& q) { return theirs<reference::odeint::VelocityVerlet<P>>(q); }); });
  add("odeint symplectic_euler", [c](benchmark::State& s) { time_steps(s, c, [](const P& q) { return theirs<reference::odeint::SymplecticEuler<P>>(q); }); });
  add("odeint symplectic_rkn_sb3a_mclachlan",
      [c](benchmark::State& s) { time_steps(s, c, [](const P& q) { return theirs<reference::odeint::McLachlan4<P>>(q); }); });
}

/// Keeps every run's ns/step for the ratio table, and prints as usual.
class Collector : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> ns;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs)
      if (r.run_type == Run::RT_Iteration && r.counters.count("ns_per_step"))
        ns[r.benchmark_name()] = r.counters.at("ns_per_step").value * 1e9;
    ConsoleReporter::ReportRuns(runs);
  }
};

/// Force evaluations per step (steady state), and each of our methods' Odeint counterpart.
int evals_of(const std::string& id) {
  int e = 0;
  ode::for_each_method([&](auto m) {
    if (m.info().id == id) e = m.info().evals_per_step;
  });
  return e;
}
const std::map<std::string, std::string> counterpart{{"euler", "odeint euler"},
                                                     {"rk4", "odeint runge_kutta4"},
                                                     {"velocity-verlet", "odeint velocity_verlet"},
                                                     {"symplectic-euler-drift", "odeint symplectic_euler"},
                                                     {"symplectic-euler", "odeint symplectic_euler"},
                                                     {"yoshida4", "odeint symplectic_rkn_sb3a_mclachlan"},
                                                     {"blanes-moan4", "odeint symplectic_rkn_sb3a_mclachlan"}};

std::string table(const std::map<std::string, double>& ns, const std::vector<std::string>& problems) {
  std::string md = "| problem | integrator | ns/step | force evaluations | / floor x evaluations | Odeint counterpart | its ns/step | ours / Odeint |\n"
                   "|---|---|---:|---:|---:|---|---:|---:|\n";
  for (const auto& prob : problems) {
    const double floor = ns.at(prob + "/floor (1 force evaluation)");
    md += fmt::format("| {} | floor: 1 force evaluation | {:.2f} | 1 | 1.00 | | | |\n", prob, floor);
    ode::for_each_method([&](auto m) {
      const std::string id(m.info().id);
      const auto it = ns.find(prob + "/" + id);
      if (it == ns.end()) return;
      const int evals = evals_of(id);
      std::string other = "", other_ns = "", ratio = "";
      if (const auto c = counterpart.find(id); c != counterpart.end()) {
        const double t = ns.at(prob + "/" + c->second);
        other = c->second, other_ns = fmt::format("{:.2f}", t), ratio = fmt::format("{:.2f}", it->second / t);
      }
      md += fmt::format("| {} | {} | {:.2f} | {}{} | {:.2f} | {} | {} | {} |\n", prob, id, it->second, evals,
                        m.info().implicit ? " per iteration" : "", it->second / (floor * evals), other, other_ns, ratio);
    });
  }
  return md;
}

}  // namespace

int main(int argc, char** argv) {
  std::string table_file;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--table") == 0 && i + 1 < argc) table_file = argv[++i];
    else args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());

  const Case<study::Kepler<double>> kepler{"kepler", study::Kepler<double>{}, 0.01};
  const Case<study::Harmonic<double>> harmonic{"harmonic", study::Harmonic<double>{}, 0.01};
  const Case<study::OuterSolarSystem<double>> outer{"outer-solar-system", study::OuterSolarSystem<double>{}, 10.0};
  register_case(kepler);
  register_case(harmonic);
  register_case(outer);

  bool ok = true;
  std::cout << "Same trajectory before timing (" << block << " steps from the initial state):\n";
  for (const auto& c : checks) {
    std::cout << fmt::format("  {:<4} {:<20} {:<24} vs {:<38} distance {:.2e} <= {:.2e} ({})\n", c.ok() ? "ok" : "FAIL", c.problem,
                             c.ours, c.theirs, c.distance, c.allowance, c.criterion);
    ok = ok && c.ok();
  }
  if (!ok) {
    std::cerr << "bench_steppers: a pair does not compute the same trajectory; not timing it\n";
    return 1;
  }
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();
  if (!table_file.empty()) {
    std::ofstream(table_file) << table(collector.ns, {"kepler", "harmonic", "outer-solar-system"});
    std::cout << "wrote " << table_file << "\n";
  }
  return 0;
}
