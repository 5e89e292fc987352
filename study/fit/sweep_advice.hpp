#pragma once
/// What an undetermined order's advice may say, given why its sweep stopped: the engine's verdicts
/// (study/results/orders.cpp) and the gate's (study/check/check.cpp) take their reason and action from these
/// rules, so that an action is one that could change the outcome.

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "study/fit/order_fit.hpp"

namespace study {

/// Why a sweep ran no smaller step: `none` for the spec's own step sizes; for dt = "auto" (study/measure/sweep.cpp)
/// the orders were decided, the error neared its noise floor, the budget of runs or seconds was spent, the
/// ladder of halvings ended, or (after the noise floor, the seconds or the ladder ended the halvings) the step
/// sizes between the halvings that could decide were all run and did not; a range with dt.past_floor, only the noise
/// floor.  results.json: sweeps[].stop_cause, and
/// what ended the halvings when levels between them followed: sweeps[].halvings_end.
enum class SweepStop { none, decided, floor, runs, seconds, ladder, between };

inline std::string_view stop_name(SweepStop s) {
  switch (s) {
    case SweepStop::decided: return "decided";
    case SweepStop::floor: return "noise-floor";
    case SweepStop::runs: return "runs";
    case SweepStop::seconds: return "seconds";
    case SweepStop::ladder: return "ladder";
    case SweepStop::between: return "between";
    case SweepStop::none: break;
  }
  return "";
}

/// The cause named by stop_name ("" and unknown names: none).
inline SweepStop stop_from_name(std::string_view name) {
  for (SweepStop s : {SweepStop::decided, SweepStop::floor, SweepStop::runs, SweepStop::seconds, SweepStop::ladder, SweepStop::between})
    if (stop_name(s) == name) return s;
  return SweepStop::none;
}

/// How a sweep ended, as the advice needs it.
struct SweepEnd {
  SweepStop stop = SweepStop::none;
  std::size_t runs = 0;  ///< runs the sweep made
  SweepStop halvings = SweepStop::none;  ///< what ended the halvings, when levels between them followed
  bool automatic = false;  ///< dt = "auto" (else a range that dt.past_floor stopped)
};

/// "E1 at dt A, E2 at dt B" when the errors at the sweep's smallest finished steps, over a factor of at least 8 in dt
/// (three halvings), all lie within a factor 2 of each other: a method of order p >= 1 divides its error by
/// 2^(3p) >= 8 there once asymptotic, and pre-asymptotic errors that wander (a phase wrapping round an orbit) differ
/// by more.  Errors within 10 x their noise floor are left out (round-off does not decrease).  "" otherwise.
inline std::string error_not_decreasing(std::vector<ErrorPoint> points, double max_error = INFINITY) {
  std::erase_if(points, [&](const ErrorPoint& p) { return !std::isfinite(p.error) || !(p.error > 10 * p.floor) || p.error > max_error; });
  std::sort(points.begin(), points.end(), [](const ErrorPoint& a, const ErrorPoint& b) { return a.dt < b.dt; });
  if (points.size() < 3) return "";
  const ErrorPoint& small = points.front();
  const auto large = std::find_if(points.begin(), points.end(), [&](const ErrorPoint& p) { return p.dt >= 8 * small.dt * (1 - 1e-9); });
  if (large == points.end() || large - points.begin() < 2) return "";
  const auto [lo, hi] = std::minmax_element(points.begin(), large + 1, [](const auto& a, const auto& b) { return a.error < b.error; });
  if (hi->error > 2 * lo->error) return "";
  return fmt::format("{:.3g} at dt {}, {:.3g} at dt {}", large->error, short_num(large->dt), small.error, short_num(small.dt));
}

/// The verdict's reason and action made true to how the sweep ended (only undetermined verdicts change):
/// - the error stays within a factor 2 over three halvings, among the errors at or below max_error (all of them
///   once the ladder has ended): no smaller step can decide it; the method may not converge;
/// - "extend the sweep" after an automatic sweep: raise the budget that stopped it (runs or seconds); at the
///   ladder's end, no smaller step exists: a shorter t_end or other parameters; after the noise floor stopped it,
///   smaller steps reach round-off: the same, or more step sizes above it;
/// - after the step sizes between the halvings were run and did not decide: the asymptotic range above round-off
///   is too short for a fit at 99 %: a shorter t_end or other parameters, or a denser dt range by hand;
/// - "add step sizes per decade" after an automatic sweep (at most two per halving): a dt range by hand.
inline OrderVerdict advise(OrderVerdict v, const OrderFit& f, const std::vector<ErrorPoint>& points, const SweepEnd& e,
                           const FitOptions& o = {}) {
  if (v.verdict != "undetermined" || v.action.starts_with("none:")) return v;  // decided, or exact by design
  // Saturated errors (above max_error: a phase wrapped round an orbit) may sit flat before the asymptotic range;
  // only at the ladder's end, where no smaller step exists, do they say the method does not converge.
  const double upto = e.stop == SweepStop::ladder ? INFINITY : o.max_error;
  if (const std::string flat = error_not_decreasing(points, upto); !flat.empty()) {
    v.reason = "the error does not decrease with dt (" + flat + "): the method may not converge on this problem";
    v.action = "none from more or smaller steps: check the method on this problem (its coefficients, its force evaluations)";
    return v;
  }
  if (e.stop == SweepStop::none || e.stop == SweepStop::decided) return v;
  const bool extend = v.action.find("extend the sweep") != std::string::npos;
  const bool between = v.action.find("per decade") != std::string::npos || v.action.find("between dt") != std::string::npos;
  // Where more step sizes would go: the fit's window, or the sweep when there is no fit.
  const std::string window = fmt::format("dt {}..{}", short_num(f.determined ? f.dt_min : f.sweep_dt_min),
                                         short_num(f.determined ? f.dt_max : f.sweep_dt_max));
  if (extend && e.stop == SweepStop::ladder) {
    v.action = fmt::format("the ladder of halvings ended at dt {} (no smaller step): judge it on a shorter t_end or other "
                           "parameters, where the asymptotic range comes at larger steps",
                           short_num(f.sweep_dt_min));
  } else if ((extend || between) && e.halvings != SweepStop::none &&
             (e.stop == SweepStop::runs || e.stop == SweepStop::seconds)) {
    v.action = fmt::format("raise dt.{}: its budget ran out on the step sizes between the halvings ({} runs in all), which may "
                           "still decide it in {}", e.stop == SweepStop::runs ? "runs" : "seconds", e.runs, window);
  } else if ((extend || between) && e.stop == SweepStop::between) {
    const std::string denser = "give dt as a range with per_decade 8 or more in " + window;
    if (e.halvings == SweepStop::seconds)
      v.action = fmt::format("the step sizes between the halvings did not decide it either ({} runs in all), and the budget of "
                             "seconds ended the halvings: raise dt.seconds, or {}", e.runs, denser);
    else if (e.halvings == SweepStop::ladder)
      v.action = fmt::format("the step sizes between the halvings did not decide it either ({} runs in all), and the ladder of "
                             "halvings ended at dt {} (no smaller step): judge it on a shorter t_end or other parameters, or {}",
                             e.runs, short_num(f.sweep_dt_min), denser);
    else
      v.action = fmt::format("the step sizes between the halvings did not decide it either ({} runs in all): the asymptotic range "
                             "above round-off is too short here; judge it on a shorter t_end or other parameters, or {}",
                             e.runs, denser);
  } else if (extend && e.stop == SweepStop::floor) {
    v.action = fmt::format("the sweep stopped within {} x the noise floor at dt {}, so smaller steps reach round-off: judge it on a "
                           "shorter t_end or other parameters, or give dt as a range with a larger per_decade above it",
                           e.automatic ? o.near_floor_factor : o.floor_factor, short_num(f.sweep_dt_min));
  } else if (extend && e.stop == SweepStop::runs) {
    v.action += fmt::format(" (dt = \"auto\": raise dt.runs, now {} runs)", e.runs);
  } else if (extend && e.stop == SweepStop::seconds) {
    v.action += " (dt = \"auto\": raise dt.seconds, whose budget stopped the sweep)";
  } else if (between && e.automatic) {
    v.action += " (dt = \"auto\" takes at most two step sizes per halving: give dt as a range with a larger per_decade there)";
  }
  return v;
}

}  // namespace study
