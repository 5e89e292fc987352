// Every column of every results file, written by study/write.cpp and read back through the report's own loader
// (reports/load.cpp), equals the value in memory.  The study is made by hand so that every field holds a value of
// its own: two columns swapped, a column misread, a number rounded or a null lost shows as a mismatch.  The
// files' columns and keys are listed here in full: a field added to a writer fails this test until it is
// read back and compared too.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"
#include "reports/render.hpp"
#include "study/spec.hpp"
#include "study/write.hpp"
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

study::StudyResult known_study(const testing::TempDir& dir) {
  const char* toml = "name = \"known\"\ntitle = \"Every field its own value\"\nproblem = \"harmonic\"\nparams = { omega = 2.5 }\n"
                     "t_end = 2.0\nintegrators = [\"rk4\", { id = \"leapfrog\", substeps = 2 }]\ndt = [0.1, 0.05]\n"
                     "metrics = [\"global\", \"local\", \"energy\", \"stability\"]\n";
  study::StudyResult r;
  r.spec = study::load_spec(dir.file("known.toml", toml));
  r.spec.auto_dt = study::AutoSweep{.runs = 7, .seconds = 3.5};
  r.spec.dt_pattern = "alternating", r.spec.dt_amplitude = 0.125, r.spec.plot_dt = 0.05;
  Values v;
  r.conservative = true, r.bounded = false, r.periodic = true, r.period = v();
  r.position_scale = v(), r.velocity_scale = v(), r.reference_bound = v(), r.reference_tolerance = v();
  for (const auto& i : r.spec.integrators)
    for (double dt : {0.1, 0.05}) {
      study::Run x;
      x.integrator = i.choice.label(), x.id = i.choice.id, x.substeps = i.choice.substeps, x.dt = dt;
      x.steps = static_cast<long>(std::lround(2.0 / dt)) + 1000 * static_cast<long>(r.runs.size());
      x.global = v(), x.position = v(), x.max = v(), x.local = v(), x.local_position = v(), x.roundoff = v();
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
    r.sweeps.push_back({i.choice.label(), true, {0.1, 0.05}, "every order decided, over " + std::to_string(r.sweeps.size() + 4) + " points"});
    for (const char* metric : {"global", "local"}) {
      study::Order o;
      o.integrator = i.choice.label(), o.metric = metric, o.expected = 2 + static_cast<int>(r.orders.size());
      o.fit.determined = r.orders.size() != 1;  // one undetermined: its numbers are null
      o.fit.order = v(), o.fit.lo = v(), o.fit.hi = v(), o.fit.std_error = v(), o.fit.r2 = v(), o.fit.trend_limit = v();
      o.fit.asymptotic = r.orders.size() % 2 == 0;
      o.fit.dt_min = v(), o.fit.dt_max = v(), o.fit.points = 3 + r.orders.size();
      o.fit.local_slopes = v.many(2);
      o.verdict = {r.orders.size() == 1 ? "undetermined" : "pass", "the reason, with a comma and \"quotes\"",
                   r.orders.size() == 1 ? "extend the sweep, or not" : ""};
      for (int k = 0; k < 3; ++k) o.points.push_back({v(), v(), v()});
      r.orders.push_back(o);
    }
  }
  study::EnergyLong e;
  e.integrator = "leapfrog x2", e.dt = v(), e.steps = 123456, e.status = "ok", e.diverged_t = study::not_measured;
  e.t = v.many(4), e.rel_error = v.many(4), e.growth_exponent = v(), e.growth_lo = v(), e.growth_hi = v();
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
                                          "metrics", "plot_dt", "varying_dt", "reference", "auto_dt", "sweeps", "runs", "orders",
                                          "energy_long", "stability"});
  CHECK(keys(js["runs"][0]) == std::set<std::string>{"integrator", "id", "substeps", "dt", "steps", "status", "error", "energy",
                                                     "final_state", "ns_per_step", "force_evals", "jacobian_evals", "iterations"});
  CHECK(keys(js["runs"][3]) == std::set<std::string>{"integrator", "id", "substeps", "dt", "steps", "status", "diverged", "error",
                                                     "energy", "final_state", "ns_per_step", "force_evals", "jacobian_evals",
                                                     "iterations"});
  CHECK(keys(js["runs"][0]["error"]) ==
        std::set<std::string>{"global", "position", "max", "local", "local_position", "roundoff", "reversal"});
  CHECK(keys(js["runs"][0]["energy"]) == std::set<std::string>{"max_rel", "final_rel", "drift_per_time", "behaviour", "roundoff",
                                                               "angular_momentum_max_rel"});
  CHECK(keys(js["orders"][0]) == std::set<std::string>{"integrator", "metric", "expected", "verdict", "reason", "action", "observed",
                                                       "interval", "std_error", "asymptotic", "trend_limit", "window", "r2",
                                                       "local_slopes", "points"});
  CHECK(keys(js["energy_long"][0]) == std::set<std::string>{"integrator", "dt", "steps", "status", "diverged_t", "growth_exponent",
                                                            "growth_interval", "final_rel"});
  CHECK(keys(js["stability"][0]) == std::set<std::string>{"integrator", "limit", "beyond_search", "note", "theory", "theory_basis"});

  const report::Results res = report::load(dir.path / "out");
  CHECK(res.schema_version == study::results_schema_version);
  CHECK(res.compiler == meta.compiler);
  CHECK(res.flags == meta.flags);
  CHECK(res.cpu == meta.cpu);
  CHECK(res.revision == meta.revision);
  CHECK(res.date == meta.date);
  CHECK(res.elapsed == meta.elapsed_seconds);
  CHECK(res.reference_solver.find("float128") != std::string::npos);
  REQUIRE(res.studies.size() == 1);
  const report::Study& s = res.studies.front();
  CHECK(s.name == "known");
  CHECK(s.title == r.spec.title);
  CHECK(s.spec_file == "known.toml");
  CHECK(s.problem == "harmonic");
  CHECK(s.params == std::vector<std::pair<std::string, std::string>>{{"omega", r.spec.params.at("omega")}});
  CHECK((s.conservative && !s.bounded && s.periodic));
  CHECK(s.period == r.period);
  CHECK(s.t_end == 2.0);
  CHECK(s.metrics == std::vector<std::string>{"energy", "global", "local", "stability"});
  CHECK(s.plot_dt == 0.05);
  CHECK(s.dt_pattern == "alternating");
  CHECK(s.dt_amplitude == 0.125);
  CHECK(s.ref_tol == r.reference_tolerance);
  CHECK(s.ref_bound == r.reference_bound);
  CHECK(s.position_scale == r.position_scale);
  CHECK(s.velocity_scale == r.velocity_scale);
  CHECK(s.auto_runs == 7);
  CHECK(s.auto_seconds == 3.5);
  CHECK(s.ladder == std::vector<double>{0.1, 0.05});

  REQUIRE(s.declared.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& d = s.declared[i];
    const auto& w = r.spec.integrators[i];
    CHECK(d.label == w.choice.label());
    CHECK(d.id == w.choice.id);
    CHECK(d.expected_global == w.expected_global);
    CHECK(d.expected_local == w.expected_local);
    CHECK(d.symplectic == w.symplectic);
    CHECK(d.symmetric == w.symmetric);
    CHECK(d.implicit == w.implicit);
  }
  CHECK(s.integrators == std::vector<std::string>{"rk4", "leapfrog x2"});

  REQUIRE(s.sweeps.size() == r.sweeps.size());
  for (std::size_t i = 0; i < s.sweeps.size(); ++i) {
    CHECK(s.sweeps[i].integrator == r.sweeps[i].integrator);
    CHECK(s.sweeps[i].automatic == r.sweeps[i].automatic);
    CHECK(s.sweeps[i].dts == r.sweeps[i].dts);
    CHECK(s.sweeps[i].stop == r.sweeps[i].stop);
  }

  REQUIRE(s.runs.size() == r.runs.size());
  for (std::size_t i = 0; i < s.runs.size(); ++i) {
    const report::RunRow& a = s.runs[i];
    const study::Run& b = r.runs[i];
    INFO("run " << i << ": " << b.integrator << " dt " << b.dt);
    CHECK(a.integrator == b.integrator);
    CHECK(a.id == b.id);
    CHECK(a.substeps == b.substeps);
    CHECK(a.status == b.status);
    CHECK(a.reason == b.reason);
    CHECK(a.diverged_step == b.diverged_step);
    CHECK(same(a.diverged_t, b.diverged_t));
    CHECK(a.dt == b.dt);
    CHECK(a.steps == b.steps);
    CHECK(same(a.global, b.global));
    CHECK(same(a.position, b.position));
    CHECK(same(a.max, b.max));
    CHECK(same(a.local, b.local));
    CHECK(same(a.local_position, b.local_position));
    CHECK(same(a.roundoff, b.roundoff));
    CHECK(same(a.reversal, b.reversal));
    CHECK(same(a.energy_max, b.energy_max_rel));
    CHECK(same(a.energy_final, b.energy_final_rel));
    CHECK(same(a.drift, b.energy_drift_per_time));
    CHECK(a.behaviour == b.energy_class);
    CHECK(same(a.energy_roundoff, b.energy_roundoff));
    CHECK(same(a.angular_momentum, b.angular_momentum_max_rel));
    CHECK(a.final_q == b.final_q);
    CHECK(a.final_v == b.final_v);
    CHECK(same(a.ns_min, b.ns_per_step_min));
    CHECK(same(a.ns_median, b.ns_per_step_median));
    CHECK(a.force_evals == static_cast<double>(b.force_evals));
    CHECK(a.jacobian_evals == static_cast<double>(b.jacobian_evals));
    CHECK(a.iterations == static_cast<double>(b.iterations));
    CHECK(a.evals_per_step == static_cast<double>(b.force_evals) / static_cast<double>(b.steps));
  }

  REQUIRE(s.orders.size() == r.orders.size());
  for (std::size_t i = 0; i < s.orders.size(); ++i) {
    const report::OrderRow& a = s.orders[i];
    const study::Order& b = r.orders[i];
    INFO("order " << i << ": " << b.integrator << " " << b.metric);
    CHECK(a.integrator == b.integrator);
    CHECK(a.metric == b.metric);
    CHECK(a.expected == b.expected);
    CHECK(a.verdict == b.verdict.verdict);
    CHECK(a.reason == b.verdict.reason);
    CHECK(a.action == b.verdict.action);
    CHECK(a.asymptotic == b.fit.asymptotic);
    CHECK(same(a.trend_limit, b.fit.trend_limit));
    CHECK(a.dt_min == b.fit.dt_min);
    CHECK(a.dt_max == b.fit.dt_max);
    CHECK(a.points == static_cast<long>(b.fit.points));
    CHECK(a.local_slopes == b.fit.local_slopes);
    if (b.fit.determined) {
      CHECK(a.observed == b.fit.order);
      CHECK(a.lo == b.fit.lo);
      CHECK(a.hi == b.fit.hi);
      CHECK(a.std_error == b.fit.std_error);
      CHECK(a.r2 == b.fit.r2);
    } else {  // not determined: null, whatever the fit holds
      CHECK(std::isnan(a.observed));
      CHECK((std::isnan(a.lo) && std::isnan(a.hi) && std::isnan(a.std_error) && std::isnan(a.r2)));
    }
    REQUIRE(a.sweep.size() == b.points.size());
    for (std::size_t k = 0; k < a.sweep.size(); ++k) {
      CHECK(a.sweep[k][0] == b.points[k].dt);
      CHECK(a.sweep[k][1] == b.points[k].error);
      CHECK(a.sweep[k][2] == b.points[k].floor);
    }
  }

  REQUIRE(s.energy_long.size() == 1);
  const report::LongRow& el = s.energy_long.front();
  CHECK(el.integrator == r.energy_long[0].integrator);
  CHECK(el.dt == r.energy_long[0].dt);
  CHECK(el.steps == r.energy_long[0].steps);
  CHECK(el.status == "ok");
  CHECK(std::isnan(el.diverged_t));
  CHECK(el.growth == r.energy_long[0].growth_exponent);
  CHECK(el.growth_lo == r.energy_long[0].growth_lo);
  CHECK(el.growth_hi == r.energy_long[0].growth_hi);
  CHECK(el.final_rel == r.energy_long[0].rel_error.back());

  REQUIRE(s.stability.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(s.stability[i].integrator == r.stability[i].integrator);
    CHECK(s.stability[i].limit == r.stability[i].limit);
    CHECK(s.stability[i].beyond_search == r.stability[i].beyond_search);
    CHECK(s.stability[i].note == r.stability[i].note);
    CHECK(s.stability[i].theory == r.stability[i].theory);
    CHECK(s.stability[i].theory_basis == r.stability[i].theory_basis);
  }
}

TEST_CASE("every column of the CSV tables read back by the report's loader holds the value written", "[output]") {
  testing::TempDir dir("output-csv");
  const auto r = known_study(dir);
  const fs::path out = dir.path / "out";
  study::write_results(out, {r}, known_meta());

  SECTION("runs.csv") {
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
      INFO("row " << i);
      CHECK(t->text(i, "integrator") == b.integrator);
      CHECK(t->number(i, "dt") == b.dt);
      CHECK(t->number(i, "steps") == static_cast<double>(b.steps));
      CHECK(t->text(i, "status") == b.status);
      CHECK(same(t->number(i, "global"), b.global));
      CHECK(same(t->number(i, "position"), b.position));
      CHECK(same(t->number(i, "max"), b.max));
      CHECK(same(t->number(i, "local"), b.local));
      CHECK(same(t->number(i, "local_position"), b.local_position));
      CHECK(same(t->number(i, "roundoff"), b.roundoff));
      CHECK(same(t->number(i, "reversal"), b.reversal));
      CHECK(same(t->number(i, "energy_max_rel"), b.energy_max_rel));
      CHECK(same(t->number(i, "energy_final_rel"), b.energy_final_rel));
      CHECK(same(t->number(i, "energy_drift_per_time"), b.energy_drift_per_time));
      CHECK(t->text(i, "energy_behaviour") == b.energy_class);
      CHECK(same(t->number(i, "energy_roundoff"), b.energy_roundoff));
      CHECK(same(t->number(i, "angular_momentum_max_rel"), b.angular_momentum_max_rel));
      CHECK(t->number(i, "force_evals") == static_cast<double>(b.force_evals));
      CHECK(t->number(i, "jacobian_evals") == static_cast<double>(b.jacobian_evals));
      CHECK(t->number(i, "iterations") == static_cast<double>(b.iterations));
      CHECK(same(t->number(i, "ns_per_step_min"), b.ns_per_step_min));
      CHECK(same(t->number(i, "ns_per_step_median"), b.ns_per_step_median));
    }
  }

  SECTION("orders.csv") {
    const auto t = report::read_table(out / "known" / "orders.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "metric", "expected", "verdict", "observed", "interval_lo",
                                                "interval_hi", "asymptotic", "dt_min", "dt_max", "points", "r2", "reason", "action"});
    REQUIRE(t->rows.size() == r.orders.size());
    for (std::size_t i = 0; i < r.orders.size(); ++i) {
      const study::Order& b = r.orders[i];
      INFO("row " << i);
      const double nan = std::nan("");
      CHECK(t->text(i, "integrator") == b.integrator);
      CHECK(t->text(i, "metric") == b.metric);
      CHECK(t->number(i, "expected") == b.expected);
      CHECK(t->text(i, "verdict") == b.verdict.verdict);
      CHECK(same(t->number(i, "observed"), b.fit.determined ? b.fit.order : nan));
      CHECK(same(t->number(i, "interval_lo"), b.fit.determined ? b.fit.lo : nan));
      CHECK(same(t->number(i, "interval_hi"), b.fit.determined ? b.fit.hi : nan));
      CHECK(t->text(i, "asymptotic") == (b.fit.asymptotic ? "true" : "false"));
      CHECK(t->number(i, "dt_min") == b.fit.dt_min);
      CHECK(t->number(i, "dt_max") == b.fit.dt_max);
      CHECK(t->number(i, "points") == static_cast<double>(b.fit.points));
      CHECK(same(t->number(i, "r2"), b.fit.determined ? b.fit.r2 : nan));
      CHECK(t->text(i, "reason") == b.verdict.reason);
      CHECK(t->text(i, "action") == b.verdict.action);
    }
  }

  SECTION("samples.csv, through the loader the plots use") {
    const auto t = report::read_table(out / "known" / "samples.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "dt", "t", "error", "energy_rel", "q0", "q1", "v0", "v1"});
    const report::Results res = report::load(out);
    for (double dt : {0.1, 0.05}) {
      const auto samples = report::samples_at(res, res.studies.front(), dt);
      CHECK(samples.size() == 2);
      for (const study::Run& b : r.runs) {
        if (b.dt != dt) continue;
        INFO(b.integrator << " dt " << dt);
        REQUIRE(samples.count(b.integrator));
        const auto& got = samples.at(b.integrator);
        REQUIRE(got.size() == b.sample_t.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
          CHECK(got[k].t == b.sample_t[k]);
          CHECK(got[k].error == b.sample_error[k]);
          CHECK(got[k].energy == b.sample_energy[k]);
          CHECK(got[k].q == b.sample_q[k]);
          CHECK(got[k].v == b.sample_v[k]);
        }
      }
    }
  }

  SECTION("energy_long.csv, through the loader the plots use") {
    const auto t = report::read_table(out / "known" / "energy_long.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "dt", "t", "energy_rel"});
    for (std::size_t i = 0; i < t->rows.size(); ++i) CHECK(t->number(i, "dt") == r.energy_long[0].dt);
    const report::Results res = report::load(out);
    const auto got = report::energy_long_samples(res, res.studies.front());
    REQUIRE(got.size() == 1);
    const auto& series = got.at(r.energy_long[0].integrator);
    REQUIRE(series.size() == r.energy_long[0].t.size());
    for (std::size_t k = 0; k < series.size(); ++k) {
      CHECK(series[k].first == r.energy_long[0].t[k]);
      CHECK(series[k].second == r.energy_long[0].rel_error[k]);
    }
  }

  SECTION("stability.csv") {
    const auto t = report::read_table(out / "known" / "stability.csv");
    REQUIRE(t);
    CHECK(t->header == std::vector<std::string>{"integrator", "limit", "beyond_search", "note", "theory", "theory_basis"});
    REQUIRE(t->rows.size() == r.stability.size());
    for (std::size_t i = 0; i < r.stability.size(); ++i) {
      const study::Stability& b = r.stability[i];
      CHECK(t->text(i, "integrator") == b.integrator);
      CHECK(t->number(i, "limit") == b.limit);
      CHECK(t->text(i, "beyond_search") == (b.beyond_search ? "true" : "false"));
      CHECK(t->text(i, "note") == b.note);
      if (std::isinf(b.theory)) CHECK(t->text(i, "theory") == "unbounded");
      else CHECK(t->number(i, "theory") == b.theory);
      CHECK(t->text(i, "theory_basis") == b.theory_basis);
    }
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
