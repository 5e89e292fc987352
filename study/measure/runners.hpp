#pragma once
/// How a task is measured: the TaskRunner of the hand-written integrators and method tables (hand_written_*.cpp),
/// and those a user's program registered (study/extend.hpp), keyed by (integrator id, problem id).

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "study/plan/context.hpp"
#include "study/plan/plan.hpp"
#include "study/registry/extensions.hpp"

namespace study {

/// Measures one task of one integrator of a spec into res (its runs, energy_long or stability, at `slot`).
/// The one place where integrator ids meet method types: run_task<Methods> (study/measure/binding.hpp).
using TaskRunner = std::function<void(TaskKind, const Spec&, const SpecIntegrator&, long steps, const engine::Context&,
                                      StudyResult& res, std::size_t slot)>;

/// The TaskRunner of the hand-written integrators (ode::AllMethods) and method tables, the default; a user's
/// registered runner where the integrator or the problem is theirs.
void run_hand_written_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const engine::Context& ctx,
                           StudyResult& res, std::size_t slot);

/// The runners of a user's program, keyed by (integrator id, problem id), "" standing for every shipped one:
/// (id, "") runs a user integrator on the shipped problems, ("", id) the shipped integrators and method tables
/// on a user problem, (id, id) one of each.  Filled before any study starts and read-only after: no lock.
inline std::map<std::pair<std::string, std::string>, TaskRunner, std::less<>>& user_runners() {
  static std::map<std::pair<std::string, std::string>, TaskRunner, std::less<>> runners;
  return runners;
}

/// Registers the runner of `key` (study/extend/): the registry learns that the pair runs, this map how.
inline void register_runner(const std::pair<std::string, std::string>& key, TaskRunner runner) {
  extensions().runnable.insert(key);
  user_runners()[key] = std::move(runner);
}

/// The runner of choice c on `problem` when either is the user's; nullptr when both are shipped (the engine's own
/// dispatch runs them).  Throws std::invalid_argument as runner_key does.
inline const TaskRunner* find_runner(const IntegratorChoice& c, std::string_view problem) {
  const auto key = runner_key(c, problem);
  return key ? &user_runners().at(*key) : nullptr;
}

namespace engine {
/// dt = "auto": the task's integrator down the spec's ladder of halvings (sweep.cpp), each run through `run`.
void auto_sweep(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run);
/// dt = { ..., past_floor = K }: the task's integrator over the spec's step sizes, largest first, until K in a row
/// lie at the noise floor (sweep.cpp), each run through `run`.
void sweep_to_floor(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run);
/// Where the levels between a ladder's halvings may decide an order of a fit that the runs so far leave undecided, as
/// an open interval of dt ({0, 0}: nowhere): the fit's window where more points may decide it, or one halving either
/// side of the usable points when they are too few for a fit (sweep.cpp).
std::pair<double, double> fill_range(const std::vector<ErrorPoint>& points, const OrderFit& fit, const OrderContext& c,
                                     const FitOptions& o);
/// After the task's double sweep: where round-off ended one of its integrator's orders' range before it settled, the
/// same step sizes (and a ladder's further halvings) in long double, then float128, each run through `run`, into the
/// task's wide slots (wide.cpp; study/fit/wide.hpp).
void wide_sweeps(const Task& t, const Spec& spec, const Context& ctx, StudyResult& res, const TaskRunner& run);
}  // namespace engine

}  // namespace study
