#include "study/check/check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "study/reader/model.hpp"
#include "study/fit/order_fit.hpp"
#include "study/fit/reference_bound.hpp"
#include "study/fit/wide.hpp"
#include "study/fit/sweep_advice.hpp"
#include "study/common/schema.hpp"
#include "study/common/suggest.hpp"

namespace check {
namespace {

using report::g;
using report::RunRow;
using report::Study;
constexpr double eps = std::numeric_limits<double>::epsilon();

/// Outcomes of one study, with its names filled in.
class Checks {
 public:
  Checks(const Study& s, std::vector<Outcome>& out) : s_(s), out_(out) {}
  Outcome& add(Outcome::Status status, const std::string& integrator, const std::string& metric) {
    Outcome o;
    o.status = status, o.study = s_.name, o.problem = s_.problem, o.integrator = integrator, o.metric = metric;
    out_.push_back(std::move(o));
    return out_.back();
  }
  void drop() { out_.pop_back(); }  ///< takes back the last outcome added

 private:
  const Study& s_;
  std::vector<Outcome>& out_;
};

/// "dt 0.0125..0.1, 4 points" (or "dt 0.1" for one).
std::string dt_window(double lo, double hi, std::size_t n, const char* what = "points") {
  return n == 1 ? fmt::format("dt {}", g(lo)) : fmt::format("dt {}..{}, {} {}", g(lo), g(hi), n, what);
}

/// The ok runs of an integrator, largest dt first.
std::vector<const RunRow*> ok_runs(const Study& s, const std::string& label) {
  std::vector<const RunRow*> runs;
  for (const auto& r : s.runs)
    if (r.integrator == label && r.status == "ok") runs.push_back(&r);
  std::sort(runs.begin(), runs.end(), [](const auto* a, const auto* b) { return a->dt > b->dt; });
  return runs;
}

/// Constant acceleration: every method of order >= 2 is exact (study/fit/order_fit.hpp); its orders are not judged.
bool exact_on_constant_acceleration(const Study& s, const report::IntegratorRow& d) {
  return !study::exact_on_constant_acceleration(s.problem, "global", d.expected_global).empty();
}

/// How the integrator's sweep ended, from results.json (none for the spec's own step sizes run to the end, and for a
/// file that does not say; an automatic sweep's cause, or the noise floor that ended a range with dt.past_floor).
study::SweepEnd sweep_end(const Study& s, const std::string& label) {
  const report::SweepRow* sweep = report::find_sweep(s, label);
  if (!sweep) return {};
  const study::SweepStop cause = study::stop_from_name(sweep->stop_cause);
  if (!sweep->automatic && cause != study::SweepStop::floor) return {};  // a range stops at its noise floor only
  return {cause, sweep->dts.size(), study::stop_from_name(sweep->halvings_end), sweep->automatic};
}

/// Why `label` has no run at dt, which a baseline has: its range stopped at the noise floor above it, or the spec's
/// step sizes changed.
std::string why_no_run(const Study& s, const std::string& label, double dt) {
  const report::SweepRow* sweep = report::find_sweep(s, label);
  if (!sweep || sweep->dts.empty() || study::stop_from_name(sweep->stop_cause) != study::SweepStop::floor)
    return "the spec's step sizes changed";
  const double smallest = *std::min_element(sweep->dts.begin(), sweep->dts.end());
  if (dt < smallest)
    return fmt::format("its sweep stopped at the noise floor at dt {} ({})", g(smallest), sweep->automatic ? "dt = \"auto\"" : "dt.past_floor");
  return "the spec's step sizes changed";
}

/// An order's sweep as results.json holds it: (dt, error, noise floor) per run.
std::vector<study::ErrorPoint> error_points(const std::vector<std::array<double, 3>>& sweep) {
  std::vector<study::ErrorPoint> points;
  for (const auto& [dt, error, floor] : sweep) points.push_back({dt, error, floor});
  return points;
}
std::vector<study::ErrorPoint> error_points(const report::OrderRow& order) { return error_points(order.sweep); }

/// Observed orders against the declared (or spec-overridden) ones: every point of the sweep fitted and judged
/// again at this gate's tolerance (study/fit/order_fit.hpp: pass, fail, or undetermined with what would decide it).
void check_orders(const Study& s, const Options& o, Checks& c) {
  for (const auto& d : s.declared)
    for (const std::string metric : {"global", "local"}) {
      const report::OrderRow* ord = report::find_order(s, d.label, metric);
      if (!s.wants(metric) || !ord) continue;
      const std::string exact = study::exact_on_constant_acceleration(s.problem, metric, ord->expected);
      if (!exact.empty()) continue;  // the exactness check judges these
      const std::vector<study::ErrorPoint> points = error_points(*ord);
      study::FitOptions fo;
      fo.tolerance = o.order_tolerance;
      const study::OrderFit fit = study::fit_order(points, fo);
      study::OrderContext context{.expected = static_cast<double>(ord->expected), .tolerance = o.order_tolerance,
                                  .periods = s.periodic && s.period > 0 ? s.t_end / s.period : NAN, .exact = {}};
      study::set_predictions(context, d.predicted_order, d.error_coefficient, d.linear_order, metric);
      if (const report::OrderRow* global = report::find_order(s, d.label, "global"); metric == "local" && global)
        context.resolved_dt = study::resolved_dt(error_points(*global), fo);
      const study::OrderVerdict advised = study::advise(study::judge_order(fit, context), fit, points, sweep_end(s, d.label), fo);
      // Where round-off ended double's range: the wide arithmetics' points, as the engine judged them.
      std::vector<study::WidePoints> wide;
      for (const auto& [arithmetic, pts] : ord->wide) wide.push_back({arithmetic, error_points(pts)});
      const study::ArithmeticVerdict a = study::judge_in_arithmetics(fit, advised, points, wide, context, s.ref_bound, fo);
      const study::OrderVerdict& v = a.verdict;
      Outcome& x = c.add(v.verdict == "pass" ? Outcome::pass : v.verdict == "fail" ? Outcome::fail : Outcome::undetermined,
                         d.label, metric + " order");
      x.expected = fmt::format("{} +/- {}", ord->expected, o.order_tolerance);
      // Declared, predicted (from the coefficients) and measured side by side where they are not all one number.
      const int shift = metric == "local" ? 1 : 0;
      const int predicted = d.predicted_order > 0 ? d.predicted_order + shift : 0;
      const std::string on_linear = d.linear_order > 0 ? fmt::format(", {} on linear problems", d.linear_order + shift) : "";
      if (predicted > 0 && (predicted != ord->expected || d.declared_order + shift != ord->expected || !on_linear.empty()))
        x.expected += fmt::format(" (declared {}, predicted {} from the coefficients{})", d.declared_order + shift, predicted, on_linear);
      const study::OrderFit& decided = a.fit;  // the fit of the arithmetic that decided (or was the widest tried)
      const std::string in = a.arithmetic == "double" ? "" : " (" + a.arithmetic + ")";
      x.observed = decided.determined ? fmt::format("{:.2f} in [{:.2f}, {:.2f}]{}", decided.order, decided.lo, decided.hi, in) : "no fit" + in;
      if (decided.determined) x.window = dt_window(decided.dt_min, decided.dt_max, decided.points);
      if (x.status == Outcome::fail) x.off = fmt::format("off by {:.2f}", std::abs(decided.order - ord->expected));
      if (x.status == Outcome::undetermined) x.off = v.reason, x.action = v.action;
      if (x.status != Outcome::undetermined && !in.empty())  // which arithmetic decided, and why it was needed
        x.off = x.off.empty() ? v.reason : x.off + "; " + v.reason;
      // Round-off ended double's range and no wider arithmetic decided it: why none could (their sweeps' stops: a
      // noise floor reached, or a budget spent, which a larger wide_budget would lift).
      if (x.status == Outcome::undetermined && a.roundoff_dt > 0)
        for (const auto& w : s.wide_sweeps)
          if (w.integrator == d.label && !w.stop.empty()) x.action += " (" + w.arithmetic + ": " + w.stop + ")";
      // Measured where the coefficients predict, not where the method was declared: say so, and what to declare.
      if (x.status != Outcome::pass && decided.determined && predicted > 0 && predicted != ord->expected &&
          std::abs(decided.order - predicted) <= o.order_tolerance) {
        x.off += fmt::format("; the coefficients predict order {}, which is what was measured", predicted);
        if (predicted > ord->expected) x.action = fmt::format("declare order {} (the table's `order`, or the spec's expect)", predicted - shift);
      }
    }
}

/// An adaptive pair's orders measured at fixed steps in the same study (its table and ID-embedded, by their double
/// points: "max" where measured, else "global"), as the engine finds them (study/results/orders.cpp), and the
/// methods that would measure them.
struct PairOrders {
  study::MeasuredOrders orders;
  std::string fixed_ids;
  std::string slope_basis;  ///< the pair's expected slope's, where not its declared orders
};
PairOrders measured_pair_orders(const Study& s, const std::string& pair) {
  PairOrders m;
  std::string id;
  int declared = 0;
  for (const auto& a : s.adaptive)
    if (a.label == pair) id = a.fixed_steps, m.slope_basis = a.slope_basis, declared = a.order;
  m.fixed_ids = "\"" + id + "\", \"" + id + "-embedded\"";
  m.orders = study::measure_pair_orders(id, [&](const std::string& method, const std::string& metric) -> std::optional<std::vector<study::ErrorPoint>> {
    for (const auto& row : s.orders)
      if (row.integrator == method && row.metric == metric) return error_points(row.sweep);
    return std::nullopt;
  });
  m.orders.declared_p = declared;
  return m;
}

/// Adaptive integrators: each one's tolerance proportionality, fitted again from its points and judged against the
/// slope its pair predicts (or the spec's); each run that did not reach t_end, with its cause.
void check_adaptive(const Study& s, const Options& o, Checks& c) {
  for (const auto& p : s.proportionality) {
    const std::vector<study::ErrorPoint> points = error_points(p.points);
    const study::OrderFit fit = study::fit_order(points, study::proportionality_options(o.order_tolerance));
    const PairOrders m = measured_pair_orders(s, p.integrator);
    const study::OrderVerdict v = study::judge_proportionality(fit, p.expected, o.order_tolerance, static_cast<std::size_t>(p.output_limited),
                                                               m.orders, m.fixed_ids, m.slope_basis);
    Outcome& x = c.add(v.verdict == "pass" ? Outcome::pass : v.verdict == "fail" ? Outcome::fail : Outcome::undetermined, p.integrator,
                       "tolerance proportionality");
    x.expected = fmt::format("slope {:.3g} +/- {}", p.expected, o.order_tolerance);
    x.observed = fit.determined ? fmt::format("{:.2f} in [{:.2f}, {:.2f}]", fit.order, fit.lo, fit.hi) : "no fit";
    if (fit.determined) x.window = fmt::format("tol {:.4g}..{:.4g}, {} points", fit.dt_min, fit.dt_max, fit.points);
    if (x.status == Outcome::fail) x.off = fmt::format("off by {:.2f}", std::abs(fit.order - p.expected));
    if (x.status == Outcome::fail && fit.order > p.expected && m.orders.known())
      x.off = fmt::format("off by {:.2f} from the measured orders' {:.2f}", std::abs(fit.order - m.orders.slope()), m.orders.slope());
    if (x.status == Outcome::undetermined) x.off = v.reason, x.action = v.action;
    if (x.status == Outcome::pass && fit.lo > p.expected + o.order_tolerance) x.off = v.reason;  // why a slope above the band passes
  }
  // A pair that ran with no fit (fewer than 3 tolerances): named, with what would decide it, never left out.
  for (const auto& a : s.adaptive)
    if (std::none_of(s.proportionality.begin(), s.proportionality.end(), [&](const auto& p) { return p.integrator == a.label; })) {
      Outcome& x = c.add(Outcome::undetermined, a.label, "tolerance proportionality");
      x.expected = fmt::format("slope {:g} +/- {}", a.expected_slope, o.order_tolerance);
      x.observed = "no fit";
      const std::string why = study::no_slope_reason(s.tolerances.size());
      const auto cut = why.find("; to decide: ");
      x.off = why.substr(0, cut), x.action = why.substr(cut + 13);
    }
  for (const auto& r : s.adaptive_runs) {
    if (r.status == "ok") continue;
    Outcome& x = c.add(Outcome::undetermined, r.integrator, "adaptive run");
    x.expected = "reaches t_end";
    x.observed = fmt::format("{} at tol {:g}", r.status, r.tol);
    x.off = r.reason;
    x.action = r.status == "step-limit" ? "raise tol.max_steps, or a larger tolerance" : "a larger tolerance, or a problem without a singularity";
  }
}

/// The long energy run of `label`, if the study has one.
const report::LongRow* find_long_run(const Study& s, const std::string& label) {
  for (const auto& e : s.energy_long)
    if (e.integrator == label) return &e;
  return nullptr;
}

using report::drift_exponent;

/// "energy bounded" on the long energy run (energy_t_end): the growth exponent of its energy error, with its 99 %
/// interval (results.json), passes wholly below 1/2 and fails wholly above it.  Undetermined where the run is not the
/// method's to judge: it diverged, or its error reached 0.1 (backward error analysis bounds the energy for h small
/// enough only), or the interval straddles 1/2.  At round-off over the whole run (100 eps sqrt(steps)): nothing
/// left to drift.
void judge_long_energy(const Study& s, const report::LongRow& e, Outcome& x) {
  const double span = static_cast<double>(e.steps) * e.dt;
  x.expected = fmt::format("bounded: the long run's energy error grows like t^g with g below {:g} (0 bounded, 1 a drift)",
                           drift_exponent);
  x.window = fmt::format("long run: dt {}, t = {} ({:.0f} {})", g(e.dt), g(span), span / s.period,
                         s.periodic ? "periods" : "periods of the fastest motion");
  const std::string growth = std::isfinite(e.growth_lo)
                                 ? fmt::format("growth exponent {:.2f} in [{:.2f}, {:.2f}] (99%)", e.growth, e.growth_lo, e.growth_hi)
                                 : "no growth exponent";
  // One rule with the study page and the summary (report::long_run_behaviour).
  switch (report::long_run_behaviour(e)) {
    case report::LongBehaviour::stopped:
      x.status = Outcome::undetermined;
      x.observed = fmt::format("diverged at t = {}", g(e.diverged_t));
      x.off = "the long energy run diverged: its step is beyond the method's stability on this problem";
      x.action = fmt::format("give the long run a smaller step (energy_dt below {})", g(e.dt));
      return;
    case report::LongBehaviour::too_large:
      x.status = Outcome::undetermined;
      x.observed = fmt::format("largest energy error {:.2e}, {}", report::long_run_largest(e), growth);
      x.off = fmt::format("the energy error reaches {:.2g}, above 0.1: at dt {} the step is too large for the energy to be the "
                          "method's to keep (backward error analysis bounds it for h small enough)", report::long_run_largest(e), g(e.dt));
      x.action = fmt::format("give the long run a smaller step (energy_dt below {})", g(e.dt));
      return;
    case report::LongBehaviour::roundoff:
      x.status = Outcome::pass;
      x.observed = fmt::format("at round-off over the long run (largest {:.2e})", e.max_rel);
      return;
    default: break;
  }
  x.observed = std::isfinite(e.max_rel) ? fmt::format("{}, largest energy error {:.2e}", growth, e.max_rel) : growth;
  switch (report::long_run_behaviour(e)) {
    case report::LongBehaviour::no_exponent:
      x.status = Outcome::undetermined;
      x.off = "fewer than 3 samples of the run's second half have a nonzero energy error: no growth exponent";
      x.action = "give the long run more steps (a longer energy_t_end)";
      break;
    case report::LongBehaviour::bounded: x.status = Outcome::pass; break;
    case report::LongBehaviour::drifting:
      x.status = Outcome::fail;
      x.off = fmt::format("the energy error grows like t^{:.2f} over the long run: a drift", e.growth);
      break;
    default:
      x.status = Outcome::undetermined;
      x.off = fmt::format("the interval straddles {:g}: bounded and drifting are both within it", drift_exponent);
      x.action = fmt::format("a longer long run (energy_t_end above {}) narrows the interval", g(span));
  }
}

/// Symplectic and symmetric methods keep the energy error bounded on conservative problems with compact
/// energy surfaces (backward error analysis, GNI §IX.8), for h small enough; others are not required to.
/// Judged on the long energy run where the spec has one over at least 6 periods (10 of the fastest motion where
/// there are several): judge_long_energy.  Else on the sweep, over t_end of at least as many periods, at its
/// small-step end: the three smallest step sizes whose energy error is above round-off and below 0.1 (where it is
/// the method's), smallest first.  "Drifting": a linear trend that accounts for half the largest error (the
/// engine's class).  A fail needs the drift at the smallest of them and at the next: a drift that stops as the
/// step halves is the large steps' (a symplectic method at h ~ the periapsis time scale, Kepler e = 0.75, drifts at
/// dt 0.08 and 0.13 and is bounded from dt 0.05 down), one that persists is the method's (a non-symplectic method
/// drifts at every h).
void check_energy(const Study& s, Checks& c) {
  if (!s.conservative || !s.bounded) return;
  for (const auto& d : s.declared) {
    if (!d.symplectic && !d.symmetric) continue;
    const report::LongRow* long_run = find_long_run(s, d.label);
    if (!s.wants("energy") && !long_run) continue;
    const char* metric = "energy bounded";
    // A drift is told from an oscillation only over several of its periods.  The least-squares trend of a
    // bounded oscillation over n of its periods reaches 6/(pi n) of its largest value (an error like sin, which
    // starts at 0: 0.95 at n = 2, 0.48 at n = 4), so 6 periods keep it at 0.32, clear of the 0.5 that classes
    // a drift.  Where the motion has several periods (outer-solar-system, Henon-Heiles, a cluster), 10 of the
    // fastest: the slower motions make the error oscillate on longer scales (over 2 of Jupiter's periods a
    // symplectic method's error looked 80 % linear).
    const double periods = s.periodic ? 6 : 10, span = periods * s.period;
    if (long_run && static_cast<double>(long_run->steps) * long_run->dt >= span * (1 - 1e-12)) {
      judge_long_energy(s, *long_run, c.add(Outcome::pass, d.label, metric));
      continue;
    }
    if (!s.wants("energy")) continue;  // a long run too short to judge, and no energy measured on the sweep
    if (s.t_end < span) {
      Outcome& x = c.add(Outcome::undetermined, d.label, metric);
      x.expected = "bounded energy error";
      x.observed = fmt::format("t_end = {}", g(s.t_end));
      x.off = fmt::format("t_end is under {:g} periods ({}{}){}: a drift cannot be told from an oscillation", periods, g(span),
                          s.periodic ? "" : ", of the fastest motion",
                          long_run ? fmt::format(", and so is the long energy run (t = {})",
                                                 g(static_cast<double>(long_run->steps) * long_run->dt))
                                   : "");
      x.action = fmt::format("give the spec a long energy run (energy_t_end >= {}), or take t_end >= {}", g(span), g(span));
      continue;
    }
    // Round-off: the engine's class (below 100 x the measured round-off, at least 1000 eps), or within 100 times
    // the random walk eps sqrt(n) of n steps, whose trend is noise (implicit midpoint conserves the harmonic energy
    // exactly, and over 3e6 steps its round-off alone reaches 2e-13).
    auto roundoff = [](const RunRow* r) {
      return r->behaviour == "round-off" || r->energy_max <= 100 * eps * std::sqrt(static_cast<double>(r->steps));
    };
    const auto runs = ok_runs(s, d.label);  // largest dt first
    std::vector<const RunRow*> window;      // smallest dt first
    bool all_roundoff = !runs.empty();
    const RunRow* smallest_large = nullptr;  // the smallest step whose energy error is above 0.1
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      const RunRow* r = *it;
      all_roundoff = all_roundoff && roundoff(r);
      if (!r->behaviour.empty() && !roundoff(r) && r->energy_max > 0.1 && !smallest_large) smallest_large = r;
      if (window.size() < 3 && !r->behaviour.empty() && !roundoff(r) && r->energy_max <= 0.1) window.push_back(r);
    }
    Outcome& x = c.add(Outcome::pass, d.label, metric);
    x.expected = "bounded: trend over t_end < 50% of the largest error";
    if (window.empty()) {
      // At round-off everywhere: nothing left to drift.  Otherwise nothing here is the method's to judge.
      x.status = all_roundoff ? Outcome::pass : Outcome::undetermined;
      x.observed = runs.empty() ? "no run finished" : all_roundoff ? "at round-off at every step size"
                                                                   : "no step size with an energy error between round-off and 0.1";
      if (!runs.empty()) x.window = dt_window(runs.back()->dt, runs.front()->dt, runs.size(), "runs");
      if (x.status == Outcome::undetermined) {
        x.off = runs.empty() ? "no run finished" : "the energy error is above 0.1 or at round-off at every step size";
        x.action = runs.empty() || !smallest_large ? "use smaller steps, where the runs finish"
                                                   : fmt::format("add step sizes below dt {}, where the energy error is under 0.1 "
                                                                 "and above round-off", g(smallest_large->dt));
      }
      continue;
    }
    auto share = [&](const RunRow* r) { return std::abs(r->drift) * s.t_end / r->energy_max; };
    const RunRow* smallest = window.front();
    const bool drifts = smallest->behaviour == "drifting";
    const bool persists = drifts && window.size() >= 2 && window[1]->behaviour == "drifting";
    const RunRow* shown = smallest;  // the drift that decides, else the largest share of a trend in the window
    if (!drifts)
      for (const auto* r : window)
        if (share(r) > share(shown)) shown = r;
    x.observed = fmt::format("{} at dt {}: trend {:.2e} over t_end, largest error {:.2e}", shown->behaviour, g(shown->dt),
                             std::abs(shown->drift) * s.t_end, shown->energy_max);
    x.window = dt_window(window.front()->dt, window.back()->dt, window.size(), "runs");
    x.off = fmt::format("trend is {:.0f}% of the largest error", 100 * share(shown));
    if (persists) {
      x.status = Outcome::fail;
    } else if (drifts) {
      x.status = Outcome::undetermined;
      x.off += window.size() == 1 ? "; the only step size between round-off and 0.1: the drift may be the large step's"
                                  : fmt::format("; bounded at the larger dt {}: a drift at one step size decides nothing",
                                                g(window[1]->dt));
      x.action = fmt::format("add step sizes below dt {} whose energy error stays above round-off (does the drift persist?)",
                             g(smallest->dt));
    } else {
      // Bounded at the smallest step above round-off; a drift at larger steps (in the window or above it) stopped as
      // the step shrank: the large steps'.
      const RunRow* drifting = nullptr;  // the smallest step above it that drifts
      for (auto it = runs.rbegin(); it != runs.rend() && !drifting; ++it)
        if ((*it)->dt > smallest->dt && (*it)->behaviour == "drifting") drifting = *it;
      if (drifting)
        x.off += fmt::format("; drifting at the larger dt {}, bounded from dt {} down: the drift is the large steps'",
                             g(drifting->dt), g(smallest->dt));
    }
  }
}

/// The largest ratio of a difference to its allowance over common step sizes, as one outcome.
struct Worst {
  double ratio = -1, diff = 0, allowance = 0, dt = 0, lo = INFINITY, hi = 0;
  std::size_t compared = 0, unmeasured = 0;
  void add(double dt_, double d, double a) {
    ++compared, lo = std::min(lo, dt_), hi = std::max(hi, dt_);
    if (d / a > ratio) ratio = d / a, diff = d, allowance = a, dt = dt_;
  }
  void finish(Outcome& x, const char* what) const {
    if (compared == 0) {
      x.status = Outcome::undetermined;
      x.observed = "nothing to compare";
      x.off = unmeasured ? "round-off not measured" : "no step size where both runs finished";
      x.action = unmeasured ? "run the study again with this version of study (it measures the round-off these checks need)"
                            : "use smaller steps, where the runs finish";
      return;
    }
    x.status = ratio <= 1 ? Outcome::pass : Outcome::fail;
    x.observed = fmt::format("{} {:.2e} at dt {} (allowance {:.2e})", what, diff, g(dt), allowance);
    x.window = dt_window(lo, hi, compared, "step sizes") + (unmeasured ? fmt::format(", {} without round-off measured", unmeasured) : "");
    x.off = fmt::format("{:.3g} x the allowance", ratio);
  }
};

/// The label `label` would have with another id: "velocity-verlet x2" -> "stormer-verlet x2".
std::string relabel(const std::string& label, const std::string& id, const std::string& other) {
  return other + label.substr(id.size());
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = a.size() == b.size() ? 0 : INFINITY;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

/// A gap above the allowance is a fail only when it shrinks with dt like a truncation error: a method that is
/// not symmetric misses the start by O(h^p) or O(h^(p+1)) over a fixed span (slope >= 1 in log gap against
/// log dt), while round-off grows as dt shrinks (more steps).  The end state's round-off does not bound the
/// way back's where the flow amplifies differently at the two ends (an eccentric orbit returns to pericentre,
/// where a timing error is 19 x larger in position than at apocentre for e = 0.9): such a gap is undetermined.
/// The slope is fitted over up to 3 of the largest step sizes above the allowance, where a truncation error
/// would dominate, leaving out the largest step sizes' gaps while they are above the order fits' max_error (a gap
/// of the orbit's size has saturated: a broken method's 0.9 at dt 0.16 beside 0.16 at dt 0.08 is pre-asymptotic,
/// not round-off).  Only that leading run: a gap of that size at a smaller step than a kept one is round-off
/// grown with the steps, and stays in.  `over` is largest dt first; dt_min is the smallest dt compared.
void judge_reversal_gap(std::vector<std::pair<double, double>> over, double dt_min, Outcome& x) {
  const double max_gap = study::FitOptions{}.max_error;
  std::size_t large = 0;
  while (large < over.size() && over[large].second > max_gap) ++large;
  const double saturated_dt = large ? over[large - 1].first : 0;  // the smallest dt of the leading run
  over.erase(over.begin(), over.begin() + static_cast<std::ptrdiff_t>(large));
  const std::string left_out =
      large ? fmt::format(" ({} gap{} above {:g} at dt >= {} left out as pre-asymptotic)", large, large > 1 ? "s" : "",
                          max_gap, g(saturated_dt))
            : "";
  x.status = Outcome::undetermined;
  if (over.empty()) {
    if (dt_min < saturated_dt) {
      x.off += fmt::format("; the gap is above {:g} (pre-asymptotic) at dt >= {} only, and within the allowance below "
                           "it: the large steps' gap (amplified round-off, or a solve that did not converge) decides "
                           "nothing",
                           max_gap, g(saturated_dt));
      x.action = "start the sweep below dt " + g(saturated_dt) + " (or add step sizes between it and dt " + g(dt_min) + ")";
    } else {
      x.off += fmt::format("; every gap above the allowance is above {:g} (pre-asymptotic): neither a truncation "
                           "error's slope nor round-off can be seen",
                           max_gap);
      x.action = "add smaller step sizes, below dt " + g(saturated_dt) + ", where the gap is below " + g(max_gap) +
                 " of the position scale";
    }
    return;
  }
  const std::size_t n = std::min<std::size_t>(over.size(), 3);
  double slope = NAN, r2 = 0;
  if (n >= 2) {
    std::vector<double> log_dt, log_gap;
    for (std::size_t i = 0; i < n; ++i) log_dt.push_back(std::log(over[i].first)), log_gap.push_back(std::log(over[i].second));
    study::least_squares(log_dt, log_gap, slope, r2);
  }
  if (slope >= 1) {
    x.status = Outcome::fail;
    x.off += fmt::format("; the gap shrinks with dt (slope {:.2f} over dt {}..{}): a truncation error, not round-off{}",
                         slope, g(over[n - 1].first), g(over[0].first), left_out);
    return;
  }
  x.off += n < 2 ? "; above the allowance at one step size only: a truncation error would shrink with dt, round-off grows"
                 : fmt::format("; but the gap does not shrink with dt (slope {:.2f} over dt {}..{}): round-off amplified on "
                               "the way back, which the end state's round-off does not bound",
                               slope, g(over[n - 1].first), g(over[0].first));
  x.off += left_out;
  x.action = large ? "add step sizes between dt " + g(over[0].first) + " and " + g(saturated_dt) +
                         " (gaps below " + g(max_gap) + "): an asymmetry shows as a gap that shrinks with dt"
                   : "add larger step sizes (fewer steps, less round-off): an asymmetry shows as a gap that shrinks with dt";
}

/// The identities of the foundation issue (DESIGN.md §4), to round-off: each run's round-off is measured
/// against a long double shadow run, and two runs that are the same method differ by at most a few times it.
void check_identities(const Study& s, const Options& o, Checks& c) {
  const double f = o.identity_factor;
  // Same positions: velocity Verlet and Störmer–Verlet started with the Taylor step; symplectic Euler (kick
  // first) and Störmer–Verlet started with x_{-1} = x_0 - h v_0.
  const std::pair<const char*, const char*> pairs[] = {{"velocity-verlet", "stormer-verlet"},
                                                       {"symplectic-euler", "stormer-verlet (backward-euler)"}};
  // They hold the runs to their measured round-off, which is measured against the reference: a study without one
  // (no global or local error, no energy error of a dissipative problem) has nothing to judge them by.
  const bool measured = s.wants("global") || s.wants("local") || (s.wants("energy") && !s.conservative);
  for (const auto& d : s.declared)
    for (const auto& [id, twin_id] : pairs) {
      if (!measured || d.id != id || d.label.rfind(id, 0) != 0) continue;
      const std::string twin = relabel(d.label, id, twin_id);
      if (std::find(s.integrators.begin(), s.integrators.end(), twin) == s.integrators.end()) continue;
      Outcome& x = c.add(Outcome::pass, d.label, "same positions as " + twin);
      x.expected = fmt::format("|q - q'| <= {:g} x the runs' round-off", f);
      Worst w;
      for (const auto* r : ok_runs(s, d.label)) {
        const RunRow* t = report::run_at(s, twin, r->dt);
        if (!t || t->status != "ok") continue;
        if (!std::isfinite(r->roundoff) || !std::isfinite(t->roundoff)) {
          ++w.unmeasured;
          continue;
        }
        w.add(r->dt, max_diff(r->final_q, t->final_q) / s.position_scale, f * (r->roundoff + t->roundoff) + 4 * eps);
      }
      w.finish(x, "worst |q - q'|");
    }

  if (s.problem == "projectile" && s.wants("global")) {
    std::vector<std::string> exact;
    for (const auto& d : s.declared) {
      if (!exact_on_constant_acceleration(s, d)) continue;
      Outcome& x = c.add(Outcome::pass, d.label, "exact on constant acceleration");
      x.expected = fmt::format("global error <= {:g} x round-off", f);
      Worst w;
      // Unmeasured round-off means the error was too large for round-off to matter: the floor uses its estimate.
      for (const auto* r : ok_runs(s, d.label)) w.add(r->dt, r->global, f * noise_floor(s, *r) + 4 * eps);
      w.finish(x, "worst error");
      if (x.status == Outcome::pass) exact.push_back(d.label);
    }
    for (const auto& d : s.declared) {
      if (d.id != "euler" || exact.empty()) continue;
      const std::string twin = relabel(d.label, "euler", "symplectic-euler");
      if (std::find(s.integrators.begin(), s.integrators.end(), twin) == s.integrators.end()) continue;
      Outcome& x = c.add(Outcome::pass, d.label, "position error opposite to " + twin + "'s");
      x.expected = fmt::format("|q + q' - 2 q_exact| <= {:g} x round-off (q_exact: {})", f, exact.front());
      Worst w;
      for (const auto* r : ok_runs(s, d.label)) {
        const RunRow* t = report::run_at(s, twin, r->dt);
        const RunRow* e = report::run_at(s, exact.front(), r->dt);
        if (!t || !e || t->status != "ok" || e->status != "ok") continue;
        if (!std::isfinite(r->roundoff) || !std::isfinite(t->roundoff)) {
          ++w.unmeasured;
          continue;
        }
        double d_max = 0;
        for (std::size_t i = 0; i < r->final_q.size() && i < t->final_q.size() && i < e->final_q.size(); ++i)
          d_max = std::max(d_max, std::abs(r->final_q[i] + t->final_q[i] - 2 * e->final_q[i]));
        const double e_round = std::isfinite(e->roundoff) ? e->roundoff : e->global;
        w.add(r->dt, d_max / s.position_scale, f * (r->roundoff + t->roundoff + 2 * e_round) + 4 * eps);
      }
      w.finish(x, "worst |q + q' - 2 q_exact|");
    }
  }
}

/// The largest reversal gap round-off can produce in run r (+inf where it cannot be bounded).  The way back starts
/// from the forward run's end, off by its round-off, and adds its own, each at most E = max(r, 50 eps n) (r the
/// forward run's measured round-off, the long double shadow; 50 eps n half the per-step allowance, the linear worst
/// case of one direction); both are carried to the start by the inverse of the flow over [0, t_end].  On a
/// conservative problem the flow is symplectic, and a symplectic matrix's inverse has the same norm as the matrix,
/// which carried the round-off of the forward run's first step into at most r: that norm is at most about
/// A = max(1, r / eps) (a generic first-step round-off has a share of order 1 along the most stretched direction).  So the gap is at most 2 E A; with the identities' factor 10: 20 E A.  A dissipative flow's
/// inverse expands what the forward one contracted: no bound.
double reversal_roundoff_bound(const Study& s, const RunRow& r, const Options& o) {
  if (!s.conservative || !std::isfinite(r.roundoff) || r.roundoff < 0) return INFINITY;
  const double e = std::max(r.roundoff, o.reversal_allowance / 2 * eps * static_cast<double>(r.steps));
  return 2 * o.identity_factor * e * std::max(1.0, r.roundoff / eps);
}

/// Symmetric methods retrace their steps: n steps of h then n of -h return to the start to round-off.
void check_reversal(const Study& s, const Options& o, Checks& c) {
  if (!s.wants("reversibility")) return;
  for (const auto& d : s.declared) {
    if (!d.symmetric) continue;
    Outcome& x = c.add(Outcome::pass, d.label, "time reversal");
    x.expected = fmt::format("back at the start within {:g} eps per step, or {:g} x twice the run's measured round-off",
                             o.reversal_allowance, o.identity_factor);
    Worst w;
    // The way back adds about as much round-off as the way there: the measured round-off of the forward run
    // carries the scheme's own growth (n^2 for the two-step Störmer recurrence), the per-step allowance the
    // linear worst case of one-step methods.
    std::vector<std::pair<double, double>> over;  // (dt, gap) above the allowance, largest dt first
    const RunRow* beyond = nullptr;                // the largest gap above what round-off can produce
    double beyond_bound = 0;
    for (const auto* r : ok_runs(s, d.label))
      if (std::isfinite(r->reversal)) {
        const double per_step = o.reversal_allowance * eps * static_cast<double>(r->steps);
        const double measured = std::isfinite(r->roundoff) ? o.identity_factor * 2 * r->roundoff + 4 * eps : 0;
        const double allowance = std::max(per_step, measured);
        w.add(r->dt, r->reversal, allowance);
        if (r->reversal > allowance && r->reversal > 0) over.emplace_back(r->dt, r->reversal);
        const double bound = reversal_roundoff_bound(s, *r, o);
        // A saturated gap (above the order fits' max_error) is left to the slope rules: at large steps an implicit
        // method's solve may land elsewhere on the way back.
        if (r->reversal > bound && r->reversal <= study::FitOptions{}.max_error &&
            (!beyond || r->reversal / bound > beyond->reversal / beyond_bound))
          beyond = r, beyond_bound = bound;
      }
    w.finish(x, "worst gap");
    if (w.compared == 0) x.off = "no reversal measured", x.action = "use smaller steps, where the way back finishes";
    if (x.status == Outcome::fail && beyond) {
      x.off += fmt::format("; the gap {:.3g} at dt {} is {:.3g} x the most round-off can be expected to produce there ({:g} max(r, {:g} eps n) "
                           "max(1, r/eps) = {:.3g}, r = {:.3g} the run's measured round-off, n = {} steps): not round-off, "
                           "whatever its slope",
                           beyond->reversal, g(beyond->dt), beyond->reversal / beyond_bound, 2 * o.identity_factor,
                           o.reversal_allowance / 2, beyond_bound, beyond->roundoff, beyond->steps);
    } else if (x.status == Outcome::fail) {
      judge_reversal_gap(over, w.lo, x);
    }
  }
}

/// An error against its baseline value at `where`: kept in x's words when it is the largest relative change so far.
void note_change(Outcome& x, double& worst, double error, double baseline, const std::string& where) {
  const double rel = error / baseline - 1;
  if (std::abs(rel) <= worst) return;
  worst = std::abs(rel);
  x.observed = fmt::format("{:.3e} at {} (baseline {:.3e})", error, where, baseline);
  x.off = std::abs(rel) < 1 ? fmt::format("{:+.2f}%", 100 * rel) : fmt::format("{:.3g} x the baseline", rel + 1);
}

/// The error constants against the baseline: every integrator of every study with a global error.
void check_baseline(const Study& s, const Baseline& b, Checks& c) {
  if (!s.wants("global")) return;
  for (const auto& label : s.integrators) {
    Outcome& x = c.add(Outcome::pass, label, "error constant");
    x.expected = fmt::format("global error within {:g}% of the baseline", 100 * b.tolerance);
    const BaselineEntry* e = b.find(s.name, label);
    if (!e) {
      x.status = Outcome::fail;
      x.observed = "not in the baseline";
      x.off = "regenerate it with `study baseline RESULTS_DIR --out FILE`, review and commit";
      continue;
    }
    if (e->points.empty() && std::any_of(s.declared.begin(), s.declared.end(), [&](const report::IntegratorRow& d) {
          return d.label == label && exact_on_constant_acceleration(s, d);
        })) {
      c.drop();  // exact: no error constant exists; the exactness check judges it
      continue;
    }
    if (e->points.empty()) {
      x.status = Outcome::undetermined;
      x.observed = "no error constant in the baseline";
      x.off = "no error lay 1e3 times above its noise floor when the baseline was written";
      x.action = "add larger steps to the spec and regenerate the baseline";
      continue;
    }
    double worst = -1;
    for (const auto& p : e->points) {
      const RunRow* r = nullptr;
      for (const auto& run : s.runs)
        if (run.integrator == label && same_baseline_dt(run.dt, p.dt)) r = &run;
      if (!r || r->status != "ok" || !std::isfinite(r->global)) {
        x.status = Outcome::fail;
        x.observed = r ? fmt::format("{} at dt {}", r->status == "ok" ? "no global error" : r->status, g(p.dt))
                       : fmt::format("no run at dt {} ({}: regenerate the baseline)", g(p.dt), why_no_run(s, label, p.dt));
        x.window = fmt::format("dt {}", g(p.dt));
        x.off = "no error to compare";
        worst = INFINITY;
        break;
      }
      note_change(x, worst, r->global, p.global, "dt " + g(p.dt));
    }
    if (std::isfinite(worst)) {
      x.status = worst <= b.tolerance ? Outcome::pass : Outcome::fail;
      x.window = dt_window(e->points.back().dt, e->points.front().dt, e->points.size(), "step sizes");
    }
  }
  // Adaptive integrators: the error at t_end at each tolerance of the baseline.
  for (const auto& a : s.adaptive) {
    Outcome& x = c.add(Outcome::pass, a.label, "error constant");
    x.expected = fmt::format("global error within {:g}% of the baseline, at each of its tolerances", 100 * b.tolerance);
    const BaselineEntry* e = b.find(s.name, a.label);
    if (!e || e->points.empty()) {
      x.status = e ? Outcome::undetermined : Outcome::fail;
      x.observed = e ? "no error in the baseline" : "not in the baseline";
      x.off = e ? "no error lay 1e3 times above its noise floor when the baseline was written"
                : "regenerate it with `study baseline RESULTS_DIR --out FILE`, review and commit";
      continue;
    }
    double worst = -1;
    for (const auto& p : e->points) {
      const report::AdaptiveRow* r = nullptr;
      for (const auto& run : s.adaptive_runs)
        if (run.integrator == a.label && same_baseline_dt(run.tol, p.dt)) r = &run;
      if (!r || r->status != "ok" || !std::isfinite(r->global)) {
        x.status = Outcome::fail;
        x.observed = r ? fmt::format("{} at tol {}", r->status, g(p.dt)) : fmt::format("no run at tol {} (regenerate the baseline)", g(p.dt));
        x.off = "no error to compare";
        worst = INFINITY;
        break;
      }
      note_change(x, worst, r->global, p.global, "tol " + g(p.dt));
    }
    if (std::isfinite(worst)) {
      x.status = worst > b.tolerance ? Outcome::fail : Outcome::pass;
      x.window = fmt::format("tol {}..{}, {} tolerances", g(e->points.back().dt), g(e->points.front().dt), e->points.size());
    }
  }
  auto listed = [&](const std::string& label) {
    return std::find(s.integrators.begin(), s.integrators.end(), label) != s.integrators.end() ||
           std::any_of(s.adaptive.begin(), s.adaptive.end(), [&](const report::AdaptiveIntegratorRow& a) { return a.label == label; });
  };
  for (const auto& e : b.entries)
    if (e.study == s.name && !listed(e.integrator)) {
      Outcome& x = c.add(Outcome::fail, e.integrator, "error constant");
      x.expected = "a run of every integrator in the baseline";
      x.observed = "in the baseline but not in the results";
      x.off = "run it, or regenerate the baseline";
    }
}

/// Text for an XML attribute: markup escaped; control characters (which XML 1.0 forbids) and bytes that are not
/// UTF-8 replaced by '?', so that a hostile name in a results file cannot make the JUnit file invalid.
std::string xml(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto ch = static_cast<unsigned char>(s[i]);
    if (ch >= 0x80) {  // a UTF-8 sequence: kept whole when it is one
      const std::size_t len = ch >= 0xF0 && ch < 0xF5 ? 4 : ch >= 0xE0 ? 3 : ch >= 0xC2 && ch < 0xE0 ? 2 : 0;
      bool ok = len > 0 && i + len <= s.size();
      for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
      if (ok && len > 2) {  // no overlong forms, no surrogates, nothing above U+10FFFF
        const auto second = static_cast<unsigned char>(s[i + 1]);
        ok = !(ch == 0xE0 && second < 0xA0) && !(ch == 0xED && second > 0x9F) && !(ch == 0xF0 && second < 0x90) &&
             !(ch == 0xF4 && second > 0x8F);
      }
      if (ok) out.append(s, i, len), i += len - 1;
      else out += '?';
      continue;
    }
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
      default: out += ch < 0x20 || ch == 0x7F ? '?' : static_cast<char>(ch);
    }
  }
  return out;
}

/// Every method of order >= 2 is exact on constant acceleration, so a projectile study cannot measure its
/// order (a fourth-order method with a dropped stage is exact there too): undetermined, unless another study
/// in these results decides the order of the same method.
void check_unmeasurable_orders(const report::Results& results, const Options& o, Verdict& v) {
  auto key = [](const report::IntegratorRow& d) { return d.id + "/" + std::to_string(d.expected_global); };
  std::set<std::string> decided;
  for (const auto& s : results.studies)
    for (const auto& d : s.declared)
      for (const auto& x : v.outcomes)
        if (x.study == s.name && x.integrator == d.label && x.metric.ends_with(" order") && x.status != Outcome::undetermined)
          decided.insert(key(d));
  for (const auto& s : results.studies) {
    if (!s.wants("global")) continue;
    Checks c(s, v.outcomes);
    for (const auto& d : s.declared) {
      if (!exact_on_constant_acceleration(s, d) || decided.count(key(d))) continue;
      Outcome& x = c.add(Outcome::undetermined, d.label, "global order");
      x.expected = fmt::format("{} +/- {}", d.expected_global, o.order_tolerance);
      x.observed = "exact on constant acceleration";
      x.off = "every method of order >= 2 is exact here, so its order cannot be measured, and no other study in these "
              "results decides it";
      x.action = "add a study of it on a problem whose force varies (kepler, pendulum)";
    }
  }
}

}  // namespace

std::string Outcome::line() const {
  const char* tag = status == pass ? "PASS" : status == fail ? "FAIL" : "UNDETERMINED";
  std::string l = fmt::format("{} {} ({}) | {} | {} | expected {} | {}", tag, study, problem, integrator, metric, expected, observed);
  if (!window.empty()) l += " | " + window;
  if (!off.empty()) l += " | " + off;
  if (!action.empty()) l += " | to decide: " + action;
  return l;
}

std::size_t Verdict::count(Outcome::Status s) const {
  return static_cast<std::size_t>(std::count_if(outcomes.begin(), outcomes.end(), [&](const Outcome& o) { return o.status == s; }));
}

namespace {

/// Whether an outcome is about integrator `name` (its label, or its id followed by options: "rk4 x2").
bool about(const Outcome& x, const std::string& name) {
  return x.integrator == name || x.integrator.rfind(name + " ", 0) == 0;
}

/// A failure for something the user named that the results do not have.
Outcome missing(const std::string& study, const std::string& integrator, const std::string& what, const std::string& action) {
  Outcome x;
  x.status = Outcome::fail, x.study = study, x.problem = "?", x.integrator = integrator, x.metric = "presence";
  x.expected = what + " in the results", x.observed = "missing", x.off = action;
  return x;
}

}  // namespace

Verdict run_checks(const report::Results& results, const Baseline* baseline, const Options& o) {
  if (!(std::isfinite(o.order_tolerance) && o.order_tolerance > 0))
    throw std::invalid_argument(fmt::format("order tolerance {} must be a finite number > 0", o.order_tolerance));
  auto selected = [&](const std::string& name) {
    return o.studies.empty() || std::find(o.studies.begin(), o.studies.end(), name) != o.studies.end();
  };
  Verdict v;
  for (const auto& s : results.studies) {
    if (!selected(s.name)) continue;
    if (s.declared.empty() && s.adaptive.empty())
      throw report::ReportError((results.dir / "results.json").string() + ": study '" + s.name +
                                "' has no 'integrators' (written before `study check` existed): run `study run` again");
    // Version 2 brought the orders' points and verdicts the gate re-fits; 3 added what the report groups and labels by.
    if (results.schema_version < 2)
      throw report::ReportError(fmt::format("{}: schema_version {}, but this study check reads versions 2 to {} (orders with "
                                            "their points and verdicts): run `study run` again",
                                            (results.dir / "results.json").string(), results.schema_version,
                                            study::results_schema_version));
    if (const std::string why = study::reference_bound_problem(s.ref_bound, study::largest_error(s.runs), s.ref_tol); !why.empty())
      throw report::ReportError((results.dir / "results.json").string() + ": study '" + s.name + "': " + why);
    Checks c(s, v.outcomes);
    check_orders(s, o, c);
    check_energy(s, c);
    check_identities(s, o, c);
    check_reversal(s, o, c);
    check_adaptive(s, o, c);
    if (baseline) check_baseline(s, *baseline, c);
  }
  if (o.studies.empty()) check_unmeasurable_orders(results, o, v);
  if (baseline)
    for (const auto& e : baseline->entries)
      if (selected(e.study) && !report::study_named(results, e.study)) {
        Outcome x = missing(e.study, e.integrator, "the baseline's studies", "run it, or regenerate the baseline from these results");
        x.metric = "error constant", x.observed = "study not in the results";
        v.outcomes.push_back(std::move(x));
      }
  for (const auto& name : o.studies)
    if (!report::study_named(results, name))
      v.outcomes.push_back(missing(name, "?", "study '" + name + "' (--study)", "run it (its spec's name must be " + name + ")"));
  if (!o.integrators.empty()) {
    std::erase_if(v.outcomes, [&](const Outcome& x) {
      return x.metric != "presence" &&
             std::none_of(o.integrators.begin(), o.integrators.end(), [&](const std::string& n) { return about(x, n); });
    });
    for (const auto& name : o.integrators) {
      bool found = false;
      for (const auto& s : results.studies)
        if (selected(s.name))
          for (const auto& d : s.declared) found = found || d.label == name || d.id == name;
      if (!found)
        v.outcomes.push_back(missing(o.studies.empty() ? "any study" : study::join(o.studies), name,
                                     "integrator '" + name + "' (--integrator)", "add it to the spec's integrators and run again"));
    }
  }
  return v;
}

std::string junit_xml(const Verdict& v, const std::string& name) {
  std::map<std::string, std::vector<const Outcome*>> by_study;
  std::vector<std::string> order;
  for (const auto& o : v.outcomes) {
    if (!by_study.count(o.study)) order.push_back(o.study);
    by_study[o.study].push_back(&o);
  }
  std::string out = fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
                                xml(name), v.outcomes.size(), v.count(Outcome::fail), v.count(Outcome::undetermined));
  for (const auto& study : order) {
    const auto& cases = by_study[study];
    const auto failures = std::count_if(cases.begin(), cases.end(), [](const Outcome* o) { return o->status == Outcome::fail; });
    const auto skipped = std::count_if(cases.begin(), cases.end(), [](const Outcome* o) { return o->status == Outcome::undetermined; });
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n", xml(study), cases.size(), failures, skipped);
    for (const Outcome* o : cases) {
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml(study + "." + o->integrator), xml(o->metric));
      if (o->status == Outcome::pass) {
        out += "/>\n";
        continue;
      }
      out += fmt::format(">\n      <{} message=\"{}\"/>\n    </testcase>\n", o->status == Outcome::fail ? "failure" : "skipped", xml(o->line()));
    }
    out += "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

}  // namespace check
