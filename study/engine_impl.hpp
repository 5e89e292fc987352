#pragma once
/// The measurements of one integrator on one problem, templated on both (instantiated in engine.cpp).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>
#include <vector>

#include "integrators/all.hpp"
#include "reference/decimal.hpp"
#include "study/problems/counted.hpp"
#include "study/problems/harmonic.hpp"
#include "study/results.hpp"
#include "study/stability_theory.hpp"

namespace study::engine {

using RefReal = reference::Real;

/// Reference states by exact time (k h computed exactly in float128), in long double, with the scales.
struct RefTable {
  std::map<RefReal, std::pair<std::vector<long double>, std::vector<long double>>> at;  ///< empty: no errors measured
  double q_scale = 1, v_scale = 1, bound = 0;
  bool present() const { return !at.empty(); }

  const std::pair<std::vector<long double>, std::vector<long double>>& state(const RefReal& t) const {
    const auto it = at.find(t);
    if (it == at.end()) throw std::logic_error("reference state missing at t = " + reference::to_decimal(t));
    return it->second;
  }
};

/// P<Real> for another Real: every problem is a class template on its scalar type.
template <class P, class R>
struct Rebind;
template <template <class> class T, class A, class R>
struct Rebind<T<A>, R> {
  using type = T<R>;
};

/// What every run of a spec shares.
struct Context {
  RefTable ref;
  ParamValues exact_params;  ///< the double-rounded parameters, with enough digits to be exact in any wider type
  std::optional<std::filesystem::path> shadow_cache;  ///< where round-off shadows are cached (none: not cached)
  std::optional<std::filesystem::path> run_cache;     ///< where whole runs are cached (none: not cached)
  bool reuse_runs = true;                             ///< read the run cache (else only refresh it)
  std::string ref_digest;                             ///< SHA-1 of the reference table: part of a run's cache key
};

/// t = k h exactly (a double h times an integer k fits in float128's 113 bits).
inline RefReal exact_time(long k, double h) { return RefReal(k) * RefReal(h); }

/// The time grid of one sweep point: the exact time of point k (where the reference is wanted) and the step
/// from k to k + 1 that the integrator takes.  Constant steps: k h and h.  Varying steps: the spec's grid,
/// whose times and differences are exact doubles.
struct Grid {
  const Spec& spec;
  long n;
  double h = spec.t_end / static_cast<double>(n);
  bool uniform() const { return spec.dt_pattern.empty(); }
  RefReal time(long k) const { return uniform() ? exact_time(k, h) : RefReal(spec.grid_time(k, n)); }
  double time_d(long k) const { return uniform() ? static_cast<double>(k) * h : spec.grid_time(k, n); }
  double step(long k) const { return uniform() ? h : spec.grid_time(k + 1, n) - spec.grid_time(k, n); }
};

/// Sample indices 0 = k_0 < ... < k_m = n, about `count` of them, evenly spread.
inline std::vector<long> even_indices(long n, long count) {
  std::vector<long> ks;
  for (long i = 0; i <= count; ++i) ks.push_back(static_cast<long>(std::llround(static_cast<double>(i) * n / count)));
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

/// The points where one-step errors are measured: fixed fractions of t_end that are not special.
inline std::vector<double> local_times(const Spec& spec) {
  std::vector<double> t;
  for (int j = 0; j < spec.local_points; ++j) t.push_back(spec.t_end * (j + 0.37) / spec.local_points);
  return t;
}

/// Steppers that keep a history (two-step Störmer–Verlet) can be restarted from two positions.
template <class S, class State, class P>
concept HasHistory = requires(S s, const typename P::Vec& q, const State& st, typename P::real_type h, const P& p) {
  s.set_history(q, st, h, p);
};

/// Relative phase-space and position error of a double state against a reference state.
template <class State>
std::pair<double, double> relative_error(const State& s, const std::pair<std::vector<long double>, std::vector<long double>>& ref,
                                         const RefTable& table) {
  long double dq = 0, dv = 0;
  for (std::size_t i = 0; i < State::dim; ++i) {
    dq = std::max(dq, std::abs(static_cast<long double>(s.q[i]) - ref.first[i]));
    dv = std::max(dv, std::abs(static_cast<long double>(s.v[i]) - ref.second[i]));
  }
  const double pos = static_cast<double>(dq / table.q_scale);
  return {std::max(pos, static_cast<double>(dv / table.v_scale)), pos};
}

template <class State>
bool finite_and_sane(const State& s, double limit) {
  for (std::size_t i = 0; i < State::dim; ++i)
    if (!(std::abs(s.q[i]) <= limit) || !(std::abs(s.v[i]) <= limit)) return false;  // also false for NaN
  return true;
}

inline double norm3(const std::array<double, 3>& x) { return std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }

/// Energy error classification: "large" above 0.1 (not conserved at this step, whatever its shape);
/// "round-off" within `noise` (the run's round-off); "drifting" when a linear trend accounts for at least half
/// of the largest error; else "bounded".
inline std::string classify_energy(double max_rel, double drift_per_time, double t_end, double noise) {
  if (max_rel > 0.1) return "large";
  if (max_rel <= noise) return "round-off";
  return std::abs(drift_per_time) * t_end >= 0.5 * max_rel ? "drifting" : "bounded";
}

/// The energy error round-off can make over n steps: 100 times the round-off measured at the end of the run
/// (one sample of a random walk can be small by chance), else 100 times the random walk of n roundings
/// (Brouwer's law); at least 1000 eps.  A measured value beats the estimate: on a dissipative problem the energy
/// shrinks, and its round-off with it, while a truncation error of 1e-13 would pass for noise.
inline double energy_noise(long n, double measured) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double estimate = std::isfinite(measured) ? 100 * measured : 100 * eps * std::sqrt(static_cast<double>(n));
  return std::max(1e3 * eps, estimate);
}

/// The end of a round-off shadow run: the long double state, or none where its implicit iteration failed.
struct Shadow {
  std::optional<std::pair<std::vector<long double>, std::vector<long double>>> end;
};

/// What a cache key says of a method: its C++ type, and for a coefficient table its coefficients.
template <class M>
std::string method_identity(const M& m) {
  std::string id = typeid(M).name();
  if constexpr (requires { m.identity(); }) id += " " + m.identity();
  return id;
}

/// The cache key of a shadow run: the method's type and label, the build (a hash of the integrator, problem and
/// run-loop sources, compiler, C library), the problem, its exact parameters and the grid (engine.cpp).
std::string shadow_key(std::string_view method_type, const std::string& label, const Grid& grid, const Context& ctx);
/// The cached shadow under `key`, if a sound entry is there (a corrupt or foreign file is ignored).
std::optional<Shadow> load_shadow(const std::filesystem::path& dir, const std::string& key);
/// Stores a shadow atomically; throws std::runtime_error naming the path if the cache cannot be written.
void store_shadow(const std::filesystem::path& dir, const std::string& key, const Shadow& shadow);

/// The same method, steps, start and (double-rounded) parameters as the double run, in long double.
template <class M, class P>
Shadow run_shadow(const M& m, const P& p, const Grid& grid, const Context& ctx) {
  using PL = typename Rebind<P, long double>::type;
  const PL pl(ctx.exact_params);
  auto shadow = ode::make_stepper<PL>(m);
  typename PL::State x;
  const auto start = p.initial();
  for (std::size_t i = 0; i < P::dim; ++i) x.q[i] = start.q[i], x.v[i] = start.v[i];
  try {
    for (long k = 0; k < grid.n; ++k) shadow.step(x, static_cast<long double>(grid.step(k)), pl);
  } catch (const ode::ConvergenceError&) {
    return {};
  }
  Shadow s;
  s.end.emplace();
  for (std::size_t i = 0; i < P::dim; ++i) s.end->first.push_back(x.q[i]), s.end->second.push_back(x.v[i]);
  return s;
}

/// The round-off of a run, measured: phase-space (relative, as `global`) and in the energy (relative to |E0|).
struct RoundOff {
  double phase = not_measured, energy = not_measured;
};

/// The round-off in a double run that ended in `end`: the same method, step, start and (double-rounded)
/// parameters in long double differ from it by that run's round-off alone (the truncation error is the same).
/// The shadow is deterministic, like a reference, and cached like one: it was most of a re-run's time.
template <class M, class P>
RoundOff measured_roundoff(const M& m, const P& p, const typename P::State& end, const Grid& grid, const Context& ctx,
                           const std::string& label) {
  std::optional<Shadow> shadow;
  std::string key;
  if (ctx.shadow_cache) {
    key = shadow_key(method_identity(m), label, grid, ctx);
    shadow = load_shadow(*ctx.shadow_cache, key);
  }
  if (!shadow || (shadow->end && (shadow->end->first.size() != P::dim || shadow->end->second.size() != P::dim))) {
    shadow = run_shadow(m, p, grid, ctx);
    if (ctx.shadow_cache) store_shadow(*ctx.shadow_cache, key, *shadow);
  }
  if (!shadow->end) return {};
  RoundOff r;
  r.phase = relative_error(end, *shadow->end, ctx.ref).first;
  using PL = typename Rebind<P, long double>::type;
  const PL pl(ctx.exact_params);
  typename PL::State x;
  for (std::size_t i = 0; i < P::dim; ++i) x.q[i] = shadow->end->first[i], x.v[i] = shadow->end->second[i];
  const double e0 = p.energy(p.initial());
  r.energy = static_cast<double>(std::abs(pl.energy(x) - static_cast<long double>(p.energy(end)))) / (e0 != 0 ? std::abs(e0) : 1.0);
  return r;
}

/// Time per step of the bare stepping loop (steady clock): a warm-up block of min(n, 1000) steps, whose time
/// sizes the `repeats` timed blocks to about 0.25 ms each (at least the warm-up's steps, at most n); minimum
/// and median.  Bounded blocks keep timing a small part of a study (it was a sixth of it at 2e5 steps each),
/// and 0.25 ms is still 10^4 times the clock's resolution.
template <class M, class P>
std::pair<double, double> time_per_step(const M& m, const P& p, double h, long n, int repeats) {
  volatile double sink = 0;  // the loop's result is used: it cannot be optimised away
  auto block = [&](long steps) {
    auto stepper = ode::make_stepper<P>(m);
    typename P::State x = p.initial();
    const auto t0 = std::chrono::steady_clock::now();
    for (long k = 0; k < steps; ++k) stepper.step(x, h, p);
    const auto t1 = std::chrono::steady_clock::now();
    sink = sink + x.q[0];
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(steps);
  };
  constexpr double block_ns = 2.5e5;
  const long warm = std::min<long>(n, 1000);
  const double estimate = std::max(block(warm), 0.1);
  const long steps = std::clamp(static_cast<long>(block_ns / estimate), warm, n);
  std::vector<double> ns;
  for (int rep = 0; rep < repeats; ++rep) ns.push_back(block(steps));
  std::sort(ns.begin(), ns.end());
  return {ns.front(), ns[ns.size() / 2]};
}

/// One run of method m on p with n steps of t_end / n (or the spec's varying steps of that mean): errors,
/// energy, reversibility, cost, samples.
template <class M, class P>
Run measure(const M& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n, const Context& ctx) {
  const RefTable& ref = ctx.ref;
  using State = typename P::State;
  Run r;
  r.integrator = choice.label();
  r.id = choice.id;
  r.substeps = choice.substeps;
  r.steps = n;
  const Grid grid{spec, n};
  const double h = grid.h;
  r.dt = h;
  const double limit = 1e100 * std::max(ref.q_scale, ref.v_scale);

  Counted<P> counted(p);
  auto stepper = ode::make_stepper<Counted<P>>(m);
  State s = p.initial();
  const double e0 = p.energy(s);
  const double energy_scale = std::abs(e0) > 0 ? std::abs(e0) : 1.0;
  std::array<double, 3> l0{};
  if constexpr (P::has_angular_momentum) l0 = p.angular_momentum(s);

  const auto samples = even_indices(n, spec.samples);
  const auto energy_samples = even_indices(n, std::min<long>(n, 1024));
  std::size_t next_sample = 0, next_energy = 0;
  std::vector<double> et, de;
  double l_max = 0;
  const bool want_energy = spec.wants("energy");  // not in the loop: a string comparison per step cost 7 % of a study
  for (long k = 0;; ++k) {
    if (next_sample < samples.size() && samples[next_sample] == k) {
      ++next_sample;
      const double phase = ref.present() ? relative_error(s, ref.state(grid.time(k)), ref).first : not_measured;
      r.sample_t.push_back(grid.time_d(k));
      r.sample_error.push_back(phase);
      r.sample_q.emplace_back(s.q.begin(), s.q.end());
      r.sample_v.emplace_back(s.v.begin(), s.v.end());
      if constexpr (P::conservative) {
        r.sample_energy.push_back((p.energy(s) - e0) / energy_scale);
      } else {
        // Energy is not conserved: its error is against the reference's energy at the same time.
        double error = not_measured;
        if (ref.present()) {
          const auto& at = ref.state(grid.time(k));
          State exact;
          for (std::size_t i = 0; i < P::dim; ++i) exact.q[i] = static_cast<double>(at.first[i]), exact.v[i] = static_cast<double>(at.second[i]);
          error = (p.energy(s) - p.energy(exact)) / energy_scale;
          if (want_energy) et.push_back(grid.time_d(k)), de.push_back(error);
        }
        r.sample_energy.push_back(error);
      }
      if (ref.present()) r.max = std::isnan(r.max) ? phase : std::max(r.max, phase);
    }
    if (P::conservative && want_energy && next_energy < energy_samples.size() && energy_samples[next_energy] == k) {
      ++next_energy;
      et.push_back(grid.time_d(k));
      de.push_back((p.energy(s) - e0) / energy_scale);
      if constexpr (P::has_angular_momentum) {
        const auto l = p.angular_momentum(s);
        l_max = std::max(l_max, norm3({l[0] - l0[0], l[1] - l0[1], l[2] - l0[2]}) / norm3(l0));
      }
    }
    if (k == n) break;
    try {
      stepper.step(s, grid.step(k), counted);
    } catch (const ode::ConvergenceError& e) {
      r.status = "diverged", r.diverged_step = k + 1, r.diverged_t = grid.time_d(k + 1), r.reason = e.what();
      break;
    }
    if (!finite_and_sane(s, limit)) {
      r.status = "diverged", r.diverged_step = k + 1, r.diverged_t = grid.time_d(k + 1);
      r.reason = "the state left the finite range (NaN, inf, or over 1e100 times its scale)";
      break;
    }
  }
  r.force_evals = counted.evaluations(), r.jacobian_evals = counted.jacobians(), r.iterations = counted.iterations();
  if (r.status != "ok") {
    r.max = not_measured;
    return r;
  }

  r.final_q.assign(s.q.begin(), s.q.end());
  r.final_v.assign(s.v.begin(), s.v.end());
  if (ref.present()) {
    const auto [phase, pos] = relative_error(s, ref.state(grid.time(n)), ref);
    r.global = phase, r.position = pos;
    // Every run's round-off is measured (a long double shadow, cached): the checks whose thresholds sit at
    // round-off (exactness, identities between methods, time reversal) and the order fits' noise floors need
    // it, and no estimate fits every scheme (one-step methods accumulate like sqrt(n) to n, the two-step
    // Störmer recurrence like n^2).
    const RoundOff round = measured_roundoff(m, p, s, grid, ctx, r.integrator);
    r.roundoff = round.phase, r.energy_roundoff = round.energy;
  }

  if (spec.wants("reversibility")) {
    // Time reversal (Hairer, Lubich, Wanner, GNI ch. V.1): the same stepper, n more steps of -h.  A symmetric
    // method (Phi_{-h} = Phi_h^{-1}) returns to the start up to round-off; others miss it by O(h^p).
    // The gap is relative to the largest |q| component seen on the way.
    State back = s;
    double scale = 0;
    for (const auto& q : r.sample_q)
      for (double x : q) scale = std::max(scale, std::abs(x));
    const State start = p.initial();
    try {
      for (long k = n - 1; k >= 0; --k) {
        stepper.step(back, -grid.step(k), counted);
        if (!finite_and_sane(back, limit)) throw ode::ConvergenceError("left the finite range");
      }
      double gap = 0;
      for (std::size_t i = 0; i < P::dim; ++i) gap = std::max(gap, std::abs(back.q[i] - start.q[i]));
      r.reversal = gap / (scale > 0 ? scale : 1.0);
    } catch (const ode::ConvergenceError&) {
      r.reversal = not_measured;  // the way back failed (null in results.json)
    }
  }

  if (spec.wants("energy") && !de.empty()) {
    r.energy_max_rel = 0;
    for (double d : de) r.energy_max_rel = std::max(r.energy_max_rel, std::abs(d));
    r.energy_final_rel = de.back();
    double r2 = 0;
    least_squares(et, de, r.energy_drift_per_time, r2);
    if (!std::isfinite(r.energy_drift_per_time)) r.energy_drift_per_time = 0;
    r.energy_class = classify_energy(r.energy_max_rel, r.energy_drift_per_time, spec.t_end, energy_noise(n, r.energy_roundoff));
    if constexpr (P::has_angular_momentum) r.angular_momentum_max_rel = l_max;
  }

  if (spec.wants("local") && ref.present()) {
    // One step of h from reference states; a method with history also gets the reference position one
    // (sub)step back.  Methods with history are judged on positions (their velocity is a difference quotient).
    const double h_sub = h / choice.substeps;
    r.local = r.local_position = 0;
    for (double tau : local_times(spec)) {
      auto fresh = ode::make_stepper<P>(m);
      const auto& start = ctx.ref.state(RefReal(tau));
      State x;
      for (std::size_t i = 0; i < P::dim; ++i) x.q[i] = static_cast<double>(start.first[i]), x.v[i] = static_cast<double>(start.second[i]);
      x.t = tau;
      bool history = false;
      if constexpr (HasHistory<decltype(fresh), State, P>) {
        if (tau - h_sub < 0) continue;
        const auto& before = ref.state(RefReal(tau) - RefReal(h_sub));
        typename P::Vec prev;
        for (std::size_t i = 0; i < P::dim; ++i) prev[i] = static_cast<double>(before.first[i]);
        fresh.set_history(prev, x, h_sub, p);
        history = true;
      }
      try {
        fresh.step(x, h, p);
      } catch (const ode::ConvergenceError&) {
        r.local = r.local_position = not_measured;
        break;
      }
      const auto [lp, lq] = relative_error(x, ref.state(RefReal(tau) + RefReal(h)), ref);
      r.local = std::max(r.local, history ? lq : lp);
      r.local_position = std::max(r.local_position, lq);
    }
  }

  if (spec.wants("walltime")) {
    const auto [fastest, median] = time_per_step(m, p, h, n, spec.repeats);
    r.ns_per_step_min = fastest, r.ns_per_step_median = median;
  }
  return r;
}

/// The cache key of a whole run: this executable (its GNU build ID), the C library and the CPU features its
/// maths functions dispatch on, the method's type and label, the problem, its exact parameters, every spec field
/// the run reads, n, and the reference's digest (engine.cpp).  Empty when the executable has no build ID.
std::string run_key(std::string_view method_type, const std::string& label, const Grid& grid, const Context& ctx);
/// The cached run under `key`, if a sound entry is there.
std::optional<Run> load_run(const std::filesystem::path& dir, const std::string& key);
/// Stores a run (without its timing) atomically; throws std::runtime_error naming the path on failure.
void store_run(const std::filesystem::path& dir, const std::string& key, const Run& run);

/// measure(), or the same run from the run cache with its wall time measured again.  A run is a deterministic
/// function of its key (results do not depend on threads or order): a cached one is the same bytes.
template <class M, class P>
Run reuse_or_measure(const M& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n, const Context& ctx) {
  const Grid grid{spec, n};
  const std::string key = ctx.run_cache ? run_key(method_identity(m), choice.label(), grid, ctx) : std::string();
  if (key.empty()) return measure(m, p, spec, choice, n, ctx);
  if (auto r = ctx.reuse_runs ? load_run(*ctx.run_cache, key) : std::nullopt) {
    if (r->status == "ok" && spec.wants("walltime"))
      std::tie(r->ns_per_step_min, r->ns_per_step_median) = time_per_step(m, p, grid.h, n, spec.repeats);
    r->reused = true;
    return *r;
  }
  Run r = measure(m, p, spec, choice, n, ctx);
  store_run(*ctx.run_cache, key, r);
  return r;
}

/// The long energy run, sampled log-uniformly in time so that growth t^a shows as a straight line.
template <class M, class P>
EnergyLong energy_run(const M& m, const P& p, const Spec& spec, const IntegratorChoice& choice) {
  EnergyLong e;
  e.integrator = choice.label();
  e.steps = std::lround(*spec.energy_t_end / spec.energy_dt);
  const double h = *spec.energy_t_end / static_cast<double>(e.steps);
  e.dt = h;
  std::vector<long> ks;
  for (int i = 0; i <= 120; ++i) ks.push_back(std::max(1L, std::lround(std::pow(static_cast<double>(e.steps), i / 120.0))));
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  auto stepper = ode::make_stepper<P>(m);
  auto s = p.initial();
  const double e0 = p.energy(s), scale = std::abs(e0) > 0 ? std::abs(e0) : 1.0;
  std::size_t next = 0;
  for (long k = 1; k <= e.steps; ++k) {
    try {
      stepper.step(s, h, p);
    } catch (const ode::ConvergenceError&) {
      e.status = "diverged", e.diverged_t = static_cast<double>(k) * h;
      break;
    }
    if (!finite_and_sane(s, 1e100)) {
      e.status = "diverged", e.diverged_t = static_cast<double>(k) * h;
      break;
    }
    if (next < ks.size() && ks[next] == k) {
      ++next;
      e.t.push_back(static_cast<double>(k) * h);
      e.rel_error.push_back((p.energy(s) - e0) / scale);
    }
  }
  // Growth exponent over the second half (in log t) of the samples with a resolvable error.
  std::vector<double> lx, ly;
  for (std::size_t i = e.t.size() / 2; i < e.t.size(); ++i)
    if (std::abs(e.rel_error[i]) > 0) lx.push_back(std::log(e.t[i])), ly.push_back(std::log(std::abs(e.rel_error[i])));
  if (lx.size() >= 3) {
    double r2 = 0;
    least_squares(lx, ly, e.growth_exponent, r2);
    const double half = student_t(0.99, lx.size() - 2) * slope_std_error(lx, ly, e.growth_exponent);
    e.growth_lo = e.growth_exponent - half, e.growth_hi = e.growth_exponent + half;
  }
  return e;
}

/// Spectral radius of the one-step map on x'' = -x with step h (2x2: (q, v), or (x_{n-1}, x_n) with history).
template <class M>
double amplification(const M& m, double h) {
  using P = Harmonic<double>;
  const P p;
  std::array<std::array<double, 2>, 2> a{};
  for (int col = 0; col < 2; ++col) {
    auto st = ode::make_stepper<P>(m);
    P::State s{{col == 0 ? 1.0 : 0.0}, {col == 1 ? 1.0 : 0.0}, 0.0};
    if constexpr (HasHistory<decltype(st), P::State, P>) {
      // Basis of (x_{n-1}, x_n) pairs; the map returns (x_n, x_{n+1}).
      const P::Vec prev{col == 0 ? 1.0 : 0.0};
      s.q = {col == 1 ? 1.0 : 0.0};
      st.set_history(prev, s, h, p);
      const double xn = s.q[0];
      st.step(s, h, p);
      a[0][col] = xn, a[1][col] = s.q[0];
    } else {
      st.step(s, h, p);
      a[0][col] = s.q[0], a[1][col] = s.v[0];
    }
  }
  const double tr = a[0][0] + a[1][1], det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  const std::complex<double> root = std::sqrt(std::complex<double>(tr * tr - 4 * det));
  return std::max(std::abs((tr + root) / 2.0), std::abs((tr - root) / 2.0));
}

/// The largest stable omega h: scanned on 0.01, 0.02, ..., 10, then bisected to 1e-9.
template <class M>
Stability stability(const M& m, const IntegratorChoice& choice) {
  Stability st;
  st.integrator = choice.label();
  const StabilityTheory theory = stability_theory(m);
  st.theory = theory.limit, st.theory_basis = theory.basis;
  const double tolerance = 64 * std::numeric_limits<double>::epsilon();
  std::string failure;
  auto stable = [&](double h) {
    try {
      const double rho = amplification(m, h);
      return std::isfinite(rho) && rho <= 1 + tolerance;
    } catch (const ode::ConvergenceError&) {
      failure = "the Newton iteration of the stage equations stops converging here; the method itself may be stable beyond";
      return false;
    }
  };
  if (!stable(0.01)) {
    st.limit = 0;
    st.note = failure.empty() ? "unstable for every omega h tried: |lambda| > 1 already at omega h = 0.01" : failure;
    return st;
  }
  double lo = 0.01, hi = 0;
  for (int i = 2; i <= 1000 && hi == 0; ++i) {
    if (stable(0.01 * i)) lo = 0.01 * i;
    else hi = 0.01 * i;
  }
  if (hi == 0) {
    st.limit = lo, st.beyond_search = true, st.note = "stable over the whole search range omega h <= 10";
    return st;
  }
  while (hi - lo > 1e-9) {
    const double mid = (lo + hi) / 2;
    (stable(mid) ? lo : hi) = mid;
  }
  st.limit = lo;
  st.note = failure;
  return st;
}

}  // namespace study::engine
