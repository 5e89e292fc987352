#pragma once
/// What the adaptive runs' two files share (study/measure/adaptive.cpp, our pairs; adaptive_peers.cpp, Boost.Odeint's
/// controlled steppers): split so that the two compile in parallel.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "integrators/adaptive.hpp"
#include "study/measure/measure.hpp"
#include "study/plan/context.hpp"
#include "study/results/results.hpp"
#include "study/spec/spec.hpp"

namespace study::engine {
namespace adaptive_detail {

inline std::string step_limit_reason(const Spec& spec, double t) {
  return fmt::format("{} steps (tol.max_steps) before t_end, at t = {:.6g}", spec.adaptive_max_steps, t);
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

}  // namespace study::engine
