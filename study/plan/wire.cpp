// The bytes of a context and of a task's result slots, for the ranks of an MPI launch: CBOR, every number as its
// own bits.
#include "study/plan/wire.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace study::engine {
namespace {

using json = nlohmann::json;
using Bytes = json::binary_t;

// A long double's value bytes below are x87's 80-bit format's 10: elsewhere they would be another count.
static_assert(std::numeric_limits<long double>::digits == 64, "long double is not x87's 80-bit format here");

/// The type whose bytes stand for a T: float128's own __float128, the others themselves.
template <class T>
using Raw = std::conditional_t<std::is_same_v<T, RefReal>, __float128, T>;
/// The bytes of a value that are its value: a long double's 10 (the rest is padding), every other's all.
template <class T>
constexpr std::size_t value_bytes = std::is_same_v<T, long double> ? 10 : sizeof(Raw<T>);

/// Values as their bytes: doubles, long doubles and float128.
template <class T>
void put_bits(Bytes& out, const T& x) {
  Raw<T> raw;
  if constexpr (std::is_same_v<T, RefReal>) raw = x.backend().value();
  else raw = x;
  static_assert(std::is_trivially_copyable_v<Raw<T>>);
  const auto* p = reinterpret_cast<const std::uint8_t*>(&raw);
  out.insert(out.end(), p, p + value_bytes<T>);
}
template <class T>
T get_bits(const Bytes& in, std::size_t& at) {
  if (at + value_bytes<T> > in.size()) throw std::runtime_error("a message ends inside a number");
  Raw<T> raw{};
  std::memcpy(&raw, in.data() + at, value_bytes<T>);
  at += value_bytes<T>;
  return T(raw);
}

template <class T>
json bits(const std::vector<T>& xs) {
  Bytes b;
  for (const T& x : xs) put_bits(b, x);
  return json::binary(std::move(b));
}
json bits(double x) { return bits(std::vector<double>{x}); }
template <class T>
std::vector<T> vector_of(const json& j) {
  const Bytes& b = j.get_binary();
  std::vector<T> xs;
  std::size_t at = 0;
  while (at < b.size()) xs.push_back(get_bits<T>(b, at));
  return xs;
}
double number(const json& j) {
  const auto xs = vector_of<double>(j);
  if (xs.size() != 1) throw std::runtime_error("a message holds a number of the wrong size");
  return xs[0];
}

json run_json(const Run& r) {
  json j{{"integrator", r.integrator}, {"id", r.id}, {"substeps", r.substeps}, {"dt", bits(r.dt)}, {"steps", r.steps},
         {"status", r.status}, {"diverged_step", r.diverged_step}, {"diverged_t", bits(r.diverged_t)}, {"reason", r.reason},
         {"energy_class", r.energy_class}, {"force_evals", r.force_evals}, {"jacobian_evals", r.jacobian_evals},
         {"iterations", r.iterations}, {"reused", r.reused}};
  j["numbers"] = bits(std::vector<double>{r.global, r.position, r.max, r.local, r.local_position, r.roundoff, r.reversal,
                                          r.energy_max_rel, r.energy_final_rel, r.energy_drift_per_time, r.energy_roundoff,
                                          r.angular_momentum_max_rel, r.ns_per_step_min, r.ns_per_step_median, r.roundoff_max});
  j["final_q"] = bits(r.final_q), j["final_v"] = bits(r.final_v);
  j["sample_t"] = bits(r.sample_t), j["sample_error"] = bits(r.sample_error), j["sample_energy"] = bits(r.sample_energy);
  auto& q = j["sample_q"] = json::array();
  auto& v = j["sample_v"] = json::array();
  for (const auto& x : r.sample_q) q.push_back(bits(x));
  for (const auto& x : r.sample_v) v.push_back(bits(x));
  return j;
}

Run run_of(const json& j) {
  Run r;
  r.integrator = j.at("integrator"), r.id = j.at("id"), r.substeps = j.at("substeps"), r.dt = number(j.at("dt"));
  r.steps = j.at("steps"), r.status = j.at("status"), r.diverged_step = j.at("diverged_step");
  r.diverged_t = number(j.at("diverged_t")), r.reason = j.at("reason"), r.energy_class = j.at("energy_class");
  r.force_evals = j.at("force_evals"), r.jacobian_evals = j.at("jacobian_evals"), r.iterations = j.at("iterations");
  r.reused = j.at("reused");
  const auto n = vector_of<double>(j.at("numbers"));
  if (n.size() != 15) throw std::runtime_error("a run's message holds the wrong count of numbers");
  std::size_t k = 0;
  for (double* x : {&r.global, &r.position, &r.max, &r.local, &r.local_position, &r.roundoff, &r.reversal, &r.energy_max_rel,
                    &r.energy_final_rel, &r.energy_drift_per_time, &r.energy_roundoff, &r.angular_momentum_max_rel,
                    &r.ns_per_step_min, &r.ns_per_step_median, &r.roundoff_max})
    *x = n[k++];
  r.final_q = vector_of<double>(j.at("final_q")), r.final_v = vector_of<double>(j.at("final_v"));
  r.sample_t = vector_of<double>(j.at("sample_t")), r.sample_error = vector_of<double>(j.at("sample_error"));
  r.sample_energy = vector_of<double>(j.at("sample_energy"));
  for (const auto& x : j.at("sample_q")) r.sample_q.push_back(vector_of<double>(x));
  for (const auto& x : j.at("sample_v")) r.sample_v.push_back(vector_of<double>(x));
  return r;
}

json wide_run_json(const WideRun& w) {
  return {{"integrator", w.integrator}, {"arithmetic", w.arithmetic}, {"steps", w.steps}, {"status", w.status}, {"reason", w.reason},
          {"force_evals", w.force_evals}, {"reused", w.reused},
          {"numbers", bits(std::vector<double>{w.dt, w.global, w.max, w.local, w.floor_global, w.floor_max, w.floor_local})}};
}
WideRun wide_run_of(const json& j) {
  WideRun w;
  w.integrator = j.at("integrator"), w.arithmetic = j.at("arithmetic"), w.steps = j.at("steps"), w.status = j.at("status");
  w.reason = j.at("reason"), w.force_evals = j.at("force_evals"), w.reused = j.at("reused");
  const auto n = vector_of<double>(j.at("numbers"));
  if (n.size() != 7) throw std::runtime_error("a wide run's message holds the wrong count of numbers");
  w.dt = n[0], w.global = n[1], w.max = n[2], w.local = n[3], w.floor_global = n[4], w.floor_max = n[5], w.floor_local = n[6];
  return w;
}
json wide_sweep_json(const WideSweep& w) {
  return {{"integrator", w.integrator}, {"arithmetic", w.arithmetic}, {"dts", bits(w.dts)}, {"why", w.why}, {"stop", w.stop},
          {"work", bits(w.work)}, {"reference", w.reference}, {"reference_bound", bits(w.reference_bound)}};
}
WideSweep wide_sweep_of(const json& j) {
  return {j.at("integrator"), j.at("arithmetic"), vector_of<double>(j.at("dts")), j.at("why"), j.at("stop"), number(j.at("work")),
          j.at("reference"), number(j.at("reference_bound"))};
}

json sweep_json(const Sweep& w) {
  return {{"integrator", w.integrator}, {"automatic", w.automatic}, {"dts", bits(w.dts)}, {"stop", w.stop},
          {"cause", static_cast<int>(w.cause)}, {"halvings", static_cast<int>(w.halvings)}};
}
Sweep sweep_of(const json& j) {
  Sweep w;
  w.integrator = j.at("integrator"), w.automatic = j.at("automatic"), w.dts = vector_of<double>(j.at("dts")), w.stop = j.at("stop");
  w.cause = static_cast<SweepStop>(j.at("cause").get<int>()), w.halvings = static_cast<SweepStop>(j.at("halvings").get<int>());
  return w;
}

json energy_json(const EnergyLong& e) {
  return {{"integrator", e.integrator}, {"steps", e.steps}, {"status", e.status}, {"t", bits(e.t)}, {"rel_error", bits(e.rel_error)},
          {"envelope", bits(e.envelope)},
          {"reason", e.reason}, {"numbers", bits(std::vector<double>{e.dt, e.diverged_t, e.growth_exponent, e.growth_lo, e.growth_hi, e.max_rel, e.tol})}};
}
EnergyLong energy_of(const json& j) {
  EnergyLong e;
  e.integrator = j.at("integrator"), e.steps = j.at("steps"), e.status = j.at("status");
  e.t = vector_of<double>(j.at("t")), e.rel_error = vector_of<double>(j.at("rel_error"));
  e.envelope = vector_of<double>(j.at("envelope"));
  const auto n = vector_of<double>(j.at("numbers"));
  if (n.size() != 7) throw std::runtime_error("an energy run's message holds the wrong count of numbers");
  e.dt = n[0], e.diverged_t = n[1], e.growth_exponent = n[2], e.growth_lo = n[3], e.growth_hi = n[4], e.max_rel = n[5], e.tol = n[6];
  e.reason = j.at("reason");
  return e;
}

json adaptive_json(const AdaptiveRun& r) {
  return {{"integrator", r.integrator}, {"id", r.id}, {"controller", r.controller}, {"status", r.status}, {"reason", r.reason},
          {"counts", {r.accepted, r.rejected, r.force_evals, r.cut}},
          {"numbers", bits(std::vector<double>{r.tol, r.t_reached, r.global, r.position, r.max, r.energy_final_rel, r.energy_max_rel, r.h_min,
                                               r.h_max, r.seconds_min, r.seconds_median, r.roundoff, r.roundoff_max})},
          {"sample_error", bits(r.sample_error)}, {"sample_energy", bits(r.sample_energy)}};
}
AdaptiveRun adaptive_of(const json& j) {
  AdaptiveRun r;
  r.integrator = j.at("integrator"), r.id = j.at("id"), r.controller = j.at("controller"), r.status = j.at("status"), r.reason = j.at("reason");
  const json& c = j.at("counts");
  r.accepted = c.at(0), r.rejected = c.at(1), r.force_evals = c.at(2), r.cut = c.at(3);
  const auto n = vector_of<double>(j.at("numbers"));
  if (n.size() != 13) throw std::runtime_error("an adaptive run's message holds the wrong count of numbers");
  r.tol = n[0], r.t_reached = n[1], r.global = n[2], r.position = n[3], r.max = n[4], r.energy_final_rel = n[5], r.energy_max_rel = n[6];
  r.h_min = n[7], r.h_max = n[8], r.seconds_min = n[9], r.seconds_median = n[10], r.roundoff = n[11], r.roundoff_max = n[12];
  r.sample_error = vector_of<double>(j.at("sample_error")), r.sample_energy = vector_of<double>(j.at("sample_energy"));
  return r;
}

json stability_json(const Stability& s) {
  return {{"integrator", s.integrator}, {"limit", bits(s.limit)}, {"beyond_search", s.beyond_search}, {"note", s.note},
          {"theory", bits(s.theory)}, {"theory_basis", s.theory_basis}};
}
Stability stability_of(const json& j) {
  Stability s;
  s.integrator = j.at("integrator"), s.limit = number(j.at("limit")), s.beyond_search = j.at("beyond_search");
  s.note = j.at("note"), s.theory = number(j.at("theory")), s.theory_basis = j.at("theory_basis");
  return s;
}

/// The run slots task t owns: [first, first + count).
std::string encode(const json& j) {
  const std::vector<std::uint8_t> b = json::to_cbor(j);
  return {b.begin(), b.end()};
}
json decode(std::string_view bytes) {
  try {
    return json::from_cbor(bytes.begin(), bytes.end());
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("a message that is not CBOR: ") + e.what());
  }
}

template <class F>
void reading(F&& f) {
  try {
    f();
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("a message of another layout: ") + e.what());
  }
}

}  // namespace

std::string pack_context(const Context& ctx, const StudyResult& res) {
  json j{{"q_scale", bits(ctx.ref.q_scale)}, {"v_scale", bits(ctx.ref.v_scale)}, {"bound", bits(ctx.ref.bound)},
         {"exact_params", ctx.exact_params}, {"ref_digest", ctx.ref_digest}};
  auto& at = j["at"] = json::array();
  for (const auto& [t, state] : ctx.ref.at) at.push_back(json::array({bits(std::vector<RefReal>{t}), bits(state.first), bits(state.second)}));
  auto& wide = j["wide"] = json::array();
  for (const auto& [t, state] : ctx.ref.wide) wide.push_back(json::array({bits(std::vector<RefReal>{t}), bits(state.first), bits(state.second)}));
  j["facts"] = {{"conservative", res.conservative}, {"bounded", res.bounded}, {"periodic", res.periodic},
                {"time_unit", res.time_unit}, {"length_unit", res.length_unit},
                {"numbers", bits(std::vector<double>{res.period, res.position_scale, res.velocity_scale, res.reference_bound,
                                                     res.reference_tolerance})}};
  return encode(j);
}

void unpack_context(std::string_view bytes, Context& ctx, StudyResult& res) {
  const json j = decode(bytes);
  reading([&] {
    Context c;
    c.ref.q_scale = number(j.at("q_scale")), c.ref.v_scale = number(j.at("v_scale")), c.ref.bound = number(j.at("bound"));
    c.exact_params = j.at("exact_params").get<ParamValues>(), c.ref_digest = j.at("ref_digest");
    for (const auto& e : j.at("at")) {
      const auto t = vector_of<RefReal>(e.at(0));
      if (t.size() != 1) throw std::runtime_error("a reference time of the wrong size");
      c.ref.at[t[0]] = {vector_of<long double>(e.at(1)), vector_of<long double>(e.at(2))};
    }
    for (const auto& e : j.at("wide")) {
      const auto t = vector_of<RefReal>(e.at(0));
      if (t.size() != 1) throw std::runtime_error("a reference time of the wrong size");
      c.ref.wide[t[0]] = {vector_of<RefReal>(e.at(1)), vector_of<RefReal>(e.at(2))};
    }
    const json& f = j.at("facts");
    const auto n = vector_of<double>(f.at("numbers"));
    if (n.size() != 5) throw std::runtime_error("a context's message holds the wrong count of numbers");
    res.conservative = f.at("conservative"), res.bounded = f.at("bounded"), res.periodic = f.at("periodic");
    res.time_unit = f.at("time_unit"), res.length_unit = f.at("length_unit");
    res.period = n[0], res.position_scale = n[1], res.velocity_scale = n[2], res.reference_bound = n[3], res.reference_tolerance = n[4];
    c.shadow_cache = std::move(ctx.shadow_cache), c.run_cache = std::move(ctx.run_cache), c.reuse_runs = ctx.reuse_runs;
    ctx = std::move(c);
  });
}

std::string pack_task(const Task& t, const Spec& spec, const StudyResult& res) {
  json j = json::object();
  const auto [first, count] = run_slots(t, spec);
  if (count) {
    auto& runs = j["runs"] = json::array();
    for (std::size_t k = first; k < first + count; ++k) runs.push_back(run_json(res.runs.at(k)));
    if (t.automatic || t.to_floor) j["sweep"] = sweep_json(res.sweeps.at(t.sweep));
  }
  if (t.wide) {
    auto& runs = j["wide_runs"] = json::array();
    for (std::size_t k = t.wide_slot; k < t.wide_slot + wide_slots(spec); ++k) runs.push_back(wide_run_json(res.wide_runs.at(k)));
    auto& sweeps = j["wide_sweeps"] = json::array();
    for (std::size_t k = t.wide_sweep; k < t.wide_sweep + wide_arithmetics().size(); ++k) sweeps.push_back(wide_sweep_json(res.wide_sweeps.at(k)));
  }
  if (t.kind == TaskKind::energy || t.kind == TaskKind::adaptive_energy) j["energy"] = energy_json(res.energy_long.at(t.slot));
  if (t.kind == TaskKind::stability) j["stability"] = stability_json(res.stability.at(t.slot));
  if (t.kind == TaskKind::adaptive) j["adaptive"] = adaptive_json(res.adaptive_runs.at(t.slot));
  return encode(j);
}

void unpack_task(std::string_view bytes, const Task& t, const Spec& spec, StudyResult& res) {
  const json j = decode(bytes);
  reading([&] {
    const auto [first, count] = run_slots(t, spec);
    if (count) {
      const json& runs = j.at("runs");
      if (runs.size() != count || first + count > res.runs.size()) throw std::runtime_error("a task's message holds the wrong count of runs");
      for (std::size_t k = 0; k < count; ++k) res.runs[first + k] = run_of(runs[k]);
      if (t.automatic || t.to_floor) res.sweeps.at(t.sweep) = sweep_of(j.at("sweep"));
    }
    if (t.wide) {
      const json& runs = j.at("wide_runs");
      const json& sweeps = j.at("wide_sweeps");
      if (runs.size() != wide_slots(spec) || t.wide_slot + runs.size() > res.wide_runs.size() ||
          sweeps.size() != wide_arithmetics().size() || t.wide_sweep + sweeps.size() > res.wide_sweeps.size())
        throw std::runtime_error("a task's message holds the wrong count of wide runs");
      for (std::size_t k = 0; k < runs.size(); ++k) res.wide_runs[t.wide_slot + k] = wide_run_of(runs[k]);
      for (std::size_t k = 0; k < sweeps.size(); ++k) res.wide_sweeps[t.wide_sweep + k] = wide_sweep_of(sweeps[k]);
    }
    if (t.kind == TaskKind::energy || t.kind == TaskKind::adaptive_energy) res.energy_long.at(t.slot) = energy_of(j.at("energy"));
    if (t.kind == TaskKind::stability) res.stability.at(t.slot) = stability_of(j.at("stability"));
    if (t.kind == TaskKind::adaptive) res.adaptive_runs.at(t.slot) = adaptive_of(j.at("adaptive"));
  });
}

}  // namespace study::engine
