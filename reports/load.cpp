#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"
#include "reports/render.hpp"

namespace report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

/// A JSON value with the path that reached it, so that a malformed file is reported field by field.
class Node {
 public:
  Node(const Json& j, std::string path, const fs::path& file) : j_(j), path_(std::move(path)), file_(file) {}

  bool has(const std::string& key) const { return j_.is_object() && j_.contains(key); }
  bool is_null() const { return j_.is_null(); }
  bool is_string() const { return j_.is_string(); }
  Node at(const std::string& key) const {
    if (!has(key)) fail("missing '" + key + "'");
    return {j_[key], path_ + "." + key, file_};
  }
  Node at(std::size_t i) const {
    if (i >= size()) fail("has no element " + std::to_string(i));
    return {j_[i], path_ + "[" + std::to_string(i) + "]", file_};
  }
  std::size_t size() const {
    if (!j_.is_array()) fail("must be an array");
    return j_.size();
  }
  double number() const {  // null: not measured
    if (j_.is_null()) return std::nan("");
    if (!j_.is_number()) fail("must be a number or null");
    return j_.get<double>();
  }
  bool boolean() const {
    if (!j_.is_boolean()) fail("must be true or false");
    return j_.get<bool>();
  }
  std::string text() const {
    if (!j_.is_string()) fail("must be a string");
    return j_.get<std::string>();
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw ReportError(file_.string() + ": " + path_ + ": " + what);
  }

 private:
  const Json& j_;
  std::string path_;
  const fs::path& file_;
};

/// The document in an open JSON file; ReportError naming the file when it does not parse.
Json parse(std::ifstream& in, const fs::path& file) {
  try {
    return Json::parse(in);
  } catch (const Json::parse_error& e) {
    throw ReportError(file.string() + ": not valid JSON (" + e.what() + ")");
  }
}

}  // namespace

Results load(const fs::path& dir) {
  const fs::path file = dir / "results.json";
  std::ifstream in(file);
  if (!in) throw ReportError(file.string() + ": no results file (run `study run --out " + dir.string() + "` first)");
  const Json doc = parse(in, file);
  const Node root(doc, "results", file);
  Results r;
  r.dir = dir;
  if (root.has("schema_version")) r.schema_version = static_cast<int>(root.at("schema_version").number());
  const Node meta = root.at("meta");
  r.compiler = meta.at("compiler").text(), r.flags = meta.at("flags").text(), r.cpu = meta.at("cpu").text();
  r.revision = meta.at("revision").text(), r.date = meta.at("date").text();
  if (meta.has("elapsed_seconds")) r.elapsed = meta.at("elapsed_seconds").number();
  const Node studies = root.at("studies");
  for (std::size_t i = 0; i < studies.size(); ++i) {
    const Node s = studies.at(i);
    Study st;
    st.name = s.at("name").text(), st.title = s.at("title").text(), st.problem = s.at("problem").text();
    st.t_end = s.at("t_end").number();
    st.plot_dt = s.has("plot_dt") ? s.at("plot_dt").number() : 0;
    const Node metrics = s.at("metrics");
    for (std::size_t k = 0; k < metrics.size(); ++k) st.metrics.push_back(metrics.at(k).text());
    if (s.has("varying_dt"))
      st.dt_pattern = s.at("varying_dt").at("pattern").text(), st.dt_amplitude = s.at("varying_dt").at("amplitude").number();
    st.ref_tol = s.at("reference").at("tolerance").number(), st.ref_bound = s.at("reference").at("error_bound").number();
    st.position_scale = s.at("reference").at("position_scale").number();
    if (s.has("problem_info")) {
      const Node pi = s.at("problem_info");
      st.conservative = pi.at("conservative").boolean(), st.bounded = pi.at("bounded").boolean();
      if (pi.has("periodic")) st.periodic = pi.at("periodic").boolean();
      st.period = pi.at("period").number();
    }
    if (s.has("integrators")) {
      const Node ints = s.at("integrators");
      for (std::size_t k = 0; k < ints.size(); ++k) {
        const Node x = ints.at(k);
        st.declared.push_back({x.at("label").text(), x.at("id").text(), static_cast<int>(x.at("expected_global").number()),
                               static_cast<int>(x.at("expected_local").number()), x.at("symplectic").boolean(),
                               x.at("symmetric").boolean(), x.at("implicit").boolean()});
      }
    }
    const Node runs = s.at("runs");
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const Node x = runs.at(k);
      RunRow row;
      row.integrator = x.at("integrator").text(), row.status = x.at("status").text();
      row.dt = x.at("dt").number(), row.steps = static_cast<long>(x.at("steps").number());
      row.global = x.at("error").at("global").number(), row.max = x.at("error").at("max").number();
      row.local = x.at("error").at("local").number();
      row.reversal = x.at("error").has("reversal") ? x.at("error").at("reversal").number() : std::nan("");
      row.roundoff = x.at("error").at("roundoff").number();
      row.energy_max = x.at("energy").at("max_rel").number(), row.drift = x.at("energy").at("drift_per_time").number();
      row.behaviour = x.at("energy").at("behaviour").is_null() ? "" : x.at("energy").at("behaviour").text();
      row.ns_min = x.at("ns_per_step").at("min").number();
      row.force_evals = x.at("force_evals").number();
      row.evals_per_step = row.force_evals / static_cast<double>(std::max(1L, row.steps));
      const Node fq = x.at("final_state").at("q");
      for (std::size_t c = 0; c < fq.size(); ++c) row.final_q.push_back(fq.at(c).number());
      if (std::find(st.integrators.begin(), st.integrators.end(), row.integrator) == st.integrators.end())
        st.integrators.push_back(row.integrator);
      st.runs.push_back(row);
    }
    if (s.has("sweeps")) {
      const Node w = s.at("sweeps");
      for (std::size_t k = 0; k < w.size(); ++k) {
        SweepRow row{w.at(k).at("integrator").text(), w.at(k).at("automatic").boolean(), {}, w.at(k).at("stop").text()};
        const Node dts = w.at(k).at("dts");
        for (std::size_t q = 0; q < dts.size(); ++q) row.dts.push_back(dts.at(q).number());
        st.sweeps.push_back(std::move(row));
      }
    }
    const Node orders = s.at("orders");
    for (std::size_t k = 0; k < orders.size(); ++k) {
      const Node x = orders.at(k);
      OrderRow o;
      o.integrator = x.at("integrator").text(), o.metric = x.at("metric").text();
      o.expected = static_cast<int>(x.at("expected").number());
      o.observed = x.at("observed").number();
      o.dt_min = x.at("window").at("dt_min").number(), o.dt_max = x.at("window").at("dt_max").number();
      o.points = static_cast<long>(x.at("window").at("points").number());
      o.r2 = x.at("r2").number();
      if (x.has("reason")) o.reason = x.at("reason").text();
      if (x.has("verdict")) {  // schema 2
        o.verdict = x.at("verdict").text(), o.action = x.at("action").text();
        o.asymptotic = x.at("asymptotic").boolean();
        if (!x.at("interval").is_null()) o.lo = x.at("interval").at(0).number(), o.hi = x.at("interval").at(1).number();
        const Node pts = x.at("points");
        for (std::size_t q = 0; q < pts.size(); ++q)
          o.sweep.push_back({pts.at(q).at(0).number(), pts.at(q).at(1).number(), pts.at(q).at(2).number()});
      }
      st.orders.push_back(o);
    }
    if (s.has("energy_long")) {
      const Node e = s.at("energy_long");
      for (std::size_t k = 0; k < e.size(); ++k) {
        st.energy_long.push_back({e.at(k).at("integrator").text(), e.at(k).at("status").text(), e.at(k).at("dt").number(),
                                  e.at(k).at("growth_exponent").number(), e.at(k).at("final_rel").number()});
        if (e.at(k).has("growth_interval") && !e.at(k).at("growth_interval").is_null())
          st.energy_long.back().growth_lo = e.at(k).at("growth_interval").at(0).number(),
          st.energy_long.back().growth_hi = e.at(k).at("growth_interval").at(1).number();
      }
    }
    if (s.has("stability")) {
      const Node e = s.at("stability");
      for (std::size_t k = 0; k < e.size(); ++k) {
        StabilityRow row{e.at(k).at("integrator").text(), e.at(k).at("note").text(), "", e.at(k).at("limit").number(), std::nan("")};
        if (e.at(k).has("theory")) {
          const Node t = e.at(k).at("theory");
          row.theory = t.is_string() && t.text() == "unbounded" ? INFINITY : t.number();
          row.theory_basis = e.at(k).at("theory_basis").text();
        }
        st.stability.push_back(row);
      }
    }
    r.studies.push_back(std::move(st));
  }
  return r;
}

std::optional<Bench> load_bench(const fs::path& dir) {
  const fs::path file = dir / "bench.json";
  std::ifstream in(file);
  if (!in) return std::nullopt;
  const Json doc = parse(in, file);
  const Node root(doc, "bench", file);
  Bench b;
  const Node meta = root.at("meta");
  b.compiler = meta.at("compiler").text(), b.flags = meta.at("flags").text(), b.cpu = meta.at("cpu").text();
  b.revision = meta.at("revision").text(), b.date = meta.at("date").text();
  b.cpus = static_cast<int>(meta.at("cpus").number()), b.mhz = meta.at("mhz").number();
  const Node method = root.at("method");
  b.steps = static_cast<long>(method.at("steps_per_iteration").number()), b.min_time = method.at("min_time_seconds").number();
  b.repetitions = static_cast<int>(method.at("repetitions").number()), b.statistic = method.at("statistic").text();
  const Node problems = root.at("problems");
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const Node p = problems.at(i);
    BenchProblem bp;
    bp.problem = p.at("problem").text(), bp.dt = p.at("dt").number();
    bp.floor_ns = p.at("floor_ns_per_step").number(), bp.floor_spread = p.at("floor_spread").number();
    bp.throughput_ns = p.at("throughput_floor_ns_per_step").number();
    const Node rows = p.at("integrators");
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Node x = rows.at(k);
      bp.rows.push_back({x.at("integrator").text(), x.at("odeint").is_null() ? "" : x.at("odeint").text(), x.at("ns_per_step").number(),
                         x.at("spread").number(), x.at("evals_per_step").number(), x.at("floor_ratio").number(),
                         x.at("odeint_ns_per_step").number(), x.at("odeint_ratio").number(), x.at("implicit").boolean()});
    }
    const Node odeint = p.at("odeint");
    for (std::size_t k = 0; k < odeint.size(); ++k) {
      const Node x = odeint.at(k);
      bp.odeint.push_back({x.at("stepper").text(), x.at("ns_per_step").number(), x.at("spread").number(), x.at("evals_per_step").number()});
    }
    const Node checks = root.at("checks").at(bp.problem);
    for (std::size_t k = 0; k < checks.size(); ++k) {
      const Node x = checks.at(k);
      b.checks.push_back({bp.problem, x.at("integrator").text(), x.at("odeint").text(), x.at("criterion").text(),
                          x.at("distance").number(), x.at("allowance").number(), x.at("ok").boolean()});
    }
    b.problems.push_back(std::move(bp));
  }
  return b;
}

namespace {
/// The rows of a CSV table as fields (the files are ours: no quoting beyond a quoted first column).
std::vector<std::vector<std::string>> read_csv(const fs::path& file, std::vector<std::string>& header) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(file);
  if (!in) return rows;
  auto split = [](const std::string& line) {
    std::vector<std::string> f;
    std::string cur;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) f.push_back(cur), cur.clear();
      else cur += c;
    }
    f.push_back(cur);
    return f;
  };
  std::string line;
  if (!std::getline(in, line)) return rows;
  header = split(line);
  while (std::getline(in, line))
    if (auto f = split(line); f.size() == header.size()) rows.push_back(std::move(f));
  return rows;
}
double to_number(const std::string& x) { return x.empty() ? std::nan("") : std::stod(x); }
bool same_dt(double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); }
}  // namespace

std::map<std::string, std::vector<Sample>> samples_at(const Results& res, const Study& s, double dt) {
  std::map<std::string, std::vector<Sample>> out;
  std::vector<std::string> header;
  const auto rows = read_csv(res.dir / s.name / "samples.csv", header);
  for (const auto& f : rows) {
    if (!same_dt(to_number(f[1]), dt)) continue;
    Sample x;
    x.t = to_number(f[2]), x.error = to_number(f[3]), x.energy = to_number(f[4]);
    for (std::size_t c = 5; c < header.size(); ++c) (header[c][0] == 'q' ? x.q : x.v).push_back(to_number(f[c]));
    out[f[0]].push_back(std::move(x));
  }
  return out;
}

std::map<std::string, std::vector<std::pair<double, double>>> energy_long_samples(const Results& res, const Study& s) {
  std::map<std::string, std::vector<std::pair<double, double>>> out;
  std::vector<std::string> header;
  for (const auto& f : read_csv(res.dir / s.name / "energy_long.csv", header)) out[f[0]].emplace_back(to_number(f[2]), to_number(f[3]));
  return out;
}

const OrderRow* find_order(const Study& s, const std::string& integrator, const std::string& metric) {
  for (const auto& o : s.orders)
    if (o.integrator == integrator && o.metric == metric) return &o;
  return nullptr;
}

const RunRow* run_at(const Study& s, const std::string& integrator, double dt) {
  for (const auto& r : s.runs)
    if (r.integrator == integrator && same_dt(r.dt, dt)) return &r;
  return nullptr;
}

const RunRow* finest_ok(const Study& s, const std::string& integrator) {
  const RunRow* best = nullptr;
  for (const auto& r : s.runs)
    if (r.integrator == integrator && r.status == "ok" && (!best || r.dt < best->dt)) best = &r;
  return best;
}

const Study* study_named(const Results& r, const std::string& name) {
  for (const auto& s : r.studies)
    if (s.name == name) return &s;
  return nullptr;
}

const RunRow* most_accurate(const Study& s) {
  const RunRow* best = nullptr;
  for (const auto& r : s.runs)
    if (r.status == "ok" && std::isfinite(r.global) && (!best || r.global < best->global)) best = &r;
  return best;
}

const RunRow* cheapest_to_reach(const Study& s, const std::string& integrator, double target, bool by_time) {
  const RunRow* best = nullptr;
  auto cost = [&](const RunRow& r) { return by_time ? r.ns_min * static_cast<double>(r.steps) : r.force_evals; };
  for (const auto& r : s.runs)
    if (r.integrator == integrator && r.status == "ok" && r.global <= target && std::isfinite(cost(r)) &&
        (!best || cost(r) < cost(*best)))
      best = &r;
  return best;
}

}  // namespace report
