#pragma once
/// Stage 2b of a study, plan: every run, long energy run and stability search of every spec as a task with its own
/// result slot, so that results do not depend on the order in which threads finish them (plan.cpp).

#include <cstddef>
#include <string>
#include <vector>

#include "study/results/results.hpp"
#include "study/spec/spec.hpp"

namespace study {

/// What one unit of work measures: a run (or a sweep of them), the long energy run, the stability search; and one
/// run in a wider arithmetic, which a sweep makes where round-off ended its orders' range (study/fit/wide.hpp).
/// adaptive: one adaptive pair at one tolerance; adaptive_energy: a pair's long energy run (energy_tol).
enum class TaskKind { run, energy, stability, wide_long_double, wide_float128, adaptive, adaptive_energy };

/// The wide arithmetic of a wide run's kind ("long double", "float128"), and back.
inline const char* arithmetic_of(TaskKind k) { return k == TaskKind::wide_float128 ? "float128" : "long double"; }
inline TaskKind wide_kind(const std::string& arithmetic) {
  return arithmetic == "float128" ? TaskKind::wide_float128 : TaskKind::wide_long_double;
}

namespace engine {

/// One unit of parallel work.
struct Task {
  TaskKind kind;
  std::size_t spec, integrator;
  long steps = 0;
  std::size_t slot = 0;  ///< where its result goes (an automatic sweep: its first run)
  bool automatic = false;  ///< the integrator's whole automatic sweep, one run after the other
  std::size_t sweep = 0;   ///< its slot in res.sweeps
  bool to_floor = false;   ///< the spec's step sizes one after the other, largest first (to dt.past_floor, if given)
  bool wide = false;       ///< a sweep whose orders may be decided in wider arithmetic: it holds the slots below
  std::size_t wide_slot = 0;   ///< its wide runs: wide_slots() from here in res.wide_runs
  std::size_t wide_sweep = 0;  ///< its wide sweeps: one per wide arithmetic from here in res.wide_sweeps
};

/// The slots of res.runs a task fills: (first, count).
std::pair<std::size_t, std::size_t> run_slots(const Task& t, const Spec& spec);
/// The wide runs a sweep may make: each of the spec's step sizes (a ladder's halvings, and the levels between them) in
/// each wide arithmetic.
std::size_t wide_slots(const Spec& spec);

/// Every run, long energy run and stability search, each with its own result slot in `results` (an automatic
/// sweep, and a range with dt.past_floor, reserve a slot for every step of its ladder); longest first.
std::vector<Task> plan(const std::vector<Spec>& specs, std::vector<StudyResult>& results);
/// What a task costs, roughly: force evaluations weighted by what one costs (ProblemFacts::evaluation_cost).  The
/// plan hands tasks out longest first by it.
double task_cost(const Task& t, const std::vector<Spec>& specs);
/// A digest of the specs and their plan: ranks that read different specs (or files that differ between nodes) differ in it.
std::string plan_digest(const std::vector<Spec>& specs, const std::vector<Task>& tasks);
/// What progress says of a task.
std::string describe(const Task& t, const std::vector<Spec>& specs);

}  // namespace engine
}  // namespace study
