// Stage 2a: per spec, the problem the double integrators really solve (its double-rounded parameters), the
// reference solution at every time a run will be compared at, and the caches.
#include <cstdio>
#include <numbers>
#include <set>

#include "reference/cache.hpp"
#include "reference/reference.hpp"
#include "study/registry/extensions.hpp"
#include "study/plan/context.hpp"

namespace study::engine {
namespace {

/// Every reference time a spec needs: the run samples (k h exactly), and the one-step starts and ends, at every
/// step size a run may take (an automatic sweep's: its ladder and the levels between).
std::set<RefReal> reference_times(const Spec& spec) {
  std::set<RefReal> times;
  std::vector<long> levels = spec.steps;
  if (spec.auto_dt) levels.insert(levels.end(), spec.auto_dt->between.begin(), spec.auto_dt->between.end());
  for (long n : levels) {
    const double h = spec.t_end / static_cast<double>(n);
    const Grid grid{spec, n};
    for (long k : even_indices(n, spec.samples)) times.insert(grid.time(k));
    if (spec.wants("local"))
      for (double tau : local_times(spec)) {
        times.insert(RefReal(tau));
        times.insert(RefReal(tau) + RefReal(h));
        for (const auto& i : spec.integrators)
          if (tau - h / i.choice.substeps >= 0) times.insert(RefReal(tau) - RefReal(h / i.choice.substeps));
      }
  }
  if (!spec.adaptive.empty())
    for (double t : spec.adaptive_times()) times.insert(RefReal(t));  // an adaptive run's output times, exact doubles
  times.erase(RefReal(0));  // the start is exact by construction
  return times;
}

/// Every parameter of the spec's problem (defaults included) as the exact value of its double: the problem
/// the double integrators really solve, to be solved again in wider types.
ParamValues exact_params(const Spec& spec) {
  ParamValues exact;
  for (const auto& info : problem_facts(spec.problem, spec.params).params) {
    const auto it = spec.params.find(std::string(info.name));
    const double value = ode::from_decimal<double>(it != spec.params.end() ? it->second : std::string(info.default_value));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.40g", value);
    exact[std::string(info.name)] = buf;
  }
  return exact;
}

RefTable build_reference(const Spec& spec, const ParamValues& params, const EngineOptions& o) {
  // The reference solves the problem the double integrators solve: their double-rounded parameters and
  // initial state, so that the errors measured are the integrators' and not the rounding of the data.
  reference::Request request{.problem = spec.problem, .params = params, .times = {}, .initial = {}};
  const ProblemFacts facts = problem_facts(spec.problem, spec.params);
  const double period = facts.period;
  std::vector<long double> q0, v0;
  request.initial.emplace();
  for (std::size_t i = 0; i < facts.dim; ++i) {
    request.initial->first.push_back(RefReal(facts.q0[i]));
    request.initial->second.push_back(RefReal(facts.v0[i]));
    q0.push_back(facts.q0[i]), v0.push_back(facts.v0[i]);
  }
  const auto times = reference_times(spec);
  request.times.assign(times.begin(), times.end());
  reference::Options ro;
  ro.tolerance = spec.reference_tol;
  ro.cache_dir = o.cache_dir;
  ro.use_cache = o.use_cache;
  ro.concurrent = o.jobs > 1;  // --jobs 1 means one thread
  ro.budget = {.left = o.reference_work, .per_evaluation = reference_work_per_evaluation * facts.evaluation_cost};
  const reference::Reference ref = reference::compute(request, ro);  // throws Interrupted on a signal

  RefTable table;
  table.at[RefReal(0)] = {q0, v0};
  table.wide[RefReal(0)] = *request.initial;
  long double qs = 0, vs = 0;
  for (std::size_t i = 0; i < ref.times.size(); ++i) {
    std::vector<long double> q, v;
    for (const auto& x : ref.q[i]) q.push_back(static_cast<long double>(x)), qs = std::max(qs, std::abs(q.back()));
    for (const auto& x : ref.v[i]) v.push_back(static_cast<long double>(x)), vs = std::max(vs, std::abs(v.back()));
    table.at[ref.times[i]] = {std::move(q), std::move(v)};
    table.wide[ref.times[i]] = {ref.q[i], ref.v[i]};
  }
  for (auto x : q0) qs = std::max(qs, std::abs(x));
  for (auto x : v0) vs = std::max(vs, std::abs(x));
  table.q_scale = qs > 0 ? static_cast<double>(qs) : 1.0;
  table.v_scale = std::max(static_cast<double>(vs), table.q_scale / (period / (2 * std::numbers::pi)));
  table.bound = static_cast<double>(ref.error_bound);
  return table;
}

}  // namespace

Context make_context(const Spec& spec, const EngineOptions& o, StudyResult& res) {
  Context ctx;
  ctx.exact_params = exact_params(spec);
  const ProblemFacts facts = problem_facts(spec.problem, spec.params);
  res.conservative = facts.conservative, res.bounded = facts.bounded, res.periodic = facts.periodic;
  res.period = facts.period;
  res.time_unit = facts.time_unit, res.length_unit = facts.length_unit;

  // Errors need a reference, and so does the energy error of a dissipative problem; cost and stability do not.
  // An adaptive run is judged by its errors whatever the metrics.
  if (spec.wants("global") || spec.wants("local") || (spec.wants("energy") && !res.conservative) || !spec.adaptive.empty())
    ctx.ref = build_reference(spec, ctx.exact_params, o);
  cache_folders(o, ctx);
  if (o.use_cache) ctx.ref_digest = reference_digest(ctx.ref);
  res.position_scale = ctx.ref.q_scale, res.velocity_scale = ctx.ref.v_scale;
  res.reference_bound = ctx.ref.bound, res.reference_tolerance = spec.reference_tol;
  return ctx;
}

void cache_folders(const EngineOptions& o, Context& ctx) {
  ctx.shadow_cache.reset(), ctx.run_cache.reset();
  if (!o.use_cache) return;
  const auto dir = o.cache_dir ? *o.cache_dir : reference::default_cache_dir();  // only when given none: not made for nothing
  ctx.shadow_cache = dir / "roundoff";
  ctx.run_cache = dir / "runs";
  ctx.reuse_runs = o.reuse_runs;
}

/// XXH3-128 digest of the reference table (times, states, scales, bound): a run's errors depend on every digit of it.
std::string reference_digest(const RefTable& table) {
  std::string text;
  auto add = [&](long double x) { text += ' ', text += reference::to_hex(x); };
  for (const auto& [t, state] : table.at) {
    text += reference::to_decimal(t);
    for (long double x : state.first) add(x);
    for (long double x : state.second) add(x);
    text += '\n';
  }
  for (const auto& [t, state] : table.wide) {  // the wide runs' errors read every digit of these
    text += reference::to_decimal(t);
    for (const auto& x : state.first) text += ' ' + reference::to_decimal(x);
    for (const auto& x : state.second) text += ' ' + reference::to_decimal(x);
    text += '\n';
  }
  for (double x : {table.q_scale, table.v_scale, table.bound}) add(x);
  return reference::cache::digest_hex(text);
}

}  // namespace study::engine
