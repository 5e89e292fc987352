#pragma once
/// Stage 4 of a study, orders: each integrator's order fits over its sweep and their verdicts (orders.cpp), from
/// the runs alone.

#include <string>
#include <vector>

#include "study/fit/order_fit.hpp"
#include "study/results/results.hpp"
#include "study/spec/spec.hpp"

namespace study::engine {

/// The metrics whose order a spec fits: global, max and local, of those it measures.
std::vector<std::string> order_metrics(const Spec& spec);
/// One run's point for the order fit of `metric`, with its noise floor.
ErrorPoint error_point(const Run& r, const std::string& metric, double reference_bound);
/// What the verdict on an order needs besides the fit (one-step errors: the caller sets resolved_dt from the same
/// integrator's global errors).
OrderContext order_context(const StudyResult& res, const std::string& metric, const SpecIntegrator& si);
/// One integrator's order of a metric from its double runs: their points, the fit, what its verdict needs, and the
/// verdict (judged, then advised for how the sweep ended).
struct DoubleOrder {
  std::vector<ErrorPoint> points;
  OrderFit fit;
  OrderContext context;
  OrderVerdict verdict;
};
/// `runs` are the integrator's, in the order of res.runs; `end`: how its sweep ended.
DoubleOrder double_order(const StudyResult& res, const SpecIntegrator& si, const std::string& metric, const std::vector<const Run*>& runs,
                         const SweepEnd& end = {});
/// A wide run's point for the order fit of `metric`, with the noise floor the sweep gave it.
ErrorPoint wide_point(const WideRun& w, const std::string& metric);
/// Every integrator's order fits and verdicts, into res.orders: double's, and where round-off ended double's range,
/// the wide arithmetics' (study/fit/wide.hpp).
void fit_orders(StudyResult& res);
/// An adaptive pair's orders measured at fixed steps in the same study (a.fixed_steps and its ID-embedded, each the
/// settled slope of its double points, "max" where measured, else "global"), and those two methods quoted for advice.
MeasuredOrders measured_pair_orders(const StudyResult& res, const SpecAdaptive& a, std::string& fixed_ids);
/// Each adaptive integrator's tolerance proportionality: the slope of its largest error over the output times on the
/// tolerance, fitted and judged by the order fit's rules against the slope its pair predicts (or the spec's).
void fit_proportionality(StudyResult& res);

}  // namespace study::engine
