// The stepper benchmark (see steppers.hpp).  Blocks of 1000 steps from the initial state per iteration; the floor is
// 1000 force evaluations along a precomputed trajectory.
#include "study/bench/steppers.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <regex>

#include <fmt/format.h>

#include "integrators/adaptive.hpp"
#include "integrators/all.hpp"
#include "integrators/table.hpp"
#include "reference/odeint_controlled.hpp"
#include "reference/odeint_steppers.hpp"
#include "study/bench/user.hpp"
#include "study/common/interrupt.hpp"
#include "study/problems/counted.hpp"
#include "study/problems/harmonic.hpp"
#include "study/problems/kepler.hpp"
#include "study/problems/outer_solar_system.hpp"
#include "study/methods/library.hpp"
#include "study/results/write.hpp"

namespace bench {
namespace {

using Json = nlohmann::ordered_json;
constexpr long block = 1000;  ///< steps per benchmark iteration, from the initial state
const std::string floor_name = "floor (1 force evaluation)";
const std::string throughput_name = "floor, independent evaluations";

// Each stepper below is a callable (state, h, n) taking n steps of h: as the study's timed loop does
// (ode::advance).

/// n steps of our method M.
template <class M, class P>
auto ours(const P& p) {
  return [stepper = ode::make_stepper<P>(M{}), &p](typename P::State& s, double h, long n) mutable {
    ode::advance(stepper, s, h, p, n);
  };
}
/// n steps of a built-in's coefficient table (study/methods/builtin.toml) run by the table stepper.
template <class P>
auto table_step(const P& p, const std::shared_ptr<const ode::MethodTable>& table) {
  return [stepper = ode::make_stepper<P>(ode::TableMethod{table}), &p](typename P::State& s, double h, long n) mutable {
    ode::advance(stepper, s, h, p, n);
  };
}
/// The benchmark name of a built-in's table: "rk4 (table)".
std::string table_name(const std::string& id) { return id + " (table)"; }

/// n steps of an Odeint adapter A, made from the problem and the arguments in place (an Odeint stepper's buffers
/// are left uninitialised until its first step: no copies).
template <class A, class P, class... Args>
auto theirs(const P& p, const Args&... args) {
  return [a = A(p, args...)](typename P::State& s, double h, long n) mutable {
    for (long k = 0; k < n; ++k) a.step(s, h);
  };
}
/// n steps of our splitting method M's coefficients (in double, as our stepper parses them) in Odeint's Nyström
/// stepper.
template <class M, class P>
auto theirs_table(const P& p) {
  constexpr auto table = M::coefficients;
  constexpr std::size_t kicks = table.kick.size();
  std::array<double, kicks + 1> drift{};
  std::array<double, kicks> kick{};
  for (std::size_t i = 0; i <= kicks; ++i) drift[i] = ode::from_decimal<double>(table.drift[i]);
  for (std::size_t i = 0; i < kicks; ++i) kick[i] = ode::from_decimal<double>(table.kick[i]);
  return theirs<reference::odeint::SymplecticTable<kicks, 4, P>>(p, drift, kick);
}

/// Odeint's steppers we time, each with the adapter that runs it on problem P.
template <class P>
struct Odeint {
  template <class F>
  static void each(F&& f) {
    namespace oi = reference::odeint;
    // Generic in the problem type, so that the force evaluations can be counted on study::Counted<P>.
    f("odeint euler", []<class Q>(const Q& p) { return theirs<oi::Euler<Q>>(p); });
    f("odeint runge_kutta4", []<class Q>(const Q& p) { return theirs<oi::RungeKutta4<Q>>(p); });
    f("odeint velocity_verlet", []<class Q>(const Q& p) { return theirs<oi::VelocityVerlet<Q>>(p); });
    f("odeint symplectic_euler", []<class Q>(const Q& p) { return theirs<oi::SymplecticEuler<Q>>(p); });
    f("odeint symplectic_rkn_sb3a_mclachlan", []<class Q>(const Q& p) { return theirs<oi::McLachlan4<Q>>(p); });
    f("odeint symplectic_nystroem (yoshida4)", []<class Q>(const Q& p) { return theirs_table<ode::Yoshida4>(p); });
    f("odeint symplectic_nystroem (blanes-moan4)", []<class Q>(const Q& p) { return theirs_table<ode::BlanesMoan4>(p); });
  }
};

/// Each of our methods' Odeint counterpart: the same method, run by Odeint.  Odeint's symplectic_euler drifts
/// first: it is our symplectic-euler-drift (bit for bit); our kick-first symplectic-euler, its adjoint, has none.
/// Yoshida's and Blanes and Moan's coefficients run in Odeint's generic Nyström stepper, which evaluates the force
/// after the last drift with weight 0, as its own McLachlan stepper does (timed beside them, unpaired: another
/// method).
const std::map<std::string, std::string> counterpart{{"euler", "odeint euler"},
                                                     {"rk4", "odeint runge_kutta4"},
                                                     {"velocity-verlet", "odeint velocity_verlet"},
                                                     {"symplectic-euler-drift", "odeint symplectic_euler"},
                                                     {"yoshida4", "odeint symplectic_nystroem (yoshida4)"},
                                                     {"blanes-moan4", "odeint symplectic_nystroem (blanes-moan4)"}};

template <class P, class Step>
typename P::State run_steps(const P& p, Step step, double h, long n) {
  auto s = p.initial();
  step(s, h, n);
  return s;
}

/// Force evaluations per step over one block (startup included), counted rather than declared: implicit methods
/// iterate, and Odeint's McLachlan evaluates a stage of weight 0.
template <class P, class MakeStep>
double evals_per_step(const P& p, double h, MakeStep make) {
  const study::Counted<P> counted(p);
  run_steps(counted, make(counted), h, block);
  return static_cast<double>(counted.evaluations()) / block;
}

template <class State>
double distance(const State& a, const State& b) {
  double d = 0, scale = 0;
  for (std::size_t i = 0; i < a.q.size(); ++i) d = std::max(d, std::abs(a.q[i] - b.q[i])), scale = std::max(scale, std::abs(b.q[i]));
  return d / scale;
}

void set_ns_per_step(benchmark::State& state) {
  state.counters["ns_per_step"] =
      benchmark::Counter(static_cast<double>(block), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// `block` steps, with every call inside inlined (flatten): both sides get the same treatment whatever GCC's
/// inlining budget decides for the many instantiations of this file (left to it, Odeint's runge_kutta4 step was
/// sometimes called out of line, its state passing through memory: 2.3 x slower on harmonic).
template <class State, class Step>
[[gnu::flatten]] void run_block(Step& step, State& s, double h) {
  step(s, h, block);
}

/// `block` steps per iteration from the initial state.
template <class P, class MakeStep>
void time_steps(benchmark::State& state, const P& p, double h, MakeStep make) {
  auto step = make(p);
  for (auto _ : state) {
    if (study::interrupted()) {  // a signal stops the timing at once (Google Benchmark's way out of the loop)
      state.SkipWithError("interrupted");
      break;
    }
    auto s = p.initial();
    run_block(step, s, h);
    benchmark::DoNotOptimize(s);
  }
  set_ns_per_step(state);
}

/// The floor: `block` force evaluations along a precomputed trajectory, each position depending on the previous
/// force (q + 0 a: one multiply-add, which IEEE arithmetic may not drop), as in a step.  This is a latency floor:
/// a method whose next force does not wait for the last one (explicit Euler) can go below it.
/// With `dependent` false, the evaluations do not wait for each other: the throughput the hardware allows when
/// consecutive forces overlap.
template <bool dependent, class P>
void time_floor(benchmark::State& state, const P& p, double h) {
  std::vector<typename P::Vec> path;
  auto s = p.initial();
  auto rk4 = ode::make_stepper<P>(ode::Rk4{});
  for (long k = 0; k < block; ++k) path.push_back(s.q), rk4.step(s, h, p);
  volatile double zero_v = 0;
  const double zero = zero_v;
  typename P::Vec a{};
  for (auto _ : state) {
    if (study::interrupted()) {
      state.SkipWithError("interrupted");
      break;
    }
    for (long k = 0; k < block; ++k) {
      typename P::Vec q = path[static_cast<std::size_t>(k)];
      if constexpr (dependent) q[0] += zero * a[0];
      p.accel(q, a);
      if constexpr (!dependent) benchmark::DoNotOptimize(a);  // each result kept, none waited for
    }
    benchmark::DoNotOptimize(a);
  }
  set_ns_per_step(state);
}

/// The embedded pairs timed under step-size control, ours against Odeint's own: (our table, Odeint's stepper).  One
/// adaptive integration from the initial state over `block` steps' span at adaptive_tol per iteration; the same
/// accepted and rejected steps on both sides (tests/methods/test_adaptive.cpp), so time per try compares like for like.
const std::array<std::pair<const char*, const char*>, 3> adaptive_pairs{{{"dopri5", "dopri5"}, {"cash-karp5", "cash-karp54"}, {"fehlberg78", "fehlberg78"}}};
constexpr double adaptive_tol = 1e-8;
std::string adaptive_name(const std::string& id) { return id + " (adaptive)"; }
std::string odeint_adaptive_name(const std::string& which) { return "odeint " + which + " (adaptive)"; }

/// One adaptive run of our table under Odeint's controller: its end state and tries.
template <class P>
std::pair<typename P::State, long> ours_adaptive(const P& p, ode::EmbeddedStepper<P>& stepper, double span) {
  stepper.reset();  // made once (its coefficients read from their decimals), as Odeint's are constants
  ode::OdeintController control;
  control.eps_abs = control.eps_rel = adaptive_tol;
  auto x = p.initial();
  const auto st = ode::integrate_times(stepper, control, x, {0.0, span}, span / 100, p, {}, [](std::size_t, const auto&) {}, [] {});
  return {x, st.accepted + st.rejected};
}

/// Odeint's own under make_controlled at the same tolerance, first step and span.
template <class P>
std::pair<typename P::State, long> theirs_adaptive(const P& p, const std::string& which, double span) {
  const auto run = reference::odeint::run_controlled(which, p, {0.0, span}, span / 100, adaptive_tol, adaptive_tol, 0, false);
  return {run.at_times.back(), run.accepted + run.rejected};
}

template <class Run>
void time_adaptive(benchmark::State& state, Run run) {
  long tries = 0;
  for (auto _ : state) {
    if (study::interrupted()) {
      state.SkipWithError("interrupted");
      break;
    }
    const auto [x, n] = run();
    benchmark::DoNotOptimize(x);
    tries = n;
  }
  state.counters["ns_per_step"] =
      benchmark::Counter(static_cast<double>(tries), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// Every repetition's ns/step by benchmark name; prints progress (or Google Benchmark's console table).
class Collector : public benchmark::ConsoleReporter {
 public:
  Collector(bool console, std::size_t total, std::ostream& log) : console_(console), total_(total), log_(log) {}
  std::map<std::string, std::vector<double>> ns;
  int num_cpus = 0;
  double mhz = 0;
  bool scaling = false;

  bool ReportContext(const Context& context) override {
    num_cpus = context.cpu_info.num_cpus, mhz = context.cpu_info.cycles_per_second / 1e6;
    scaling = context.cpu_info.scaling == benchmark::CPUInfo::ENABLED;
    return console_ ? ConsoleReporter::ReportContext(context) : true;
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs)
      if (r.run_type == Run::RT_Iteration && r.counters.count("ns_per_step")) {
        ns[r.run_name.function_name].push_back(r.counters.at("ns_per_step").value * 1e9);
        ++done_;
        if (!console_ && total_ && (done_ * 10 / total_ != (done_ - 1) * 10 / total_ || done_ == total_))
          log_ << fmt::format("bench: {}/{} timings ({}%)\n", done_, total_, done_ * 100 / total_) << std::flush;
      }
    if (console_) ConsoleReporter::ReportRuns(runs);
  }

 private:
  bool console_;
  std::size_t total_, done_ = 0;
  std::ostream& log_;
};

/// One problem: its checks, its registrations, and (after timing) its part of bench.json.
template <class P>
class Suite {
 public:
  Suite(std::string name, P problem, double h, const Options& o, const std::regex* filter)
      : name_(std::move(name)), p_(std::move(problem)), h_(h), o_(o), filter_(filter) {}

  /// Which benchmarks run: the selected ones, plus the floor and the counterparts the ratios need.
  void select() {
    ode::for_each_method([&](auto m) {
      const std::string id(m.info().id);
      if (!matches(id)) return;
      ours_.push_back(id);
      if (const auto c = counterpart.find(id); c != counterpart.end()) odeint_.push_back(c->second);
    });
    Odeint<P>::each([&](const std::string& id, auto) {
      if (matches(id)) odeint_.push_back(id);
    });
    std::sort(odeint_.begin(), odeint_.end());
    odeint_.erase(std::unique(odeint_.begin(), odeint_.end()), odeint_.end());
    // Each built-in's own coefficients as a table, beside it (the built-in comes along for the ratio).
    for (const auto& [id, m] : study::tables::builtin_tables()) {
      if (!matches(table_name(id))) continue;
      tables_.push_back(id);
      if (std::find(ours_.begin(), ours_.end(), id) == ours_.end()) ours_.push_back(id);
    }
    // A user program's integrators (study/bench/user.hpp), beside the built-ins.
    for (const auto& u : study::user_benches())
      if (matches(u->id)) users_.push_back(u);
    floor_ = !ours_.empty() || !odeint_.empty() || !users_.empty() || matches(floor_name);
    for (const auto& [id, which] : adaptive_pairs)
      if (matches(adaptive_name(id)) || matches(odeint_adaptive_name(which))) pairs_.emplace_back(id, which);
  }
  std::size_t count() const { return ours_.size() + odeint_.size() + tables_.size() + users_.size() + (floor_ ? 2 : 0) + 2 * pairs_.size(); }

  /// Runs each selected pair for one block and compares the end points.
  Json check(std::ostream& log, bool& all_ok) const {
    Json out = Json::array();
    const double eps = std::numeric_limits<double>::epsilon();
    auto record = [&](const std::string& a, const std::string& b, const std::string& criterion, double d, double allowance) {
      const bool ok = d <= allowance;
      all_ok = all_ok && ok;
      log << fmt::format("  {:<4} {:<20} {:<24} vs {:<38} distance {:.2e} <= {:.2e} ({})\n", ok ? "ok" : "FAIL", name_, a, b, d,
                         allowance, criterion);
      out.push_back({{"integrator", a}, {"odeint", b}, {"criterion", criterion}, {"distance", d}, {"allowance", allowance}, {"ok", ok}});
    };
    const P& p = p_;
    ode::for_each_method([&](auto m) {
      using M = decltype(m);
      const std::string id(m.info().id);
      const auto c = counterpart.find(id);
      if (c == counterpart.end() || std::find(ours_.begin(), ours_.end(), id) == ours_.end()) return;
      const auto mine = run_steps(p, ours<M>(p), h_, block);
      Odeint<P>::each([&](const std::string& other, auto make) {
        // The same arithmetic in another order: round-off, which grows at most like eps n on a bounded orbit.
        if (other == c->second) record(id, other, "same method: within 1e3 eps n", distance(mine, run_steps(p, make(p), h_, block)), 1e3 * eps * block);
      });
      if (std::find(tables_.begin(), tables_.end(), id) != tables_.end()) {
        const auto table = run_steps(p, table_step(p, study::tables::builtin_tables().at(id).table), h_, block);
        record(table_name(id), id, "its own coefficients as a table: the same bits", distance(table, mine), 0);
      }
    });
    for (const auto& [id, which] : pairs_) {
      ode::EmbeddedStepper<P> stepper(*study::tables::shipped_library().find(id)->table);
      const auto mine = ours_adaptive(p, stepper, h_ * block);
      const auto theirs = theirs_adaptive(p, which, h_ * block);
      record(adaptive_name(id), odeint_adaptive_name(which), "the same steps under Odeint's controller: the same bits",
             distance(mine.first, theirs.first) + (mine.second == theirs.second ? 0.0 : 1.0), 0);
    }
    return out;
  }

  void register_all() {
    auto add = [&](const std::string& id, auto fn) {
      benchmark::RegisterBenchmark((name_ + "/" + id).c_str(), fn)
          ->Unit(benchmark::kMicrosecond)
          ->MinTime(o_.min_time)
          ->Repetitions(o_.repetitions)
          ->ReportAggregatesOnly(false)
          ->DisplayAggregatesOnly(false);
    };
    const P* p = &p_;
    const double h = h_;
    if (floor_) {
      add(floor_name, [p, h](benchmark::State& s) { time_floor<true>(s, *p, h); });
      add(throughput_name, [p, h](benchmark::State& s) { time_floor<false>(s, *p, h); });
    }
    ode::for_each_method([&](auto m) {
      using M = decltype(m);
      const std::string id(m.info().id);
      if (std::find(ours_.begin(), ours_.end(), id) != ours_.end())
        add(id, [p, h](benchmark::State& s) { time_steps(s, *p, h, [](const P& q) { return ours<M>(q); }); });
    });
    for (const auto& u : users_)
      add(u->id, [p, h, u](benchmark::State& s) { time_steps(s, *p, h, u->template on<P>().plain); });
    for (const auto& id : tables_) {
      const auto table = study::tables::builtin_tables().at(id).table;
      add(table_name(id), [p, h, table](benchmark::State& s) { time_steps(s, *p, h, [&](const P& q) { return table_step(q, table); }); });
    }
    Odeint<P>::each([&](const std::string& id, auto make) {
      if (std::find(odeint_.begin(), odeint_.end(), id) != odeint_.end())
        add(id, [p, h, make](benchmark::State& s) { time_steps(s, *p, h, make); });
    });
    for (const auto& [id, which] : pairs_) {
      const auto table = study::tables::shipped_library().find(id)->table;
      const std::string w = which;
      add(adaptive_name(id), [p, h, table](benchmark::State& s) {
        ode::EmbeddedStepper<P> stepper(*table);
        time_adaptive(s, [&] { return ours_adaptive(*p, stepper, h * block); });
      });
      add(odeint_adaptive_name(which), [p, h, w](benchmark::State& s) { time_adaptive(s, [&] { return theirs_adaptive(*p, w, h * block); }); });
    }
  }

  /// This problem's part of bench.json, from every repetition's ns/step.
  Json result(const std::map<std::string, std::vector<double>>& ns) const {
    auto fastest = [&](const std::string& id) -> std::optional<double> {
      const auto it = ns.find(name_ + "/" + id);
      if (it == ns.end() || it->second.empty()) return std::nullopt;
      return *std::min_element(it->second.begin(), it->second.end());
    };
    auto spread = [&](const std::string& id) {  // slowest over fastest repetition, minus one
      const auto& v = ns.at(name_ + "/" + id);
      return *std::max_element(v.begin(), v.end()) / *std::min_element(v.begin(), v.end()) - 1;
    };
    auto opt = [](std::optional<double> x) { return x ? Json(*x) : Json(nullptr); };
    const auto floor = fastest(floor_name);
    Json j;
    j["problem"] = name_;
    j["dt"] = h_;
    j["floor_ns_per_step"] = opt(floor);
    j["floor_spread"] = floor ? Json(spread(floor_name)) : Json(nullptr);
    const auto throughput = fastest(throughput_name);
    j["throughput_floor_ns_per_step"] = opt(throughput);
    Json odeint = Json::array();
    Odeint<P>::each([&](const std::string& id, auto make) {
      if (const auto t = fastest(id))
        odeint.push_back({{"stepper", id}, {"ns_per_step", *t}, {"spread", spread(id)}, {"evals_per_step", evals_per_step(p_, h_, make)}});
    });
    Json rows = Json::array();
    ode::for_each_method([&](auto m) {
      using M = decltype(m);
      const std::string id(m.info().id);
      const auto t = fastest(id);
      if (!t) return;
      const double evals = evals_per_step(p_, h_, []<class Q>(const Q& q) { return ours<M>(q); });
      Json row{{"integrator", id},       {"ns_per_step", *t}, {"spread", spread(id)},
               {"evals_per_step", evals}, {"implicit", m.info().implicit}};
      row["floor_ratio"] = floor ? Json(*t / (*floor * evals)) : Json(nullptr);
      const auto c = counterpart.find(id);
      const auto other = c == counterpart.end() ? std::nullopt : fastest(c->second);
      row["odeint"] = c == counterpart.end() ? Json(nullptr) : Json(c->second);
      row["odeint_ns_per_step"] = opt(other);
      row["odeint_ratio"] = other ? Json(*t / *other) : Json(nullptr);
      rows.push_back(row);
    });
    for (const auto& u : users_) {
      const auto t = fastest(u->id);
      if (!t) continue;
      const double evals = evals_per_step(p_, h_, u->template on<P>().counted);
      Json row{{"integrator", u->id}, {"ns_per_step", *t}, {"spread", spread(u->id)}, {"evals_per_step", evals},
               {"implicit", u->info.implicit}};
      row["floor_ratio"] = floor ? Json(*t / (*floor * evals)) : Json(nullptr);
      row["odeint"] = Json(nullptr), row["odeint_ns_per_step"] = Json(nullptr), row["odeint_ratio"] = Json(nullptr);
      rows.push_back(row);
    }
    j["integrators"] = rows;
    j["odeint"] = odeint;
    Json tables = Json::array();
    for (const auto& id : tables_) {
      const auto t = fastest(table_name(id)), builtin = fastest(id);
      if (!t || !builtin) continue;
      tables.push_back({{"integrator", id}, {"ns_per_step", *t}, {"spread", spread(table_name(id))}, {"builtin_ns_per_step", *builtin},
                        {"builtin_spread", spread(id)}, {"ratio", *t / *builtin}});
    }
    j["tables"] = tables;
    Json pairs = Json::array();
    for (const auto& [id, which] : pairs_) {
      const auto t = fastest(adaptive_name(id)), other = fastest(odeint_adaptive_name(which));
      if (!t || !other) continue;
      pairs.push_back({{"integrator", id}, {"odeint", which}, {"tol", adaptive_tol}, {"span", h_ * block},
                       {"tries", [&] {
                          ode::EmbeddedStepper<P> stepper(*study::tables::shipped_library().find(id)->table);
                          return ours_adaptive(p_, stepper, h_ * block).second;
                        }()},
                       {"ns_per_try", *t}, {"spread", spread(adaptive_name(id))}, {"odeint_ns_per_try", *other},
                       {"odeint_spread", spread(odeint_adaptive_name(which))}, {"ratio", *t / *other}});
    }
    j["pairs"] = pairs;
    return j;
  }

 private:
  bool matches(const std::string& id) const { return !filter_ || std::regex_search(name_ + "/" + id, *filter_); }

  std::string name_;
  P p_;
  double h_;
  const Options& o_;
  const std::regex* filter_;
  std::vector<std::string> ours_, odeint_, tables_;
  std::vector<std::pair<std::string, std::string>> pairs_;  ///< adaptive_pairs selected
  std::vector<std::shared_ptr<const study::UserBench>> users_;
  bool floor_ = false;
};

}  // namespace

Json run(const Options& o, std::ostream& log) {
  if (!(o.min_time > 0)) throw BenchError(fmt::format("--min-time {}: must be > 0 seconds", o.min_time));
  if (o.repetitions < 1) throw BenchError(fmt::format("--repetitions {}: must be >= 1", o.repetitions));
  std::optional<std::regex> filter;
  if (!o.filter.empty()) {
    try {
      filter.emplace(o.filter, std::regex::extended);
    } catch (const std::regex_error& e) {
      throw BenchError("--filter '" + o.filter + "': not a regular expression (" + e.what() + ")");
    }
  }
  const std::regex* f = filter ? &*filter : nullptr;

  // Google Benchmark's own flags; repetitions are interleaved at random so that a slow spell of the machine
  // does not land on one benchmark's every repetition.
  std::vector<std::string> args{"study-bench"};
  if (o.repetitions > 1) args.push_back("--benchmark_enable_random_interleaving=true");
  args.insert(args.end(), o.benchmark_args.begin(), o.benchmark_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) throw BenchError(std::string("unknown option '") + argv[1] + "' (Google Benchmark flags start with --benchmark_)");
  benchmark::ClearRegisteredBenchmarks();

  Suite kepler("kepler", study::Kepler<double>{}, 0.01, o, f);
  Suite harmonic("harmonic", study::Harmonic<double>{}, 0.01, o, f);
  Suite outer("outer-solar-system", study::OuterSolarSystem<double>{}, 10.0, o, f);
  kepler.select(), harmonic.select(), outer.select();
  const std::size_t total = (kepler.count() + harmonic.count() + outer.count()) * static_cast<std::size_t>(o.repetitions);
  if (total == 0) throw BenchError("--filter '" + o.filter + "' matches no benchmark (names are problem/integrator, e.g. kepler/rk4)");

  bool ok = true;
  log << "Same trajectory before timing (" << block << " steps from the initial state):\n";
  Json checks = Json::object();
  checks["kepler"] = kepler.check(log, ok);
  checks["harmonic"] = harmonic.check(log, ok);
  checks["outer-solar-system"] = outer.check(log, ok);
  if (!ok) throw BenchError("a pair does not compute the same trajectory (FAIL above); nothing was timed");

  kepler.register_all(), harmonic.register_all(), outer.register_all();
  log << fmt::format("bench: {} timings of {} steps each ({} s minimum each){}\n", total, block, o.min_time,
                     o.repetitions > 1 ? fmt::format(", {} repetitions interleaved at random", o.repetitions) : "");
  Collector collector(o.console, total, log);
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
  study::stop_if_interrupted();  // the timings were cut short: nothing is written (exit 130)

  const study::Meta meta = study::collect_meta();
  Json doc;
  doc["meta"] = {{"compiler", meta.compiler}, {"flags", meta.flags}, {"cpu", meta.cpu}, {"revision", meta.revision}, {"date", meta.date},
                 {"cpus", collector.num_cpus}, {"mhz", collector.mhz}, {"frequency_scaling", collector.scaling}};
  doc["method"] = {{"steps_per_iteration", block},
                   {"min_time_seconds", o.min_time},
                   {"repetitions", o.repetitions},
                   {"statistic", "fastest repetition"},
                   {"interleaved", o.repetitions > 1}};
  doc["checks"] = checks;
  doc["problems"] = {kepler.result(collector.ns), harmonic.result(collector.ns), outer.result(collector.ns)};
  return doc;
}

}  // namespace bench
