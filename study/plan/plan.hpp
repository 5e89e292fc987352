#pragma once
/// Stage 2b of a study, plan: every run, long energy run and stability search of every spec as a task with its own
/// result slot, so that results do not depend on the order in which threads finish them (plan.cpp).

#include <cstddef>
#include <string>
#include <vector>

#include "study/results/results.hpp"
#include "study/spec/spec.hpp"

namespace study {

/// What one unit of work measures.
enum class TaskKind { run, energy, stability };

namespace engine {

/// One unit of parallel work.
struct Task {
  TaskKind kind;
  std::size_t spec, integrator;
  long steps = 0;
  std::size_t slot = 0;  ///< where its result goes (an automatic sweep: its first run)
  bool automatic = false;  ///< the integrator's whole automatic sweep, one run after the other
  std::size_t sweep = 0;   ///< its slot in res.sweeps
  bool to_floor = false;   ///< the spec's step sizes one after the other, largest first, to dt.past_floor
};

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
