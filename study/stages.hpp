#pragma once
/// The stages of a study, in the order run_studies (engine.cpp) runs them, one file each:
///   spec.cpp      a spec (TOML, the command line) -> Spec, its integrators and their tables
///   context.cpp   per spec: the double-rounded parameters, the reference table and the caches -> Context
///   plan.cpp      every run, long energy run and stability search of every spec -> tasks with result slots
///   measure.cpp   one task: one method (type-erased, stepper.hpp; bound in methods.hpp) on one problem, with
///                 run_cache.cpp for its cache; sweep.cpp for dt = "auto", which decides its runs as it goes
///   orders.cpp    the order fits and their verdicts
///   write.cpp     results.json and the CSV files
/// Data flows one way: each stage reads what the ones before it made.

#include <string>
#include <vector>

#include "study/engine.hpp"
#include "study/measure.hpp"

namespace study::engine {

/// Stage 2a: what every run of `spec` shares (the reference, when its metrics need one), and the problem's facts
/// and scales recorded in `res`.
Context make_context(const Spec& spec, const EngineOptions& o, StudyResult& res);

/// One unit of parallel work.
struct Task {
  TaskKind kind;
  std::size_t spec, integrator;
  long steps = 0;
  std::size_t slot = 0;  ///< where its result goes (an automatic sweep: its first run)
  bool automatic = false;  ///< the integrator's whole automatic sweep, one run after the other
  std::size_t sweep = 0;   ///< its slot in res.sweeps
};

/// Stage 2b: every run, long energy run and stability search, each with its own result slot in `results` (an
/// automatic sweep reserves a slot for every step of its ladder); longest first.
std::vector<Task> plan(const std::vector<Spec>& specs, std::vector<StudyResult>& results);
/// What progress says of a task.
std::string describe(const Task& t, const std::vector<Spec>& specs);

/// Stage 3, dt = "auto": the task's integrator down the spec's ladder of halvings (sweep.cpp).
void auto_sweep(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run,
                const EngineOptions& o);

/// The metrics whose order a spec fits: global, max and local, of those it measures.
std::vector<std::string> order_metrics(const Spec& spec);
/// One run's point for the order fit of `metric`, with its noise floor.
ErrorPoint error_point(const Run& r, const std::string& metric, double reference_bound);
/// What the verdict on an order needs besides the fit.
OrderContext order_context(const StudyResult& res, const std::string& metric, int expected);
/// Stage 4: every integrator's order fits and verdicts, into res.orders.
void fit_orders(StudyResult& res);

/// The digest of a reference table: part of every run's cache key (run_cache.cpp).
std::string reference_digest(const RefTable& table);

}  // namespace study::engine
