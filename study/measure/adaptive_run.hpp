#pragma once
/// What the adaptive runs' two files share (study/measure/adaptive.cpp, our pairs; adaptive_peers.cpp, Boost.Odeint's
/// controlled steppers): split so that the two compile in parallel.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "integrators/adaptive.hpp"
#include "study/fit/order_fit.hpp"
#include "study/measure/measure.hpp"
#include "study/plan/context.hpp"
#include "study/results/results.hpp"
#include "study/spec/spec.hpp"

namespace study::engine {
namespace adaptive_detail {

inline std::string step_limit_reason(const Spec& spec, double t) {
  return fmt::format("{} steps (tol.max_steps) before t_end, at t = {:.6g}", spec.adaptive_max_steps, t);
}

/// The controller's parameters a stopped run was given, named where they may be the cause: its step cap where the
/// steps reached it, the others (or a program's own controller's) as given.  "" when it ran with the defaults.
inline std::string controller_cause(const SpecAdaptive& a, double h_max) {
  std::string given;
  for (const auto& [k, v] : a.params)
    if (k != "max_dt") given += fmt::format("{}{} = {:g}", given.empty() ? "" : ", ", k, v);
  std::string out;
  if (const auto cap = a.params.find("max_dt"); cap != a.params.end() && cap->second > 0 && h_max >= cap->second * (1 - 1e-12))
    out = fmt::format("; its steps were held to the controller's max_dt = {:g}: a larger max_dt (or 0, no cap) lets them grow", cap->second);
  if (!given.empty()) out += fmt::format("; the {} controller was given {}: its defaults may step further", a.controller, given);
  return out;
}

/// The timed repeats' minimum and median, whole runs.
inline void set_seconds(AdaptiveRun& r, std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  if (!seconds.empty()) r.seconds_min = seconds.front(), r.seconds_median = seconds[seconds.size() / 2];
}

/// Run r's errors at output time j (state s): the phase-space error against the reference there, its largest so far,
/// and the energy's (against the start's, or for a dissipative problem the reference's).
template <class P>
void observe_at(const P& p, const std::vector<double>& times, std::size_t j, const typename P::State& s, const Context& ctx, AdaptiveRun& r) {
  if (!ctx.ref.present()) return;
  const auto [phase, position] = relative_error(s, ctx.ref.state(RefReal(times[j])), ctx.ref);
  r.max = j == 0 || std::isnan(r.max) ? phase : std::max(r.max, phase);
  if (j + 1 == times.size()) r.global = phase, r.position = position;
  const double e0 = p.energy(p.initial());
  const double energy_scale = std::abs(e0) > 0 ? std::abs(e0) : 1.0;
  double energy;
  if constexpr (P::conservative) {
    energy = (p.energy(s) - e0) / energy_scale;
  } else {
    const auto& at = ctx.ref.state(RefReal(times[j]));
    typename P::State exact;
    for (std::size_t i = 0; i < P::dim; ++i) exact.q[i] = static_cast<double>(at.first[i]), exact.v[i] = static_cast<double>(at.second[i]);
    energy = (p.energy(s) - p.energy(exact)) / energy_scale;
  }
  r.energy_max_rel = j == 0 ? std::abs(energy) : std::max(r.energy_max_rel, std::abs(energy));
  if (j + 1 == times.size()) r.energy_final_rel = energy;
  r.sample_error.push_back(phase), r.sample_energy.push_back(energy);
}

/// The output times of a pair's long energy run: 0, then 120 log-uniform times over four decades to energy_t_end
/// (the samples of its energy error; the run lands on them, the other steps are its controller's).
inline std::vector<double> long_run_times(const Spec& spec) {
  const double end = *spec.energy_t_end;
  std::vector<double> t{0};
  for (int i = 0; i < 120; ++i) t.push_back(end * std::pow(1e-4, (120 - i) / 120.0));
  t.push_back(end);
  return t;
}

/// A pair's long energy run as it goes (a conservative problem): the relative energy error of every accepted step,
/// its envelope (the largest so far: a close approach's spike lasts a few steps, and samples far apart would find
/// higher ones by chance, a false drift), and at each output time that error and envelope.
struct LongRecord {
  const std::vector<double>& times;
  EnergyLong& e;
  double e0, scale;
  double peak = 0;
  double nonfinite_t = not_measured;  ///< where the energy first left the finite range (Odeint accepts a step whose error is NaN)
  std::size_t next = 1;  ///< the next output time to record
  LongRecord(const std::vector<double>& t, EnergyLong& out, double energy0) : times(t), e(out), e0(energy0), scale(std::abs(energy0) > 0 ? std::abs(energy0) : 1.0) {}
  /// An accepted step that ended at time t with energy E.
  void step(double t, double energy) {
    const double error = (energy - e0) / scale;
    if (!std::isfinite(error) && std::isnan(nonfinite_t)) nonfinite_t = t;
    peak = std::isfinite(error) ? std::max(peak, std::abs(error)) : std::numeric_limits<double>::infinity();
    if (next < times.size() && std::abs(t - times[next]) <= 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t)))
      e.t.push_back(times[next]), e.rel_error.push_back(error), e.envelope.push_back(peak), ++next;
  }
  /// After the run: its counts, its largest error, and its growth exponent (from 3 of the problem's time scales on,
  /// as a fixed-step long run's).
  void finish(const Spec& spec, long accepted, double t_reached) {
    e.steps = accepted;
    // Its mean step over the way it went, the time it reached over its accepted steps (none taken: energy_t_end,
    // which the loader can hold as a step).
    e.dt = accepted > 0 && t_reached > 0 ? t_reached / static_cast<double>(accepted) : *spec.energy_t_end;
    e.max_rel = peak;
    if (!std::isfinite(peak)) return;  // diverged: no growth to fit
    const Growth g = energy_growth(e.t, e.envelope, not_measured, 0.99, 3 * spec.time_scale);
    e.growth_exponent = g.exponent, e.growth_lo = g.lo, e.growth_hi = g.hi;
  }
};

/// Why a pair's long energy run stopped at its step limit, and what would let it finish.
inline std::string long_step_limit_reason(const Spec& spec, double t) {
  return fmt::format("{} tries (tol.max_steps: steps accepted or rejected) before energy_t_end = {:g}, at t = {:.6g}: raise tol.max_steps, "
                     "or a larger energy_tol",
                     spec.adaptive_max_steps, *spec.energy_t_end, t);
}


/// The first step: Hairer and Wanner's estimate (HNW I, §II.4) at this tolerance, the same for every repeat and for
/// our pair and Odeint's peer; its force evaluations are added to `evals`.
template <class P>
double first_step(const P& p, const SpecAdaptive& a, double tol, const std::vector<double>& times, long& evals) {
  return ode::starting_step(p.initial(), p, std::min(a.order, a.order_hat), tol, tol, times[1] - times[0], evals);
}

}  // namespace adaptive_detail

/// Boost.Odeint's controlled stepper a.odeint on the spec's problem at tolerance tol, from first_step's estimate (its
/// evaluations counted), into r (its label, id, controller and tolerance already set): adaptive_peers.cpp.
void measure_odeint_peer(const Spec& spec, const SpecAdaptive& a, double tol, const Context& ctx, AdaptiveRun& r, bool time_only = false);
/// Its long energy run at spec.energy_tol into e (its label set).
void odeint_peer_long_run(const Spec& spec, const SpecAdaptive& a, const Context& ctx, EnergyLong& e);

}  // namespace study::engine
