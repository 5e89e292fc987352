#pragma once
/// Stage 3 of a study, measure: one run or long energy run of one method on one problem (the stability search,
/// which steps x'' = -x whatever the problem, is in study/measure/binding.hpp).
/// The method comes through the type-erased MethodOn<P> (study/measure/stepper.hpp), so the measurements are compiled
/// once per problem (study/measure/measure.cpp), and every method, built-in or table, is measured by the same code.

#include <atomic>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>
#include <vector>

#include "reference/decimal.hpp"
#include "study/plan/context.hpp"
#include "study/results/results.hpp"
#include "study/spec/spec.hpp"
#include "study/measure/stepper.hpp"

namespace study::engine {

/// Relative phase-space and position error of a double state against a reference state.
template <class State>
std::pair<double, double> relative_error(const State& s, const std::pair<std::vector<long double>, std::vector<long double>>& ref,
                                         const RefTable& table) {
  long double dq = 0, dv = 0;
  for (std::size_t i = 0; i < State::dim; ++i) {
    dq = std::max(dq, std::abs(static_cast<long double>(s.q[i]) - ref.first[i]));
    dv = std::max(dv, std::abs(static_cast<long double>(s.v[i]) - ref.second[i]));
  }
  const double pos = static_cast<double>(dq / table.q_scale);
  return {std::max(pos, static_cast<double>(dv / table.v_scale)), pos};
}

template <class State>
bool finite_and_sane(const State& s, double limit) {
  for (std::size_t i = 0; i < State::dim; ++i)
    if (!(std::abs(s.q[i]) <= limit) || !(std::abs(s.v[i]) <= limit)) return false;  // also false for NaN
  return true;
}

inline double norm3(const std::array<double, 3>& x) { return std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }

/// Energy error classification: "large" above 0.1 (not conserved at this step, whatever its shape);
/// "round-off" within `noise` (the run's round-off); "drifting" when a linear trend accounts for at least half
/// of the largest error; else "bounded".
inline std::string classify_energy(double max_rel, double drift_per_time, double t_end, double noise) {
  if (max_rel > 0.1) return "large";
  if (max_rel <= noise) return "round-off";
  return std::abs(drift_per_time) * t_end >= 0.5 * max_rel ? "drifting" : "bounded";
}

/// The energy error round-off can make over n steps: 100 times the round-off measured at the end of the run
/// (one sample of a random walk can be small by chance), else 100 times the random walk of n roundings
/// (Brouwer's law); at least 1000 eps.  A measured value beats the estimate: on a dissipative problem the energy
/// shrinks, and its round-off with it, while a truncation error of 1e-13 would pass for noise.
inline double energy_noise(long n, double measured) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double estimate = std::isfinite(measured) ? 100 * measured : 100 * eps * std::sqrt(static_cast<double>(n));
  return std::max(1e3 * eps, estimate);
}

/// The end of a round-off shadow run: the long double state, or none where its implicit iteration failed.
struct Shadow {
  std::optional<std::pair<std::vector<long double>, std::vector<long double>>> end;
  /// Its states at the run's sample indices (even_indices(n, samples)), in order: the round-off of the largest error.
  std::vector<std::pair<std::vector<long double>, std::vector<long double>>> samples;
};

/// The cache key of a shadow run: the method's type and label, the build (a hash of the integrator, problem and
/// run-loop sources, compiler, C library; in a program with registrations, its build ID too), the problem, its exact
/// parameters and the grid (run_cache.cpp).  Empty: not to be cached (a program with registrations but no build ID).
std::string shadow_key(std::string_view method_type, const std::string& label, const Grid& grid, const Context& ctx);
/// The cached shadow under `key`, if a sound entry is there (a corrupt or foreign file is ignored).
std::optional<Shadow> load_shadow(const std::filesystem::path& dir, const std::string& key);
/// Stores a shadow atomically; throws std::runtime_error naming the path if the cache cannot be written.
void store_shadow(const std::filesystem::path& dir, const std::string& key, const Shadow& shadow);

/// The cache key of a whole run: this executable (its GNU build ID), the C library and the CPU features its
/// maths functions dispatch on, the method's type and label, the problem, its exact parameters, every spec field
/// the run reads, n, and the reference's digest (run_cache.cpp).  Empty when the executable has no build ID.
std::string run_key(std::string_view method_type, const std::string& label, const Grid& grid, const Context& ctx);
/// What decides a run's bits besides its inputs: this executable's build ID, the C library and the CPU features its
/// maths functions dispatch on (ranks that differ in it would not give the same bytes).
std::string machine_identity();
/// The cached run under `key`, if a sound entry is there.
std::optional<Run> load_run(const std::filesystem::path& dir, const std::string& key);
/// Stores a run (without its timing) atomically; throws std::runtime_error naming the path on failure.
void store_run(const std::filesystem::path& dir, const std::string& key, const Run& run);

/// One run of method m on p with n steps of t_end / n (or the spec's varying steps of that mean): errors,
/// energy, reversibility, cost, samples; or the same run from the run cache, with its wall time measured again.
/// A run is a deterministic function of its key (results do not depend on threads or order): a cached one is the
/// same bytes.
template <class P>
Run reuse_or_measure(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n,
                     const Context& ctx);

/// The run of n steps in a wider arithmetic ("long double", "float128"; study/fit/wide.hpp): its errors against the
/// float128 reference (global, the largest over the samples, one step), or the same from the run cache.  Its noise
/// floors are the caller's to set (they come from the double runs' round-off: study/measure/wide.cpp).
template <class P>
WideRun reuse_or_measure_wide(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice, long n,
                              const Context& ctx, const std::string& arithmetic);
/// The cached wide run under `key`, if a sound entry is there; storing one.
std::optional<WideRun> load_wide_run(const std::filesystem::path& dir, const std::string& key);
void store_wide_run(const std::filesystem::path& dir, const std::string& key, const WideRun& run);

/// The long energy run, sampled log-uniformly in time so that growth t^a shows as a straight line.
template <class P>
EnergyLong energy_run(const MethodOn<P>& m, const P& p, const Spec& spec, const IntegratorChoice& choice);

/// The cache key of an adaptive run (an AdaptiveRun): this executable (its GNU build ID: the pair's code, a program's
/// own controller), the C library and CPU features, the pair's label, a digest of its coefficients (or Odeint's stepper),
/// its controller and parameters, the problem and its exact parameters, t_end, the output times, tol.max_steps, the
/// tolerance and the reference's digest (run_cache.cpp).  Empty when the executable has no build ID.
std::string adaptive_key(const SpecAdaptive& a, double tol, const Spec& spec, const Context& ctx);
/// The cached adaptive run under `key` (without its timing), if a sound entry is there; storing one.
std::optional<AdaptiveRun> load_adaptive_run(const std::filesystem::path& dir, const std::string& key);
void store_adaptive_run(const std::filesystem::path& dir, const std::string& key, const AdaptiveRun& run);

/// Runs this process has finished (measured, or taken from the run cache): what progress counts.
std::atomic<long>& runs_finished();

}  // namespace study::engine
