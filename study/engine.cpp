#include "study/engine.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <numbers>
#include <set>
#include <thread>

#include <elf.h>
#include <gnu/libc-version.h>
#include <link.h>

#include "reference/cache.hpp"
#include "reference/reference.hpp"
#include "study/code_hash.hpp"  // generated: STUDY_SHADOW_CODE_HASH
#include "study/engine_impl.hpp"
#include "study/engine_methods.hpp"
#include "study/problems/all.hpp"
#include "study/registry.hpp"

namespace study {
namespace {

using engine::RefReal;

/// Every reference time a spec needs: the run samples (k h exactly), and the one-step starts and ends.
std::set<RefReal> reference_times(const Spec& spec) {
  std::set<RefReal> times;
  for (long n : spec.steps) {
    const double h = spec.t_end / static_cast<double>(n);
    const engine::Grid grid{spec, n};
    for (long k : engine::even_indices(n, spec.samples)) times.insert(grid.time(k));
    if (spec.wants("local"))
      for (double tau : engine::local_times(spec)) {
        times.insert(RefReal(tau));
        times.insert(RefReal(tau) + RefReal(h));
        for (const auto& i : spec.integrators)
          if (tau - h / i.choice.substeps >= 0) times.insert(RefReal(tau) - RefReal(h / i.choice.substeps));
      }
  }
  times.erase(RefReal(0));  // the start is exact by construction
  return times;
}

/// Every parameter of the spec's problem (defaults included) as the exact value of its double: the problem
/// the double integrators really solve, to be solved again in wider types.
ParamValues exact_params(const Spec& spec) {
  ParamValues exact;
  with_problem<double>(spec.problem, spec.params, [&](const auto& p) {
    for (const auto& info : std::decay_t<decltype(p)>::params) {
      const auto it = spec.params.find(info.name);
      const double value = ode::from_decimal<double>(it != spec.params.end() ? it->second : std::string(info.default_value));
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.40g", value);
      exact[std::string(info.name)] = buf;
    }
  });
  return exact;
}

engine::RefTable build_reference(const Spec& spec, const ParamValues& params, const EngineOptions& o) {
  // The reference solves the problem the double integrators solve: their double-rounded parameters and
  // initial state, so that the errors measured are the integrators' and not the rounding of the data.
  reference::Request request{.problem = spec.problem, .params = params, .times = {}, .initial = {}};
  double period = 1;
  std::vector<long double> q0, v0;
  with_problem<double>(spec.problem, spec.params, [&](const auto& p) {
    const auto s = p.initial();
    request.initial.emplace();
    for (std::size_t i = 0; i < s.q.size(); ++i) {
      request.initial->first.push_back(RefReal(s.q[i]));
      request.initial->second.push_back(RefReal(s.v[i]));
      q0.push_back(s.q[i]), v0.push_back(s.v[i]);
    }
    period = p.period();
  });
  const auto times = reference_times(spec);
  request.times.assign(times.begin(), times.end());
  reference::Options ro;
  ro.tolerance = spec.reference_tol;
  ro.cache_dir = o.cache_dir;
  ro.use_cache = o.use_cache;
  ro.concurrent = o.jobs > 1;  // --jobs 1 means one thread
  const reference::Reference ref = reference::compute(request, ro);

  engine::RefTable table;
  table.at[RefReal(0)] = {q0, v0};
  long double qs = 0, vs = 0;
  for (std::size_t i = 0; i < ref.times.size(); ++i) {
    std::vector<long double> q, v;
    for (const auto& x : ref.q[i]) q.push_back(static_cast<long double>(x)), qs = std::max(qs, std::abs(q.back()));
    for (const auto& x : ref.v[i]) v.push_back(static_cast<long double>(x)), vs = std::max(vs, std::abs(v.back()));
    table.at[ref.times[i]] = {std::move(q), std::move(v)};
  }
  for (auto x : q0) qs = std::max(qs, std::abs(x));
  for (auto x : v0) vs = std::max(vs, std::abs(x));
  table.q_scale = qs > 0 ? static_cast<double>(qs) : 1.0;
  table.v_scale = std::max(static_cast<double>(vs), table.q_scale / (period / (2 * std::numbers::pi)));
  table.bound = static_cast<double>(ref.error_bound);
  return table;
}

/// A long double as a C99 hex float ("%La"): exact, and read back by strtold (cache keys and entries).
std::string hex(long double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%La", x);
  return buf;
}

/// SHA-1 of the reference table (times, states, scales, bound): a run's errors depend on every digit of it.
std::string digest(const engine::RefTable& table) {
  std::string text;
  auto add = [&](long double x) { text += ' ', text += hex(x); };
  for (const auto& [t, state] : table.at) {
    text += reference::to_decimal(t);
    for (long double x : state.first) add(x);
    for (long double x : state.second) add(x);
    text += '\n';
  }
  for (double x : {table.q_scale, table.v_scale, table.bound}) add(x);
  return reference::cache::sha1_hex(text);
}

/// One unit of parallel work.
struct Task {
  TaskKind kind;
  std::size_t spec, integrator;
  long steps = 0;
  std::size_t slot = 0;  ///< where its result goes (an automatic sweep: its first run)
  bool automatic = false;  ///< the integrator's whole automatic sweep, one run after the other
  std::size_t sweep = 0;   ///< its slot in res.sweeps
};

/// One run's point for the order fit of `metric` ("global", "max" or "local"), with its noise floor: the
/// reference's bound, and round-off -- measured (long double shadow run), else its random-walk estimate eps
/// sqrt(n); for one step a few roundings.
ErrorPoint error_point(const Run& r, const std::string& metric, double reference_bound) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double roundoff = metric == "local" ? 4 * eps
                          : std::isfinite(r.roundoff) ? r.roundoff
                                                      : eps * std::sqrt(static_cast<double>(r.steps));
  const double error = metric == "global" ? r.global : metric == "max" ? r.max : r.local;
  return {r.dt, error, std::max(reference_bound, roundoff)};
}

/// The order metrics a spec fits.  global: at t_end; max: largest over the trajectory (immune to
/// cancellations at special times, such as symplectic Euler's O(h) term at multiples of the period); local: one
/// step from reference states.
std::vector<std::string> order_metrics(const Spec& spec) {
  std::vector<std::string> metrics;
  for (const std::string metric : {"global", "max", "local"})
    if (spec.wants(metric == "max" ? "global" : metric)) metrics.push_back(metric);
  return metrics;
}

/// What the verdict on an order needs besides the fit.
OrderContext order_context(const StudyResult& res, const std::string& metric, int expected) {
  return {.expected = static_cast<double>(expected), .tolerance = FitOptions{}.tolerance,
          .periods = res.periodic ? res.spec.t_end / res.period : NAN,
          .exact = exact_on_constant_acceleration(res.spec.problem, metric, expected)};
}

/// dt = "auto": one integrator down the spec's ladder of halvings, one run after the other (each decision
/// depends only on the errors before it, so the sweep is the same on any number of threads), until the error is
/// within 100 x its noise floor, or every order it is judged on is decided over at least 4 points, or the
/// budget is spent.  While local slopes still drift the orders stay undetermined, so the sweep goes on.  Past the
/// first three steps, while the error is still above 0.5 (or the run diverged) the sweep skips a level: those
/// runs are no use to a fit, and the pre-asymptotic range of a problem with a fast time scale (a close
/// encounter) can be long.
void auto_sweep(const Task& t, const Spec& spec, const engine::Context& ctx, StudyResult& res, const TaskRunner& run,
                const EngineOptions& o) {
  using clock = std::chrono::steady_clock;
  const SpecIntegrator& si = spec.integrators[t.integrator];
  Sweep& sweep = res.sweeps[t.sweep];
  sweep.integrator = si.choice.label(), sweep.automatic = true;
  const AutoSweep& budget = *spec.auto_dt;
  const FitOptions fit_options;
  const auto metrics = order_metrics(spec);
  const std::string driver = metrics.front();  // global if measured, else local
  const auto start = clock::now();
  auto seconds = [](clock::duration d) { return std::chrono::duration<double>(d).count(); };
  std::vector<std::size_t> done;  // ladder levels run
  for (std::size_t k = 0; k < spec.steps.size();) {
    if (o.interrupted && *o.interrupted) return;
    const auto t0 = clock::now();
    run(TaskKind::run, spec, si, spec.steps[k], ctx, res, t.slot + k);
    const double last = seconds(clock::now() - t0), spent = seconds(clock::now() - start);
    const Run& r = res.runs[t.slot + k];
    sweep.dts.push_back(r.dt), done.push_back(k);
    const ErrorPoint p = error_point(r, driver, res.reference_bound);
    const bool pre_asymptotic = !(p.error <= fit_options.max_error);  // NaN (diverged) too
    const std::size_t next = k + (pre_asymptotic && k >= 2 ? 2 : 1);
    if (done.size() >= fit_options.min_points) {
      // Only an error in the usable range stops the sweep, and a large one only when its floor lies below it:
      // at large steps on a sensitive orbit the long double shadow parts from the run, and its "round-off" is no
      // floor (Kepler e = 0.9: 0.08 at dt 0.12 beside an error of 2.3; 0.33 beside 0.17).  An error at round-off
      // (below 1e-6) may sit at or under its floor: that is the floor reached.
      if (std::isfinite(p.error) && p.error <= fit_options.max_error && (p.floor < p.error || p.error < 1e-6) &&
          p.error <= fit_options.near_floor_factor * p.floor) {
        sweep.stop = fmt::format("the {} error {:.3g} at dt {} is within {} x its noise floor {:.3g}", driver, p.error,
                                 short_num(r.dt), fit_options.near_floor_factor, p.floor);
        return;
      }
      std::string decided;
      for (const auto& metric : metrics) {
        std::vector<ErrorPoint> points;
        for (std::size_t j : done) points.push_back(error_point(res.runs[t.slot + j], metric, res.reference_bound));
        const OrderFit fit = fit_order(points);
        const int expected = metric == "local" ? si.expected_local : si.expected_global;
        const OrderVerdict v = judge_order(fit, order_context(res, metric, expected));
        if (v.verdict == "undetermined" || fit.points < fit_options.min_points + 1) {
          decided.clear();
          break;
        }
        decided += fmt::format("{}{} {} over dt {}..{}", decided.empty() ? "" : ", ", metric, v.verdict, short_num(fit.dt_min),
                               short_num(fit.dt_max));
      }
      if (!decided.empty()) {
        sweep.stop = "every order is decided (" + decided + ")";
        return;
      }
    }
    if (static_cast<int>(done.size()) == budget.runs) {
      sweep.stop = fmt::format("the budget of {} runs is spent; the orders are not all decided (raise dt.runs)", budget.runs);
      return;
    }
    if (next >= spec.steps.size()) {
      sweep.stop = fmt::format("the ladder ends at {} steps; the orders are not all decided", spec.steps.back());
      return;
    }
    // The next run takes about as much longer as it has more steps.
    const double more = static_cast<double>(spec.steps[next]) / static_cast<double>(spec.steps[k]);
    if (budget.seconds > 0 && spent + more * last > budget.seconds) {
      sweep.stop = fmt::format("the budget of {} s would be exceeded by the next run ({:.3g} s spent)", budget.seconds, spent);
      return;
    }
    k = next;
  }
}

/// Runs `work(i)` for i < count on `jobs` threads, reporting progress from this thread; rethrows the first error.
void parallel(std::size_t count, int jobs, const std::function<void(std::size_t)>& work, const EngineOptions& o,
              const std::string& phase, const std::function<std::string(std::size_t)>& describe) {
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < count;) {
      if (error || (o.interrupted && *o.interrupted)) continue;
      try {
        work(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
      ++done;
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, jobs); ++j) threads.emplace_back(worker);
  std::size_t shown = static_cast<std::size_t>(-1);
  while (true) {
    const std::size_t d = done.load(), n = std::min(next.load(), count);
    if (o.progress && d != shown) o.progress(phase, d, count, n > 0 ? describe(n - 1) : std::string());
    shown = d;
    if (d >= count || ((error || (o.interrupted && *o.interrupted)) && next.load() >= count)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& t : threads) t.join();
  if (o.progress && shown != done.load()) o.progress(phase, done.load(), count, "");
  if (error) std::rethrow_exception(error);
  if (o.interrupted && *o.interrupted) throw Interrupted();
}

}  // namespace

namespace engine {

namespace {

/// This executable's GNU build ID (the linker's hash of its contents) in hex, or "" if it has none.
std::string executable_build_id() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) -> int {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const std::size_t align = ph.p_align == 8 ? 8 : 4;
          auto aligned = [align](std::size_t x) { return (x + align - 1) / align * align; };
          const char* at = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
          const char* end = at + ph.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) note;
            std::memcpy(&note, at, sizeof note);
            const char* name = at + sizeof note;
            const char* desc = name + aligned(note.n_namesz);
            if (desc + note.n_descsz > end) break;
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
              auto& hex_id = *static_cast<std::string*>(out);
              char byte[3];
              for (std::size_t b = 0; b < note.n_descsz; ++b)
                std::snprintf(byte, sizeof byte, "%02x", static_cast<unsigned char>(desc[b])), hex_id += byte;
              return 1;
            }
            at = desc + aligned(note.n_descsz);
          }
        }
        return 1;  // the first object is the executable: stop there
      },
      &id);
  return id;
}

/// What else decides a run's bits: the C library's maths functions, and the CPU features they dispatch on.
std::string machine_text() {
  static const std::string text = [] {
    std::string t = std::string("libc ") + gnu_get_libc_version() + " cpu";
    __builtin_cpu_init();
    if (__builtin_cpu_supports("fma")) t += " fma";
    if (__builtin_cpu_supports("fma4")) t += " fma4";
    if (__builtin_cpu_supports("avx")) t += " avx";
    if (__builtin_cpu_supports("avx2")) t += " avx2";
    if (__builtin_cpu_supports("avx512f")) t += " avx512f";
    return t;
  }();
  return text;
}

/// The problem and the grid, as both cache keys state them.
std::string problem_and_grid(const Grid& grid, const Context& ctx) {
  std::string k = "problem " + grid.spec.problem + "\n";
  for (const auto& [name, value] : ctx.exact_params) k += "param " + name + " " + value + "\n";
  char grid_text[160];
  std::snprintf(grid_text, sizeof grid_text, "t_end %a n %ld pattern '%s' amplitude %a\n", grid.spec.t_end, grid.n,
                grid.spec.dt_pattern.c_str(), grid.spec.dt_amplitude);
  return k + grid_text;
}

/// A double exactly, NaN and infinities included (JSON numbers round-trip; non-finite values become strings).
nlohmann::json exact(double x) {
  if (std::isfinite(x)) return x;
  return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
}
double exact(const nlohmann::json& j) {
  if (!j.is_string()) return j.get<double>();
  const std::string s = j.get<std::string>();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s == "inf" || s == "-inf") return s == "inf" ? HUGE_VAL : -HUGE_VAL;
  throw std::invalid_argument("not a number: " + s);
}
nlohmann::json exact(const std::vector<double>& xs) {
  auto a = nlohmann::json::array();
  for (double x : xs) a.push_back(exact(x));
  return a;
}
std::vector<double> exact_vector(const nlohmann::json& a) {
  std::vector<double> xs;
  for (const auto& x : a) xs.push_back(exact(x));
  return xs;
}

}  // namespace

std::string shadow_key(std::string_view method_type, const std::string& label, const Grid& grid, const Context& ctx) {
  return "ode-study round-off shadow, format 1\ncode " STUDY_SHADOW_CODE_HASH "\ncompiler " __VERSION__ " " STUDY_CXX_FLAGS "\n" +
         machine_text() + "\nmethod " + std::string(method_type) + " " + label + "\n" + problem_and_grid(grid, ctx);
}

std::string run_key(std::string_view method_type, const std::string& label, const Grid& grid, const Context& ctx) {
  static const std::string build = executable_build_id();
  if (build.empty()) return {};
  std::string k = "ode-study run, format 1\nexecutable " + build + "\n" + machine_text() + "\nmethod " + std::string(method_type) +
                  " " + label + "\n" + problem_and_grid(grid, ctx) + "samples " + std::to_string(grid.spec.samples) +
                  " local_points " + std::to_string(grid.spec.local_points) + "\nmetrics";
  for (const auto& metric : grid.spec.metrics) k += " " + metric;
  return k + "\nreference " + ctx.ref_digest + "\n";
}

std::optional<Run> load_run(const std::filesystem::path& dir, const std::string& key) {
  const auto payload = reference::cache::load(dir, key);
  if (!payload) return std::nullopt;
  try {
    const auto& j = *payload;
    Run r;
    r.integrator = j.at("integrator"), r.id = j.at("id"), r.substeps = j.at("substeps");
    r.dt = exact(j.at("dt")), r.steps = j.at("steps"), r.status = j.at("status");
    r.diverged_step = j.at("diverged_step"), r.diverged_t = exact(j.at("diverged_t")), r.reason = j.at("reason");
    r.global = exact(j.at("global")), r.position = exact(j.at("position")), r.max = exact(j.at("max"));
    r.local = exact(j.at("local")), r.local_position = exact(j.at("local_position"));
    r.roundoff = exact(j.at("roundoff")), r.reversal = exact(j.at("reversal"));
    r.energy_max_rel = exact(j.at("energy_max_rel")), r.energy_final_rel = exact(j.at("energy_final_rel"));
    r.energy_drift_per_time = exact(j.at("energy_drift_per_time")), r.energy_class = j.at("energy_class");
    r.energy_roundoff = exact(j.at("energy_roundoff"));
    r.angular_momentum_max_rel = exact(j.at("angular_momentum_max_rel"));
    r.final_q = exact_vector(j.at("final_q")), r.final_v = exact_vector(j.at("final_v"));
    r.force_evals = j.at("force_evals"), r.jacobian_evals = j.at("jacobian_evals"), r.iterations = j.at("iterations");
    r.sample_t = exact_vector(j.at("sample_t")), r.sample_error = exact_vector(j.at("sample_error"));
    r.sample_energy = exact_vector(j.at("sample_energy"));
    for (const auto& q : j.at("sample_q")) r.sample_q.push_back(exact_vector(q));
    for (const auto& v : j.at("sample_v")) r.sample_v.push_back(exact_vector(v));
    return r;
  } catch (const std::exception&) {
    return std::nullopt;  // a sound file with another layout: recompute (and overwrite) it
  }
}

void store_run(const std::filesystem::path& dir, const std::string& key, const Run& r) {
  nlohmann::json j{{"integrator", r.integrator}, {"id", r.id}, {"substeps", r.substeps}, {"dt", exact(r.dt)}, {"steps", r.steps},
                   {"status", r.status}, {"diverged_step", r.diverged_step}, {"diverged_t", exact(r.diverged_t)},
                   {"reason", r.reason}, {"global", exact(r.global)}, {"position", exact(r.position)}, {"max", exact(r.max)},
                   {"local", exact(r.local)}, {"local_position", exact(r.local_position)}, {"roundoff", exact(r.roundoff)},
                   {"reversal", exact(r.reversal)}, {"energy_max_rel", exact(r.energy_max_rel)},
                   {"energy_final_rel", exact(r.energy_final_rel)}, {"energy_drift_per_time", exact(r.energy_drift_per_time)},
                   {"energy_class", r.energy_class}, {"energy_roundoff", exact(r.energy_roundoff)},
                   {"angular_momentum_max_rel", exact(r.angular_momentum_max_rel)},
                   {"final_q", exact(r.final_q)}, {"final_v", exact(r.final_v)}, {"force_evals", r.force_evals}, {"jacobian_evals", r.jacobian_evals}, {"iterations", r.iterations},
                   {"sample_t", exact(r.sample_t)}, {"sample_error", exact(r.sample_error)},
                   {"sample_energy", exact(r.sample_energy)}};
  auto& q = j["sample_q"] = nlohmann::json::array();
  auto& v = j["sample_v"] = nlohmann::json::array();
  for (const auto& x : r.sample_q) q.push_back(exact(x));
  for (const auto& x : r.sample_v) v.push_back(exact(x));
  reference::cache::store(dir, key, j, -1);  // with its samples a run is ~17 kB: on one line, a quarter less
}

std::optional<Shadow> load_shadow(const std::filesystem::path& dir, const std::string& key) {
  const auto payload = reference::cache::load(dir, key);
  if (!payload) return std::nullopt;
  try {
    Shadow s;
    if (!payload->at("converged").get<bool>()) return s;
    auto read = [](const nlohmann::json& a) {
      std::vector<long double> x;
      for (const auto& e : a) {
        const std::string text = e.get<std::string>();
        char* end = nullptr;
        x.push_back(std::strtold(text.c_str(), &end));
        if (end == text.c_str() || *end != '\0') throw std::invalid_argument("not a number: " + text);
      }
      return x;
    };
    s.end.emplace(read(payload->at("q")), read(payload->at("v")));
    return s;
  } catch (const std::exception&) {
    return std::nullopt;  // a sound file with another layout: recompute (and overwrite) it
  }
}

void store_shadow(const std::filesystem::path& dir, const std::string& key, const Shadow& shadow) {
  nlohmann::json payload{{"converged", shadow.end.has_value()}};
  if (shadow.end) {
    auto& q = payload["q"] = nlohmann::json::array();
    auto& v = payload["v"] = nlohmann::json::array();
    for (long double x : shadow.end->first) q.push_back(hex(x));
    for (long double x : shadow.end->second) v.push_back(hex(x));
  }
  reference::cache::store(dir, key, payload);
}

}  // namespace engine

void run_hand_written_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const engine::Context& ctx,
                           StudyResult& res, std::size_t slot) {
  if (!engine::run_hand_written_first(kind, spec, si, steps, ctx, res, slot) &&
      !engine::run_hand_written_second(kind, spec, si, steps, ctx, res, slot))
    with_problem<double>(spec.problem, spec.params, [](const auto&) {});  // throws UnknownProblem, naming the valid ids
}

std::vector<StudyResult> run_studies(const std::vector<Spec>& specs, const EngineOptions& o, const TaskRunner& runner) {
  const TaskRunner run_task = runner ? runner : TaskRunner(&run_hand_written_task);
  std::vector<StudyResult> results(specs.size());
  std::vector<engine::Context> contexts(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) results[i].spec = specs[i];

  parallel(specs.size(), o.jobs, [&](std::size_t i) {
    contexts[i].exact_params = exact_params(specs[i]);
    with_problem<double>(specs[i].problem, specs[i].params, [&](const auto& p) {
      using P = std::decay_t<decltype(p)>;
      results[i].conservative = P::conservative, results[i].bounded = P::bounded, results[i].periodic = P::periodic;
      results[i].period = p.period();
    });
    // Errors need a reference, and so does the energy error of a dissipative problem; cost and stability do not.
    if (specs[i].wants("global") || specs[i].wants("local") || (specs[i].wants("energy") && !results[i].conservative))
      contexts[i].ref = build_reference(specs[i], contexts[i].exact_params, o);
    if (o.use_cache) {
      const auto dir = o.cache_dir.value_or(reference::default_cache_dir());
      contexts[i].shadow_cache = dir / "roundoff";
      contexts[i].run_cache = dir / "runs";
      contexts[i].reuse_runs = o.reuse_runs;
      contexts[i].ref_digest = digest(contexts[i].ref);
    }
  }, o, "references", [&](std::size_t i) { return specs[i].name + " (" + specs[i].problem + ")"; });

  // Plan: every run, long energy run and stability search, each with its own result slot; an automatic sweep
  // reserves a slot for every step of its ladder and gives back those it did not use.
  std::vector<Task> tasks;
  for (std::size_t s = 0; s < specs.size(); ++s) {
    const Spec& spec = specs[s];
    auto& res = results[s];
    res.position_scale = contexts[s].ref.q_scale, res.velocity_scale = contexts[s].ref.v_scale;
    res.reference_bound = contexts[s].ref.bound, res.reference_tolerance = spec.reference_tol;
    const bool sweeps = spec.wants("global") || spec.wants("local") || spec.wants("energy") || spec.wants("walltime") ||
                        spec.wants("reversibility");
    for (std::size_t i = 0; i < spec.integrators.size(); ++i) {
      if (sweeps && spec.auto_dt) {
        tasks.push_back({TaskKind::run, s, i, 0, res.runs.size(), true, res.sweeps.size()});
        res.runs.resize(res.runs.size() + spec.steps.size()), res.sweeps.emplace_back();
      } else if (sweeps) {
        Sweep fixed{spec.integrators[i].choice.label(), false, {}, "the spec's step sizes"};
        for (std::size_t k = 0; k < spec.steps.size(); ++k)
          tasks.push_back({TaskKind::run, s, i, spec.steps[k], res.runs.size()}), res.runs.emplace_back(), fixed.dts.push_back(spec.dt(k));
        res.sweeps.push_back(std::move(fixed));
      }
      if (spec.energy_t_end) tasks.push_back({TaskKind::energy, s, i, 0, res.energy_long.size()}), res.energy_long.emplace_back();
      if (spec.wants("stability")) tasks.push_back({TaskKind::stability, s, i, 0, res.stability.size()}), res.stability.emplace_back();
    }
  }
  // Longest first, so that the pool does not end waiting on one big run (the order of results is fixed by slots).
  auto cost = [&](const Task& t) {
    if (t.automatic) return 2.0 * static_cast<double>(specs[t.spec].steps[std::min<std::size_t>(specs[t.spec].steps.size(), specs[t.spec].auto_dt->runs) - 1]);
    return t.kind == TaskKind::energy ? static_cast<double>(*specs[t.spec].energy_t_end / specs[t.spec].energy_dt)
                                  : static_cast<double>(t.steps);
  };
  std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) { return cost(a) > cost(b); });

  parallel(tasks.size(), o.jobs, [&](std::size_t k) {
    const Task& t = tasks[k];
    if (t.automatic) auto_sweep(t, specs[t.spec], contexts[t.spec], results[t.spec], run_task, o);
    else run_task(t.kind, specs[t.spec], specs[t.spec].integrators[t.integrator], t.steps, contexts[t.spec], results[t.spec], t.slot);
  }, o, "runs", [&](std::size_t k) {
    const Task& t = tasks[k];
    return specs[t.spec].name + ": " + specs[t.spec].integrators[t.integrator].choice.label() +
           (t.automatic ? " (automatic sweep)"
            : t.kind == TaskKind::run ? " dt=" + std::to_string(specs[t.spec].t_end / static_cast<double>(t.steps)) : "");
  });
  for (auto& res : results) std::erase_if(res.runs, [](const Run& r) { return r.steps == 0; });  // unused ladder slots

  // Orders: least squares over the asymptotic window of each integrator's sweep.
  for (auto& res : results) {
    const Spec& spec = res.spec;
    if (spec.steps.size() < 2) continue;
    for (const auto& si : spec.integrators) {
      const std::string label = si.choice.label();
      for (const std::string& metric : order_metrics(spec)) {
        Order order{label, metric, metric == "local" ? si.expected_local : si.expected_global, {}, {}, {}};
        for (const Run& r : res.runs)
          if (r.integrator == label) order.points.push_back(error_point(r, metric, res.reference_bound));
        order.fit = fit_order(order.points);
        order.verdict = judge_order(order.fit, order_context(res, metric, order.expected));
        res.orders.push_back(std::move(order));
      }
    }
  }
  return results;
}

}  // namespace study
