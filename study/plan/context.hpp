#pragma once
/// Stage 2a of a study, context: what every run of a spec shares (the double-rounded parameters, the reference
/// table, where the caches are), made once per spec before any run (context.cpp).

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "reference/decimal.hpp"
#include "study/plan/options.hpp"
#include "study/results/results.hpp"
#include "study/spec/spec.hpp"

namespace study::engine {

using RefReal = reference::Real;

/// Reference states by exact time (k h computed exactly in float128), in long double (the double runs' errors) and
/// in float128 (the wide arithmetics': study/fit/wide.hpp), with the scales.
struct RefTable {
  using States = std::pair<std::vector<long double>, std::vector<long double>>;
  using WideStates = std::pair<std::vector<RefReal>, std::vector<RefReal>>;
  std::map<RefReal, States> at;        ///< empty: no errors measured
  std::map<RefReal, WideStates> wide;  ///< the same times
  double q_scale = 1, v_scale = 1, bound = 0;
  bool present() const { return !at.empty(); }

  const States& state(const RefReal& t) const { return find(at, t); }
  const WideStates& wide_state(const RefReal& t) const { return find(wide, t); }

 private:
  template <class Map>
  static const typename Map::mapped_type& find(const Map& m, const RefReal& t) {
    const auto it = m.find(t);
    if (it == m.end()) throw std::logic_error("reference state missing at t = " + reference::to_decimal(t));
    return it->second;
  }
};

/// What every run of a spec shares.
struct Context {
  RefTable ref;
  ParamValues exact_params;  ///< the double-rounded parameters, with enough digits to be exact in any wider type
  std::optional<std::filesystem::path> shadow_cache;  ///< where round-off shadows are cached (none: not cached)
  std::optional<std::filesystem::path> run_cache;     ///< where whole runs are cached (none: not cached)
  bool reuse_runs = true;                             ///< read the run cache (else only refresh it)
  std::string ref_digest;                             ///< XXH3-128 digest of the reference table: part of a run's cache key
};

/// t = k h exactly (a double h times an integer k fits in float128's 113 bits).
inline RefReal exact_time(long k, double h) { return RefReal(k) * RefReal(h); }

/// The time grid of one sweep point: the exact time of point k (where the reference is wanted) and the step
/// from k to k + 1 that the integrator takes.  Constant steps: k h and h.  Varying steps: the spec's grid,
/// whose times and differences are exact doubles.
struct Grid {
  const Spec& spec;
  long n;
  double h = spec.t_end / static_cast<double>(n);
  bool uniform() const { return spec.dt_pattern.empty(); }
  RefReal time(long k) const { return uniform() ? exact_time(k, h) : RefReal(spec.grid_time(k, n)); }
  double time_d(long k) const { return uniform() ? static_cast<double>(k) * h : spec.grid_time(k, n); }
  double step(long k) const { return uniform() ? h : spec.grid_time(k + 1, n) - spec.grid_time(k, n); }
};

/// Sample indices 0 = k_0 < ... < k_m = n, about `count` of them, evenly spread.
inline std::vector<long> even_indices(long n, long count) {
  std::vector<long> ks;
  for (long i = 0; i <= count; ++i) ks.push_back(static_cast<long>(std::llround(static_cast<double>(i) * n / count)));
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

/// The points where one-step errors are measured: fixed fractions of t_end that are not special.
inline std::vector<double> local_times(const Spec& spec) {
  std::vector<double> t;
  for (int j = 0; j < spec.local_points; ++j) t.push_back(spec.t_end * (j + 0.37) / spec.local_points);
  return t;
}

/// What every run of `spec` shares (the reference, when its metrics need one), and the problem's facts and scales
/// recorded in `res`.
Context make_context(const Spec& spec, const EngineOptions& o, StudyResult& res);

/// Where this process caches round-off shadows and runs, and whether it reads them (o.use_cache, o.reuse_runs): set
/// by make_context, and on a rank given a context another computed (study/plan/wire.hpp).
void cache_folders(const EngineOptions& o, Context& ctx);

/// The digest of a reference table: part of every run's cache key (study/measure/run_cache.cpp).
std::string reference_digest(const RefTable& table);

}  // namespace study::engine
