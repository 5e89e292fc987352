// Stage 4a: the order fits -- least squares over the asymptotic window of each integrator's sweep -- and their
// verdicts.
#include <cmath>
#include <limits>

#include "study/results/orders.hpp"

namespace study::engine {

/// One run's point for the order fit of `metric` ("global", "max" or "local"), with its noise floor: the
/// reference's bound, and round-off -- measured (long double shadow run), else its random-walk estimate eps
/// sqrt(n); for one step a few roundings.
ErrorPoint error_point(const Run& r, const std::string& metric, double reference_bound) {
  const double eps = std::numeric_limits<double>::epsilon();
  // The largest error over the run lies where the state is, not where it ends: its round-off is the largest over the
  // samples (a damped oscillator's end state, and its round-off, shrink by orders of magnitude).
  const double measured = metric == "max" && std::isfinite(r.roundoff_max) ? std::max(r.roundoff_max, r.roundoff) : r.roundoff;
  const double roundoff = metric == "local" ? 4 * eps
                          : std::isfinite(measured) ? measured
                                                    : eps * std::sqrt(static_cast<double>(r.steps));
  const double error = metric == "global" ? r.global : metric == "max" ? r.max : r.local;
  return {r.dt, error, std::max(reference_bound, roundoff)};
}

/// The order metrics a spec fits.  global: at t_end; max: largest over the trajectory (immune to
/// cancellations at special times, such as symplectic Euler's O(h) term at multiples of the period); local: one
/// step from reference states.
std::vector<std::string> order_metrics(const Spec& spec) {
  std::vector<std::string> metrics;
  for (const std::string metric : {"global", "max", "local"})
    if (spec.wants(metric == "max" ? "global" : metric)) metrics.push_back(metric);
  return metrics;
}

/// What the verdict on an order needs besides the fit.
OrderContext order_context(const StudyResult& res, const std::string& metric, const SpecIntegrator& si) {
  const int expected = metric == "local" ? si.expected_local : si.expected_global;
  OrderContext c{.expected = static_cast<double>(expected), .tolerance = FitOptions{}.tolerance,
                 .periods = res.periodic ? res.spec.t_end / res.period : NAN,
                 .exact = exact_on_constant_acceleration(res.spec.problem, metric, expected)};
  set_predictions(c, si.predicted.order, si.predicted.error_coefficient, si.predicted.linear_order, metric);
  return c;
}

DoubleOrder double_order(const StudyResult& res, const SpecIntegrator& si, const std::string& metric, const std::vector<const Run*>& runs,
                         const SweepEnd& end) {
  DoubleOrder d;
  for (const Run* r : runs) d.points.push_back(error_point(*r, metric, res.reference_bound));
  d.fit = fit_order(d.points);
  d.context = order_context(res, metric, si);
  if (metric == "local" && res.spec.wants("global")) {
    std::vector<ErrorPoint> global;
    for (const Run* r : runs) global.push_back(error_point(*r, "global", res.reference_bound));
    d.context.resolved_dt = resolved_dt(global);
  }
  d.verdict = advise(judge_order(d.fit, d.context), d.fit, d.points, end);
  return d;
}

ErrorPoint wide_point(const WideRun& w, const std::string& metric) {
  const bool ok = w.status == "ok";
  if (metric == "global") return {w.dt, ok ? w.global : not_measured, w.floor_global};
  if (metric == "max") return {w.dt, ok ? w.max : not_measured, w.floor_max};
  return {w.dt, ok ? w.local : not_measured, w.floor_local};
}

void fit_orders(StudyResult& res) {
  const Spec& spec = res.spec;
  if (!fits_orders(spec)) return;
  for (const auto& si : spec.integrators) {
    const std::string label = si.choice.label();
    std::vector<const Run*> runs;
    for (const Run& r : res.runs)
      if (r.integrator == label) runs.push_back(&r);
    SweepEnd end;
    for (const Sweep& w : res.sweeps)
      if (w.integrator == label) end = {w.cause, w.dts.size(), w.halvings, w.automatic};
    for (const std::string& metric : order_metrics(spec)) {
      const DoubleOrder d = double_order(res, si, metric, runs, end);
      Order order{label, metric, d.context.expected > 0 ? static_cast<int>(d.context.expected) : 0, d.fit, d.verdict, d.points, "double", {}};
      order.expected = metric == "local" ? si.expected_local : si.expected_global;
      for (const std::string& arithmetic : wide_arithmetics()) {
        WidePoints w{arithmetic, {}};
        for (const WideRun& r : res.wide_runs)
          if (r.integrator == label && r.arithmetic == arithmetic && r.status != "unsupported") w.points.push_back(wide_point(r, metric));
        if (!w.points.empty()) order.wide.push_back(std::move(w));
      }
      const ArithmeticVerdict a = judge_in_arithmetics(d.fit, d.verdict, d.points, order.wide, d.context, res.reference_bound);
      order.fit = a.fit, order.verdict = a.verdict, order.arithmetic = a.arithmetic;
      if (a.arithmetic == "double" && a.roundoff_dt > 0) {
        // Round-off ended the range and no wider arithmetic decided it: say why none could.
        for (const WideSweep& w : res.wide_sweeps)
          if (w.integrator == label && !w.stop.empty()) order.verdict.action += " (" + w.arithmetic + ": " + w.stop + ")";
      }
      res.orders.push_back(std::move(order));
    }
  }
}

/// An adaptive pair's orders measured at fixed steps in the same study: its table and ID-embedded (for Odeint's peers,
/// our table of the same coefficients), each the settled slope of its double points, "max" where measured, else "global".
MeasuredOrders measured_pair_orders(const StudyResult& res, const SpecAdaptive& a, std::string& fixed_ids) {
  fixed_ids = "\"" + a.fixed_steps + "\", \"" + a.fixed_steps + "-embedded\"";
  MeasuredOrders m = measure_pair_orders(a.fixed_steps, [&](const std::string& method, const std::string& metric) -> std::optional<std::vector<ErrorPoint>> {
    for (const Order& o : res.orders)
      if (o.integrator == method && o.metric == metric) return o.points;
    return std::nullopt;
  });
  m.declared_p = a.order;
  return m;
}

void fit_proportionality(StudyResult& res) {
  const double eps = std::numeric_limits<double>::epsilon();
  for (const SpecAdaptive& a : res.spec.adaptive) {
    Proportionality p;
    p.integrator = a.label, p.expected = a.expected_slope;
    // The largest error over the output times (immune to the cancellations at whole periods of the error at t_end),
    // its floor the reference's bound and the run's round-off, measured (a long double replay of its steps), else a
    // random walk of round-off over the accepted steps (Odeint's own steppers).
    if (res.spec.tolerances.size() < 3) continue;  // no slope from fewer than 3 tolerances (as orders from fewer steps)
    // A run most of whose steps were cut to land on an output time took the steps the output times set, whatever
    // its tolerance (a smooth problem at loose tolerances): left out of the fit, and counted.
    for (const AdaptiveRun& r : res.adaptive_runs)
      if (r.integrator == a.label && r.status == "ok" && 2 * r.cut > r.accepted) ++p.output_limited;
    for (const AdaptiveRun& r : res.adaptive_runs)
      if (r.integrator == a.label && r.status == "ok" && 2 * r.cut <= r.accepted)
        p.points.push_back({r.tol, r.max, std::max(res.reference_bound, std::isfinite(r.roundoff_max) ? r.roundoff_max
                                                                                  : eps * std::sqrt(static_cast<double>(std::max(1L, r.accepted))))});
    p.fit = fit_order(p.points, proportionality_options());
    std::string fixed_ids;
    const MeasuredOrders measured = measured_pair_orders(res, a, fixed_ids);
    p.verdict = judge_proportionality(p.fit, p.expected, FitOptions{}.tolerance, p.output_limited, measured, fixed_ids, a.slope_basis);
    res.proportionality.push_back(std::move(p));
  }
}

}  // namespace study::engine
