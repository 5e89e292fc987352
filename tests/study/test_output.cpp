// Every column of every results file, written by study/results/write.cpp and read back through the report's own loader
// (study/reader/load.cpp), equals the value in memory.  The study is made by hand so that every field holds a value of
// its own: two columns swapped, a column misread, a number rounded or a null lost shows as a mismatch.  The
// files' columns and keys are listed here in full: a field added to a writer fails this test until it is
// read back and compared too.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "study/reader/model.hpp"
#include "reports/render.hpp"
#include "study/spec/spec.hpp"
#include "study/common/publish.hpp"
#include "study/results/orders.hpp"
#include "study/results/write.hpp"
#include "tests/support.hpp"

namespace {

namespace fs = std::filesystem;

/// Numbers that differ from each other and need all 17 digits: (k + 1) / 7 times a power of ten.
struct Values {
  int k = 0;
  double operator()() {
    ++k;
    return (k + 1) / 7.0 * std::pow(10.0, k % 5 - 2);
  }
  std::vector<double> many(std::size_t n) {
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back((*this)());
    return v;
  }
};

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// Every mismatch between what was written and what was read back, named by the expression (one CHECK per case:
/// two hundred Catch2 assertions made this file slow to compile under the sanitizers).
struct Fields {
  std::vector<std::string> off;
  std::string where;  ///< the row being compared
  template <class A, class B>
  void operator()(const char* what, const A& a, const B& b) {
    if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
      if (!same(static_cast<double>(a), static_cast<double>(b))) off.push_back(fmt::format("{} {}: {} != {}", where, what, a, b));
    } else if constexpr (std::is_same_v<A, std::vector<double>>) {
      bool equal = a.size() == b.size();
      for (std::size_t i = 0; equal && i < a.size(); ++i) equal = same(a[i], b[i]);
      if (!equal) off.push_back(fmt::format("{} {}: [{}] != [{}]", where, what, fmt::join(a, ", "), fmt::join(b, ", ")));
    } else {
      if (!(a == b)) off.push_back(fmt::format("{} {}: '{}' != '{}'", where, what, a, b));
    }
  }
  std::string text() const { return fmt::format("{}", fmt::join(off, "\n")); }
};
#define EQ(a, b) fields(#a, a, b)

study::StudyResult known_study(const testing::TempDir& dir) {
  const char* toml = "name = \"known\"\ntitle = \"Every field its own value\"\nproblem = \"harmonic\"\nparams = { omega = 2.5 }\n"
                     "t_end = 2.0\nintegrators = [\"rk4\", { id = \"leapfrog\", substeps = 2 }]\ndt = [0.1, 0.05]\n"
                     "metrics = [\"global\", \"local\", \"energy\", \"stability\"]\n";
  study::StudyResult r;
  r.spec = study::load_spec(dir.file("known.toml", toml));
  r.spec.auto_dt = study::AutoSweep{.runs = 7, .seconds = 3.5, .between = {30}};
  r.spec.dt_pattern = "alternating", r.spec.dt_amplitude = 0.125, r.spec.plot_dt = 0.05;
  r.spec.scan = {.scan = "family", .axes = {"omega", "t_end"}, .values = {2.5, 2.0}, .index = 4, .count = 6};
  Values v;
  // What the methods declare and their coefficients predict: the first as a table with every field its own value,
  // the second with no prediction (null).
  auto& first = r.spec.integrators[0];
  first.declared_order = 7, first.table = "mine.toml:3", first.source = "a paper, with a comma and \"quotes\"";
  first.predicted = {.order = 5, .exact_order = 4, .error_coefficient = v(), .conditions = "rooted trees (any force)",
                     .first_failing = "sum b_i c_i^5 = 1/6 (tree [t,t,t,t,t]) off by 0.01", .consistency = 0, .residuals = {},
                     .linear_order = 6};
  r.spec.integrators[1].declared_order = 8, r.spec.integrators[1].predicted = {};
  first.family = "own", r.spec.integrators[1].family = "implicit";  // neither what the loader infers without it
  r.conservative = true, r.bounded = true, r.periodic = true, r.period = v();  // every flag unlike its default
  r.time_unit = "fortnights", r.length_unit = "furlongs";
  r.position_scale = v(), r.velocity_scale = v(), r.reference_bound = v(), r.reference_tolerance = v();
  for (const auto& i : r.spec.integrators)
    for (double dt : {0.1, 0.05}) {
      study::Run x;
      x.integrator = i.choice.label(), x.id = i.choice.id, x.substeps = i.choice.substeps, x.dt = dt;
      x.steps = static_cast<long>(std::lround(2.0 / dt)) + 1000 * static_cast<long>(r.runs.size());
      x.global = v(), x.position = v(), x.max = v(), x.local = v(), x.local_position = v(), x.roundoff = v(), x.roundoff_max = v();
      x.reversal = v(), x.energy_max_rel = v(), x.energy_final_rel = -v(), x.energy_drift_per_time = -v();
      x.energy_class = r.runs.size() % 2 ? "drifting" : "bounded";
      x.energy_roundoff = v(), x.angular_momentum_max_rel = v();
      x.final_q = v.many(2), x.final_v = v.many(2);
      x.ns_per_step_min = v(), x.ns_per_step_median = v();
      x.force_evals = 100 + r.runs.size(), x.jacobian_evals = 200 + r.runs.size(), x.iterations = 300 + r.runs.size();
      x.sample_t = v.many(3), x.sample_error = v.many(3), x.sample_energy = v.many(3);
      for (int k = 0; k < 3; ++k) x.sample_q.push_back(v.many(2)), x.sample_v.push_back(v.many(2));
      r.runs.push_back(x);
    }
  // The last run diverged: its reason has a comma and quotes (CSV quoting), and what it did not measure is null.
  study::Run& d = r.runs.back();
  d.status = "diverged", d.diverged_step = 17, d.diverged_t = v(), d.reason = "overflow, at \"the\" pericentre";
  d.global = d.max = d.local = d.energy_max_rel = study::not_measured;
  d.energy_class.clear();
  for (const auto& i : r.spec.integrators) {
    r.sweeps.push_back({i.choice.label(), true, {0.1, 0.05}, "every order decided, over " + std::to_string(r.sweeps.size() + 4) + " points",
                        study::SweepStop::decided});
    if (r.sweeps.size() == 2) r.sweeps.back().cause = study::SweepStop::between, r.sweeps.back().halvings = study::SweepStop::floor;
    for (const char* metric : {"global", "max", "local"}) {  // every order the engine fits (the loader refuses fewer)
      study::Order o;
      o.integrator = i.choice.label(), o.metric = metric, o.expected = 2 + static_cast<int>(r.orders.size());
      o.fit.determined = r.orders.size() != 1;  // one undetermined: its numbers are null
      o.fit.order = v(), o.fit.lo = v(), o.fit.hi = v(), o.fit.std_error = v(), o.fit.r2 = v(), o.fit.trend_limit = v();
      o.fit.asymptotic = r.orders.size() % 2 == 0;
      o.fit.dt_min = v(), o.fit.dt_max = v(), o.fit.points = 3 + r.orders.size();
      o.fit.local_slopes = v.many(2);
      o.verdict = {r.orders.size() == 1 ? "undetermined" : "pass", "the reason, with a comma and \"quotes\"",
                   r.orders.size() == 1 ? "extend the sweep, or not" : ""};
      for (const auto& x : r.runs)  // a fit's points are copies of its runs' errors (the loader refuses others)
        if (x.integrator == o.integrator)
          o.points.push_back({x.dt, o.metric == "global" ? x.global : o.metric == "max" ? x.max : x.local, v()});
      r.orders.push_back(o);
    }
  }
  // Runs in wider arithmetic (schema 5): rk4 in long double at both steps (the second diverged), in float128 at one;
  // leapfrog's step written for double only.  rk4's orders copy their points, and its global one was decided in
  // float128.
  r.spec.wide_budget = 2.5;
  auto wide = [&](const std::string& label, const std::string& arithmetic, double dt, const std::string& status) {
    study::WideRun w;
    w.integrator = label, w.arithmetic = arithmetic, w.dt = dt, w.steps = static_cast<long>(std::lround(2.0 / dt)), w.status = status;
    w.global = v(), w.max = v(), w.local = v(), w.floor_global = v(), w.floor_max = v(), w.floor_local = v();
    w.force_evals = 4000 + r.wide_runs.size();
    if (status != "ok") w.reason = "the " + status + " reason, with a comma", w.global = w.max = w.local = study::not_measured;
    r.wide_runs.push_back(w);
  };
  wide("rk4", "long double", 0.1, "ok");
  wide("rk4", "long double", 0.05, "diverged");
  wide("rk4", "float128", 0.05, "ok");
  wide("leapfrog x2", "long double", 0.1, "unsupported");
  r.wide_sweeps.push_back({"rk4", "long double", {0.1, 0.05}, "global: why it was run, with a comma", "why it stopped", v()});
  r.wide_sweeps.push_back({"rk4", "float128", {0.05}, "global: why", "every order is decided", v(), "exact solution", 3.25e-31});
  r.wide_sweeps.push_back({"leapfrog x2", "long double", {0.1}, "local: why", "its step is written for double only", 0});
  for (auto& o : r.orders) {
    if (o.integrator != "rk4") continue;
    for (const std::string arithmetic : {"long double", "float128"}) {
      study::WidePoints w{arithmetic, {}};
      for (const auto& x : r.wide_runs)
        if (x.integrator == "rk4" && x.arithmetic == arithmetic) w.points.push_back(study::engine::wide_point(x, o.metric));
      o.wide.push_back(w);
    }
    if (o.metric == "global") o.arithmetic = "float128";
  }
  study::EnergyLong e;
  e.integrator = "leapfrog x2", e.dt = v(), e.steps = 123456, e.status = "ok", e.diverged_t = study::not_measured;
  e.t = v.many(4), e.rel_error = v.many(4), e.growth_exponent = v(), e.growth_lo = v(), e.growth_hi = v(), e.max_rel = v();
  r.energy_long.push_back(e);
  e.integrator = "rk4", e.status = "diverged", e.diverged_t = v(), e.steps = 654321, e.dt = v();  // a long run that diverged
  e.t = v.many(4), e.rel_error = v.many(4), e.growth_exponent = v(), e.growth_lo = v(), e.growth_hi = v(), e.max_rel = v();
  r.energy_long.push_back(e);
  r.stability.push_back({"rk4", v(), false, "stable up to the limit, then not", v(), "the stability polynomial"});
  r.stability.push_back({"leapfrog x2", v(), true, "stable over the whole search", INFINITY, "A-stable"});
  return r;
}

study::Meta known_meta() {
  study::Meta m;
  m.compiler = "g++ 12.2", m.flags = "-O3 -DNDEBUG", m.cpu = "a CPU, with a comma", m.revision = "abc1234-dirty";
  m.date = "2026-11-23T10:00:00Z", m.elapsed_seconds = 12.375;
  return m;
}

template <class T>
std::set<std::string> keys(const T& j) {
  std::set<std::string> k;
  for (const auto& [key, value] : j.items()) k.insert(key);
  return k;
}

}  // namespace

TEST_CASE("results.json read back by the report's loader holds every value written", "[output]") {
  Fields fields;
  testing::TempDir dir("output-json");
  const auto r = known_study(dir);
  const auto meta = known_meta();
  study::write_results(dir.path / "out", {r}, meta);

  // The keys, in full: a field the writer gains must be read back below.
  const auto doc = nlohmann::json::parse(testing::read_file(dir.path / "out" / "results.json"));
  CHECK(keys(doc) == std::set<std::string>{"schema_version", "meta", "studies"});
  CHECK(keys(doc["meta"]) == std::set<std::string>{"compiler", "flags", "cpu", "revision", "date", "elapsed_seconds", "reference"});
  const auto& js = doc["studies"][0];
  CHECK(keys(js) == std::set<std::string>{"name", "title", "spec", "problem", "problem_info", "integrators", "params", "t_end",
                                          "scan", "metrics", "plot_dt", "varying_dt", "reference", "wide_budget", "auto_dt", "sweeps",
                                          "runs", "wide_sweeps", "wide_runs", "orders", "energy_long", "stability"});
  CHECK(keys(js["wide_runs"][0]) == std::set<std::string>{"integrator", "arithmetic", "dt", "steps", "status", "error", "floor", "force_evals"});
  CHECK(keys(js["wide_runs"][1]) ==
        std::set<std::string>{"integrator", "arithmetic", "dt", "steps", "status", "reason", "error", "floor", "force_evals"});
  CHECK(keys(js["wide_runs"][0]["error"]) == std::set<std::string>{"global", "max", "local"});
  CHECK(keys(js["wide_runs"][0]["floor"]) == std::set<std::string>{"global", "max", "local"});
  CHECK(keys(js["wide_sweeps"][0]) == std::set<std::string>{"integrator", "arithmetic", "dts", "why", "stop", "work", "reference",
                                                             "reference_bound"});
  CHECK(keys(js["orders"][0]["wide_points"]) == std::set<std::string>{"long double", "float128"});
  CHECK(keys(js["runs"][0]) == std::set<std::string>{"integrator", "id", "substeps", "dt", "steps", "status", "error", "energy",
                                                     "final_state", "ns_per_step", "force_evals", "jacobian_evals", "iterations"});
  CHECK(keys(js["runs"][3]) == std::set<std::string>{"integrator", "id", "substeps", "dt", "steps", "status", "diverged", "error",
                                                     "energy", "final_state", "ns_per_step", "force_evals", "jacobian_evals",
                                                     "iterations"});
  CHECK(keys(js["runs"][0]["error"]) ==
        std::set<std::string>{"global", "position", "max", "local", "local_position", "roundoff", "roundoff_max", "reversal"});
  CHECK(keys(js["runs"][0]["energy"]) == std::set<std::string>{"max_rel", "final_rel", "drift_per_time", "behaviour", "roundoff",
                                                               "angular_momentum_max_rel"});
  CHECK(keys(js["orders"][0]) == std::set<std::string>{"integrator", "metric", "expected", "verdict", "reason", "action", "observed",
                                                       "interval", "std_error", "asymptotic", "trend_limit", "window", "r2",
                                                       "local_slopes", "points", "arithmetic", "wide_points"});
  CHECK(keys(js["orders"][3]) == std::set<std::string>{"integrator", "metric", "expected", "verdict", "reason", "action", "observed",
                                                       "interval", "std_error", "asymptotic", "trend_limit", "window", "r2",
                                                       "local_slopes", "points", "arithmetic"});
  CHECK(keys(js["energy_long"][0]) == std::set<std::string>{"integrator", "dt", "steps", "status", "diverged_t", "growth_exponent",
                                                            "growth_interval", "final_rel", "max_rel"});
  CHECK(keys(js["stability"][0]) == std::set<std::string>{"integrator", "limit", "beyond_search", "note", "theory", "theory_basis"});
  CHECK(keys(doc["meta"]["reference"]) == std::set<std::string>{"solver"});
  CHECK(keys(js["problem_info"]) == std::set<std::string>{"conservative", "bounded", "periodic", "period", "time_unit", "length_unit"});
  CHECK(keys(js["integrators"][0]) == std::set<std::string>{"label", "id", "expected_global", "expected_local", "symplectic",
                                                            "symmetric", "implicit", "declared_order", "table", "source",
                                                            "family", "evals_per_step", "predicted"});
  CHECK(keys(js["integrators"][0]["predicted"]) ==
        std::set<std::string>{"order", "exact_order", "error_coefficient", "conditions", "first_failing", "linear_order"});
  CHECK(js["integrators"][1]["predicted"].is_null());
  CHECK(keys(js["varying_dt"]) == std::set<std::string>{"pattern", "amplitude"});
  CHECK(keys(js["scan"]) == std::set<std::string>{"name", "axes", "values", "index", "count"});
  CHECK(keys(js["reference"]) == std::set<std::string>{"tolerance", "error_bound", "position_scale", "velocity_scale"});
  CHECK(keys(js["auto_dt"]) == std::set<std::string>{"runs", "seconds", "ladder", "between"});
  CHECK(keys(js["sweeps"][0]) == std::set<std::string>{"integrator", "automatic", "dts", "stop", "stop_cause"});
  CHECK(js["sweeps"][0]["stop_cause"] == "decided");
  CHECK(keys(js["runs"][3]["diverged"]) == std::set<std::string>{"step", "t", "reason"});
  CHECK(keys(js["runs"][0]["final_state"]) == std::set<std::string>{"q", "v"});
  CHECK(keys(js["runs"][0]["ns_per_step"]) == std::set<std::string>{"min", "median"});
  CHECK(keys(js["orders"][0]["window"]) == std::set<std::string>{"dt_min", "dt_max", "points"});

  const report::Results res = report::load(dir.path / "out");
  EQ(res.schema_version, study::results_schema_version);
  EQ(res.compiler, meta.compiler);
  EQ(res.flags, meta.flags);
  EQ(res.cpu, meta.cpu);
  EQ(res.revision, meta.revision);
  EQ(res.date, meta.date);
  EQ(res.elapsed, meta.elapsed_seconds);
  CHECK(res.reference_solver.find("float128") != std::string::npos);
  REQUIRE(res.studies.size() == 1);
  const report::Study& s = res.studies.front();
  EQ(s.name, "known");
  EQ(s.title, r.spec.title);
  EQ(s.spec_file, "known.toml");
  EQ(s.problem, "harmonic");
  CHECK(s.params == std::vector<std::pair<std::string, std::string>>{{"omega", r.spec.params.at("omega")}});
  CHECK((s.conservative && s.bounded && s.periodic));
  EQ(s.period, r.period);
  EQ(s.time_unit, "fortnights");
  EQ(s.length_unit, "furlongs");
  EQ(s.t_end, 2.0);
  EQ(s.scan.name, "family");
  CHECK(s.scan.axes == std::vector<std::string>{"omega", "t_end"});
  EQ(s.scan.values, (std::vector<double>{2.5, 2.0}));
  EQ(s.scan.index, 4);
  EQ(s.scan.count, 6);
  CHECK(s.metrics == std::vector<std::string>{"energy", "global", "local", "stability"});
  EQ(s.plot_dt, 0.05);
  EQ(s.dt_pattern, "alternating");
  EQ(s.dt_amplitude, 0.125);
  EQ(s.ref_tol, r.reference_tolerance);
  EQ(s.ref_bound, r.reference_bound);
  EQ(s.position_scale, r.position_scale);
  EQ(s.velocity_scale, r.velocity_scale);
  EQ(s.auto_runs, 7);
  EQ(s.auto_seconds, 3.5);
  CHECK(s.ladder == std::vector<double>{0.1, 0.05});
  CHECK(s.between == std::vector<double>{2.0 / 30});

  REQUIRE(s.declared.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& d = s.declared[i];
    const auto& w = r.spec.integrators[i];
    EQ(d.label, w.choice.label());
    EQ(d.id, w.choice.id);
    EQ(d.expected_global, w.expected_global);
    EQ(d.expected_local, w.expected_local);
    EQ(d.symplectic, w.symplectic);
    EQ(d.symmetric, w.symmetric);
    EQ(d.implicit, w.implicit);
    EQ(d.declared_order, w.declared_order);
    EQ(d.table, w.table);
    EQ(d.source, w.source);
    EQ(d.family, w.family);
    EQ(d.evals_per_step, w.evals_per_step);
    EQ(d.predicted_order, w.predicted.order);
    if (w.predicted.order > 0) {
      EQ(d.predicted_exact_order, w.predicted.exact_order);
      EQ(d.error_coefficient, w.predicted.error_coefficient);
      EQ(d.conditions, w.predicted.conditions);
      EQ(d.first_failing, w.predicted.first_failing);
      EQ(d.linear_order, w.predicted.linear_order);
    }
  }
  CHECK(s.declared[1].predicted_order == 0);
  CHECK(std::isnan(s.declared[1].error_coefficient));
  CHECK(s.integrators == std::vector<std::string>{"rk4", "leapfrog x2"});

  REQUIRE(s.sweeps.size() == r.sweeps.size());
  for (std::size_t i = 0; i < s.sweeps.size(); ++i) {
    EQ(s.sweeps[i].integrator, r.sweeps[i].integrator);
    EQ(s.sweeps[i].automatic, r.sweeps[i].automatic);
    EQ(s.sweeps[i].dts, r.sweeps[i].dts);
    EQ(s.sweeps[i].stop, r.sweeps[i].stop);
    EQ(s.sweeps[i].stop_cause, std::string(study::stop_name(r.sweeps[i].cause)));
    EQ(s.sweeps[i].halvings_end, std::string(study::stop_name(r.sweeps[i].halvings)));
  }
  REQUIRE(s.sweeps.size() == 2);
  CHECK(s.sweeps[1].stop_cause == "between");
  CHECK(s.sweeps[1].halvings_end == "noise-floor");
  CHECK(s.sweeps[0].halvings_end.empty());

  REQUIRE(s.runs.size() == r.runs.size());
  for (std::size_t i = 0; i < s.runs.size(); ++i) {
    const report::RunRow& a = s.runs[i];
    const study::Run& b = r.runs[i];
    fields.where = fmt::format("run {} ({} dt {})", i, b.integrator, b.dt);
    EQ(a.integrator, b.integrator);
    EQ(a.id, b.id);
    EQ(a.substeps, b.substeps);
    EQ(a.status, b.status);
    EQ(a.reason, b.reason);
    EQ(a.diverged_step, b.diverged_step);
    EQ(a.diverged_t, b.diverged_t);
    EQ(a.dt, b.dt);
    EQ(a.steps, b.steps);
    EQ(a.global, b.global);
    EQ(a.position, b.position);
    EQ(a.max, b.max);
    EQ(a.local, b.local);
    EQ(a.local_position, b.local_position);
    EQ(a.roundoff, b.roundoff);
    EQ(a.roundoff_max, b.roundoff_max);
    EQ(a.reversal, b.reversal);
    EQ(a.energy_max, b.energy_max_rel);
    EQ(a.energy_final, b.energy_final_rel);
    EQ(a.drift, b.energy_drift_per_time);
    EQ(a.behaviour, b.energy_class);
    EQ(a.energy_roundoff, b.energy_roundoff);
    EQ(a.angular_momentum, b.angular_momentum_max_rel);
    EQ(a.final_q, b.final_q);
    EQ(a.final_v, b.final_v);
    EQ(a.ns_min, b.ns_per_step_min);
    EQ(a.ns_median, b.ns_per_step_median);
    EQ(a.force_evals, b.force_evals);
    EQ(a.jacobian_evals, b.jacobian_evals);
    EQ(a.iterations, b.iterations);
    CHECK(a.evals_per_step == static_cast<double>(b.force_evals) / static_cast<double>(b.steps));
  }

  REQUIRE(s.orders.size() == r.orders.size());
  for (std::size_t i = 0; i < s.orders.size(); ++i) {
    const report::OrderRow& a = s.orders[i];
    const study::Order& b = r.orders[i];
    fields.where = fmt::format("order {} ({} {})", i, b.integrator, b.metric);
    EQ(a.integrator, b.integrator);
    EQ(a.metric, b.metric);
    EQ(a.expected, b.expected);
    EQ(a.verdict, b.verdict.verdict);
    EQ(a.reason, b.verdict.reason);
    EQ(a.action, b.verdict.action);
    EQ(a.asymptotic, b.fit.asymptotic);
    EQ(a.trend_limit, b.fit.trend_limit);
    EQ(a.dt_min, b.fit.dt_min);
    EQ(a.dt_max, b.fit.dt_max);
    EQ(a.points, b.fit.points);
    EQ(a.local_slopes, b.fit.local_slopes);
    if (b.fit.determined) {
      EQ(a.observed, b.fit.order);
      EQ(a.lo, b.fit.lo);
      EQ(a.hi, b.fit.hi);
      EQ(a.std_error, b.fit.std_error);
      EQ(a.r2, b.fit.r2);
    } else {  // not determined: null, whatever the fit holds
      CHECK(std::isnan(a.observed));
      CHECK((std::isnan(a.lo) && std::isnan(a.hi) && std::isnan(a.std_error) && std::isnan(a.r2)));
    }
    REQUIRE(a.sweep.size() == b.points.size());
    for (std::size_t k = 0; k < a.sweep.size(); ++k) {
      EQ(a.sweep[k][0], b.points[k].dt);
      EQ(a.sweep[k][1], b.points[k].error);
      EQ(a.sweep[k][2], b.points[k].floor);
    }
    EQ(a.arithmetic, b.arithmetic);
    REQUIRE(a.wide.size() == b.wide.size());
    for (std::size_t w = 0; w < a.wide.size(); ++w) {
      EQ(a.wide[w].first, b.wide[w].arithmetic);
      REQUIRE(a.wide[w].second.size() == b.wide[w].points.size());
      for (std::size_t k = 0; k < a.wide[w].second.size(); ++k) {
        EQ(a.wide[w].second[k][0], b.wide[w].points[k].dt);
        EQ(a.wide[w].second[k][1], b.wide[w].points[k].error);
        EQ(a.wide[w].second[k][2], b.wide[w].points[k].floor);
      }
    }
  }
  CHECK(s.orders[0].arithmetic == "float128");
  CHECK(s.orders[1].arithmetic == "double");

  EQ(s.wide_budget, 2.5);
  REQUIRE(s.wide_runs.size() == r.wide_runs.size());
  for (std::size_t i = 0; i < s.wide_runs.size(); ++i) {
    const report::WideRunRow& a = s.wide_runs[i];
    const study::WideRun& b = r.wide_runs[i];
    fields.where = fmt::format("wide run {}", i);
    EQ(a.integrator, b.integrator);
    EQ(a.arithmetic, b.arithmetic);
    EQ(a.dt, b.dt);
    EQ(a.steps, b.steps);
    EQ(a.status, b.status);
    EQ(a.reason, b.reason);
    EQ(a.global, b.global);
    EQ(a.max, b.max);
    EQ(a.local, b.local);
    EQ(a.floor_global, b.floor_global);
    EQ(a.floor_max, b.floor_max);
    EQ(a.floor_local, b.floor_local);
    EQ(a.force_evals, b.force_evals);
  }
  REQUIRE(s.wide_sweeps.size() == r.wide_sweeps.size());
  for (std::size_t i = 0; i < s.wide_sweeps.size(); ++i) {
    fields.where = fmt::format("wide sweep {}", i);
    EQ(s.wide_sweeps[i].integrator, r.wide_sweeps[i].integrator);
    EQ(s.wide_sweeps[i].arithmetic, r.wide_sweeps[i].arithmetic);
    EQ(s.wide_sweeps[i].dts, r.wide_sweeps[i].dts);
    EQ(s.wide_sweeps[i].why, r.wide_sweeps[i].why);
    EQ(s.wide_sweeps[i].stop, r.wide_sweeps[i].stop);
    EQ(s.wide_sweeps[i].work, r.wide_sweeps[i].work);
    EQ(s.wide_sweeps[i].reference, r.wide_sweeps[i].reference);
    EQ(s.wide_sweeps[i].reference_bound, r.wide_sweeps[i].reference_bound);
  }

  REQUIRE(s.energy_long.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const report::LongRow& el = s.energy_long[i];
    fields.where = fmt::format("energy_long {}", i);
    EQ(el.integrator, r.energy_long[i].integrator);
    EQ(el.dt, r.energy_long[i].dt);
    EQ(el.steps, r.energy_long[i].steps);
    EQ(el.status, r.energy_long[i].status);
    EQ(el.diverged_t, r.energy_long[i].diverged_t);
    EQ(el.growth, r.energy_long[i].growth_exponent);
    EQ(el.growth_lo, r.energy_long[i].growth_lo);
    EQ(el.growth_hi, r.energy_long[i].growth_hi);
    EQ(el.final_rel, r.energy_long[i].rel_error.back());
    EQ(el.max_rel, r.energy_long[i].max_rel);
  }

  REQUIRE(s.stability.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    EQ(s.stability[i].integrator, r.stability[i].integrator);
    EQ(s.stability[i].limit, r.stability[i].limit);
    EQ(s.stability[i].beyond_search, r.stability[i].beyond_search);
    EQ(s.stability[i].note, r.stability[i].note);
    EQ(s.stability[i].theory, r.stability[i].theory);
    EQ(s.stability[i].theory_basis, r.stability[i].theory_basis);
  }
  INFO(fields.text());
  CHECK(fields.off.empty());
}

TEST_CASE("every column of the CSV tables read back by the report's loader holds the value written", "[output]") {
  testing::TempDir dir("output-csv");
  const auto r = known_study(dir);
  const fs::path out = dir.path / "out";
  study::write_results(out, {r}, known_meta());

  SECTION("runs.csv") {
    Fields fields;
    const auto t = report::read_table(out / "known" / "runs.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "dt", "steps", "status", "global", "position", "max", "local",
                                                "local_position", "roundoff", "reversal", "energy_max_rel", "energy_final_rel",
                                                "energy_drift_per_time", "energy_behaviour", "energy_roundoff",
                                                "angular_momentum_max_rel", "force_evals", "jacobian_evals", "iterations",
                                                "ns_per_step_min", "ns_per_step_median"});
    REQUIRE(t->rows.size() == r.runs.size());
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
      const study::Run& b = r.runs[i];
      fields.where = fmt::format("row {}", i);
      EQ(t->text(i, "integrator"), b.integrator);
      EQ(t->number(i, "dt"), b.dt);
      EQ(t->number(i, "steps"), b.steps);
      EQ(t->text(i, "status"), b.status);
      EQ(t->number(i, "global"), b.global);
      EQ(t->number(i, "position"), b.position);
      EQ(t->number(i, "max"), b.max);
      EQ(t->number(i, "local"), b.local);
      EQ(t->number(i, "local_position"), b.local_position);
      EQ(t->number(i, "roundoff"), b.roundoff);
      EQ(t->number(i, "reversal"), b.reversal);
      EQ(t->number(i, "energy_max_rel"), b.energy_max_rel);
      EQ(t->number(i, "energy_final_rel"), b.energy_final_rel);
      EQ(t->number(i, "energy_drift_per_time"), b.energy_drift_per_time);
      EQ(t->text(i, "energy_behaviour"), b.energy_class);
      EQ(t->number(i, "energy_roundoff"), b.energy_roundoff);
      EQ(t->number(i, "angular_momentum_max_rel"), b.angular_momentum_max_rel);
      EQ(t->number(i, "force_evals"), b.force_evals);
      EQ(t->number(i, "jacobian_evals"), b.jacobian_evals);
      EQ(t->number(i, "iterations"), b.iterations);
      EQ(t->number(i, "ns_per_step_min"), b.ns_per_step_min);
      EQ(t->number(i, "ns_per_step_median"), b.ns_per_step_median);
    }
    INFO(fields.text());
    CHECK(fields.off.empty());
  }

  SECTION("orders.csv") {
    Fields fields;
    const auto t = report::read_table(out / "known" / "orders.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "metric", "expected", "verdict", "observed", "interval_lo",
                                                "interval_hi", "asymptotic", "dt_min", "dt_max", "points", "r2", "reason", "action",
                                                "arithmetic"});
    REQUIRE(t->rows.size() == r.orders.size());
    for (std::size_t i = 0; i < r.orders.size(); ++i) {
      const study::Order& b = r.orders[i];
      fields.where = fmt::format("row {}", i);
      const double nan = std::nan("");
      EQ(t->text(i, "integrator"), b.integrator);
      EQ(t->text(i, "metric"), b.metric);
      EQ(t->number(i, "expected"), b.expected);
      EQ(t->text(i, "verdict"), b.verdict.verdict);
      EQ(t->number(i, "observed"), b.fit.determined ? b.fit.order : nan);
      EQ(t->number(i, "interval_lo"), b.fit.determined ? b.fit.lo : nan);
      EQ(t->number(i, "interval_hi"), b.fit.determined ? b.fit.hi : nan);
      EQ(t->text(i, "asymptotic"), (b.fit.asymptotic ? "true" : "false"));
      EQ(t->number(i, "dt_min"), b.fit.dt_min);
      EQ(t->number(i, "dt_max"), b.fit.dt_max);
      EQ(t->number(i, "points"), b.fit.points);
      EQ(t->number(i, "r2"), b.fit.determined ? b.fit.r2 : nan);
      EQ(t->text(i, "reason"), b.verdict.reason);
      EQ(t->text(i, "action"), b.verdict.action);
      EQ(t->text(i, "arithmetic"), b.arithmetic);
    }
    INFO(fields.text());
    CHECK(fields.off.empty());
  }

  SECTION("samples.csv, through the loader the plots use") {
    Fields fields;
    const auto t = report::read_table(out / "known" / "samples.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "dt", "t", "error", "energy_rel", "q0", "q1", "v0", "v1"});
    const report::Results res = report::load(out);
    for (double dt : {0.1, 0.05}) {
      const auto samples = report::samples_at(res, res.studies.front(), dt);
      EQ(samples.size(), 2);
      for (const study::Run& b : r.runs) {
        if (b.dt != dt) continue;
        fields.where = fmt::format("{} dt {}", b.integrator, dt);
        REQUIRE(samples.count(b.integrator));
        const auto& got = samples.at(b.integrator);
        REQUIRE(got.size() == b.sample_t.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
          EQ(got[k].t, b.sample_t[k]);
          EQ(got[k].error, b.sample_error[k]);
          EQ(got[k].energy, b.sample_energy[k]);
          EQ(got[k].q, b.sample_q[k]);
          EQ(got[k].v, b.sample_v[k]);
        }
      }
    }
    INFO(fields.text());
    CHECK(fields.off.empty());
  }

  SECTION("energy_long.csv, through the loader the plots use") {
    Fields fields;
    const auto t = report::read_table(out / "known" / "energy_long.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "dt", "t", "energy_rel"});
    REQUIRE(t->rows.size() == 8);
    for (std::size_t i = 0; i < t->rows.size(); ++i) {
      fields.where = fmt::format("row {}", i);
      EQ(t->text(i, "integrator"), r.energy_long[i / 4].integrator);
      EQ(t->number(i, "dt"), r.energy_long[i / 4].dt);
    }
    const report::Results res = report::load(out);
    const auto got = report::energy_long_samples(res, res.studies.front());
    REQUIRE(got.size() == 2);
    for (const study::EnergyLong& e : r.energy_long) {
      REQUIRE(got.count(e.integrator));
      const auto& series = got.at(e.integrator);
      REQUIRE(series.size() == e.t.size());
      for (std::size_t k = 0; k < series.size(); ++k) {
        fields.where = fmt::format("{} sample {}", e.integrator, k);
        EQ(series[k].first, e.t[k]);
        EQ(series[k].second, e.rel_error[k]);
      }
    }
    INFO(fields.text());
    CHECK(fields.off.empty());
  }

  SECTION("stability.csv") {
    Fields fields;
    const auto t = report::read_table(out / "known" / "stability.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "limit", "beyond_search", "note", "theory", "theory_basis"});
    REQUIRE(t->rows.size() == r.stability.size());
    for (std::size_t i = 0; i < r.stability.size(); ++i) {
      const study::Stability& b = r.stability[i];
      EQ(t->text(i, "integrator"), b.integrator);
      EQ(t->number(i, "limit"), b.limit);
      EQ(t->text(i, "beyond_search"), (b.beyond_search ? "true" : "false"));
      EQ(t->text(i, "note"), b.note);
      if (std::isinf(b.theory)) CHECK(t->text(i, "theory") == "unbounded");
      else CHECK(t->number(i, "theory") == b.theory);
      EQ(t->text(i, "theory_basis"), b.theory_basis);
    }
    INFO(fields.text());
    CHECK(fields.off.empty());
  }

  SECTION("no other file") {
    std::set<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(out)) files.insert(fs::relative(e.path(), out).string());
    CHECK(files == std::set<std::string>{"results.json", "known", "known/runs.csv", "known/orders.csv", "known/samples.csv",
                                         "known/energy_long.csv", "known/stability.csv"});
  }
}

TEST_CASE("the CSV reader refuses a malformed table with its file and line, and reads quoted fields", "[output]") {
  testing::TempDir dir("output-reader");
  CHECK_FALSE(report::read_table(dir.path / "none.csv"));
  const auto quoted = report::read_table(dir.file("q.csv", "a,b\n\"x, \"\"y\"\"\",1.5\n"));
  REQUIRE(quoted);
  REQUIRE(quoted->rows.size() == 1);
  CHECK(quoted->text(0, "a") == "x, \"y\"");
  CHECK(quoted->number(0, "b") == 1.5);
  CHECK_THROWS_WITH(quoted->column("c"), Catch::Contains("q.csv: no column 'c'"));
  const auto words = report::read_table(dir.file("w.csv", "a,b\nx,1.5e\n"));
  CHECK_THROWS_WITH(words->number(0, "b"), Catch::Contains("w.csv:2: column 'b': '1.5e' is not a number"));
  CHECK_THROWS_WITH(report::read_table(dir.file("short.csv", "a,b\n1,2\n3\n")), Catch::Contains("short.csv:3: 1 fields, but the header has 2"));
  CHECK_THROWS_WITH(report::read_table(dir.file("open.csv", "a,b\n\"1,2\n")), Catch::Contains("open.csv:2: a quoted field is not closed"));
  // CRLF, a quoted line break (the line numbers after it count it), a blank last line.
  const auto crlf = report::read_table(dir.file("crlf.csv", "a,b\r\n\"x\ny\",1\r\n3,zz\r\n\r\n"));
  REQUIRE(crlf);
  REQUIRE(crlf->rows.size() == 2);
  CHECK(crlf->text(0, "a") == "x\ny");
  CHECK(crlf->text(1, "b") == "zz");
  CHECK_THROWS_WITH(crlf->number(1, "b"), Catch::Contains("crlf.csv:4: column 'b': 'zz' is not a number"));
  CHECK_THROWS_WITH(report::read_table(dir.file("after.csv", "a,b\n\"x\"y,1\n")), Catch::Contains("after.csv:2: a quoted field must end"));
  CHECK_THROWS_WITH(report::read_table(dir.file("inside.csv", "a,b\nx\"y,1\n")), Catch::Contains("inside.csv:2: a quote inside"));
}

TEST_CASE("runs are found by their step size to its last digits, not by a nearby one", "[output]") {
  report::Study s;
  for (double dt : {0.1 * (1 + 1e-3), 0.1}) {
    s.runs.emplace_back();
    s.runs.back().integrator = "m", s.runs.back().dt = dt;
  }
  REQUIRE(report::run_at(s, "m", 0.1));
  CHECK(report::run_at(s, "m", 0.1)->dt == 0.1);
  CHECK(report::run_at(s, "m", 0.1 * (1 + 1e-3))->dt == 0.1 * (1 + 1e-3));
  CHECK(report::run_at(s, "m", 0.1 * (1 + 1e-14))->dt == 0.1);  // a step size printed and read back: the same run
  CHECK(report::run_at(s, "m", 0.1 * (1 + 1e-6)) == nullptr);
  CHECK(report::run_at(s, "other", 0.1) == nullptr);
}

TEST_CASE("results written before a field existed still load, the field not measured", "[output]") {
  testing::TempDir dir("output-old");
  study::write_results(dir.path / "out", {known_study(dir)}, known_meta());
  const fs::path file = dir.path / "out" / "results.json";
  auto doc = nlohmann::json::parse(testing::read_file(file));
  doc["meta"].erase("reference");
  auto& js = doc["studies"][0];
  for (const char* key : {"spec", "params", "auto_dt"}) js.erase(key);
  js["reference"].erase("velocity_scale");
  for (auto& run : js["runs"]) {
    for (const char* key : {"id", "substeps", "jacobian_evals", "iterations"}) run.erase(key);
    for (const char* key : {"position", "local_position"}) run["error"].erase(key);
    for (const char* key : {"final_rel", "roundoff", "angular_momentum_max_rel"}) run["energy"].erase(key);
    run["ns_per_step"].erase("median");
    run["final_state"].erase("v");
  }
  for (auto& o : js["orders"])
    for (const char* key : {"std_error", "trend_limit", "local_slopes"}) o.erase(key);
  for (auto& e : js["energy_long"])
    for (const char* key : {"steps", "diverged_t"}) e.erase(key);
  for (auto& x : js["stability"]) x.erase("beyond_search");
  for (auto& d : js["integrators"])
    for (const char* key : {"declared_order", "table", "source", "predicted", "family"}) d.erase(key);
  js["problem_info"].erase("time_unit"), js["problem_info"].erase("length_unit");
  doc["schema_version"] = 2;
  std::ofstream(file) << doc.dump();
  const report::Results res = report::load(dir.path / "out");
  const report::Study& s = res.studies.front();
  CHECK(res.reference_solver.empty());
  CHECK((s.spec_file.empty() && s.params.empty() && s.auto_runs == 0 && std::isnan(s.auto_seconds) && s.ladder.empty()));
  CHECK(s.velocity_scale == 1);
  for (const auto& run : s.runs) {
    CHECK((run.id.empty() && run.substeps == 1 && std::isnan(run.jacobian_evals) && std::isnan(run.iterations)));
    CHECK((std::isnan(run.position) && std::isnan(run.local_position) && std::isnan(run.energy_final) &&
           std::isnan(run.energy_roundoff) && std::isnan(run.angular_momentum) && std::isnan(run.ns_median)));
    CHECK((run.final_v.empty() && !run.final_q.empty() && std::isfinite(run.dt)));
  }
  for (const auto& o : s.orders) CHECK((std::isnan(o.std_error) && std::isnan(o.trend_limit) && o.local_slopes.empty()));
  for (const auto& e : s.energy_long) CHECK((e.steps == 0 && std::isnan(e.diverged_t)));
  for (const auto& x : s.stability) CHECK_FALSE(x.beyond_search);
  for (const auto& d : s.declared)  // a built-in's declared order was its expected one
    CHECK((d.declared_order == d.expected_global && d.table.empty() && d.source.empty() && d.predicted_order == 0));
  // Schema 2 has no family: it is inferred from what the method declares (rk4: explicit; leapfrog: symplectic).
  CHECK(s.declared[0].family == "explicit-rk");
  CHECK(s.declared[1].family == "splitting");
  CHECK((s.time_unit.empty() && s.length_unit.empty()));
}

TEST_CASE("an output folder is published whole: old or new, the user's files kept, nothing left when abandoned",
          "[output][hardening]") {
  namespace fs = std::filesystem;
  testing::TempDir dir("publish");
  const fs::path target = dir.path / "results";
  fs::create_directories(target / "plots");
  dir.file("results/results.json", "old");
  dir.file("results/plots/a.svg", "old plot");
  dir.file("results/notes.txt", "mine");
  {  // abandoned: the target is untouched and the staging folder is gone
    study::StagedFolder staged(target);
    std::ofstream(staged.path() / "results.json") << "new";
    CHECK(staged.path().parent_path() == dir.path);
    CHECK(staged.path().filename().string().rfind(".results.tmp.", 0) == 0);
  }
  CHECK(testing::read_file(target / "results.json") == "old");
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
  {  // published: new results, the old plots gone, the user's file carried over
    study::StagedFolder staged(target);
    std::ofstream(staged.path() / "results.json") << "new";
    staged.carry_forward({"results.json", "plots"});
    CHECK(testing::read_file(staged.path() / "notes.txt") == "mine");
    CHECK_FALSE(fs::exists(staged.path() / "plots"));
    staged.publish();
  }
  CHECK(testing::read_file(target / "results.json") == "new");
  CHECK(testing::read_file(target / "notes.txt") == "mine");
  CHECK_FALSE(fs::exists(target / "plots"));
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
  // A staging folder left by a killed process (a pid that cannot be running) is removed by the next one.
  fs::create_directories(dir.path / ".results.tmp.2147483646.0");
  { study::StagedFolder staged(target); }
  CHECK_FALSE(fs::exists(dir.path / ".results.tmp.2147483646.0"));
  // Killed between the fallback's two renames (no RENAME_EXCHANGE): no target, the old folder aside.  The next one
  // puts it back; with a target there, such a leftover is only removed.
  fs::rename(target, dir.path / ".results.tmp.2147483646.old");
  { study::StagedFolder staged(target); }
  CHECK(testing::read_file(target / "results.json") == "new");
  CHECK_FALSE(fs::exists(dir.path / ".results.tmp.2147483646.old"));
  fs::create_directories(dir.path / ".results.tmp.2147483646.old");
  dir.file(".results.tmp.2147483646.old/results.json", "older");
  { study::StagedFolder staged(target); }
  CHECK(testing::read_file(target / "results.json") == "new");
  CHECK_FALSE(fs::exists(dir.path / ".results.tmp.2147483646.old"));
  // A first publication creates the folder.
  {
    study::StagedFolder staged(dir.path / "fresh");
    std::ofstream(staged.path() / "x") << "1";
    staged.publish();
  }
  CHECK(testing::read_file(dir.path / "fresh" / "x") == "1");
  // A regenerated study page is left out, a REPORT.md of the user's in a folder of their own is carried, and a
  // carried folder keeps its mode (a private folder stays private).
  fs::create_directories(target / "kepler");
  fs::create_directories(target / "notes");
  dir.file("results/kepler/REPORT.md", "old page");
  dir.file("results/kepler/runs.csv", "x");
  dir.file("results/notes/REPORT.md", "mine too");
  fs::permissions(target / "notes", fs::perms::owner_all);
  {
    study::StagedFolder staged(target);
    staged.carry_forward({"REPORT.md", "plots", "kepler/REPORT.md"});
    staged.publish();
  }
  CHECK_FALSE(fs::exists(target / "kepler" / "REPORT.md"));
  CHECK(testing::read_file(target / "kepler" / "runs.csv") == "x");
  CHECK(testing::read_file(target / "notes" / "REPORT.md") == "mine too");
  CHECK((fs::status(target / "notes").permissions() & fs::perms::all) == fs::perms::owner_all);
}
