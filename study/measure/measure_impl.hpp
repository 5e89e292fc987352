#pragma once
/// The definitions of the templates measure.hpp declares: included by measure.cpp, which instantiates them for
/// every shipped problem, and by study/extend/problem.hpp, which instantiates them for a problem of the user's.
#include "study/measure/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "study/common/interrupt.hpp"
#include "study/measure/runners.hpp"
#include "study/measure/wide_truth.hpp"
#include "study/problems/all.hpp"

namespace study::engine {
namespace measure_detail {

/// The same method, steps, start and (double-rounded) parameters as the double run, in long double.
template <class P>
Shadow run_shadow(const MethodOn<P>& m, const P& p, const Grid& grid, const Context& ctx) {
  using PL = typename Rebind<P, long double>::type;
  const PL pl(ctx.exact_params);
  const auto shadow = m.long_stepper();
  if (!shadow) return {};  // a step written for double only: no shadow, round-off estimated (orders.cpp)
  typename PL::State x;
  const auto start = p.initial();
  for (std::size_t i = 0; i < P::dim; ++i) x.q[i] = start.q[i], x.v[i] = start.v[i];
  InterruptPoll poll;
  Shadow s;
  auto state = [&] {
    std::pair<std::vector<long double>, std::vector<long double>> at;
    for (std::size_t i = 0; i < P::dim; ++i) at.first.push_back(x.q[i]), at.second.push_back(x.v[i]);
    return at;
  };
  const auto samples = even_indices(grid.n, grid.spec.samples);
  std::size_t next = 0;
  try {
    for (long k = 0;; ++k) {
      if (next < samples.size() && samples[next] == k) ++next, s.samples.push_back(state());
      if (k == grid.n) break;
      poll();
      shadow->step(x, static_cast<long double>(grid.step(k)), pl);
    }
  } catch (const ode::ConvergenceError&) {
    return {};
  }
  s.end.emplace(state());
  return s;
}

/// The round-off of a run, measured: phase-space (relative, as `global`), its largest over the samples (as `max`),
/// and in the energy (relative to |E0|).
struct RoundOff {
  double phase = not_measured, phase_max = not_measured, energy = not_measured;
};

/// The round-off in a double run that ended in `end`: the same method, step, start and (double-rounded)
/// parameters in long double differ from it by that run's round-off alone (the truncation error is the same).
/// The shadow is deterministic, like a reference, and cached like one: it was most of a re-run's time.
template <class P>
RoundOff measured_roundoff(const MethodOn<P>& m, const P& p, const typename P::State& end, const Run& run, const Grid& grid,
                           const Context& ctx, const std::string& label) {
  std::optional<Shadow> shadow;
  std::string key;
  if (ctx.shadow_cache) {
    key = shadow_key(m.identity(), label, grid, ctx);  // "": not to be cached
    if (!key.empty()) shadow = load_shadow(*ctx.shadow_cache, key);
  }
  auto sound = [&](const Shadow& s) {
    if (!s.end) return true;
    bool ok = s.end->first.size() == P::dim && s.end->second.size() == P::dim && s.samples.size() == run.sample_q.size();
    for (const auto& [q, v] : s.samples) ok = ok && q.size() == P::dim && v.size() == P::dim;
    return ok;
  };
  if (!shadow || !sound(*shadow)) {
    shadow = run_shadow(m, p, grid, ctx);
    if (ctx.shadow_cache && !key.empty()) store_shadow(*ctx.shadow_cache, key, *shadow);
  }
  if (!shadow->end) return {};
  RoundOff r;
  r.phase = relative_error(end, *shadow->end, ctx.ref).first;
  // The largest over the samples, where `max` is measured (the double run's sample states against the shadow's).
  r.phase_max = 0;
  for (std::size_t j = 0; j < shadow->samples.size(); ++j) {
    typename P::State at;
    for (std::size_t i = 0; i < P::dim; ++i) at.q[i] = run.sample_q[j][i], at.v[i] = run.sample_v[j][i];
    r.phase_max = std::max(r.phase_max, relative_error(at, shadow->samples[j], ctx.ref).first);
  }
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
template <class P>
std::pair<double, double> time_per_step(const MethodOn<P>& m, const P& p, double h, long n, int repeats) {
  auto block = [&](long steps) { return m.time_steps(p, h, steps); };
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
template <class P>
Run measure(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n, const Context& ctx) {
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
  const auto stepper = m.counted_stepper();
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
  InterruptPoll poll;
  for (long k = 0;; ++k) {
    poll();
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
      stepper->step(s, grid.step(k), counted);
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
    const RoundOff round = measured_roundoff(m, p, s, r, grid, ctx, r.integrator);
    r.roundoff = round.phase, r.roundoff_max = round.phase_max, r.energy_roundoff = round.energy;
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
        poll();
        stepper->step(back, -grid.step(k), counted);
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
      const Counted<P> aside(p);  // these steps are not the run's cost
      const auto fresh = m.counted_stepper();
      const auto& start = ctx.ref.state(RefReal(tau));
      State x;
      for (std::size_t i = 0; i < P::dim; ++i) x.q[i] = static_cast<double>(start.first[i]), x.v[i] = static_cast<double>(start.second[i]);
      x.t = tau;
      bool history = false;
      if (fresh->has_history()) {
        if (tau - h_sub < 0) continue;
        const auto& before = ref.state(RefReal(tau) - RefReal(h_sub));
        typename P::Vec prev;
        for (std::size_t i = 0; i < P::dim; ++i) prev[i] = static_cast<double>(before.first[i]);
        fresh->set_history(prev, x, h_sub, aside);
        history = true;
      }
      try {
        fresh->step(x, h, aside);
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

}  // namespace measure_detail

/// Relative phase-space error of a state of any arithmetic against the float128 reference, computed in float128.
template <class State>
double wide_error(const State& s, const RefTable::WideStates& ref, const RefTable& table) {
  using boost::multiprecision::abs;
  RefReal dq = 0, dv = 0;
  for (std::size_t i = 0; i < State::dim; ++i) {
    dq = std::max(dq, RefReal(abs(RefReal(s.q[i]) - ref.first[i])));
    dv = std::max(dv, RefReal(abs(RefReal(s.v[i]) - ref.second[i])));
  }
  return std::max(static_cast<double>(dq / RefReal(table.q_scale)), static_cast<double>(dv / RefReal(table.v_scale)));
}

/// The wide run in arithmetic R (long double or float128): the same method, steps and double-rounded parameters as
/// the double run, its errors (global at t_end, the largest over the samples, one step from reference states) against
/// the float128 reference from the double run's start, or, in float128 where exact_wide_truth holds, against the
/// problem's exact solution from its own float128 start (the float128 reference's own error, ~1e-27 over a few
/// periods, would hide a high-order method's last halvings; the exact solution's is ~1e-31).  `make` gives a fresh
/// stepper on P in R.
template <class PR, class Make>
WideRun wide_in(const Make& make, const Spec& spec, const IntegratorChoice& choice, long n, const Context& ctx, const std::string& arithmetic,
                const typename PR::State& start) {
  using R = typename PR::real_type;
  using State = typename PR::State;
  const PR p(ctx.exact_params);
  auto truth = [&](const RefReal& t) -> RefTable::WideStates {
    if constexpr (exact_wide_truth<PR>) {
      const auto e = p.exact(t);
      return {{e.q.begin(), e.q.end()}, {e.v.begin(), e.v.end()}};
    } else {
      return ctx.ref.wide_state(t);
    }
  };
  WideRun w;
  w.integrator = choice.label(), w.arithmetic = arithmetic, w.steps = n;
  const Grid grid{spec, n};
  w.dt = grid.h;
  const double limit = 1e100 * std::max(ctx.ref.q_scale, ctx.ref.v_scale);
  auto sane = [&](const State& s) {
    using std::abs;
    using boost::multiprecision::abs;
    for (std::size_t i = 0; i < PR::dim; ++i)
      if (!(abs(s.q[i]) <= R(limit)) || !(abs(s.v[i]) <= R(limit))) return false;  // also false for NaN
    return true;
  };
  const auto stepper = make();
  State s = start;
  if constexpr (exact_wide_truth<PR>) s = p.initial();
  const auto samples = even_indices(n, spec.samples);
  std::size_t next = 0;
  w.max = 0;
  InterruptPoll poll;
  try {
    for (long k = 0;; ++k) {
      poll();
      if (next < samples.size() && samples[next] == k) ++next, w.max = std::max(w.max, wide_error(s, truth(grid.time(k)), ctx.ref));
      if (k == n) break;
      stepper->step(s, R(grid.step(k)), p);
      if (!sane(s)) throw ode::ConvergenceError("the state left the finite range (NaN, inf, or over 1e100 times its scale)");
    }
  } catch (const ode::ConvergenceError& e) {
    w.status = "diverged", w.reason = e.what(), w.max = not_measured;
    return w;
  }
  w.global = wide_error(s, truth(grid.time(n)), ctx.ref);
  if (spec.wants("local")) {
    // One step of h from reference states, as the double run's (measure): methods with history get the reference
    // position one (sub)step back and are judged on positions.
    const double h_sub = grid.h / choice.substeps;
    w.local = 0;
    for (double tau : local_times(spec)) {
      const auto fresh = make();
      const auto at = truth(RefReal(tau));
      State x;
      for (std::size_t i = 0; i < PR::dim; ++i) x.q[i] = static_cast<R>(at.first[i]), x.v[i] = static_cast<R>(at.second[i]);
      x.t = R(tau);
      bool history = false;
      if (fresh->has_history()) {
        if (tau - h_sub < 0) continue;
        const auto before = truth(RefReal(tau) - RefReal(h_sub));
        typename PR::Vec prev;
        for (std::size_t i = 0; i < PR::dim; ++i) prev[i] = static_cast<R>(before.first[i]);
        fresh->set_history(prev, x, R(h_sub), p);
        history = true;
      }
      try {
        fresh->step(x, R(grid.h), p);
      } catch (const ode::ConvergenceError&) {
        w.local = not_measured;
        break;
      }
      const auto end = truth(RefReal(tau) + RefReal(grid.h));
      if (history) {
        using boost::multiprecision::abs;
        RefReal dq = 0;
        for (std::size_t i = 0; i < PR::dim; ++i) dq = std::max(dq, RefReal(abs(RefReal(x.q[i]) - end.first[i])));
        w.local = std::max(w.local, static_cast<double>(dq / RefReal(ctx.ref.q_scale)));
      } else {
        w.local = std::max(w.local, wide_error(x, end, ctx.ref));
      }
    }
  }
  return w;
}

template <class P>
WideRun wide_run(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n, const Context& ctx,
                 const std::string& arithmetic) {
  auto run = [&]<class PR>(auto make) {
    if (!make()) {  // the method's step is written for double only
      WideRun w;
      w.integrator = choice.label(), w.arithmetic = arithmetic, w.steps = n, w.dt = Grid{spec, n}.h;
      w.status = "unsupported";
      w.reason = "its step is written for double only (not templated on the problem's real type): no " + arithmetic + " run";
      return w;
    }
    const auto start = p.initial();
    typename PR::State s;
    for (std::size_t i = 0; i < P::dim; ++i) s.q[i] = start.q[i], s.v[i] = start.v[i];
    return wide_in<PR>(make, spec, choice, n, ctx, arithmetic, s);
  };
  if (arithmetic == "long double") return run.template operator()<typename MethodOn<P>::Long>([&] { return m.long_stepper(); });
  if (arithmetic == "float128") return run.template operator()<typename MethodOn<P>::Quad>([&] { return m.quad_stepper(); });
  throw std::logic_error("no arithmetic '" + arithmetic + "'");
}

template <class P>
WideRun reuse_or_measure_wide(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n,
                              const Context& ctx, const std::string& arithmetic) {
  const Grid grid{spec, n};
  std::string key = ctx.run_cache ? run_key(m.identity(), choice.label(), grid, ctx) : std::string();
  if (key.empty()) return wide_run(m, p, spec, choice, n, ctx, arithmetic);
  key += "wide " + arithmetic + (arithmetic == "float128" && exact_wide_truth<typename MethodOn<P>::Quad> ? " exact" : "") + "\n";
  if (auto w = ctx.reuse_runs ? load_wide_run(*ctx.run_cache, key) : std::nullopt) {
    w->reused = true;
    return *w;
  }
  WideRun w = wide_run(m, p, spec, choice, n, ctx, arithmetic);
  store_wide_run(*ctx.run_cache, key, w);
  return w;
}

template <class P>
Run reuse_or_measure(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n, const Context& ctx) {
  const Grid grid{spec, n};
  const std::string key = ctx.run_cache ? run_key(m.identity(), choice.label(), grid, ctx) : std::string();
  struct Counted {  // each run that returns counts, whichever way it came
    ~Counted() { ++runs_finished(); }
  } counted;
  if (key.empty()) return measure_detail::measure(m, p, spec, choice, n, ctx);
  if (auto r = ctx.reuse_runs ? load_run(*ctx.run_cache, key) : std::nullopt) {
    if (r->status == "ok" && spec.wants("walltime"))
      std::tie(r->ns_per_step_min, r->ns_per_step_median) = measure_detail::time_per_step(m, p, grid.h, n, spec.repeats);
    r->reused = true;
    return *r;
  }
  Run r = measure_detail::measure(m, p, spec, choice, n, ctx);
  store_run(*ctx.run_cache, key, r);
  return r;
}

template <class P>
EnergyLong energy_run(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice) {
  EnergyLong e;
  e.integrator = choice.label();
  e.steps = std::lround(*spec.energy_t_end / spec.energy_dt);
  const double h = *spec.energy_t_end / static_cast<double>(e.steps);
  e.dt = h;
  std::vector<long> ks;
  for (int i = 0; i <= 120; ++i) ks.push_back(std::max(1L, std::lround(std::pow(static_cast<double>(e.steps), i / 120.0))));
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  const Counted<P> counted(p);
  const auto stepper = m.counted_stepper();
  auto s = p.initial();
  const double e0 = p.energy(s), scale = std::abs(e0) > 0 ? std::abs(e0) : 1.0;
  std::size_t next = 0;
  // The envelope: the largest error of every step, not of the samples only (a close approach's spike lasts a few
  // steps, and log-uniform samples, far apart late in the run, would find higher ones by chance: a false drift).
  double peak = 0;
  InterruptPoll poll;
  for (long k = 1; k <= e.steps; ++k) {
    poll();
    try {
      stepper->step(s, h, counted);
    } catch (const ode::ConvergenceError&) {
      e.status = "diverged", e.diverged_t = static_cast<double>(k) * h;
      break;
    }
    if (!finite_and_sane(s, 1e100)) {
      e.status = "diverged", e.diverged_t = static_cast<double>(k) * h;
      break;
    }
    const double error = (p.energy(s) - e0) / scale;
    peak = std::max(peak, std::abs(error));
    if (next < ks.size() && ks[next] == k) {
      ++next;
      e.t.push_back(static_cast<double>(k) * h);
      e.rel_error.push_back(error);
      e.envelope.push_back(peak);
    }
  }
  e.max_rel = peak;
  // Fitted from 3 time scales on, where a bounded error's envelope has reached its height.
  const Growth g = energy_growth(e.t, e.envelope, not_measured, 0.99, 3 * spec.time_scale);
  e.growth_exponent = g.exponent, e.growth_lo = g.lo, e.growth_hi = g.hi;
  return e;
}

}  // namespace study::engine
