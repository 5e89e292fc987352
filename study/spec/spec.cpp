#include "study/spec/spec.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <cmath>
#include <sstream>

#include <fstream>

#include <cctype>
#include <set>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "study/common/data_dir.hpp"
#include "study/registry/extensions.hpp"
#include "study/common/input_file.hpp"
#include "study/common/names.hpp"
#include "study/common/toml_error.hpp"
#include "study/problems/all.hpp"
#include "study/registry/integrators.hpp"
#include "study/registry/peers.hpp"
#include "study/methods/library.hpp"

namespace study {
namespace {

/// A TOML number as a double: a float, or an integer of any size (toml++'s value<double>() refuses an integer a
/// double cannot hold exactly, such as t_end = 10^18, which would then be "not a number").
std::optional<double> as_number(const toml::node* n) {
  if (!n) return std::nullopt;
  if (n->is_integer()) return static_cast<double>(**n->as_integer());
  return n->is_floating_point() ? std::optional<double>(**n->as_floating_point()) : std::nullopt;
}

class Reader {
 public:
  Reader(std::filesystem::path file, const toml::table& t) : file_(std::move(file)), t_(t) {}

  [[noreturn]] void fail(const toml::node* at, const std::string& key, const std::string& what) const {
    std::ostringstream m;
    m << file_.string();
    if (at) m << ":" << at->source().begin.line;
    m << ": " << printable(key) << ": " << what;  // a quoted key may hold a line break: one line, escaped
    throw SpecError(m.str());
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const { fail(t_.get(key), key, what); }

  const toml::node* get(const std::string& key) const { return t_.get(key); }

  std::string string(const std::string& key, bool required) const {
    const toml::node* n = get(key);
    if (!n) {
      if (required) fail(nullptr, key, "missing (a string is required)");
      return {};
    }
    if (!n->is_string()) fail(n, key, "must be a string");
    return **n->as_string();
  }

  std::optional<double> number(const std::string& key) const {
    const toml::node* n = get(key);
    if (!n) return std::nullopt;
    if (auto d = as_number(n)) return *d;
    fail(n, key, "must be a number");
  }

  std::optional<long> integer(const std::string& key) const {
    const toml::node* n = get(key);
    if (!n) return std::nullopt;
    if (!n->is_integer()) fail(n, key, "must be a whole number");
    return static_cast<long>(**n->as_integer());
  }

  /// The number of steps N for which t_end / N is dt, or an error saying which values would do.
  long steps_for(double dt, double t_end, const toml::node* at, const std::string& key) const {
    if (!(dt > 0) || !std::isfinite(dt)) fail(at, key, "dt = " + shortest_decimal(dt) + " must be > 0");
    if (dt > t_end) fail(at, key, "dt = " + shortest_decimal(dt) + " is larger than t_end = " + shortest_decimal(t_end));
    const double ratio = t_end / dt;
    if (!(ratio <= max_steps_per_run))
      fail(at, key, "dt = " + shortest_decimal(dt) + " would take " + fmt::format("{:.3g}", ratio) + " steps to t_end = " + shortest_decimal(t_end) +
                        "; a run takes at most 1e12 steps: dt from " + shortest_decimal(t_end / max_steps_per_run) + " to " +
                        shortest_decimal(t_end));
    const long n = std::lround(ratio);
    if (std::abs(ratio - static_cast<double>(n)) > 1e-9 * ratio) {
      const long lo = std::max(1L, static_cast<long>(std::floor(ratio))), hi = lo + 1;
      fail(at, key, "dt = " + shortest_decimal(dt) + " does not divide t_end = " + shortest_decimal(t_end) + " (t_end/dt = " +
                        shortest_decimal(ratio) + "); use t_end/N, e.g. " + shortest_decimal(t_end / lo) + " (N = " + std::to_string(lo) +
                        ") or " + shortest_decimal(t_end / hi) + " (N = " + std::to_string(hi) + ")");
    }
    return n;
  }

 private:
  std::filesystem::path file_;
  const toml::table& t_;
};

const std::vector<std::string> known_keys{"name", "title", "problem", "params", "t_end", "integrators", "dt",
                                          "metrics", "energy_t_end", "energy_dt", "energy_tol", "repeats", "reference_tol",
                                          "samples", "local_points", "expect", "varying_dt", "plot_dt", "methods", "scan",
                                          "wide_budget", "accuracy", "tol", "adaptive", "vs"};

/// What a point of a scan sets in place of the spec's own keys.
struct Overrides {
  ParamValues params;
  std::optional<double> t_end;
  ScanPoint point;
};

/// What a method's coefficients predict, for results.json and the report.
PredictedOrder predicted_of(const tables::Method& m) {
  const tables::OrderAnalysis& a = m.predicted.order();
  // Consistency, exactly from the digits: a step of h advances the flow by (1 + r) h, the kicks and the drifts, or the
  // velocity and position weights (b sums to 1, a Nystrom method's bbar to 1/2).
  const tables::Coefficients& x = m.exact;
  auto off = [](const tables::Rational& sum, const tables::Rational& want) { return std::abs(static_cast<double>(tables::Rational(sum - want))); };
  double consistency = 0;
  if (x.kind == ode::MethodTable::Kind::splitting) {
    tables::Rational kicks = 0, drifts = 0;
    for (const auto& [kick, c] : x.ops) (kick ? kicks : drifts) += c;
    consistency = std::max(off(kicks, 1), off(drifts, 1));
  } else {
    tables::Rational b = 0, bbar = 0;
    for (const auto& c : x.b) b += c;
    for (const auto& c : x.bbar) bbar += c;
    consistency = off(b, 1);
    if (x.kind == ode::MethodTable::Kind::nystrom) consistency = std::max(consistency, off(bbar, tables::Rational(1, 2)));
  }
  PredictedOrder p{.order = a.order, .exact_order = a.exact_order, .error_coefficient = a.error_coefficient,
                   .conditions = a.trees, .first_failing = {}, .consistency = consistency,
                   .residuals = a.residuals};
  if (a.order < tables::max_checked_order)
    p.first_failing = fmt::format("{} (tree {}) off by {:.3g}", a.first_failing.formula, a.first_failing.tree, a.first_failing.residual);
  return p;
}

toml::table parse_toml(const std::string& text, const std::filesystem::path& file) {
  try {
    return toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    throw SpecError(toml_error(e, text, file.string()));
  }
}

void check_keys(const Reader& r, const toml::table& table) {
  for (auto&& [key, node] : table) {
    const std::string k(key.str());
    if (std::find(known_keys.begin(), known_keys.end(), k) == known_keys.end())
      r.fail(&node, k, "unknown key" + did_you_mean(k, known_keys) + "; keys: " + join(known_keys));
  }
}

/// name and title.
void read_name(const Reader& r, Spec& s) {
  s.name = r.string("name", true);
  if (const std::string why = name_problem(s.name); !why.empty()) r.fail("name", "'" + printable(s.name) + "' " + why);
  s.title = r.string("title", false);
  if (const std::string why = text_problem(s.title); !why.empty()) r.fail("title", "'" + printable(s.title) + "' " + why);
  if (s.title.empty()) s.title = s.name;
}

/// problem and params: validated by building the problem.
ProblemFacts read_problem(const Reader& r, Spec& s, const Overrides* o) {
  s.problem = r.string("problem", true);
  const auto ids = all_problem_ids();
  if (std::find(ids.begin(), ids.end(), s.problem) == ids.end())
    r.fail("problem", "unknown problem '" + s.problem + "'" + did_you_mean(s.problem, ids) + "; problems: " + join(ids));
  if (const toml::node* n = r.get("params")) {
    if (!n->is_table()) r.fail(n, "params", "must be a table, e.g. params = { e = 0.6 }");
    for (auto&& [key, value] : *n->as_table()) {
      if (auto d = as_number(&value))
        s.params[std::string(key.str())] = shortest_decimal(*d);
      else if (value.is_string() && value.as_string()->get().size() > 100)  // as a table's coefficients (float128: 34 digits)
        r.fail(&value, "params." + std::string(key.str()),
               fmt::format("a decimal string of {} characters; at most 100", value.as_string()->get().size()));
      else if (value.is_string())
        s.params[std::string(key.str())] = **value.as_string();
      else
        r.fail(&value, "params." + std::string(key.str()), "must be a number (or a decimal string)");
    }
  }
  if (o)
    for (const auto& [k, v] : o->params) s.params[k] = v;
  ProblemFacts f;
  try {
    f = problem_facts(s.problem, s.params);
  } catch (const ParamError& e) {
    // A value the scan gave is named where the scan gives it.
    const std::string what = e.what();
    if (o)
      for (const auto& [k, v] : o->params)
        if (what.find("parameter '" + k + "'") != std::string::npos) r.fail(r.get("scan")->as_table()->get(k), "scan." + k, what);
    r.fail("params", what);
  }
  if (const std::string why = time_scale_problem(s.problem, f.period); !why.empty()) r.fail("params", why);
  return f;
}

/// dt = "auto" or { auto = true, runs, seconds }: the ladder of halvings an automatic sweep goes down.
void read_auto_sweep(const Reader& r, const toml::node* dt, Spec& s, const ProblemFacts& f) {
  const toml::table* dt_table = dt->as_table();
  if (dt->is_string() && **dt->as_string() != "auto")
    r.fail(dt, "dt", "\"" + **dt->as_string() + "\" is not a sweep: use \"auto\", an array of step sizes or { max, min, per_decade }");
  AutoSweep a;
  if (dt_table)
    for (auto&& [key, v] : *dt_table) {
      const std::string k(key.str());
      if (k == "auto") {
        if (v.value<bool>() != std::optional<bool>(true)) r.fail(&v, "dt.auto", "must be true (or give the step sizes instead)");
      } else if (k == "runs") {
        const auto n = v.value<int64_t>();
        if (!v.is_integer() || *n < 3 || *n > 40) r.fail(&v, "dt.runs", "must be a whole number from 3 (the fewest points a fit needs) to 40");
        a.runs = static_cast<int>(*n);
      } else if (k == "seconds") {
        const auto x = as_number(&v);
        if (!x || !(*x > 0) || !std::isfinite(*x)) r.fail(&v, "dt.seconds", "must be a number of seconds > 0");
        a.seconds = *x;
      } else {
        r.fail(&v, "dt." + k, "unknown key of an automatic sweep" + did_you_mean(k, std::array<std::string_view, 3>{"auto", "runs", "seconds"}) +
                              "; keys: auto = true, runs (budget of runs per integrator), "
                              "seconds (budget of wall time per integrator)");
      }
    }
  s.auto_dt = a;
  // The ladder: N0 2^k steps, N0 the power of two that puts the first step in (T/16, T/8], T the problem's time
  // scale (below the linear stability limit of every explicit method that has one: omega h <= pi/4); at least
  // 4 steps.  Powers of two keep the sample times i t_end / 64 common to every level; the levels between them
  // (3 N / 2, filled in where an order needs more points) share them from N = 192 on.  One reference holds every
  // level's times, computed before the first run.
  long n = 4;
  while (static_cast<double>(n) < s.t_end / (f.period / 8) && n < AutoSweep::max_steps / 2) n *= 2;
  for (; n <= AutoSweep::max_steps; n *= 2) s.steps.push_back(n);
  s.auto_dt->between = between_halvings(s.steps);
  if (s.steps.size() < 3)
    r.fail(dt, "dt", "t_end = " + shortest_decimal(s.t_end) + " is " + shortest_decimal(s.t_end / f.period) + " time scales of " + s.problem +
                         ": an automatic sweep from dt " + shortest_decimal(s.t_end / static_cast<double>(s.steps.front())) +
                         " would exceed " + std::to_string(AutoSweep::max_steps) + " steps; give the step sizes");
}

/// dt = { max, min, per_decade [, past_floor] }: a geometric range.
void read_dt_range(const Reader& r, const toml::node* dt, const toml::table& range, Spec& s) {
  constexpr std::array<std::string_view, 4> keys{"max", "min", "per_decade", "past_floor"};
  for (auto&& [key, v] : range)
    if (std::find(keys.begin(), keys.end(), key.str()) == keys.end())
      r.fail(&v, "dt." + std::string(key.str()), "unknown key of a range of step sizes" + did_you_mean(key.str(), keys) +
                                                     "; keys: max, min, per_decade, past_floor");
  if (const toml::node* past = range.get("past_floor")) {
    const auto k = past->value<int64_t>();
    if (!k || !past->is_integer() || *k < 1 || *k > 20)
      r.fail(past, "dt.past_floor", "must be a whole number from 1 to 20: the step sizes in a row at the noise floor after which "
                                    "an integrator's sweep stops (leave it out to run every step size)");
    s.past_floor = static_cast<int>(*k);
  }
  const auto hi = as_number(range["max"].node()), lo = as_number(range["min"].node());
  const auto per = range["per_decade"].value<int64_t>();
  if (!hi || !lo || !per) r.fail(dt, "dt", "a range needs max, min (numbers) and per_decade (a whole number)");
  if (!(*lo > 0) || !(*lo <= *hi) || *hi > s.t_end)
    r.fail(dt, "dt", "the range needs 0 < min <= max <= t_end (got min " + shortest_decimal(*lo) + ", max " + shortest_decimal(*hi) + ")");
  if (*per < 1 || *per > 100) r.fail(dt, "dt", "per_decade must be between 1 and 100");
  if (!(s.t_end / *lo <= max_steps_per_run))
    r.fail(dt, "dt.min", "min = " + shortest_decimal(*lo) + " would take " + fmt::format("{:.3g}", s.t_end / *lo) + " steps to t_end = " +
                             shortest_decimal(s.t_end) + "; a run takes at most 1e12 steps: min >= " + shortest_decimal(s.t_end / max_steps_per_run));
  // Each dt of the geometric range is rounded to t_end / N, N = round(t_end / dt): N dt = t_end exactly.
  for (int i = 0;; ++i) {
    const double want = *hi * std::pow(10.0, -static_cast<double>(i) / static_cast<double>(*per));
    if (want < *lo * (1 - 1e-12)) break;
    s.steps.push_back(std::max(1L, std::lround(s.t_end / want)));
  }
}

/// t_end and dt: the sweep's numbers of steps (an automatic sweep: its ladder).
void read_steps(const Reader& r, Spec& s, const ProblemFacts& f, const Overrides* o) {
  const auto t_end = o && o->t_end ? o->t_end : r.number("t_end");
  if (!t_end) r.fail(nullptr, "t_end", "missing (the final time, a number > 0)");
  // A scanned t_end is named where the scan gives it.
  const auto fail_t_end = [&](const std::string& what) {
    if (o && o->t_end) r.fail(r.get("scan")->as_table()->get("t_end"), "scan.t_end", what);
    r.fail("t_end", what);
  };
  if (!(*t_end > 0) || !std::isfinite(*t_end)) fail_t_end("must be a finite number > 0");
  s.t_end = *t_end;
  s.time_scale = f.period;
  s.evaluation_cost = f.evaluation_cost;
  s.dim = f.dim;
  if (!(s.t_end >= 1e-12 * f.period))
    fail_t_end("t_end = " + shortest_decimal(s.t_end) + " is below 1e-12 of " + s.problem + "'s time scale (" + shortest_decimal(f.period) +
                        "): nothing to measure; t_end >= " + shortest_decimal(1e-12 * f.period));
  if (!(f.period > 0 && std::isfinite(f.period)) || !(s.t_end / f.period <= max_time_scales))
    fail_t_end("t_end = " + shortest_decimal(s.t_end) + " is " + shortest_decimal(s.t_end / f.period) + " time scales of " + s.problem +
                        " (its time scale with these parameters is " + shortest_decimal(f.period) + "); the reference covers at most " +
                        shortest_decimal(max_time_scales) + ": t_end <= " + shortest_decimal(max_time_scales * f.period));
  const toml::node* dt = r.get("dt");
  if (!dt && (r.get("adaptive") || r.get("tol")) && !r.get("integrators")) return;  // adaptive integrators only: tol, not dt
  if (!dt) r.fail(nullptr, "dt", "missing (\"auto\", an array of step sizes, or { max, min, per_decade })");
  const toml::table* dt_table = dt->as_table();
  if (dt->is_string() || (dt_table && dt_table->contains("auto"))) {
    read_auto_sweep(r, dt, s, f);
  } else if (const toml::array* list = dt->as_array()) {
    if (list->empty()) r.fail(dt, "dt", "the array is empty");
    for (const toml::node& x : *list) {
      const auto v = as_number(&x);
      if (!v) r.fail(&x, "dt", "every step size must be a number");
      s.steps.push_back(r.steps_for(*v, s.t_end, &x, "dt"));
    }
  } else if (dt_table) {
    read_dt_range(r, dt, *dt_table, s);
  } else {
    r.fail(dt, "dt", "must be \"auto\", an array of step sizes or a table { max, min, per_decade }");
  }
  std::sort(s.steps.begin(), s.steps.end());
  s.steps.erase(std::unique(s.steps.begin(), s.steps.end()), s.steps.end());
}

/// metrics, and the combinations that cannot be measured.
void read_metrics(const Reader& r, Spec& s) {
  if (const toml::node* m = r.get("metrics")) {
    const toml::array* list = m->as_array();
    if (!list) r.fail(m, "metrics", "must be an array, e.g. [\"global\", \"energy\"]");
    if (list->empty())
      r.fail(m, "metrics", "is empty: a study must measure something (leave metrics out for global, local, energy, walltime; "
                           "metrics: " + join(metric_names()) + ")");
    // Every name that is not a metric at once, each with its likely meaning.
    const toml::node* first_bad = nullptr;
    std::string bad;
    std::size_t n_bad = 0;
    for (const toml::node& x : *list) {
      const auto name = x.value<std::string>();
      if (!name || std::find(metric_names().begin(), metric_names().end(), *name) == metric_names().end()) {
        if (!first_bad) first_bad = &x;
        bad += (bad.empty() ? "'" : ", '") + name.value_or("?") + "'" + did_you_mean(name.value_or(""), metric_names());
        ++n_bad;
        continue;
      }
      s.metrics.insert(*name);
    }
    if (first_bad)
      r.fail(first_bad, "metrics", bad + (n_bad == 1 ? " is not a metric" : " are not metrics") + "; metrics: " + join(metric_names()));
  } else {
    s.metrics = {"global", "local", "energy", "walltime"};
  }
  if (s.wants("roundoff") && !s.wants("global"))
    r.fail("metrics", "'roundoff' measures the round-off in each run's global error: use it with 'global'");
  if (s.past_floor > 0 && !s.wants("global"))
    r.fail("metrics", "dt.past_floor stops a sweep at the global error's noise floor: include 'global'");
  if (s.auto_dt && !s.wants("global") && !s.wants("local"))
    r.fail("metrics", "dt = \"auto\" chooses the step sizes from the errors: include 'global' or 'local'");
  if (s.wants("stability") && s.problem != "harmonic")
    r.fail("metrics", "'stability' is the linear stability limit omega h on the harmonic oscillator: use it with problem = \"harmonic\"");
}

/// Where a spec's integrator ids find their tables: the spec's own [methods.ID], then --methods files, then the
/// shipped library.
struct MethodTables {
  tables::Library own;
  const tables::Library* given = nullptr;
  std::vector<std::string> builtin_ids = integrator_ids();

  const tables::Method* find(const std::string& id) const {
    if (const auto* m = own.find(id)) return m;
    if (given)
      if (const auto* m = given->find(id)) return m;
    return tables::shipped_library().find(id);
  }
  /// Every id a spec may use, built-in first.
  std::vector<std::string> ids() const {
    std::vector<std::string> ids = builtin_ids;
    for (const auto& id : own.ids()) ids.push_back(id);
    if (given)
      for (const auto& id : given->ids()) ids.push_back(id);
    for (const auto& id : tables::shipped_library().ids()) ids.push_back(id);
    return ids;
  }
};

/// The spec's own method tables; an id that a --methods file's table already has is refused.  A shipped table's id
/// is the user's to take: theirs is the one used (the library grows; a table of the user's named like a new shipped
/// one must keep meaning theirs).
void read_methods(const toml::table& table, const std::string& text, const std::filesystem::path& file, MethodTables& m) {
  if (!table.contains("methods")) return;
  m.own.add_document(table, text, file, m.given);
  for (const auto* own : m.own.methods())
    if (const tables::Method* other = m.given ? m.given->find(own->table->id) : nullptr)
      throw SpecError(own->origin + ": methods." + own->table->id + ": also defined at " + other->origin +
                      "; give this table another id");
}

/// The choices one entry of `integrators` makes ("all" is every hand-written integrator: a program's own ones
/// are listed by id, so that a shipped spec means the same in every program), each with whether it gives substeps.
std::vector<std::pair<IntegratorChoice, bool>> integrator_entry(const Reader& r, const toml::node& x, const MethodTables& tables) {
  std::vector<std::pair<IntegratorChoice, bool>> chosen;  // with: substeps given
  if (auto id = x.value<std::string>()) {
    if (*id == "all") {
      for (const auto& every : tables.builtin_ids)
        if (!find_user_integrator(every)) chosen.push_back({{.id = every, .substeps = 1, .start = {}, .variant = {}, .table = {}}, false});
    } else {
      chosen.push_back({{.id = *id, .substeps = 1, .start = {}, .variant = {}, .table = {}}, false});
    }
  } else if (const toml::table* t = x.as_table()) {
    IntegratorChoice c;
    bool substeps = false;
    for (auto&& [key, v] : *t) {
      const std::string k(key.str());
      if (k == "id" && v.is_string()) c.id = **v.as_string();
      else if (k == "substeps" && v.is_integer()) {
        if (**v.as_integer() < 1 || **v.as_integer() > 1000000)
          r.fail(&v, "integrators", "substeps = " + std::to_string(**v.as_integer()) + " is out of range: 1 to 1000000 steps of dt/k per step");
        c.substeps = static_cast<int>(**v.as_integer()), substeps = true;
      }
      else if (k == "start" && v.is_string()) c.start = **v.as_string();
      else if (k == "variant" && v.is_string()) c.variant = **v.as_string();
      else r.fail(&v, "integrators", "'" + k + "' is not an integrator option" +
                                         did_you_mean(k, std::array<std::string_view, 4>{"id", "substeps", "start", "variant"}) +
                                         " (id = string, substeps = whole number, start = string, variant = string)");
    }
    if (c.id.empty()) r.fail(&x, "integrators", "a table needs id = \"...\"");
    chosen.push_back({c, substeps});
  } else {
    r.fail(&x, "integrators", "each entry is an id string or a table { id = \"rk4\", substeps = 4 }");
  }
  return chosen;
}

/// "unknown integrator 'x' (did you mean 'y'?)", or "unknown integrators 'x', 'z'", and every id there is.
std::string unknown_integrators(const std::vector<std::string>& unknown, const MethodTables& tables) {
  const auto ids = tables.ids();
  std::vector<std::string> table_ids(ids.begin() + static_cast<long>(tables.builtin_ids.size()), ids.end());
  std::vector<std::string> built_in, own;
  for (const auto& id : tables.builtin_ids) (find_user_integrator(id) ? own : built_in).push_back(id);
  std::string named;
  for (const auto& id : unknown) named += (named.empty() ? "'" : ", '") + id + "'" + did_you_mean(id, ids);
  return (unknown.size() == 1 ? "unknown integrator " : "unknown integrators ") + named + "; built-in: " + join(built_in) +
         (own.empty() ? std::string() : "; this program's: " + join(own)) +
         "; method tables: " + (table_ids.empty() ? std::string("none") : join(table_ids)) + " (a table of your own: [methods." +
         unknown.front() + "] in this spec, or --methods FILE)";
}

bool known_integrator(const std::string& id, const MethodTables& tables) {
  return std::find(tables.builtin_ids.begin(), tables.builtin_ids.end(), id) != tables.builtin_ids.end() || tables.find(id);
}

/// Choice c of entry x, resolved to a built-in or a table and checked against the problem.
void add_integrator(const Reader& r, const toml::node& x, IntegratorChoice c, bool substeps_given, Spec& s,
                    const MethodTables& tables, const ProblemFacts& f) {
  const bool builtin = std::find(tables.builtin_ids.begin(), tables.builtin_ids.end(), c.id) != tables.builtin_ids.end();
  const tables::Method* tm = builtin ? nullptr : tables.find(c.id);
  if (!builtin && !tm) r.fail(&x, "integrators", unknown_integrators({c.id}, tables));
  if (tm) {
    c.table = tm->table;
    if (!substeps_given) c.substeps = tm->substeps;
  }
  try {
    // The choice's Info, options checked: a user integrator's from its registration (study/registry/extensions.hpp).
    auto with_info = [&](auto&& take) {
      if (const UserIntegrator* user = c.table ? nullptr : find_user_integrator(c.id)) take(user->info(c));
      else with_method(c, [&](const auto& m) { take(m.info()); });
    };
    with_info([&](const ode::Info& info) {
      if (info.position_force_only && f.velocity_dependent) {
        if (x.is_string() && **x.as_string() == "all") return;  // "all" means all that apply
        throw std::invalid_argument(c.id + " needs a position-only force a(q), but " + s.problem +
                                    "'s force depends on velocity; use euler, rk2-midpoint, rk2-heun, rk4, "
                                    "implicit-midpoint, gauss-legendre4 or a runge-kutta table");
      }
      SpecIntegrator si{c, info.order, ode::local_order_of(info), info.symplectic, info.symmetric, info.implicit,
                        info.order, tm ? tm->origin : std::string(), std::string(info.source), {}, std::max(1, info.evals_per_step), {}};
      si.family = !tm && find_user_integrator(c.id) ? "own"
                  : info.implicit                       ? "implicit"
                  : tm                                  ? (tm->kind == "runge-kutta" ? "explicit-rk" : "splitting")
                  : info.symplectic                     ? "splitting"
                                                        : "explicit-rk";
      const tables::Method* table = tm;
      if (const auto it = tables::builtin_tables().find(c.id); !table && it != tables::builtin_tables().end()) table = &it->second;
      if (table) {
        si.predicted = predicted_of(*table);
        // On a linear problem, the order of the stability function, where it is higher and known (a failing condition).
        if (const auto& lin = table->predicted.linear; f.linear && lin && si.predicted.order < tables::max_checked_order)
          if (const tables::OrderAnalysis& q = tables::Prediction::of(*lin); q.order > si.predicted.order && q.order < tables::max_checked_order)
            si.predicted.linear_order = q.order;
      }
      try {
        static_cast<void>(runner_key(c, s.problem));  // a pair the program did not compile: say so now
      } catch (const std::invalid_argument&) {
        if (x.is_string() && **x.as_string() == "all") return;  // "all" means all that apply
        throw;
      }
      s.integrators.push_back(std::move(si));
    });
  } catch (const std::invalid_argument& e) {
    r.fail(&x, "integrators", e.what());
  }
}

/// integrators: ids or { id, substeps, start, variant } tables, each a built-in or a method table.
void read_integrators(const Reader& r, Spec& s, const MethodTables& tables, const ProblemFacts& f) {
  const toml::node* ints = r.get("integrators");
  if (!ints && (r.get("adaptive") || r.get("tol"))) {
    if (r.get("dt")) r.fail(r.get("dt"), "dt", "is the fixed-step integrators' sweep, but the spec lists none: give integrators = [...], or leave dt out");
    return;
  }
  if (!ints || !ints->is_array() || ints->as_array()->empty())
    r.fail(ints, "integrators", "an array of integrator ids (or { id, substeps, start } tables) is required");
  // Every unknown id at once, at the first one's line.
  std::vector<std::string> unknown;
  const toml::node* first_unknown = nullptr;
  for (const toml::node& x : *ints->as_array())
    for (const auto& [c, substeps_given] : integrator_entry(r, x, tables))
      if (!known_integrator(c.id, tables) && std::find(unknown.begin(), unknown.end(), c.id) == unknown.end()) {
        if (!first_unknown) first_unknown = &x;
        unknown.push_back(c.id);
      }
  if (first_unknown) r.fail(first_unknown, "integrators", unknown_integrators(unknown, tables));
  for (const toml::node& x : *ints->as_array())
    for (auto& [c, substeps_given] : integrator_entry(r, x, tables)) add_integrator(r, x, c, substeps_given, s, tables, f);
  for (std::size_t i = 0; i < s.integrators.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (s.integrators[i].choice.label() == s.integrators[j].choice.label())
        r.fail("integrators", "'" + s.integrators[i].choice.label() + "' is listed twice");
}

/// tol = { max, min, per_decade [, max_steps] } and adaptive = [ids or { id, controller, slope } tables]: the adaptive
/// integrators and their tolerance sweep (docs/adaptive.md).
void read_adaptive(const Reader& r, Spec& s, const MethodTables& tables, const ProblemFacts& f) {
  const toml::node* list = r.get("adaptive");
  const toml::node* tol = r.get("tol");
  if (!list && !tol) return;
  if (!list) r.fail(tol, "tol", "is the adaptive integrators' tolerance sweep, but the spec lists none: give adaptive = [\"dopri5\", ...]");
  if (!tol) r.fail(list, "adaptive", "needs the tolerances to run at: tol = { max = 1e-4, min = 1e-10, per_decade = 2 }");
  if (find_user_problem(s.problem))
    r.fail(list, "adaptive", "adaptive integrators run on the shipped problems; " + s.problem + " is this program's own (register_problem): "
                             "study it at fixed steps (integrators, dt)");
  const toml::table* range = tol->as_table();
  if (!range) r.fail(tol, "tol", "must be a table { max, min, per_decade } (max_steps: the step-count limit of one run)");
  constexpr std::array<std::string_view, 5> keys{"max", "min", "per_decade", "max_steps", "outputs"};
  for (auto&& [key, v] : *range)
    if (std::find(keys.begin(), keys.end(), key.str()) == keys.end())
      r.fail(&v, "tol." + std::string(key.str()), "unknown key of a tolerance sweep" + did_you_mean(key.str(), keys) + "; keys: max, min, per_decade, max_steps, outputs");
  if (const toml::node* o = range->get("outputs")) {
    const auto mode = o->value<std::string>();
    if (!o->is_string() || (*mode != "free" && *mode != "cut"))
      r.fail(o, "tol.outputs", "must be \"free\" (the controller chooses every step; each output time is observed by a step to it from the "
                               "step before, not taken on) or \"cut\" (steps cut to land on each output time, as Odeint's integrate_times)");
    s.adaptive_cut = *mode == "cut";
  }
  const auto hi = as_number(range->get("max")), lo = as_number(range->get("min"));
  const auto per = (*range)["per_decade"].value<int64_t>();
  if (!hi || !lo || !per) r.fail(tol, "tol", "needs max, min (numbers) and per_decade (a whole number)");
  if (!(*lo >= 1e-15) || !(*lo <= *hi) || !(*hi < 1))
    r.fail(tol, "tol", "needs 1e-15 <= min <= max < 1 (relative and absolute tolerances; got min " + shortest_decimal(*lo) + ", max " +
                           shortest_decimal(*hi) + ")");
  if (*per < 1 || *per > 20) r.fail(range->get("per_decade"), "tol.per_decade", "must be a whole number from 1 to 20");
  if (const toml::node* m = range->get("max_steps")) {
    const auto n = m->value<int64_t>();
    if (!m->is_integer() || !n || *n < 10 || *n > 1000000000) {
      // A float that is whole (1e6) is refused as TOML's integers are written: say how.
      const auto x = m->value<double>();
      const std::string write = !m->is_integer() && x && *x >= 10 && *x <= 1e9 && std::floor(*x) == *x
                                    ? fmt::format(" (TOML's whole numbers have no exponent: write {:.0f})", *x) : std::string();
      r.fail(m, "tol.max_steps", "must be a whole number from 10 to 1000000000: the accepted and rejected steps one run may take before it "
                                 "stops (a tolerance sets no step count; this bounds the work)" + write);
    }
    s.adaptive_max_steps = static_cast<long>(*n);
  }
  for (int i = 0;; ++i) {
    const double t = *hi * std::pow(10.0, -static_cast<double>(i) / static_cast<double>(*per));
    if (t < *lo * (1 - 1e-12)) break;
    s.tolerances.push_back(std::stod(fmt::format("{:.12g}", t)));
  }
  const toml::array* entries = list->as_array();
  if (!entries || entries->empty()) r.fail(list, "adaptive", "an array of embedded pairs: ids, or tables { id = \"dopri5\", controller = \"pi\" }");
  auto pairs = [&] {
    std::vector<std::string> ids;
    for (const auto& id : tables.ids())
      if (const tables::Method* m = tables.find(id); m && !m->table->b_hat.empty()) ids.push_back(id);
    return join(ids);
  };
  for (const toml::node& x : *entries) {
    SpecAdaptive a;
    const toml::node* controller = nullptr;
    if (const auto id = x.value<std::string>(); id && x.is_string()) {
      a.choice.id = *id;
    } else if (const toml::table* t = x.as_table()) {
      for (auto&& [key, v] : *t) {
        const std::string k(key.str());
        if (k == "id") {
          if (!v.is_string()) r.fail(&v, "adaptive", "id must be a string: a pair's id, e.g. id = \"dopri5\"");
          a.choice.id = **v.as_string();
        } else if (k == "controller") controller = &v;
        else if (k == "slope") {
          const auto x = as_number(&v);
          if (!x || !(*x > 0 && *x <= 10))
            r.fail(&v, "adaptive", "slope must be a number in (0, 10]: the expected slope of log error on log tolerance (1 for an "
                                   "error-per-step controller with local extrapolation)");
          a.expected_slope = *x, a.slope_given = true;
        }
        else r.fail(&v, "adaptive", "'" + k + "' is not an adaptive integrator's option" +
                                        did_you_mean(k, std::array<std::string_view, 3>{"id", "controller", "slope"}) +
                                        " (id = string; controller = \"odeint\", \"pi\" or { kind, parameters }; slope = the expected slope of "
                                        "log error on log tolerance, a number in (0, 10])");
      }
      if (a.choice.id.empty()) r.fail(&x, "adaptive", "a table needs id = \"...\"");
    } else {
      r.fail(&x, "adaptive", "each entry is a pair's id or a table { id = \"dopri5\", controller = \"pi\" }");
    }
    if (const ControlledPeer* peer = find_controlled_peer(a.choice.id)) {  // Odeint's own, beside ours
      a.odeint = std::string(peer->which), a.source = std::string(peer->source), a.fixed_steps = std::string(peer->table);
      // Our table of the same coefficients: its steps from a step's start observe the output times inside it.
      if (const tables::Method* same = tables.find(a.fixed_steps)) a.peer_table = same->table;
      a.order = peer->order, a.order_hat = peer->order_hat, a.evals_per_step = peer->evals_per_step;
    } else {
      const tables::Method* m = tables.find(a.choice.id);
      std::vector<std::string> known = tables.ids();
      for (const auto& p : controlled_peers) known.emplace_back(p.id);
      if (!m && known_integrator(a.choice.id, tables))
        r.fail(&x, "adaptive", "'" + a.choice.id + "' is a built-in integrator without embedded weights: an adaptive integrator is an explicit "
                                   "runge-kutta table with b_hat and order_hat; embedded pairs: " + pairs() +
                                   "; Boost.Odeint's: odeint-dopri5, odeint-cash-karp54, odeint-fehlberg78");
      if (!m)
        r.fail(&x, "adaptive", "'" + a.choice.id + "' is not a method table" + did_you_mean(a.choice.id, known) + "; embedded pairs: " + pairs() +
                                   "; Boost.Odeint's: odeint-dopri5, odeint-cash-karp54, odeint-fehlberg78");
      if (m->table->b_hat.empty() || m->table->implicit || m->table->kind != ode::MethodTable::Kind::runge_kutta)
        r.fail(&x, "adaptive", "'" + a.choice.id + "' has no embedded weights: an adaptive integrator is an explicit runge-kutta table with b_hat "
                                   "and order_hat (docs/method-tables.md); embedded pairs: " + pairs());
      a.choice.table = m->table;
      a.fixed_steps = a.choice.id;
      a.order = m->table->order, a.order_hat = m->table->order_hat;
      a.evals_per_step = m->table->evals_per_step;
      a.table = m->origin, a.source = m->table->source;
    }
    if (!a.slope_given) {
      // On a linear problem each weight's order is its stability function's where that is higher (Merson's b_hat: 5,
      // above its 3): the estimate's order, and with it the slope, is what the pair does there.
      auto on_problem = [&](const std::string& id, int order) {
        const tables::Method* t = tables.find(id);
        if (!f.linear || !t || order >= tables::max_checked_order) return order;
        if (const auto& lin = t->predicted.linear)
          if (const tables::OrderAnalysis& q = tables::Prediction::of(*lin); q.order > order && q.order < tables::max_checked_order) return q.order;
        return order;
      };
      const int p = on_problem(a.fixed_steps, a.order), q = on_problem(a.fixed_steps + "-embedded", a.order_hat);
      a.expected_slope = static_cast<double>(p) / (std::min(p, q) + 1);
      if (p != a.order || q != a.order_hat)
        a.slope_basis = fmt::format("orders {}({}) on linear problems, its stability functions'", p, q);
    }
    std::vector<std::string_view> allowed;
    std::string params;
    if (controller) {
      const toml::table* ct = controller->as_table();
      if (const auto name = controller->value<std::string>(); name && controller->is_string()) a.controller = *name;
      else if (ct && ct->get("kind") && ct->get("kind")->is_string()) a.controller = **ct->get("kind")->as_string();
      else r.fail(controller, "adaptive", "controller must be \"odeint\", \"pi\" or a table { kind = \"pi\", beta = 0.04 }");
      if (!a.odeint.empty() && a.controller != "odeint")
        r.fail(controller, "adaptive", a.choice.id + " is Boost.Odeint's own stepper under its own controller: controller = \"odeint\" (max_dt its "
                                       "one parameter), or run our " + (a.odeint == "cash-karp54" ? std::string("cash-karp5") : a.odeint) +
                                       " under another");
      const UserController* own = find_user_controller(a.controller);
      if (!a.odeint.empty()) allowed = {"kind", "max_dt"};
      else if (a.controller == "odeint") allowed = {"kind", "a_x", "a_dxdt", "max_dt"};
      else if (a.controller == "pi") allowed = {"kind", "beta", "safe", "fac_min", "fac_max", "max_dt"};
      else if (own) {
        allowed = {"kind"};
        for (const auto& p : own->parameters) allowed.emplace_back(p);
      } else {
        std::vector<std::string> names{"odeint", "pi"};
        for (const auto& c : extensions().controllers) names.push_back(c.name);
        r.fail(controller, "adaptive", "unknown controller '" + a.controller + "'" + did_you_mean(a.controller, names) +
                                           "; controllers: odeint (Odeint's default error checker and step adjuster), pi (Hairer and Wanner's DOPRI5 "
                                           "PI control)" + (names.size() > 2 ? "; this program's: " + join(std::vector<std::string>(names.begin() + 2, names.end())) : std::string()));
      }
      if (ct)
        for (auto&& [key, v] : *ct) {
          const std::string k(key.str());
          if (k == "kind") continue;
          if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
            r.fail(&v, "adaptive", "'" + k + "' is not a parameter of the " + a.controller + " controller" + did_you_mean(k, allowed) + "; its parameters: " +
                                       join(std::vector<std::string>(allowed.begin() + 1, allowed.end())));
          const auto d = as_number(&v);
          const bool fraction = k == "safe" || k == "fac_min";
          const bool builtin = a.controller == "odeint" || a.controller == "pi";  // a user's parameters: any number >= 0
          if (!d) r.fail(&v, "adaptive", "controller " + k + " must be a number");
          if (!std::isfinite(*d) || *d < 0 || (builtin && k == "beta" && *d > 0.2) || (builtin && fraction && !(*d > 0 && *d < 1)) ||
              (builtin && k == "fac_max" && *d <= 1) || (k == "max_dt" && *d > s.t_end))
            r.fail(&v, "adaptive", "controller " + k + " = " + shortest_decimal(*d) + " is out of range (" +
                                       (k == "beta" ? "0 to 0.2" : fraction ? "between 0 and 1" : k == "fac_max" ? "above 1" : k == "max_dt" ? "0 (none) to t_end" : "a number >= 0") + ")");
          // A step cap that cannot work: below the resolution of t over the run, or so small that t_end needs more steps
          // than a run may take: every run would stop on it, blaming the tolerance.
          if (k == "max_dt" && *d > 0) {
            const double least = std::ceil(s.t_end / *d);
            if (!(*d > 16 * std::numeric_limits<double>::epsilon() * s.t_end) || least > static_cast<double>(s.adaptive_max_steps))
              r.fail(&v, "adaptive", fmt::format("controller max_dt = {} cannot work: t_end = {} needs at least t_end / max_dt = {:.3g} steps, "
                                                 "above tol.max_steps = {} (every run would stop at its step limit); give max_dt >= {:.3g} "
                                                 "(0: no cap), or raise tol.max_steps",
                                                 shortest_decimal(*d), shortest_decimal(s.t_end), least, s.adaptive_max_steps,
                                                 s.t_end / static_cast<double>(s.adaptive_max_steps)));
          }
          a.params[k] = *d;
          params += " " + k + "=" + shortest_decimal(*d);
        }
    }
    if (a.controller == "pi") {  // the PI exponent 1/(q+1) - 0.75 beta must stay positive for this pair's q, or no error cuts the step
      const int q = std::min(a.order, a.order_hat);
      const auto beta = a.params.count("beta") ? a.params.at("beta") : 0.04;
      if (!(1.0 / (q + 1) - 0.75 * beta > 0))
        r.fail(controller, "adaptive", fmt::format("controller beta = {} makes the PI exponent 1/(q+1) - 0.75 beta = {:.3g} for {}'s error order q = {}: "
                                                   "it must be > 0 (beta < {:.3g})", shortest_decimal(beta), 1.0 / (q + 1) - 0.75 * beta, a.choice.id, q,
                                                   4.0 / (3.0 * (q + 1))));
      if (a.params.count("safe") && !(a.params.at("safe") >= 0.5))
        r.fail(controller, "adaptive", "controller safe = " + shortest_decimal(a.params.at("safe")) + " is out of range (0.5 to 1: the fraction of the "
                                       "step the error allows that is taken)");
    }
    a.label = !a.odeint.empty() ? a.choice.id + (params.empty() ? std::string() : " (" + params.substr(1) + ")")
                                : a.choice.id + " (adaptive" + (a.controller == "odeint" && params.empty() ? std::string() : ", " + a.controller) + params + ")";
    for (const auto& other : s.adaptive)
      if (other.label == a.label) r.fail(&x, "adaptive", "'" + a.label + "' is listed twice");
    if (!f.dim) r.fail(&x, "adaptive", "the problem has no state");
    s.adaptive.push_back(std::move(a));
  }
}

/// Expected orders overridden per integrator (label or id): expect = { "rk4" = 4 } or { rk4 = { global = 4, local = 5 } }.
void read_expect(const Reader& r, Spec& s) {
  if (const toml::node* e = r.get("expect")) {
    if (!e->is_table()) r.fail(e, "expect", "must be a table, e.g. expect = { \"stormer-verlet\" = { local = 4 } }");
    std::vector<int> offset;  // declared local order - declared global order, before any override
    for (const auto& i : s.integrators) offset.push_back(i.expected_local - i.expected_global);
    for (auto&& [key, v] : *e->as_table()) {
      const std::string k(key.str());
      auto hit = std::find_if(s.integrators.begin(), s.integrators.end(),
                              [&](const SpecIntegrator& i) { return i.choice.label() == k || i.choice.id == k; });
      if (hit == s.integrators.end()) {
        std::vector<std::string> labels;
        for (const auto& i : s.integrators) labels.push_back(i.choice.label());
        r.fail(&v, "expect." + k, "no integrator of this spec is called '" + k + "'" + did_you_mean(k, labels));
      }
      for (auto it = hit; it != s.integrators.end(); ++it) {
        if (it->choice.label() != k && it->choice.id != k) continue;
        auto order = [&](const toml::node& n) {
          if (**n.as_integer() < 0 || **n.as_integer() > 20)
            r.fail(&n, "expect." + k, std::to_string(**n.as_integer()) + " is not an order: a whole number from 0 to 20");
          return static_cast<int>(**n.as_integer());
        };
        // A global order p brings the local order with it, p + 1 (or p + the method's own offset where it declares
        // one: Stormer-Verlet's positions, local 4 for global 2), as the declared order does; a local order given
        // beside it wins.
        const int off = offset[static_cast<std::size_t>(it - s.integrators.begin())];
        auto with_local = [&](const toml::node& n) {  // the local order it brings must be an order too
          if (it->expected_global + off > 20)
            r.fail(&n, "expect." + k, fmt::format("global order {} brings local order {}, above 20; give local = ... beside it",
                                                  it->expected_global, it->expected_global + off));
          it->expected_local = it->expected_global + off;
        };
        if (v.is_integer()) {
          it->expected_global = order(v);
          with_local(v);
        } else if (const toml::table* t = v.as_table()) {
          for (auto&& [mk, mv] : *t)
            if (!mv.is_integer() || (mk.str() != "global" && mk.str() != "local"))
              r.fail(&mv, "expect." + k, "use global = <order> and/or local = <order> (whole numbers)" +
                                             did_you_mean(mk.str(), std::array<std::string_view, 2>{"global", "local"}));
          const toml::node* g = t->get("global");
          const toml::node* l = t->get("local");
          if (g) {
            it->expected_global = order(*g);
            if (!l) with_local(*g);
          }
          if (l) it->expected_local = order(*l);
        } else {
          r.fail(&v, "expect." + k, "must be an order (whole number) or { global = p, local = q }");
        }
      }
    }
  }
}

/// repeats, reference_tol, samples, local_points.
void read_settings(const Reader& r, Spec& s) {
  if (auto v = r.integer("repeats")) {
    if (*v < 1 || *v > 100) r.fail("repeats", "must be between 1 and 100");
    s.repeats = static_cast<int>(*v);
  }
  if (auto v = r.number("reference_tol")) {
    if (!(*v >= 1e-29 && *v <= 1e-10))
      r.fail("reference_tol", "must lie in [1e-29, 1e-10] (float128 references; the certifying solve is 100 x tighter)");
    s.reference_tol = *v;
  }
  if (auto v = r.integer("samples")) {
    if (*v < 8 || *v > 4096) r.fail("samples", "must be between 8 and 4096");
    s.samples = static_cast<int>(*v);
  }
  if (auto v = r.integer("local_points")) {
    if (*v < 1 || *v > 64) r.fail("local_points", "must be between 1 and 64");
    s.local_points = static_cast<int>(*v);
  }
  if (const toml::node* acc = r.get("accuracy")) {
    // The relative global errors the user asks about: dt = "auto" runs each method's halvings on until its error
    // passes the tightest (or its noise floor, or its budget, stops it); the report answers for each.
    const toml::array* list = acc->as_array();
    if (!list && !as_number(acc)) r.fail(acc, "accuracy", "must be a relative global error or an array of them, e.g. [1e-8, 1e-12]");
    std::vector<const toml::node*> items;
    if (list)
      for (const toml::node& x : *list) items.push_back(&x);
    else
      items.push_back(acc);
    if (items.empty()) r.fail(acc, "accuracy", "the array is empty");
    for (const toml::node* x : items) {
      const auto v = as_number(x);
      if (!v || !(*v >= 1e-30 && *v < 1))
        r.fail(x, "accuracy", "each accuracy must be a relative global error from 1e-30 up to (not including) 1, e.g. 1e-10");
      s.accuracy.push_back(*v);
    }
  }
  if (auto v = r.number("wide_budget")) {
    if (!(*v >= 0 && *v <= max_wide_budget))
      r.fail("wide_budget", fmt::format("must lie in [0, {:g}]: the work the wider arithmetics may spend on an integrator's orders, "
                                        "in multiples of its double sweep's estimate (0: none)", max_wide_budget));
    s.wide_budget = *v;
  }
}

}  // namespace

std::string versus_method(const Spec& s, const std::string& name, std::string& why) {
  std::vector<std::string> labels;
  std::vector<std::pair<std::string, std::string>> ids;  // (id, label)
  for (const auto& i : s.integrators) labels.push_back(i.choice.label()), ids.emplace_back(i.choice.id, i.choice.label());
  for (const auto& a : s.adaptive) labels.push_back(a.label), ids.emplace_back(a.choice.id, a.label);
  if (std::find(labels.begin(), labels.end(), name) != labels.end()) return name;
  std::vector<std::string> hits;
  for (const auto& [id, label] : ids)
    if (id == name) hits.push_back(label);
  if (hits.size() == 1) return hits.front();
  why = hits.empty() ? "names none of the study's methods; they are: " + join(labels)
                     : "is the id of " + std::to_string(hits.size()) + " of the study's methods; give one's label: " + join(hits);
  return {};
}

namespace {

/// vs: the method the report measures every other against, by its label or an id naming one method.
void read_vs(const Reader& r, Spec& s) {
  if (!r.get("vs")) return;
  const std::string name = r.string("vs", false);
  std::string why;
  s.vs = versus_method(s, name, why);
  if (s.vs.empty()) r.fail(r.get("vs"), "vs", "'" + printable(name) + "' " + why);
}

/// varying_dt: alternating steps, and the metrics they rule out.
void read_varying_dt(const Reader& r, Spec& s) {
  if (const toml::node* v = r.get("varying_dt")) {
    const toml::table* t = v->as_table();
    if (!t) r.fail(v, "varying_dt", "must be a table, e.g. varying_dt = { pattern = \"alternating\", amplitude = 0.5 }");
    for (auto&& [key, x] : *t)
      if (key.str() != "pattern" && key.str() != "amplitude")
        r.fail(&x, "varying_dt." + std::string(key.str()),
               "unknown key" + did_you_mean(key.str(), std::array<std::string_view, 2>{"pattern", "amplitude"}) + "; keys: pattern, amplitude");
    const auto pattern = (*t)["pattern"].value<std::string>();
    const auto amplitude = as_number((*t)["amplitude"].node());
    if (pattern != "alternating")
      r.fail(v, "varying_dt.pattern", "must be \"alternating\" (steps dt (1 + a), dt (1 - a), ...)");
    if (!amplitude || !(*amplitude > 0 && *amplitude <= 0.9))
      r.fail(v, "varying_dt.amplitude", "must be a number in (0, 0.9]: the steps are dt (1 +/- amplitude)");
    s.dt_pattern = *pattern, s.dt_amplitude = *amplitude;
    for (long n : s.steps)
      if (n % 2) r.fail(r.get("dt"), "dt", "alternating steps come in pairs: t_end / dt must be even, but dt = " + shortest_decimal(s.t_end / static_cast<double>(n)) +
                                     " gives " + std::to_string(n) + " steps");
    for (const std::string m : {"local", "walltime", "stability", "reversibility"})
      if (s.wants(m)) r.fail("metrics", "'" + m + "' is measured with constant steps only; with varying_dt use global and energy");
  }
}

void read_plot_dt(const Reader& r, Spec& s) {
  // The step the report's trajectory and energy-against-time plots show: by default the middle of the sweep
  // (automatic sweeps, and ranges with past_floor, which every integrator runs at least to: the third step).
  if (s.steps.empty()) {  // adaptive integrators only
    if (r.get("plot_dt")) r.fail("plot_dt", "is one of the fixed-step sweep's step sizes, but the spec has no dt");
    return;
  }
  s.plot_dt = s.dt(s.auto_dt || s.past_floor > 0 ? std::min<std::size_t>(2, s.steps.size() - 1) : s.steps.size() / 2);
  if (auto v = r.number("plot_dt")) {
    // inf would match every step (|dt - inf| <= 1e-3 inf): a step size is finite and positive first.
    if (!(*v > 0) || !std::isfinite(*v)) r.fail("plot_dt", "must be one of the sweep's step sizes, a finite number > 0");
    std::vector<std::string> dts;
    bool found = false;
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
      dts.push_back(shortest_decimal(s.dt(i)));
      if (std::abs(s.dt(i) - *v) <= 1e-3 * *v) s.plot_dt = s.dt(i), found = true;
    }
    if (!found) r.fail("plot_dt", "must be one of the sweep's step sizes: " + join(dts));
  }
}

/// energy_t_end, energy_dt and energy_tol: the long energy run, of each fixed-step integrator at energy_dt and, where
/// energy_tol is given, of each adaptive pair at that tolerance.
void read_energy_run(const Reader& r, Spec& s, const ProblemFacts& f) {
  const toml::node* tol_key = r.get("energy_tol");
  if (auto v = r.number("energy_t_end")) {
    if (!(*v > 0) || !std::isfinite(*v)) r.fail("energy_t_end", "must be a finite number > 0");
    if (!f.conservative)
      r.fail("energy_t_end", "the long energy run measures how well energy is conserved, but " + s.problem +
                                 " is dissipative (its energy error is measured against the reference's, with metric energy)");
    s.energy_t_end = *v;
    if (tol_key) {
      if (s.adaptive.empty()) r.fail("energy_tol", "is the adaptive pairs' tolerance in the long energy run, but the spec lists no adaptive pairs");
      const auto tol = r.number("energy_tol");
      if (!tol || !(*tol >= 1e-15) || !(*tol < 1))
        r.fail("energy_tol", "must be a number from 1e-15 to below 1 (eps_abs = eps_rel of the pairs' long run), as tol's are");
      s.energy_tol = *tol;
      // Its samples span four decades up to energy_t_end: shorter than the problem's time scale, the run cannot tell a
      // drift from the error's own oscillation (and far shorter, it takes no step).
      if (!(*v >= s.time_scale))
        r.fail("energy_t_end", "the pairs' long run (energy_tol) must span at least " + s.problem + "'s time scale, " +
                                   shortest_decimal(s.time_scale) + ": shorter, it cannot tell a drift from the error's oscillation; energy_t_end >= " +
                                   shortest_decimal(s.time_scale));
    } else if (s.integrators.empty()) {
      r.fail("energy_t_end", "the spec lists adaptive pairs only: give energy_tol, the tolerance their long run takes (for example "
                             "energy_tol = " + shortest_decimal(s.tolerances.empty() ? 1e-8 : s.tolerances.front()) + "), or leave energy_t_end out");
    }
    if (!s.integrators.empty()) {
      s.energy_dt = r.number("energy_dt").value_or(s.steps.empty() ? 0.0 : s.dt(0));
      // Named after the key the user gave: energy_t_end alone takes the sweep's largest step.
      const bool own_dt = r.get("energy_dt") != nullptr;
      r.steps_for(s.energy_dt, *v, own_dt ? r.get("energy_dt") : r.get("energy_t_end"), own_dt ? "energy_dt" : "energy_t_end");
    } else if (r.get("energy_dt")) {
      r.fail("energy_dt", "is the fixed-step integrators' step in the long energy run, but the spec lists none (the pairs' long run takes energy_tol)");
    }
  } else if (r.get("energy_dt") || tol_key) {
    r.fail(r.get("energy_dt") ? "energy_dt" : "energy_tol", "is a setting of the long energy run: give energy_t_end too");
  }
}

}  // namespace

std::string time_scale_problem(const std::string& problem, double time_scale) {
  if (std::isnormal(time_scale) && time_scale > 0 && time_scale < 1e150) return {};
  return "these parameters give " + problem + " a time scale (period) of " + shortest_decimal(time_scale) +
         ", outside what a double can step through (a positive number below 1e150, not subnormal); bring the "
         "parameters closer to 1";
}

const std::vector<std::string>& spec_keys() { return known_keys; }

Spec load_spec(const std::filesystem::path& file, const tables::Library* methods) {
  return parse_spec(read_input_file<SpecError>(file, "spec file (TOML)", "no such spec file"), file, methods);
}

namespace {

/// One study from a spec's table, with a scan's point in place of its own values (o), or without.
Spec parse_table(const toml::table& table, const std::string& text, const std::filesystem::path& file,
                 const tables::Library* methods, const Overrides* o) {
  const Reader r(file, table);
  check_keys(r, table);
  Spec s;
  s.file = file;
  read_name(r, s);
  const ProblemFacts facts = read_problem(r, s, o);
  read_steps(r, s, facts, o);
  read_metrics(r, s);
  MethodTables tables{.own = {}, .given = methods};
  read_methods(table, text, file, tables);
  read_integrators(r, s, tables, facts);
  read_adaptive(r, s, tables, facts);
  read_expect(r, s);
  read_vs(r, s);
  read_settings(r, s);
  read_varying_dt(r, s);
  read_plot_dt(r, s);
  read_energy_run(r, s, facts);
  if (o) {
    s.scan = o->point;
    s.name = scan_point_name(s.name, o->point.axes, o->point.values);
    if (const std::string why = name_problem(s.name); !why.empty())
      r.fail("scan", "the point's study name '" + s.name + "' " + why + ": give the spec a shorter name");
  }
  return s;
}

/// A scan's axis: its key, where it is written, its values.
struct Axis {
  std::string name;
  const toml::node* at = nullptr;
  std::vector<double> values;
};

/// Generated values to 12 significant digits (0.35, not 0.35000000000000003): stable names, readable axes.
double round12(double x) { return std::strtod(fmt::format("{:.12g}", x).c_str(), nullptr); }

/// One axis's values: a list of numbers, or { from, to, count, log }.
std::vector<double> axis_values(const Reader& r, const std::string& key, const toml::node& n) {
  std::vector<double> v;
  if (const toml::array* list = n.as_array()) {
    if (list->empty() || list->size() > max_scan_values)
      r.fail(&n, key, fmt::format("has {} values: give from 1 to {}", list->size(), max_scan_values));
    for (const toml::node& x : *list) {
      const auto d = as_number(&x);
      if (!d || !std::isfinite(*d)) r.fail(&x, key, "every value must be a finite number");
      if (std::find(v.begin(), v.end(), *d) != v.end()) r.fail(&x, key, "the value " + shortest_decimal(*d) + " is given twice");
      v.push_back(*d);
    }
    return v;
  }
  const toml::table* range = n.as_table();
  if (!range)
    r.fail(&n, key, "must be an array of values, e.g. [0.0, 0.3, 0.6], or a range { from = 0.05, to = 0.95, count = 10 } "
                    "(log = true: spaced evenly in the logarithm)");
  constexpr std::array<std::string_view, 4> keys{"from", "to", "count", "log"};
  for (auto&& [k, x] : *range)
    if (std::find(keys.begin(), keys.end(), k.str()) == keys.end())
      r.fail(&x, key + "." + std::string(k.str()), "unknown key of a scan range" + did_you_mean(k.str(), keys) + "; keys: from, to, count, log");
  const auto from = as_number(range->get("from")), to = as_number(range->get("to"));
  const toml::node* count_node = range->get("count");
  if (!from || !to || !count_node) r.fail(&n, key, "a range needs from and to (numbers) and count (a whole number)");
  if (!std::isfinite(*from) || !std::isfinite(*to) || *from == *to)
    r.fail(&n, key, "from and to must be finite and differ (got from " + shortest_decimal(*from) + ", to " + shortest_decimal(*to) + ")");
  const auto count = count_node->value<int64_t>();
  if (!count_node->is_integer() || !count || *count < 2 || *count > static_cast<int64_t>(max_scan_values))
    r.fail(count_node, key + ".count", fmt::format("must be a whole number from 2 to {}", max_scan_values));
  bool log = false;
  if (const toml::node* l = range->get("log")) {
    if (!l->is_boolean()) r.fail(l, key + ".log", "must be true or false");
    log = **l->as_boolean();
  }
  if (log && !(*from > 0 && *to > 0))
    r.fail(&n, key, "log = true spaces the values evenly in the logarithm: from and to must be > 0 (got from " + shortest_decimal(*from) +
                        ", to " + shortest_decimal(*to) + ")");
  for (int64_t i = 0; i < *count; ++i) {
    const double t = static_cast<double>(i) / static_cast<double>(*count - 1);
    if (i == 0 || i == *count - 1) {  // the ends as written, every digit
      v.push_back(i == 0 ? *from : *to);
      continue;
    }
    const double x = log ? *from * std::pow(*to / *from, t) : *from + (*to - *from) * t;
    if (!std::isfinite(x)) r.fail(&n, key, "from and to are too far apart: the values between them overflow a double");
    // The values between, to 12 digits (0.1 + 0.2 k is 0.3, not 0.30000000000000004).  A linear range that crosses 0
    // has 0 among them where its 12 digits relative to the range say so: -0.3 + 0.9 k / 9 at k = 3 is 0, not -5.6e-17.
    // A logarithmic one never crosses 0: each value to 12 digits of its own.
    const bool crosses = !log && (*from < 0) != (*to < 0);
    v.push_back(crosses && std::abs(x) < 1e-12 * std::max(std::abs(*from), std::abs(*to)) ? 0.0 : round12(x));
  }
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i] == v[i - 1]) r.fail(&n, key, "from and to are so close that two values round to " + shortest_decimal(v[i]) + " (12 digits)");
  return v;
}

/// The axes of `scan`, in the order the spec writes them.
std::vector<Axis> read_scan(const Reader& r, const toml::table& table) {
  const toml::node* n = r.get("scan");
  const toml::table* scan = n->as_table();
  if (!scan || scan->empty())
    r.fail(n, "scan", "must be a table of axes, e.g. scan = { e = [0.0, 0.3, 0.6, 0.9] } (t_end or the problem's parameters)");
  // The problem's parameters, when the problem is known (otherwise the first point's error names it).
  std::vector<std::string> params;
  if (const auto problem = table["problem"].value<std::string>()) {
    const auto ids = all_problem_ids();
    if (std::find(ids.begin(), ids.end(), *problem) != ids.end())
      for (const auto& p : problem_facts(*problem, {}).params) params.emplace_back(p.name);
  }
  std::vector<Axis> axes;
  for (auto&& [k, x] : *scan) {
    const std::string name(k.str()), key = "scan." + name;
    if (name == "t_end") {
      if (const toml::node* given = r.get("t_end"))
        r.fail(given, "t_end", "is scanned (scan.t_end): the values come from the scan; remove t_end");
    } else if (!params.empty() && std::find(params.begin(), params.end(), name) == params.end()) {
      std::vector<std::string> valid = params;
      valid.insert(valid.begin(), "t_end");
      r.fail(&x, key, "not t_end or a parameter of " + *table["problem"].value<std::string>() + did_you_mean(name, valid) +
                          "; axes: " + join(valid));
    } else if (const toml::table* p = table["params"].as_table(); p && p->contains(name)) {
      r.fail(p->get(name), "params." + name, "is scanned (scan." + name + "): the values come from the scan; remove it from params");
    }
    axes.push_back({name, &x, axis_values(r, key, x)});
  }
  // toml++ keeps a table's keys sorted: put them back in the order they are written.
  std::stable_sort(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) {
    const auto pa = a.at->source().begin, pb = b.at->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  std::size_t points = 1;
  std::vector<std::string> sizes;
  for (const auto& a : axes) {
    points *= a.values.size(), sizes.push_back(std::to_string(a.values.size()));
    if (points > max_scan_points)
      r.fail(n, "scan", fmt::format("makes more than {} points ({}); scan fewer values, or split it into several specs",
                                    max_scan_points, fmt::join(sizes, " x ")));
  }
  return axes;
}

std::string point_text(const ScanPoint& p) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < p.axes.size(); ++i) parts.push_back(p.axes[i] + " = " + shortest_decimal(p.values[i]));
  return fmt::format("scan point {} of {}: {}", p.index + 1, p.count, fmt::join(parts, ", "));
}

}  // namespace

std::string scan_point_name(const std::string& scan, const std::vector<std::string>& axes, const std::vector<double>& values) {
  std::string name = scan;
  for (std::size_t i = 0; i < axes.size() && i < values.size(); ++i) {
    name += "_";
    for (const char c : axes[i]) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    name += '-' + value_name(values[i]);  // x0-1em05, not x01em05
  }
  return name;
}

std::vector<Spec> parse_specs(const std::string& text, const std::filesystem::path& file, const tables::Library* methods) {
  const toml::table table = parse_toml(text, file);
  if (!table.contains("scan")) return {parse_table(table, text, file, methods, nullptr)};
  const Reader r(file, table);
  check_keys(r, table);
  {
    Spec base;  // the spec's own name, before any point: its error is not a point's
    read_name(r, base);
  }
  const std::vector<Axis> axes = read_scan(r, table);
  std::size_t count = 1;
  for (const auto& a : axes) count *= a.values.size();
  std::vector<Spec> specs;
  specs.reserve(count);
  std::set<std::string> names;
  for (std::size_t index = 0; index < count; ++index) {
    Overrides o;
    o.point.scan = table["name"].value_or(std::string());
    o.point.index = index, o.point.count = count;
    std::size_t rest = index, stride = count;
    for (const auto& a : axes) {  // the first axis varies slowest
      stride /= a.values.size();
      const double v = a.values[rest / stride];
      rest %= stride;
      o.point.axes.push_back(a.name), o.point.values.push_back(v);
      if (a.name == "t_end") o.t_end = v;
      else o.params[a.name] = shortest_decimal(v);
    }
    try {
      specs.push_back(parse_table(table, text, file, methods, &o));
    } catch (const SpecError& e) {
      throw SpecError(std::string(e.what()) + " [" + point_text(o.point) + "]");
    }
    if (!names.insert(specs.back().name).second)
      r.fail("scan", "two points are both named '" + specs.back().name + "' (axes that differ only in case): rename a parameter axis");
  }
  return specs;
}

std::vector<Spec> load_specs(const std::filesystem::path& file, const tables::Library* methods) {
  return parse_specs(read_input_file<SpecError>(file, "spec file (TOML)", "no such spec file"), file, methods);
}

Spec parse_spec(const std::string& text, const std::filesystem::path& file, const tables::Library* methods) {
  const toml::table table = parse_toml(text, file);
  if (const toml::node* scan = table.get("scan"))
    Reader(file, table).fail(scan, "scan", "this spec is a scan of many studies: read it with study::parse_specs (as study run does)");
  return parse_table(table, text, file, methods, nullptr);
}

double reference_cost(double t_end, double time_scale, double evaluation_cost) {
  // Two Bulirsch-Stoer solves in float128: 1.5e4 evaluations per time scale (Kepler e = 0.6: 0.1 s for 10
  // periods, the certifying solve 100 x tighter) at the default tolerance 1e-28 (looser ones cost less).  A
  // problem that needs more steps per time scale is stopped inside the solve (reference::WorkBudget).
  return 1.5e4 * reference_work_per_evaluation * t_end / time_scale * evaluation_cost;
}



double sweep_work(const Spec& s, const SpecIntegrator& i) {
  // Each run steps once, once more backwards for reversibility, and, when it is measured against a reference,
  // about three times as long in long double for its round-off shadow (study/measure/measure_impl.hpp); an
  // implicit method iterates (counted as 8 iterations a step).
  const bool reference = s.wants("global") || s.wants("local") || s.wants("energy");
  const double passes = 1.0 + (s.wants("reversibility") ? 1 : 0) + (reference ? 3 : 0);
  const std::size_t runs = s.auto_dt ? std::min<std::size_t>(s.steps.size(), static_cast<std::size_t>(s.auto_dt->runs)) : s.steps.size();
  double steps = 0;
  for (std::size_t k = 0; k < runs; ++k) steps += static_cast<double>(s.steps[k]);
  return steps * (i.evals_per_step * (i.implicit ? 8.0 : 1.0) * s.evaluation_cost + implicit_solve_work(s, i)) * passes;
}

double implicit_solve_work(const Spec& s, const SpecIntegrator& i) {
  if (!i.implicit) return 0;
  // An implicit method's step factors its Newton matrix, n = stages x dim unknowns (n^3 / 3 multiply-adds), and
  // solves with it once an iteration (8: n^2 each), in two-body evaluations of ~30 floating-point operations
  // (integrators/implicit_rk.hpp): a 64-stage table on 16 bodies (n = 3072) is 3.2e8 of them a step, not 512.
  const double n = static_cast<double>(i.evals_per_step) * static_cast<double>(s.dim);
  return (n * n * n / 3 + 8 * n * n) / flops_per_evaluation;
}

double wide_work_budget(const Spec& s, const SpecIntegrator& i) {
  return s.wide_budget * sweep_work(s, i);
}

std::string wide_budget_text(const Spec& s, const SpecIntegrator& i) {
  return fmt::format("wide_budget = {:g} x the double sweep's {:.3g}", s.wide_budget, sweep_work(s, i));
}

CostEstimate estimate_cost(const Spec& s) {
  CostEstimate c;
  double biggest = -1;
  auto add = [&](double evaluations, const std::string& what, const std::string& advice = "") {
    evaluations *= s.evaluation_cost;
    c.evaluations += evaluations;
    if (evaluations > biggest) biggest = evaluations, c.biggest = what, c.advice = advice;
  };
  const bool sweeps = s.wants("global") || s.wants("local") || s.wants("energy") || s.wants("walltime") || s.wants("reversibility");
  const bool reference = s.wants("global") || s.wants("local") || s.wants("energy");
  const std::size_t runs = s.auto_dt ? std::min<std::size_t>(s.steps.size(), static_cast<std::size_t>(s.auto_dt->runs)) : s.steps.size();
  // A sample kept: t, error, energy and the state (2 dim doubles, in two vectors of their own: 16 dim + 104
  // bytes), and the reference at its time (worst case, no two runs share a time): its table's 2 dim long doubles
  // in a map node (32 dim + 144), the two solves' float128 states (64 dim + 160) and the cache's decimal text
  // (90 dim).  As CSV text: each number at most 24 characters and a comma.  Measured: harmonic, 201 runs of 4096
  // samples: 649 MB at the peak against 790 MB estimated, samples.csv 113 MB against 144 MB.
  const double dim = static_cast<double>(s.dim);
  // The reference's states are held in float128 too, for the wide runs: 32 dim more a time, in a map node of its own
  // (128 bytes: the node, its key and two vectors' headers and allocations).
  const double held_per_sample = (16 * dim + 104) + (218 * dim + 432), text_per_sample = 25 * (2 * dim + 5);
  // Orders are fitted (and may be decided in wider arithmetic) where errors are measured at two step sizes or more.
  const bool orders = fits_orders(s);
  for (const auto& i : s.integrators) {
    const double per_step = i.evals_per_step * (i.implicit ? 8.0 : 1.0) + implicit_solve_work(s, i) / s.evaluation_cost;
    if (i.implicit) {  // its Newton matrix, n = stages x dim unknowns squared, in float128 for a wide run (16 bytes each)
      const double n = static_cast<double>(i.evals_per_step) * dim;
      c.held_bytes += 16 * n * n;
    }
    if (sweeps) {
      double samples = 0;
      for (std::size_t k = 0; k < runs; ++k) samples += std::min(static_cast<double>(s.samples), static_cast<double>(s.steps[k]) + 1);
      add(sweep_work(s, i) / s.evaluation_cost, fmt::format("{}'s {} runs (down to dt {})", i.choice.label(), runs, shortest_decimal(s.dt(runs - 1))));
      c.runs += runs;
      c.held_bytes += samples * held_per_sample;
      c.text_bytes += samples * text_per_sample;
      if (orders && s.wide_budget > 0)
        add(wide_work_budget(s, i) / s.evaluation_cost,
            fmt::format("{}'s runs in wider arithmetic, where round-off ends its orders' range (at most {})", i.choice.label(),
                        wide_budget_text(s, i)));
    }
    if (s.energy_t_end) {
      const double steps = std::round(*s.energy_t_end / s.energy_dt);
      add(steps * per_step, fmt::format("{}'s long energy run ({} steps to t = {})", i.choice.label(), shortest_decimal(steps), shortest_decimal(*s.energy_t_end)));
    }
  }
  // An adaptive run's steps are not known before it runs: a pilot run at tol.max (pilot_tries) scaled to each
  // tolerance as the controller scales its step, h ~ tol^(1/(q+1)) (q: the estimate's order), with a margin of 4
  // (rejections, a problem harder at tight tolerances); each run in flight is bounded by tol.max_steps tries, and
  // without a pilot counted there.  The counted run, its long double replay, each timed repeat.
  const double margin = 4;
  for (const auto& a : s.adaptive) {
    const int q = std::min(a.order, a.order_hat);
    auto tries_at = [&](double tol) {
      if (!(a.pilot_tries > 0) || s.tolerances.empty()) return static_cast<double>(s.adaptive_max_steps);
      return std::min(static_cast<double>(s.adaptive_max_steps), margin * a.pilot_tries * std::pow(s.tolerances.front() / tol, 1.0 / (q + 1)));
    };
    // Beyond the controller's tries, each output time costs a try: a step to it (free: in the counted run and its
    // replay), or a step cut to land on it (cut: in every run).
    const double per_time = s.adaptive_cut ? 1 + wide_weight("long double") + s.repeats : 1 + wide_weight("long double");
    double tries = 0;
    for (const double tol : s.tolerances) tries += tries_at(tol);
    const double per_try = a.evals_per_step * (1 + wide_weight("long double") + s.repeats);
    add(static_cast<double>(s.tolerances.size()) * (s.samples + 1) * per_time * a.evals_per_step,
        fmt::format("{}'s steps to its {} output times at each tolerance", a.label, s.samples + 1), "fewer output times (samples) or fewer tolerances");
    const std::string knobs = "a larger tol.min, fewer tolerances (tol.per_decade), or a smaller tol.max_steps";
    add(tries * per_try,
        a.pilot_tries > 0
            ? fmt::format("{}'s {} tolerances (about {:.3g} tries at tol.min = {}: its pilot run at tol.max took {:.3g}, scaled by "
                          "(tol.max / tol)^(1/{}) x {:g}; each at most tol.max_steps = {})",
                          a.label, s.tolerances.size(), tries_at(s.tolerances.back()), shortest_decimal(s.tolerances.back()), a.pilot_tries, q + 1,
                          margin, s.adaptive_max_steps)
            : fmt::format("{}'s {} tolerances (at most tol.max_steps = {} steps each{})", a.label, s.tolerances.size(), s.adaptive_max_steps,
                          a.pilot_stop.empty() ? "" : ": " + a.pilot_stop),
        knobs);
    c.runs += s.tolerances.size();
    c.held_bytes += static_cast<double>(s.tolerances.size()) * (s.samples + 1) * (16 * dim + 104);
    // adaptive_samples.csv: a row a run and output time, its label and four numbers of at most 24 characters.
    c.text_bytes += static_cast<double>(s.tolerances.size()) * (s.samples + 1) * (static_cast<double>(a.label.size()) + 4 * 25 + 1);
    if (s.energy_t_end && s.energy_tol > 0)  // one run, not timed, over energy_t_end
      add(std::min(static_cast<double>(s.adaptive_max_steps), tries_at(s.energy_tol) * std::max(1.0, *s.energy_t_end / s.t_end)) * a.evals_per_step,
          fmt::format("{}'s long energy run at tol {} (at most tol.max_steps = {} steps to t = {})", a.label, shortest_decimal(s.energy_tol),
                      s.adaptive_max_steps, shortest_decimal(*s.energy_t_end)),
          "a larger energy_tol, a shorter energy_t_end, or a smaller tol.max_steps");
  }
  // While a run is measured it keeps its accepted steps for the replay (8 bytes each, at most tol.max_steps).
  if (!s.adaptive.empty()) c.held_bytes += 8.0 * static_cast<double>(s.adaptive_max_steps);
  if (reference || !s.adaptive.empty())
    add(reference_cost(s.t_end, s.time_scale, 1), fmt::format("its reference ({} time scales in float128)", shortest_decimal(s.t_end / s.time_scale)));
  return c;
}

std::vector<std::filesystem::path> spec_files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::filesystem::path> shipped_specs() { return spec_files_in(data_dir() / "specs"); }
std::vector<std::filesystem::path> shipped_scans() { return spec_files_in(data_dir() / "scans"); }

std::vector<std::string> profile_names() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(data_dir() / "profiles"))
    if (e.is_directory()) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::filesystem::path> profile_specs(const std::string& name) {
  const auto names = profile_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw SpecError("--profile " + name + ": no such profile" + did_you_mean(name, names) + "; profiles: " + join(names));
  return spec_files_in(data_dir() / "profiles" / name);
}

std::filesystem::path profile_baseline(const std::string& name) {
  return data_dir() / "profiles" / (name + ".baseline.toml");
}

}  // namespace study
