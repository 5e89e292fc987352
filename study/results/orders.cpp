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
OrderContext order_context(const StudyResult& res, const std::string& metric, int expected) {
  return {.expected = static_cast<double>(expected), .tolerance = FitOptions{}.tolerance,
          .periods = res.periodic ? res.spec.t_end / res.period : NAN,
          .exact = exact_on_constant_acceleration(res.spec.problem, metric, expected)};
}

void fit_orders(StudyResult& res) {
  const Spec& spec = res.spec;
  if (spec.steps.size() < 2) return;
  for (const auto& si : spec.integrators) {
    const std::string label = si.choice.label();
    for (const std::string& metric : order_metrics(spec)) {
      Order order{label, metric, metric == "local" ? si.expected_local : si.expected_global, {}, {}, {}};
      for (const Run& r : res.runs)
        if (r.integrator == label) order.points.push_back(error_point(r, metric, res.reference_bound));
      order.fit = fit_order(order.points);
      OrderContext context = order_context(res, metric, order.expected);
      if (metric == "local" && spec.wants("global")) {
        std::vector<ErrorPoint> global;
        for (const Run& r : res.runs)
          if (r.integrator == label) global.push_back(error_point(r, "global", res.reference_bound));
        context.resolved_dt = resolved_dt(global);
      }
      order.verdict = judge_order(order.fit, context);
      SweepEnd end;
      for (const Sweep& w : res.sweeps)
        if (w.integrator == label) end = {w.cause, w.dts.size(), w.halvings, w.automatic};
      order.verdict = advise(order.verdict, order.fit, order.points, end);
      res.orders.push_back(std::move(order));
    }
  }
}

}  // namespace study::engine
