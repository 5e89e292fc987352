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
OrderContext order_context(const StudyResult& res, const std::string& metric, int expected);
/// Every integrator's order fits and verdicts, into res.orders.
void fit_orders(StudyResult& res);

}  // namespace study::engine
