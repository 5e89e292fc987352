// The caches of measured runs and of their round-off shadows: keys (everything that decides a run's bits) and
// entries (exact numbers, read back to the same bits).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <elf.h>
#include <gnu/libc-version.h>
#include <link.h>

#include "reference/cache.hpp"
#include "study/common/digest.hpp"
#include "reference/decimal.hpp"
#include "study/code_hash.hpp"  // generated: STUDY_SHADOW_CODE_HASH
#include "study/registry/extensions.hpp"
#include "study/measure/measure.hpp"

namespace study::engine {
namespace {

using reference::to_hex;

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
  // A program with integrators or problems of its user's (study/extend.hpp) has code the source hash does not see,
  // edited between builds under the same names: its shadows are keyed by the program's build, as runs are, and not
  // cached at all when it has no build ID.
  static const std::string build = executable_build_id();
  std::string user_build;
  if (!extensions().empty()) {
    if (build.empty()) return {};
    user_build = "\nprogram " + build;
  }
  return "ode-study round-off shadow, format 2\ncode " STUDY_SHADOW_CODE_HASH "\ncompiler " __VERSION__ " " STUDY_CXX_FLAGS +
         user_build + "\n" + machine_text() + "\nmethod " + std::string(method_type) + " " + label + "\n" +
         problem_and_grid(grid, ctx);
}

std::string run_key(std::string_view method_type, const std::string& label, const Grid& grid, const Context& ctx) {
  static const std::string build = executable_build_id();
  if (build.empty()) return {};
  std::string k = "ode-study run, format 2\nexecutable " + build + "\n" + machine_text() + "\nmethod " + std::string(method_type) +
                  " " + label + "\n" + problem_and_grid(grid, ctx) + "samples " + std::to_string(grid.spec.samples) +
                  " local_points " + std::to_string(grid.spec.local_points) + "\nmetrics";
  for (const auto& metric : grid.spec.metrics) k += " " + metric;
  return k + "\nreference " + ctx.ref_digest + "\n";
}

std::string adaptive_key(const SpecAdaptive& a, double tol, const Spec& spec, const Context& ctx) {
  static const std::string build = executable_build_id();
  if (build.empty()) return {};
  std::string k = "ode-study adaptive run, format 2\nexecutable " + build + "\n" + machine_text() + "\npair " + a.label + "\n" +
                  (a.choice.table ? "coefficients " + digest_hex(a.choice.table->identity) : "odeint " + a.odeint) +
                  // The declared orders set the controller's exponents and the first step (a table may declare less than
                  // its coefficients give); the evaluations a try count its cost.
                  "\norders " + std::to_string(a.order) + " " + std::to_string(a.order_hat) + " evaluations " +
                  std::to_string(a.evals_per_step) + "\ncontroller " + a.controller;
  char number[64];
  for (const auto& [name, value] : a.params) std::snprintf(number, sizeof number, " %a", value), k += " " + name + number;
  k += "\nproblem " + spec.problem + "\n";
  for (const auto& [name, value] : ctx.exact_params) k += "param " + name + " " + value + "\n";
  std::snprintf(number, sizeof number, "t_end %a tol %a", spec.t_end, tol);
  k += std::string(number) + " outputs " + std::to_string(spec.samples + 1) + (spec.adaptive_cut ? " cut" : " free") + " max_steps " +
       std::to_string(spec.adaptive_max_steps);
  return k + "\nreference " + ctx.ref_digest + "\n";
}

std::optional<AdaptiveRun> load_adaptive_run(const std::filesystem::path& dir, const std::string& key) {
  const auto payload = reference::cache::load(dir, key);
  if (!payload) return std::nullopt;
  try {
    const auto& j = *payload;
    AdaptiveRun r;
    r.integrator = j.at("integrator"), r.id = j.at("id"), r.controller = j.at("controller"), r.tol = exact(j.at("tol"));
    r.status = j.at("status"), r.reason = j.at("reason"), r.t_reached = exact(j.at("t_reached"));
    r.global = exact(j.at("global")), r.position = exact(j.at("position")), r.max = exact(j.at("max"));
    r.energy_final_rel = exact(j.at("energy_final_rel")), r.energy_max_rel = exact(j.at("energy_max_rel"));
    r.roundoff = exact(j.at("roundoff")), r.roundoff_max = exact(j.at("roundoff_max"));
    r.accepted = j.at("accepted"), r.rejected = j.at("rejected"), r.cut = j.at("cut"), r.force_evals = j.at("force_evals");
    r.h_min = exact(j.at("h_min")), r.h_max = exact(j.at("h_max"));
    r.sample_error = exact_vector(j.at("sample_error")), r.sample_energy = exact_vector(j.at("sample_energy"));
    return r;
  } catch (const std::exception&) {
    return std::nullopt;  // a sound file with another layout: recompute (and overwrite) it
  }
}

void store_adaptive_run(const std::filesystem::path& dir, const std::string& key, const AdaptiveRun& r) {
  const nlohmann::json j{{"integrator", r.integrator}, {"id", r.id}, {"controller", r.controller}, {"tol", exact(r.tol)},
                         {"status", r.status}, {"reason", r.reason}, {"t_reached", exact(r.t_reached)}, {"global", exact(r.global)},
                         {"position", exact(r.position)}, {"max", exact(r.max)}, {"energy_final_rel", exact(r.energy_final_rel)},
                         {"energy_max_rel", exact(r.energy_max_rel)}, {"roundoff", exact(r.roundoff)},
                         {"roundoff_max", exact(r.roundoff_max)}, {"accepted", r.accepted}, {"rejected", r.rejected}, {"cut", r.cut},
                         {"force_evals", r.force_evals}, {"h_min", exact(r.h_min)}, {"h_max", exact(r.h_max)},
                         {"sample_error", exact(r.sample_error)}, {"sample_energy", exact(r.sample_energy)}};
  reference::cache::store(dir, key, j, -1);
}

std::string machine_identity() { return "executable " + executable_build_id() + "\n" + machine_text(); }

std::atomic<long>& runs_finished() {
  static std::atomic<long> n{0};
  return n;
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
    r.roundoff = exact(j.at("roundoff")), r.roundoff_max = exact(j.at("roundoff_max")), r.reversal = exact(j.at("reversal"));
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
                   {"roundoff_max", exact(r.roundoff_max)}, {"reversal", exact(r.reversal)}, {"energy_max_rel", exact(r.energy_max_rel)},
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

std::optional<WideRun> load_wide_run(const std::filesystem::path& dir, const std::string& key) {
  const auto payload = reference::cache::load(dir, key);
  if (!payload) return std::nullopt;
  try {
    const auto& j = *payload;
    WideRun w;
    w.integrator = j.at("integrator"), w.arithmetic = j.at("arithmetic"), w.dt = exact(j.at("dt")), w.steps = j.at("steps");
    w.status = j.at("status"), w.reason = j.at("reason");
    w.global = exact(j.at("global")), w.max = exact(j.at("max")), w.local = exact(j.at("local"));
    return w;
  } catch (const std::exception&) {
    return std::nullopt;  // a sound file with another layout: recompute (and overwrite) it
  }
}

void store_wide_run(const std::filesystem::path& dir, const std::string& key, const WideRun& w) {
  const nlohmann::json j{{"integrator", w.integrator}, {"arithmetic", w.arithmetic}, {"dt", exact(w.dt)}, {"steps", w.steps},
                         {"status", w.status}, {"reason", w.reason}, {"global", exact(w.global)}, {"max", exact(w.max)},
                         {"local", exact(w.local)}};
  reference::cache::store(dir, key, j);
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
    for (const auto& at : payload->at("samples")) s.samples.emplace_back(read(at.at(0)), read(at.at(1)));
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
    for (long double x : shadow.end->first) q.push_back(to_hex(x));
    for (long double x : shadow.end->second) v.push_back(to_hex(x));
    auto& samples = payload["samples"] = nlohmann::json::array();
    for (const auto& [sq, sv] : shadow.samples) {
      nlohmann::json a = nlohmann::json::array(), b = nlohmann::json::array();
      for (long double x : sq) a.push_back(to_hex(x));
      for (long double x : sv) b.push_back(to_hex(x));
      samples.push_back(nlohmann::json::array({a, b}));  // not {a, b}: two 2-element arrays would read as a key and a value
    }
  }
  reference::cache::store(dir, key, payload);
}

}  // namespace study::engine
