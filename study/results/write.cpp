#include "study/results/write.hpp"

#include "study/common/atomic_file.hpp"
#include "study/common/digest.hpp"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef STUDY_CXX_FLAGS
#define STUDY_CXX_FLAGS ""
#endif

namespace study {
namespace {

using Json = nlohmann::ordered_json;

/// A measured number, or null when it was not measured.
Json number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

std::string num(double x) {
  if (!std::isfinite(x)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

Json run_json(const Run& r) {
  Json j;
  j["integrator"] = r.integrator;
  j["id"] = r.id;
  j["substeps"] = r.substeps;
  j["dt"] = r.dt;
  j["steps"] = r.steps;
  j["status"] = r.status;
  if (r.status != "ok") j["diverged"] = {{"step", r.diverged_step}, {"t", number(r.diverged_t)}, {"reason", r.reason}};
  j["error"] = {{"global", number(r.global)}, {"position", number(r.position)}, {"max", number(r.max)},
                {"local", number(r.local)}, {"local_position", number(r.local_position)}, {"roundoff", number(r.roundoff)},
                {"roundoff_max", number(r.roundoff_max)}, {"reversal", number(r.reversal)}};
  j["energy"] = {{"max_rel", number(r.energy_max_rel)}, {"final_rel", number(r.energy_final_rel)},
                 {"drift_per_time", number(r.energy_drift_per_time)},
                 {"behaviour", r.energy_class.empty() ? Json(nullptr) : Json(r.energy_class)}, {"roundoff", number(r.energy_roundoff)},
                 {"angular_momentum_max_rel", number(r.angular_momentum_max_rel)}};
  j["final_state"] = {{"q", r.final_q}, {"v", r.final_v}};
  j["ns_per_step"] = {{"min", number(r.ns_per_step_min)}, {"median", number(r.ns_per_step_median)}};
  j["force_evals"] = r.force_evals;
  j["jacobian_evals"] = r.jacobian_evals;
  j["iterations"] = r.iterations;
  return j;
}

Json order_json(const Order& o) {
  Json j;
  j["integrator"] = o.integrator;
  j["metric"] = o.metric;
  j["expected"] = o.expected;
  j["verdict"] = o.verdict.verdict;
  j["reason"] = o.verdict.reason;
  j["action"] = o.verdict.action;
  j["observed"] = o.fit.determined ? Json(o.fit.order) : Json(nullptr);
  j["interval"] = o.fit.determined ? Json::array({o.fit.lo, o.fit.hi}) : Json(nullptr);
  j["std_error"] = o.fit.determined ? number(o.fit.std_error) : Json(nullptr);
  j["asymptotic"] = o.fit.asymptotic;
  j["trend_limit"] = number(o.fit.trend_limit);
  j["window"] = {{"dt_min", number(o.fit.dt_min)}, {"dt_max", number(o.fit.dt_max)}, {"points", o.fit.points}};
  j["r2"] = o.fit.determined ? Json(o.fit.r2) : Json(nullptr);
  j["local_slopes"] = o.fit.local_slopes;
  // Every point with its noise floor: `study check` fits and judges them again at its own tolerance.
  j["points"] = Json::array();
  for (const ErrorPoint& p : o.points) j["points"].push_back({number(p.dt), number(p.error), number(p.floor)});
  // Where round-off ended double's range: the arithmetic the verdict (and the fit above) was decided in, and each wide
  // arithmetic's points, copies of wide_runs' errors in their order (study/fit/wide.hpp).
  j["arithmetic"] = o.arithmetic;
  if (!o.wide.empty()) {
    j["wide_points"] = Json::object();
    for (const WidePoints& w : o.wide) {
      auto& pts = j["wide_points"][w.arithmetic] = Json::array();
      for (const ErrorPoint& p : w.points) pts.push_back({number(p.dt), number(p.error), number(p.floor)});
    }
  }
  return j;
}

}  // namespace

Meta collect_meta() {
  Meta m;
  m.compiler = std::string("g++ ") + __VERSION__;
  m.flags = STUDY_CXX_FLAGS;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      m.cpu = line.substr(line.find(':') + 2);
      break;
    }
  m.revision = source_revision();  // baked in at build time: no git, no shell at run time
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  m.date = buf;
  return m;
}

/// The adaptive integrators, their tolerance sweep's runs and their tolerance proportionality.
Json adaptive_json(const StudyResult& r) {
  const Spec& s = r.spec;
  Json a;
  a["tolerances"] = s.tolerances;
  a["max_steps"] = s.adaptive_max_steps;
  a["outputs"] = s.adaptive_cut ? "cut" : "free";  // how the runs met their output times (absent before: cut)
  a["output_times"] = s.samples + 1;
  a["samples"] = "adaptive_samples.csv";  // each run's errors at its output times (absent in results of earlier versions)
  a["integrators"] = Json::array();
  for (const SpecAdaptive& x : s.adaptive) {
    Json params = Json::object();
    for (const auto& [k, v] : x.params) params[k] = v;
    a["integrators"].push_back({{"label", x.label}, {"id", x.choice.id}, {"controller", x.controller}, {"params", params},
                                {"order", x.order}, {"order_hat", x.order_hat}, {"expected_slope", x.expected_slope},
                                {"slope_given", x.slope_given}, {"fixed_steps", x.fixed_steps}, {"evals_per_step", x.evals_per_step}, {"table", x.table}, {"source", x.source}});
    // Every coefficient of the pair, b_hat too, as a digest: compare names a changed table (Odeint's own steppers: none).
    if (x.choice.table) a["integrators"].back()["coefficients"] = digest_hex(x.choice.table->identity);
    if (!x.slope_basis.empty()) a["integrators"].back()["slope_from"] = x.slope_basis;  // a linear problem's orders
  }
  a["runs"] = Json::array();
  for (const AdaptiveRun& x : r.adaptive_runs) {
    Json j{{"integrator", x.integrator}, {"tol", x.tol}, {"status", x.status}, {"t_reached", x.t_reached}};
    if (x.status != "ok") j["reason"] = x.reason;
    j["error"] = {{"global", number(x.global)}, {"position", number(x.position)}, {"max", number(x.max)},
                  {"roundoff", number(x.roundoff)}, {"roundoff_max", number(x.roundoff_max)}};
    j["energy"] = {{"final_rel", number(x.energy_final_rel)}, {"max_rel", number(x.energy_max_rel)}};
    j["accepted"] = x.accepted, j["rejected"] = x.rejected, j["cut"] = x.cut, j["force_evals"] = x.force_evals;
    j["h_min"] = number(x.h_min), j["h_max"] = number(x.h_max);
    j["seconds_min"] = number(x.seconds_min), j["seconds_median"] = number(x.seconds_median);
    a["runs"].push_back(std::move(j));
  }
  a["proportionality"] = Json::array();
  for (const Proportionality& p : r.proportionality) {
    Json j{{"integrator", p.integrator}, {"expected", p.expected}, {"verdict", p.verdict.verdict}, {"reason", p.verdict.reason},
           {"action", p.verdict.action}};
    j["observed"] = p.fit.determined ? Json(p.fit.order) : Json(nullptr);
    j["interval"] = p.fit.determined ? Json::array({p.fit.lo, p.fit.hi}) : Json(nullptr);
    j["local_slopes"] = p.fit.local_slopes;
    j["window"] = {{"tol_min", number(p.fit.dt_min)}, {"tol_max", number(p.fit.dt_max)}, {"points", p.fit.points}};
    j["output_limited"] = p.output_limited;
    j["points"] = Json::array();
    for (const ErrorPoint& x : p.points) j["points"].push_back({number(x.dt), number(x.error), number(x.floor)});
    a["proportionality"].push_back(std::move(j));
  }
  return a;
}

Json to_json(const std::vector<StudyResult>& results, const Meta& meta) {
  Json doc;
  doc["schema_version"] = results_schema_version;
  doc["meta"] = {{"compiler", meta.compiler}, {"flags", meta.flags}, {"cpu", meta.cpu}, {"revision", meta.revision},
                 {"date", meta.date}, {"elapsed_seconds", meta.elapsed_seconds},
                 {"reference", {{"solver", "Boost.Odeint bulirsch_stoer, float128, two-tolerance certified"}}}};
  doc["studies"] = Json::array();
  for (const StudyResult& r : results) {
    const Spec& s = r.spec;
    Json st;
    st["name"] = s.name;
    st["title"] = s.title;
    st["spec"] = s.file.filename().string();
    st["problem"] = s.problem;
    // What the checks need to know about the problem and the integrators (declared, not measured).
    st["problem_info"] = {{"conservative", r.conservative}, {"bounded", r.bounded}, {"periodic", r.periodic}, {"period", r.period},
                          {"time_unit", r.time_unit}, {"length_unit", r.length_unit}};
    st["integrators"] = Json::array();
    for (const SpecIntegrator& i : s.integrators) {
      Json predicted = nullptr;  // what the coefficients say, when the method is a table (built-ins too)
      if (i.predicted.order > 0)
        predicted = {{"order", i.predicted.order}, {"exact_order", i.predicted.exact_order},
                     {"error_coefficient", number(i.predicted.error_coefficient)}, {"conditions", i.predicted.conditions},
                     {"first_failing", i.predicted.first_failing}};
      if (i.predicted.linear_order > 0) predicted["linear_order"] = i.predicted.linear_order;
      st["integrators"].push_back({{"label", i.choice.label()}, {"id", i.choice.id}, {"expected_global", i.expected_global},
                                   {"expected_local", i.expected_local}, {"symplectic", i.symplectic},
                                   {"symmetric", i.symmetric}, {"implicit", i.implicit}, {"declared_order", i.declared_order},
                                   {"table", i.table}, {"source", i.source}, {"family", i.family}, {"evals_per_step", i.evals_per_step},
                                   {"predicted", predicted}});
    }
    st["params"] = Json::object();
    for (const auto& [k, v] : s.params) st["params"][k] = v;
    st["t_end"] = s.t_end;
    if (!s.scan.scan.empty())
      st["scan"] = {{"name", s.scan.scan}, {"axes", s.scan.axes}, {"values", s.scan.values}, {"index", s.scan.index},
                    {"count", s.scan.count}};
    st["metrics"] = std::vector<std::string>(s.metrics.begin(), s.metrics.end());
    st["plot_dt"] = s.plot_dt;
    if (!s.dt_pattern.empty()) st["varying_dt"] = {{"pattern", s.dt_pattern}, {"amplitude", s.dt_amplitude}};
    st["reference"] = {{"tolerance", r.reference_tolerance}, {"error_bound", r.reference_bound},
                       {"position_scale", r.position_scale}, {"velocity_scale", r.velocity_scale}};
    st["wide_budget"] = s.wide_budget;
    if (!s.accuracy.empty()) st["accuracy"] = s.accuracy;  // asked for (the spec's key, study run --accuracy)
    if (!s.vs.empty()) st["vs"] = s.vs;                     // the method the report measures the others against
    if (s.auto_dt)
      st["auto_dt"] = {{"runs", s.auto_dt->runs}, {"seconds", s.auto_dt->seconds > 0 ? Json(s.auto_dt->seconds) : Json(nullptr)},
                       {"ladder", [&] {
                          std::vector<double> dts;
                          for (std::size_t i = 0; i < s.steps.size(); ++i) dts.push_back(s.dt(i));
                          return dts;
                        }()},
                       {"between", [&] {
                          std::vector<double> dts;
                          for (long n : s.auto_dt->between) dts.push_back(s.t_end / static_cast<double>(n));
                          return dts;
                        }()}};
    // Which step sizes each integrator ran, and why its sweep stopped there.
    st["sweeps"] = Json::array();
    for (const Sweep& w : r.sweeps) {
      st["sweeps"].push_back({{"integrator", w.integrator}, {"automatic", w.automatic}, {"dts", w.dts}, {"stop", w.stop}});
      if (w.cause != SweepStop::none) st["sweeps"].back()["stop_cause"] = std::string(stop_name(w.cause));
      if (w.halvings != SweepStop::none) st["sweeps"].back()["halvings_end"] = std::string(stop_name(w.halvings));
    }
    st["runs"] = Json::array();
    for (const Run& run : r.runs) st["runs"].push_back(run_json(run));
    // The runs in wider arithmetic where an order needed them, and why each wide sweep started and stopped.
    if (!r.wide_runs.empty() || !r.wide_sweeps.empty()) {
      st["wide_sweeps"] = Json::array();
      for (const WideSweep& w : r.wide_sweeps)
        st["wide_sweeps"].push_back({{"integrator", w.integrator}, {"arithmetic", w.arithmetic}, {"dts", w.dts}, {"why", w.why},
                                     {"stop", w.stop}, {"work", w.work}, {"reference", w.reference}, {"reference_bound", w.reference_bound}});
      st["wide_runs"] = Json::array();
      for (const WideRun& w : r.wide_runs) {
        Json j{{"integrator", w.integrator}, {"arithmetic", w.arithmetic}, {"dt", w.dt}, {"steps", w.steps}, {"status", w.status}};
        if (w.status != "ok") j["reason"] = w.reason;
        j["error"] = {{"global", number(w.global)}, {"max", number(w.max)}, {"local", number(w.local)}};
        j["floor"] = {{"global", number(w.floor_global)}, {"max", number(w.floor_max)}, {"local", number(w.floor_local)}};
        j["force_evals"] = w.force_evals;
        st["wide_runs"].push_back(std::move(j));
      }
    }
    st["orders"] = Json::array();
    for (const Order& o : r.orders) st["orders"].push_back(order_json(o));
    if (!r.energy_long.empty()) {
      st["energy_long"] = Json::array();
      for (const EnergyLong& e : r.energy_long)
        st["energy_long"].push_back({{"integrator", e.integrator}, {"dt", e.dt}, {"steps", e.steps}, {"status", e.status},
                                     {"diverged_t", number(e.diverged_t)}, {"growth_exponent", number(e.growth_exponent)},
                                     {"growth_interval", std::isfinite(e.growth_lo) ? Json::array({e.growth_lo, e.growth_hi}) : Json(nullptr)},
                                     {"final_rel", e.rel_error.empty() ? Json(nullptr) : number(e.rel_error.back())},
                                     {"max_rel", number(e.max_rel)}});
      for (std::size_t k = 0; k < r.energy_long.size(); ++k) {  // an adaptive pair's: its tolerance, and why it stopped
        if (r.energy_long[k].tol > 0) st["energy_long"][k]["tol"] = r.energy_long[k].tol;
        if (!r.energy_long[k].reason.empty()) st["energy_long"][k]["reason"] = r.energy_long[k].reason;
      }
    }
    if (!r.stability.empty()) {
      st["stability"] = Json::array();
      for (const Stability& x : r.stability)
        st["stability"].push_back({{"integrator", x.integrator}, {"limit", number(x.limit)},
                                   {"beyond_search", x.beyond_search}, {"note", x.note},
                                   {"theory", std::isinf(x.theory) ? Json("unbounded") : number(x.theory)},
                                   {"theory_basis", x.theory_basis}});
    }
    if (!s.adaptive.empty()) st["adaptive"] = adaptive_json(r);
    doc["studies"].push_back(st);
  }
  return doc;
}

void write_results(const std::filesystem::path& dir, const std::vector<StudyResult>& results, const Meta& meta) {
  // Tables first, results.json last: a reader that finds results.json finds the tables it describes.
  for (const StudyResult& r : results) {
    const auto sub = dir / r.spec.name;
    std::ostringstream runs, orders, samples, energy, stab;
    runs << "integrator,dt,steps,status,global,position,max,local,local_position,roundoff,reversal,energy_max_rel,energy_final_rel,"
            "energy_drift_per_time,energy_behaviour,energy_roundoff,angular_momentum_max_rel,force_evals,jacobian_evals,iterations,ns_per_step_min,ns_per_step_median\n";
    for (const Run& x : r.runs)
      runs << csv_field(x.integrator) << ',' << num(x.dt) << ',' << x.steps << ',' << x.status << ',' << num(x.global) << ','
           << num(x.position) << ',' << num(x.max) << ',' << num(x.local) << ',' << num(x.local_position) << ','
           << num(x.roundoff) << ',' << num(x.reversal) << ','
           << num(x.energy_max_rel) << ',' << num(x.energy_final_rel) << ',' << num(x.energy_drift_per_time) << ','
           << x.energy_class << ',' << num(x.energy_roundoff) << ',' << num(x.angular_momentum_max_rel) << ',' << x.force_evals << ',' << x.jacobian_evals << ',' << x.iterations << ','
           << num(x.ns_per_step_min) << ',' << num(x.ns_per_step_median) << '\n';
    write_atomic(sub / "runs.csv", runs.str());

    orders << "integrator,metric,expected,verdict,observed,interval_lo,interval_hi,asymptotic,dt_min,dt_max,points,r2,reason,action,"
              "arithmetic\n";
    for (const Order& o : r.orders)
      orders << csv_field(o.integrator) << ',' << o.metric << ',' << o.expected << ',' << o.verdict.verdict << ','
             << (o.fit.determined ? num(o.fit.order) : "") << ',' << (o.fit.determined ? num(o.fit.lo) : "") << ','
             << (o.fit.determined ? num(o.fit.hi) : "") << ',' << (o.fit.asymptotic ? "true" : "false") << ','
             << num(o.fit.dt_min) << ',' << num(o.fit.dt_max) << ',' << o.fit.points << ','
             << (o.fit.determined ? num(o.fit.r2) : "") << ',' << csv_field(o.verdict.reason) << ',' << csv_field(o.verdict.action) << ','
             << csv_field(o.arithmetic) << '\n';
    write_atomic(sub / "orders.csv", orders.str());

    if (!r.runs.empty()) {
      const std::size_t dim = r.runs.front().sample_q.empty() ? 0 : r.runs.front().sample_q.front().size();
      samples << "integrator,dt,t,error,energy_rel";
      for (std::size_t i = 0; i < dim; ++i) samples << ",q" << i;
      for (std::size_t i = 0; i < dim; ++i) samples << ",v" << i;
      samples << '\n';
      for (const Run& x : r.runs)
        for (std::size_t k = 0; k < x.sample_t.size(); ++k) {
          samples << csv_field(x.integrator) << ',' << num(x.dt) << ',' << num(x.sample_t[k]) << ',' << num(x.sample_error[k])
                  << ',' << num(x.sample_energy[k]);
          for (double q : x.sample_q[k]) samples << ',' << num(q);
          for (double v : x.sample_v[k]) samples << ',' << num(v);
          samples << '\n';
        }
      write_atomic(sub / "samples.csv", samples.str());
    }
    if (!r.energy_long.empty()) {
      energy << "integrator,dt,t,energy_rel\n";
      for (const EnergyLong& e : r.energy_long)
        for (std::size_t k = 0; k < e.t.size(); ++k)
          energy << csv_field(e.integrator) << ',' << num(e.dt) << ',' << num(e.t[k]) << ',' << num(e.rel_error[k]) << '\n';
      write_atomic(sub / "energy_long.csv", energy.str());
    }
    if (!r.stability.empty()) {
      stab << "integrator,limit,beyond_search,note,theory,theory_basis\n";
      for (const Stability& x : r.stability)
        stab << csv_field(x.integrator) << ',' << num(x.limit) << ',' << (x.beyond_search ? "true" : "false") << ','
             << csv_field(x.note) << ',' << (std::isinf(x.theory) ? "unbounded" : num(x.theory)) << ','
             << csv_field(x.theory_basis) << '\n';
      write_atomic(sub / "stability.csv", stab.str());
    }
  }
  for (const StudyResult& r : results) {
    if (r.adaptive_runs.empty()) continue;
    std::ostringstream csv;
    csv << "integrator,tol,status,global,position,max,energy_final_rel,energy_max_rel,accepted,rejected,cut,force_evals,h_min,h_max,"
           "seconds_min,seconds_median\n";
    for (const AdaptiveRun& x : r.adaptive_runs)
      csv << csv_field(x.integrator) << ',' << num(x.tol) << ',' << x.status << ',' << num(x.global) << ',' << num(x.position) << ','
          << num(x.max) << ',' << num(x.energy_final_rel) << ',' << num(x.energy_max_rel) << ',' << x.accepted << ',' << x.rejected << ','
          << x.cut << ',' << x.force_evals << ',' << num(x.h_min) << ',' << num(x.h_max) << ',' << num(x.seconds_min) << ',' << num(x.seconds_median) << '\n';
    write_atomic(dir / r.spec.name / "adaptive.csv", csv.str());
    // Each run's errors at its output times (results.json adaptive.output_times of them, up to where it stopped).
    std::ostringstream samples;
    samples << "integrator,tol,t,error,energy_rel\n";
    const std::vector<double> times = r.spec.adaptive_times();
    for (const AdaptiveRun& x : r.adaptive_runs)
      for (std::size_t k = 0; k < x.sample_energy.size() && k < times.size(); ++k)
        samples << csv_field(x.integrator) << ',' << num(x.tol) << ',' << num(times[k]) << ',' << num(x.sample_error[k]) << ','
                << num(x.sample_energy[k]) << '\n';
    write_atomic(dir / r.spec.name / "adaptive_samples.csv", samples.str());
  }
  write_atomic(dir / "results.json", to_json(results, meta).dump(1) + "\n");
}

}  // namespace study
