#include "reference/reference.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "reference/cache.hpp"
#include "reference/solvers.hpp"

namespace reference {
namespace {

using Matrix = std::vector<std::vector<Real>>;

/// A time as a person reads it in a message.
std::string brief(const Real& t) {
  std::ostringstream o;
  o.precision(12);
  o << static_cast<long double>(t);
  return o.str();
}

void validate(const Request& r, const Options& o) {
  if (r.times.empty()) throw std::invalid_argument("no times requested: give at least one time >= 0");
  for (std::size_t i = 0; i < r.times.size(); ++i) {
    const Real& t = r.times[i];
    if (!isfinite(t) || t < 0)
      throw std::invalid_argument("time " + brief(t) + " is not valid: times must be finite and >= 0");
    if (i > 0 && !(t > r.times[i - 1]))
      throw std::invalid_argument("times must be strictly increasing: " + brief(t) + " comes after " +
                                  brief(r.times[i - 1]));
  }
  if (!(o.tolerance > 1e-32 && o.tolerance < 1e-6))
    throw std::invalid_argument("reference tolerance must lie in (1e-32, 1e-6): float128 cannot reach below ~1e-30 "
                                "(the controlled stepper would crawl) and above 1e-6 it is no reference");
  if (!(o.check_factor >= 10)) throw std::invalid_argument("the certifying solve must be at least 10x tighter");
  if (!(o.tolerance / o.check_factor > 1e-32))
    throw std::invalid_argument("the certifying tolerance (tolerance / check_factor) must stay above 1e-32");
}

std::string key_text(const Request& r, const Options& o, const detail::Solved& d) {
  std::ostringstream k;
  k << "ode-study reference cache, format " << cache::format_version << "\n"
    << "solver odeint bulirsch_stoer float128, scaled, landing on a copy\n"
    << "problem " << r.problem << "\n";
  if (!d.fingerprint.empty()) k << "code " << d.fingerprint << "\n";
  for (const auto& [name, value] : d.params) k << "param " << name << " " << value << "\n";
  k << "q0";
  for (const Real& x : d.q0) k << " " << to_decimal(x);
  k << "\nv0";
  for (const Real& x : d.v0) k << " " << to_decimal(x);
  k << "\ntimes";
  for (const Real& t : r.times) k << " " << to_decimal(t);
  k << "\ntolerance " << to_decimal(Real(o.tolerance)) << " check " << to_decimal(Real(o.tolerance) / Real(o.check_factor))
    << "\n";
  return k.str();
}

Real max_abs(const Matrix& m) {
  Real s = 0;
  for (const auto& row : m)
    for (const Real& x : row) s = std::max(s, abs(x));
  return s;
}

Real max_diff(const Matrix& a, const Matrix& b) {
  Real d = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a[i].size(); ++j) d = std::max(d, abs(a[i][j] - b[i][j]));
  return d;
}

nlohmann::json to_json(const Matrix& m) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& row : m) {
    nlohmann::json r = nlohmann::json::array();
    for (const Real& x : row) r.push_back(to_decimal(x));
    j.push_back(r);
  }
  return j;
}

Matrix matrix_from(const nlohmann::json& j) {
  Matrix m;
  for (const auto& row : j) {
    m.emplace_back();
    for (const auto& x : row) m.back().push_back(from_decimal(x.get<std::string>()));
  }
  return m;
}

nlohmann::json payload_of(const Reference& r) {
  nlohmann::json params = nlohmann::json::array();
  for (const auto& [k, v] : r.params) params.push_back({k, v});
  return {{"q", to_json(r.q)},
          {"v", to_json(r.v)},
          {"params", params},
          {"error_bound", to_decimal(r.error_bound)},
          {"position_bound", to_decimal(r.position_bound)},
          {"velocity_bound", to_decimal(r.velocity_bound)},
          {"two_tolerance_bound", to_decimal(r.two_tolerance_bound)},
          {"exact_error", r.exact_error ? nlohmann::json(to_decimal(*r.exact_error)) : nlohmann::json(nullptr)},
          {"bound_method", r.bound_method},
          {"evaluations", r.evaluations}};
}

Reference from_payload(const nlohmann::json& j, const Request& request, const Options& o) {
  Reference r;
  r.problem = request.problem;
  r.times = request.times;
  r.q = matrix_from(j.at("q"));
  r.v = matrix_from(j.at("v"));
  for (const auto& p : j.at("params")) r.params.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
  r.error_bound = from_decimal(j.at("error_bound").get<std::string>());
  r.position_bound = from_decimal(j.at("position_bound").get<std::string>());
  r.velocity_bound = from_decimal(j.at("velocity_bound").get<std::string>());
  r.two_tolerance_bound = from_decimal(j.at("two_tolerance_bound").get<std::string>());
  if (!j.at("exact_error").is_null()) r.exact_error = from_decimal(j.at("exact_error").get<std::string>());
  r.bound_method = j.at("bound_method").get<std::string>();
  r.evaluations = j.at("evaluations").get<std::uint64_t>();
  r.tolerance = o.tolerance;
  r.check_tolerance = o.tolerance / o.check_factor;
  if (r.q.size() != r.times.size() || r.v.size() != r.times.size()) throw std::runtime_error("state count mismatch");
  return r;
}

}  // namespace

std::filesystem::path default_cache_dir() {
  if (const char* dir = std::getenv("STUDY_CACHE_DIR"); dir && *dir) return dir;
  // A relative $XDG_CACHE_HOME is invalid and ignored (XDG Base Directory Specification), not a folder made here.
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return std::filesystem::path(xdg) / "ode-study" / "reference";
  if (const char* home = std::getenv("HOME"); home && *home == '/') return std::filesystem::path(home) / ".cache" / "ode-study" / "reference";
  // No home: a folder of this user's own in the shared temporary folder, made 0700, and refused when it is a link, another
  // user's, or open to others: anyone can make a file of that name first, to plant a link or forged entries.
  const std::filesystem::path base = std::filesystem::temp_directory_path() / ("ode-study-" + std::to_string(::geteuid()));
  ::mkdir(base.c_str(), 0700);
  struct stat st {};
  if (::lstat(base.c_str(), &st) != 0) throw std::runtime_error("cannot make the cache folder " + base.string() + ": " + std::strerror(errno));
  if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0)
    throw std::runtime_error("the cache folder " + base.string() + " (HOME is not set) is " +
                             (S_ISLNK(st.st_mode) ? std::string("a symbolic link") : !S_ISDIR(st.st_mode) ? std::string("not a folder")
                              : st.st_uid != ::geteuid() ? "another user's (uid " + std::to_string(st.st_uid) + ")"
                                                         : std::string("open to other users")) +
                             ", so it is not trusted: set HOME, or give a cache folder of your own (--cache-dir, $STUDY_CACHE_DIR)");
  return base / "reference";
}

Reference compute(const Request& request, const Options& options) {
  validate(request, options);
  const detail::Solved described = detail::describe(request.problem, request.params, request.initial);
  const std::string key = key_text(request, options, described);
  // Only when the cache is used: with HOME unset the default folder is made (and may be refused) on first use.
  const std::filesystem::path dir = !options.use_cache ? std::filesystem::path() : options.cache_dir ? *options.cache_dir : default_cache_dir();

  if (options.use_cache) {
    if (auto payload = cache::load(dir, key)) {
      try {
        Reference r = from_payload(*payload, request, options);
        r.from_cache = true;
        return r;
      } catch (const std::exception&) {
        // A payload that passed its checksum but does not parse was written by another build: recompute.
      }
    }
  }

  const Real tol = options.tolerance, check_tol = Real(options.tolerance) / Real(options.check_factor);
  const detail::Solved s = detail::solve_twice(request.problem, request.params, request.initial, request.times, tol,
                                               check_tol, options.max_steps, options.budget, options.concurrent);
  Reference r;
  r.problem = request.problem;
  r.params = s.params;
  r.times = request.times;
  r.q = s.q, r.v = s.v;
  r.tolerance = options.tolerance;
  r.check_tolerance = static_cast<double>(check_tol);
  r.evaluations = s.evaluations;

  // Truncation: the certifying solve is ~check_factor x more accurate, so |ref - check| estimates the
  // reference's error; x2 covers the check's own.  Round-off: the two solves start alike and take similar
  // steps, so their rounding errors are correlated and their difference cannot be trusted to show them;
  // allow instead the worst case, ~100 roundings of eps per evaluation (the midpoint and extrapolation
  // arithmetic) adding up linearly.  Measured floors (Kepler 10 periods: 3e-27 after 1.6e5 evaluations)
  // sit just below it.
  // Scales: the largest |q| over the start and the samples; for velocities at least that length per time
  // scale (a sample where every velocity is ~0, as at a turning point, must not inflate relative errors).
  const Real q_scale = std::max(max_abs(s.q), max_abs({s.q0})),
             v_scale = std::max({max_abs(s.v), max_abs({s.v0}), q_scale / s.time_scale});
  const Real roundoff = 100 * std::numeric_limits<Real>::epsilon() * Real(s.evaluations);
  const Real dq = 2 * max_diff(s.q, s.check_q), dv = 2 * max_diff(s.v, s.check_v);
  r.two_tolerance_bound = std::max(dq / q_scale, dv / v_scale) + roundoff;
  r.position_bound = dq + roundoff * q_scale;
  r.velocity_bound = dv + roundoff * v_scale;
  r.error_bound = r.two_tolerance_bound;
  r.bound_method = "two-tolerance";
  if (s.exact_q) {
    const Real eq = max_diff(s.q, *s.exact_q), ev = max_diff(s.v, *s.exact_v);
    r.exact_error = std::max(eq / q_scale, ev / v_scale);
    r.error_bound = std::max(r.error_bound, *r.exact_error);
    r.position_bound = std::max(r.position_bound, eq);
    r.velocity_bound = std::max(r.velocity_bound, ev);
    r.bound_method = "two-tolerance+exact";
    // Far outside what the two solves leave open, the exact solution and the equations of motion describe
    // different motions: a mistake in the problem's exact() or its force, and no reference to measure against.
    if (*r.exact_error > Real(1e-10) && *r.exact_error > 1e6 * r.two_tolerance_bound) {
      auto short_text = [](const Real& x) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2g", static_cast<double>(x));
        return std::string(buf);
      };
      throw ReferenceError(request.problem + ": its exact solution exact(t) and its equations of motion disagree by " +
                           short_text(*r.exact_error) + " (relative to the state's scale), while the two solves "
                           "agree to " + short_text(r.two_tolerance_bound) + ": the problem's exact() or its "
                           "accel() is wrong (a sign, a factor, a parameter read twice)");
    }
  }

  if (options.use_cache) cache::store(dir, key, payload_of(r));
  return r;
}

}  // namespace reference
