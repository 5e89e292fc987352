#include "reports/render.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "study/atomic_file.hpp"

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
  Node at(const std::string& key) const {
    if (!has(key)) fail("missing '" + key + "'");
    return {j_[key], path_ + "." + key, file_};
  }
  Node at(std::size_t i) const { return {j_[i], path_ + "[" + std::to_string(i) + "]", file_}; }
  std::size_t size() const {
    if (!j_.is_array()) fail("must be an array");
    return j_.size();
  }
  double number() const {  // null: not measured
    if (j_.is_null()) return std::nan("");
    if (!j_.is_number()) fail("must be a number or null");
    return j_.get<double>();
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

struct RunRow {
  std::string integrator, status, behaviour;
  double dt = 0, global = 0, max = 0, local = 0, energy_max = 0, drift = 0, ns_min = 0, evals_per_step = 0;
  long steps = 0;
  std::vector<double> final_q;
};
struct OrderRow {
  std::string integrator, metric, reason;
  int expected = 0;
  double observed = 0, dt_min = 0, dt_max = 0, r2 = 0;
  long points = 0;
};
struct LongRow {
  std::string integrator, status;
  double dt = 0, growth = 0, final_rel = 0;
};
struct StabilityRow {
  std::string integrator, note;
  double limit = 0;
};
struct Study {
  std::string name, title, problem;
  double t_end = 0, ref_tol = 0, ref_bound = 0;
  std::vector<std::string> integrators;  ///< in spec order
  std::vector<RunRow> runs;
  std::vector<OrderRow> orders;
  std::vector<LongRow> energy_long;
  std::vector<StabilityRow> stability;
};
struct Results {
  std::string compiler, flags, cpu, revision, date;
  std::vector<Study> studies;
  fs::path dir;
};

Results load(const fs::path& dir) {
  const fs::path file = dir / "results.json";
  std::ifstream in(file);
  if (!in) throw ReportError(file.string() + ": no results file (run `study run --out " + dir.string() + "` first)");
  Json doc;
  try {
    doc = Json::parse(in);
  } catch (const Json::parse_error& e) {
    throw ReportError(file.string() + ": not valid JSON (" + e.what() + ")");
  }
  const Node root(doc, "results", file);
  Results r;
  r.dir = dir;
  const Node meta = root.at("meta");
  r.compiler = meta.at("compiler").text(), r.flags = meta.at("flags").text(), r.cpu = meta.at("cpu").text();
  r.revision = meta.at("revision").text(), r.date = meta.at("date").text();
  const Node studies = root.at("studies");
  for (std::size_t i = 0; i < studies.size(); ++i) {
    const Node s = studies.at(i);
    Study st;
    st.name = s.at("name").text(), st.title = s.at("title").text(), st.problem = s.at("problem").text();
    st.t_end = s.at("t_end").number();
    st.ref_tol = s.at("reference").at("tolerance").number(), st.ref_bound = s.at("reference").at("error_bound").number();
    const Node runs = s.at("runs");
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const Node x = runs.at(k);
      RunRow row;
      row.integrator = x.at("integrator").text(), row.status = x.at("status").text();
      row.dt = x.at("dt").number(), row.steps = static_cast<long>(x.at("steps").number());
      row.global = x.at("error").at("global").number(), row.max = x.at("error").at("max").number();
      row.local = x.at("error").at("local").number();
      row.energy_max = x.at("energy").at("max_rel").number(), row.drift = x.at("energy").at("drift_per_time").number();
      row.behaviour = x.at("energy").at("behaviour").is_null() ? "" : x.at("energy").at("behaviour").text();
      row.ns_min = x.at("ns_per_step").at("min").number();
      row.evals_per_step = x.at("force_evals").number() / static_cast<double>(std::max(1L, row.steps));
      const Node fq = x.at("final_state").at("q");
      for (std::size_t c = 0; c < fq.size(); ++c) row.final_q.push_back(fq.at(c).number());
      if (std::find(st.integrators.begin(), st.integrators.end(), row.integrator) == st.integrators.end())
        st.integrators.push_back(row.integrator);
      st.runs.push_back(row);
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
      st.orders.push_back(o);
    }
    if (s.has("energy_long")) {
      const Node e = s.at("energy_long");
      for (std::size_t k = 0; k < e.size(); ++k)
        st.energy_long.push_back({e.at(k).at("integrator").text(), e.at(k).at("status").text(), e.at(k).at("dt").number(),
                                  e.at(k).at("growth_exponent").number(), e.at(k).at("final_rel").number()});
    }
    if (s.has("stability")) {
      const Node e = s.at("stability");
      for (std::size_t k = 0; k < e.size(); ++k)
        st.stability.push_back({e.at(k).at("integrator").text(), e.at(k).at("note").text(), e.at(k).at("limit").number()});
    }
    r.studies.push_back(std::move(st));
  }
  return r;
}

std::string sci(double x) { return std::isfinite(x) ? fmt::format("{:.2e}", x) : "—"; }
std::string fixed(double x, int digits = 2) { return std::isfinite(x) ? fmt::format("{:.{}f}", x, digits) : "—"; }
std::string g(double x) { return std::isfinite(x) ? fmt::format("{:.4g}", x) : "—"; }
std::string num17(double x) { return fmt::format("{:.17g}", x); }

const OrderRow* find_order(const Study& s, const std::string& integrator, const std::string& metric) {
  for (const auto& o : s.orders)
    if (o.integrator == integrator && o.metric == metric) return &o;
  return nullptr;
}

/// Pass: determined over >= 3 points and within 0.2 of the expected order.
constexpr double order_tolerance = 0.2;
std::string order_cell(const OrderRow* o) {
  if (!o) return "—";
  if (!std::isfinite(o->observed)) return "undetermined";
  const bool pass = o->points >= 3 && std::abs(o->observed - o->expected) <= order_tolerance;
  return fmt::format("{} ({}) {}", fixed(o->observed), o->expected, pass ? "pass" : "**FAIL**");
}

/// The run of each integrator at the smallest dt that ended well.
const RunRow* finest_ok(const Study& s, const std::string& integrator) {
  const RunRow* best = nullptr;
  for (const auto& r : s.runs)
    if (r.integrator == integrator && r.status == "ok" && (!best || r.dt < best->dt)) best = &r;
  return best;
}

/// The fewest force evaluations with which each integrator reached `target` (relative global error).
std::optional<double> cost_to_reach(const Study& s, const std::string& integrator, double target) {
  std::optional<double> best;
  for (const auto& r : s.runs)
    if (r.integrator == integrator && r.status == "ok" && r.global <= target) {
      const double evals = r.evals_per_step * static_cast<double>(r.steps);
      if (!best || evals < *best) best = evals;
    }
  return best;
}

struct Plot {
  std::string name, title;
};

/// Writes the data and gnuplot script of a convergence plot (error of `metric` against dt, one line per integrator).
Plot convergence_plot(const Study& s, const std::string& metric, const fs::path& dir) {
  const std::string name = s.name + "-" + metric;
  std::ostringstream data, plot;
  std::set<int> slopes;
  double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = 0;
  int index = 0;
  for (const auto& integrator : s.integrators) {
    std::ostringstream block;
    int points = 0;
    for (const auto& r : s.runs) {
      const double e = metric == "global" ? r.global : metric == "max" ? r.max : r.local;
      if (r.integrator != integrator || !(e > 0) || !std::isfinite(e)) continue;
      block << num17(r.dt) << ' ' << num17(e) << '\n';
      ++points;
      x_lo = std::min(x_lo, r.dt), x_hi = std::max(x_hi, r.dt), y_lo = std::min(y_lo, e), y_hi = std::max(y_hi, e);
    }
    if (points == 0) continue;
    data << "# " << integrator << '\n' << block.str() << "\n\n";
    const OrderRow* o = find_order(s, integrator, metric);
    const std::string label = integrator + (o && std::isfinite(o->observed) ? fmt::format(" (order {:.2f})", o->observed) : "");
    // 16 distinct colours and 6 point shapes: no two of up to 16 integrators look alike.
    static constexpr const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                                              "#bcbd22", "#7f7f7f", "#000000", "#aec7e8", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94"};
    static constexpr int shapes[] = {7, 5, 9, 11, 13, 15};
    plot << (index ? ", \\\n     " : "plot ")
         << fmt::format("'{}.dat' index {} using 1:2 with linespoints lc rgb '{}' pt {} ps 0.6 lw 1.5 title '{}'", name, index,
                        colours[index % 16], shapes[index % 6], label);
    if (o) slopes.insert(o->expected);
    ++index;
  }
  // Reference slopes C dt^p through the middle of the data, drawn over the middle of the dt range only.
  const double x0 = std::sqrt(x_lo * x_hi), y0 = std::sqrt(y_lo * y_hi), span = std::sqrt(x_hi / x_lo);
  const double a = x0 / std::pow(span, 0.5), b = x0 * std::pow(span, 0.5);
  for (int p : slopes)
    plot << fmt::format(", \\\n     (x >= {:.6e} && x <= {:.6e}) ? {:.6e} * x**{} : 1/0 with lines dt 2 lw 1.5 lc rgb '#888888' "
                        "title 'slope {}'",
                        a, b, y0 / std::pow(x0, p), p, p);
  const std::string what = metric == "global" ? "error at t_end" : metric == "max" ? "largest error over the run" : "one-step error";
  std::ostringstream gp;
  gp << "# " << s.title << ": " << what << " against dt.  Regenerate with: gnuplot " << name << ".gp\n"
     << "set terminal svg size 960,600 dynamic font 'Sans,12' background rgb 'white'\n"
     << "set output '." << name << ".svg.tmp'\n"
     << "set logscale xy\nset format x '10^{%L}'\nset format y '10^{%L}'\nset grid\n"
     << "set xrange [" << num17(x_lo / 1.5) << ":" << num17(x_hi * 1.5) << "]\n"
     << "set yrange [" << num17(y_lo / 10) << ":" << num17(y_hi * 10) << "]\n"
     << "set samples 400\nset xlabel 'time step dt' noenhanced\nset ylabel '" << what << " (relative, phase space)' noenhanced\n"
     << "set title '" << s.title << "' noenhanced\n"
     << "set key outside right top noenhanced\n"
     << plot.str() << "\n"
     << "set terminal pngcairo size 960,600 font 'Sans,10' background rgb 'white'\n"
     << "set output '." << name << ".png.tmp'\nreplot\n";
  study::write_atomic(dir / (name + ".dat"), data.str());
  study::write_atomic(dir / (name + ".gp"), gp.str());
  return {name, s.title + ": " + what};
}

bool gnuplot_available(const std::string& gnuplot) {
  return std::system((gnuplot + " --version > /dev/null 2>&1").c_str()) == 0;
}

/// Runs a plot's script in `dir`; moves its outputs into place on success.
bool draw(const std::string& gnuplot, const fs::path& dir, const std::string& name, std::string& error) {
  const std::string cmd = "cd '" + dir.string() + "' && " + gnuplot + " '" + name + ".gp' > '." + name + ".log' 2>&1";
  const bool ok = std::system(cmd.c_str()) == 0 && fs::exists(dir / ("." + name + ".svg.tmp")) &&
                  fs::exists(dir / ("." + name + ".png.tmp"));
  std::error_code ec;
  if (ok) {
    fs::rename(dir / ("." + name + ".svg.tmp"), dir / (name + ".svg"), ec);
    fs::rename(dir / ("." + name + ".png.tmp"), dir / (name + ".png"), ec);
  } else {
    std::ifstream log(dir / ("." + name + ".log"));
    std::getline(log, error);
    fs::remove(dir / ("." + name + ".svg.tmp"), ec);
    fs::remove(dir / ("." + name + ".png.tmp"), ec);
  }
  fs::remove(dir / ("." + name + ".log"), ec);
  return ok;
}


// ---- The seeds' claims: each tested by an experiment of the default study, judged by a stated criterion. ----

struct Claim {
  std::string seed, quote, experiment, evidence, criterion, verdict;  ///< verdict: holds, does not hold, partly, not measured
};

const Study* study_named(const Results& r, const std::string& name) {
  for (const auto& s : r.studies)
    if (s.name == name) return &s;
  return nullptr;
}

const RunRow* run_at(const Study& s, const std::string& integrator, double dt) {
  for (const auto& r : s.runs)
    if (r.integrator == integrator && std::abs(r.dt - dt) <= 1e-12 * dt) return &r;
  return nullptr;
}

/// Global error of a run, infinite when it diverged or is missing (a diverged run is as inaccurate as it gets).
double error_of(const RunRow* r) { return r && r->status == "ok" && std::isfinite(r->global) ? r->global : INFINITY; }
std::string error_text(const RunRow* r) {
  if (!r) return "no run";
  if (r->status != "ok") return "diverged";
  return sci(r->global);
}
double observed(const Study& s, const std::string& integrator, const std::string& metric) {
  const OrderRow* o = find_order(s, integrator, metric);
  return o ? o->observed : std::nan("");
}
bool near(double observed_order, double expected) { return std::isfinite(observed_order) && std::abs(observed_order - expected) <= order_tolerance; }

/// (t, positions) of one run from samples.csv.
std::vector<std::pair<double, std::vector<double>>> samples_of(const Results& res, const Study& s, const std::string& integrator, double dt) {
  std::vector<std::pair<double, std::vector<double>>> out;
  std::ifstream in(res.dir / s.name / "samples.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::stringstream h(line); std::getline(h, line, ',');) header.push_back(line);
  for (std::string row; std::getline(in, row);) {
    std::vector<std::string> f;
    for (std::stringstream r(row); std::getline(r, line, ',');) f.push_back(line);
    if (f.size() != header.size() || f[0] != integrator || std::abs(std::stod(f[1]) - dt) > 1e-12 * dt) continue;
    std::vector<double> q;
    for (std::size_t c = 0; c < header.size(); ++c)
      if (header[c].size() > 1 && header[c][0] == 'q') q.push_back(std::stod(f[c]));
    out.emplace_back(std::stod(f[2]), q);
  }
  return out;
}

std::vector<Claim> evaluate_claims(const Results& res) {
  std::vector<Claim> claims;
  if (const Study* s = study_named(res, "seed000-central-force")) {
    const RunRow *rk4 = run_at(*s, "rk4", 1), *e8 = run_at(*s, "symplectic-euler x8", 1), *rk4x4 = run_at(*s, "rk4 x4", 1),
                 *rk4x2 = run_at(*s, "rk4 x2", 1);
    const double ratio = error_of(rk4) / error_of(e8);
    claims.push_back({"000", "RK4 at one step per frame is \"way more inaccurate than Euler integration\" run 8 times per frame",
                      "`seed000-central-force` at dt = 1 frame: rk4 against symplectic-euler x8 (the seed's \"Euler\")",
                      "global error at t_end: rk4 " + error_text(rk4) + ", symplectic-euler x8 " + error_text(e8),
                      "holds if RK4's error is at least 10 times Euler x8's",
                      ratio >= 10 ? "holds" : "does not hold"});
    claims.push_back({"000", "\"if you loop RK4 four times it is more accurate than running Euler 8 times\"",
                      "same runs: rk4 x4 (16 evaluations per frame) against symplectic-euler x8 (8); at equal cost, rk4 x2",
                      "rk4 x4 " + error_text(rk4x4) + ", rk4 x2 " + error_text(rk4x2) + ", symplectic-euler x8 " + error_text(e8),
                      "holds if rk4 x4's error is smaller than Euler x8's",
                      error_of(rk4x4) < error_of(e8) ? "holds" : "does not hold"});
    // Identity: the seed's Verlet (previous = x0 - h v0) against its Euler, at every dt where both ended well.
    double worst = 0, largest_share = 0;
    int compared = 0;
    for (const auto& r : s->runs) {
      if (r.integrator != "stormer-verlet (backward-euler)" || r.status != "ok") continue;
      const RunRow* e = run_at(*s, "symplectic-euler", r.dt);
      // Only where the runs mean something (error < 0.1): at dt = 1 near-collisions amplify round-off chaotically.
      if (!e || e->status != "ok" || e->final_q.size() != r.final_q.size() || !(e->global > 0) || !(e->global < 0.1)) continue;
      double d = 0, scale = 0;
      for (std::size_t i = 0; i < r.final_q.size(); ++i) d = std::max(d, std::abs(r.final_q[i] - e->final_q[i])), scale = std::max(scale, std::abs(e->final_q[i]));
      // The gap against the most round-off can do (100 ulps per step, accumulated linearly) ...
      const double roundoff = 100 * std::numeric_limits<double>::epsilon() * static_cast<double>(r.steps);
      worst = std::max(worst, d / scale / roundoff);
      // ... and against their own error: an identity must sit far below it (an O(h) difference would not).
      largest_share = std::max(largest_share, d / scale / e->global);
      ++compared;
    }
    claims.push_back({"000", "\"For one body however, it [Verlet] is identical to Euler Integration\"",
                      "`seed000-central-force`: the seed's Verlet (stormer-verlet started from x_-1 = x0 - h v0) against symplectic Euler, final positions at every dt",
                      compared ? fmt::format("at the {} step sizes where both are accurate to 0.1, the positions differ by at most {:.2f} of the round-off "
                                             "allowance and {:.1e} of their own error", compared, worst, largest_share)
                               : "no comparable runs",
                      "holds if, wherever the error is below 0.1, the two differ by no more than round-off can (100 eps per step) and by under 1% of their error",
                      compared && worst <= 1 && largest_share < 1e-2 ? "holds — for any force, not only for one body: the x_-1 = x0 - h v0 start turns the two-step recurrence into symplectic Euler"
                                               : (compared ? "does not hold" : "not measured")});
  }
  auto better = [&](const Study& s, double dt) {
    const RunRow *e = run_at(s, "euler", dt), *se = run_at(s, "symplectic-euler", dt);
    return std::pair{error_of(se) / error_of(e), fmt::format("dt = {}: explicit Euler {}, symplectic Euler {}", g(dt), error_text(e), error_text(se))};
  };
  if (const Study* s = study_named(res, "seed001-projectile")) {
    const auto [ratio, text] = better(*s, 0.0125);
    claims.push_back({"001", "symplectic Euler \"yields better results than the explicit Euler since it is a symplectic method\"",
                      "`seed001-projectile` (constant gravity) at dt = 0.0125", text,
                      "holds if symplectic Euler's error is less than half explicit Euler's; 0.5-2: equal",
                      ratio < 0.5 ? "holds" : ratio <= 2 ? "does not hold: equal errors (they are exactly -/+ a t h / 2)" : "does not hold"});
  }
  if (const Study* s = study_named(res, "seed002-earth-moon")) {
    const auto [ratio, text] = better(*s, 3600);
    claims.push_back({"001", "symplectic Euler yields better results than explicit Euler — on an orbit",
                      "`seed002-earth-moon`, one year at dt = 3600 s", text, "holds if symplectic Euler's error is less than half explicit Euler's",
                      ratio < 0.5 ? "holds" : "does not hold"});
    // Distances Earth-Moon over the year; the most accurate run of the study stands for the true orbit.
    const RunRow* best = nullptr;
    for (const auto& r : s->runs)
      if (r.status == "ok" && (!best || r.global < best->global)) best = &r;
    auto distances = [&](const std::string& integrator, double dt) {
      std::vector<double> d;
      for (const auto& [t, q] : samples_of(res, *s, integrator, dt))
        if (q.size() == 4) d.push_back(std::hypot(q[2] - q[0], q[3] - q[1]));
      return d;
    };
    const auto truth = best ? distances(best->integrator, best->dt) : std::vector<double>{};
    const auto naive = distances("euler", 3600), symplectic = distances("symplectic-euler", 3600);
    if (!truth.empty() && !naive.empty() && !symplectic.empty()) {
      const auto [lo, hi] = std::minmax_element(truth.begin(), truth.end());
      const auto [slo, shi] = std::minmax_element(symplectic.begin(), symplectic.end());
      const bool spirals = naive.back() > 1.05 * *hi, stays = *slo >= 0.99 * *lo && *shi <= 1.01 * *hi;
      claims.push_back({"002", "\"with the naive Euler approach the distance is increasing over time\"; with symplectic Euler \"the Moon is orbiting in a consistent circle\"",
                        "`seed002-earth-moon` at dt = 3600 s: Earth-Moon distance over the year against the most accurate run (" + best->integrator + ", dt = " + g(best->dt) + ")",
                        fmt::format("true distance {:.4g}-{:.4g} km; explicit Euler ends at {:.4g} km; symplectic Euler stays in {:.4g}-{:.4g} km",
                                    *lo / 1e3, *hi / 1e3, naive.back() / 1e3, *slo / 1e3, *shi / 1e3),
                        "holds if Euler ends more than 5% beyond the true largest distance and symplectic Euler stays within 1% of the true range",
                        spirals && stays ? "holds" : spirals || stays ? "partly" : "does not hold"});
      // Revolutions: the unwrapped angle of the Moon seen from the Earth, on the most accurate run.
      double angle = 0, previous = 0;
      bool first = true;
      for (const auto& [t, q] : samples_of(res, *s, best->integrator, best->dt)) {
        const double a = std::atan2(q[3] - q[1], q[2] - q[0]);
        if (!first) angle += std::remainder(a - previous, 2 * std::numbers::pi);
        previous = a, first = false;
      }
      const double revolutions = angle / (2 * std::numbers::pi);
      claims.push_back({"002", "\"the moon is orbiting for a total of about 13 periods in one year\" (checked as 365 / 29.5 = 12.4)",
                        "`seed002-earth-moon`: the angle swept by the Earth-Moon line in 365 days, most accurate run",
                        fmt::format("{:.2f} revolutions", revolutions),
                        "holds if within 0.5 of 13",
                        std::abs(revolutions - 13) < 0.5 ? "holds — but 29.5 days is the synodic month; this two-body orbit's sidereal period gives the 13"
                                                          : "does not hold"});
    }
  }
  if (const Study* s = study_named(res, "seed003-004-verlet")) {
    const double sv_local = observed(*s, "stormer-verlet", "local"), sv_global = observed(*s, "stormer-verlet", "global");
    const double vv_global = observed(*s, "velocity-verlet", "global");
    claims.push_back({"003", "position Verlet: \"this drops the error to O(dt^4)\"",
                      "`seed003-004-verlet` (Kepler e = 0.6): orders of stormer-verlet, one step from two reference positions and over the run",
                      "one-step position error order " + fixed(sv_local) + ", global order " + fixed(sv_global),
                      "holds if the global order is 4 (within 0.2); partly if only the one-step error is O(dt^4)",
                      near(sv_global, 4) ? "holds" : near(sv_local, 4) ? "partly: the one-step error is O(dt^4), the error after many steps is O(dt^2)" : "does not hold"});
    claims.push_back({"003", "velocity Verlet \"has an error term of O(dt^2), which is two orders of magnitude worse\"",
                      "`seed003-004-verlet`: global orders of velocity-verlet and stormer-verlet",
                      "velocity Verlet " + fixed(vv_global) + ", Störmer-Verlet " + fixed(sv_global),
                      "holds if velocity Verlet's global order is 2 lower than position Verlet's",
                      std::isfinite(vv_global) && std::isfinite(sv_global) && sv_global - vv_global >= 2 - order_tolerance
                          ? "holds"
                          : "does not hold: both are second order (and give the same positions)"});
    const double el = observed(*s, "euler", "local"), eg = observed(*s, "euler", "global");
    claims.push_back({"004", "Euler: \"The error per timestep (local error) is proportional to dt^2. The cumulative (global) error is proportional to dt.\"",
                      "`seed003-004-verlet`: orders of explicit Euler", "local order " + fixed(el) + ", global order " + fixed(eg),
                      "holds if local is 2 and global is 1 (within 0.2)", near(el, 2) && near(eg, 1) ? "holds" : "does not hold"});
    claims.push_back({"004", "Störmer-Verlet is \"time-reversible, symplectic, local O(t^4) and global O(t^2)\"",
                      "`seed003-004-verlet`: orders of stormer-verlet (reversibility: not yet measured by the study)",
                      "local (positions) " + fixed(sv_local) + ", global " + fixed(sv_global),
                      "holds if local is 4 and global 2 (within 0.2)",
                      near(sv_local, 4) && near(sv_global, 2) ? "holds (orders; reversibility is checked by the unit tests, not yet by the study)" : "does not hold"});
  }
  claims.push_back({"004", "the variable-step Störmer-Verlet formula for non-constant dt", "not yet run by the study (needs varying-step runs)", "—", "—", "not measured"});
  return claims;
}
}  // namespace

Outcome render(const Options& options) {
  const Results results = load(options.results);
  const fs::path out = options.out.empty() ? options.results : options.out;
  const fs::path plots_dir = out / "plots";
  Outcome outcome;

  // Plots first (data and scripts always; pictures when gnuplot is there).
  std::map<std::string, std::vector<Plot>> plots;
  for (const auto& s : results.studies)
    for (const std::string metric : {"global", "max", "local"})
      if (std::any_of(s.orders.begin(), s.orders.end(), [&](const OrderRow& o) { return o.metric == metric; }))
        plots[s.name].push_back(convergence_plot(s, metric, plots_dir));
  const bool can_draw = options.plots && gnuplot_available(options.gnuplot);
  if (options.plots && !can_draw)
    outcome.problem = "gnuplot was not found ('" + options.gnuplot + "'; Debian: apt-get install gnuplot-nox)";
  else if (!options.plots)
    outcome.problem = "plots were not drawn (--no-plots)";
  for (const auto& [study, list] : plots)
    for (const auto& p : list) {
      std::string error;
      if (can_draw && draw(options.gnuplot, plots_dir, p.name, error)) {
        outcome.plots.push_back(p.name);
      } else {
        outcome.missing.push_back(p.name);
        if (can_draw && outcome.problem.empty()) outcome.problem = "gnuplot failed on " + p.name + ".gp: " + error;
      }
    }
  const std::set<std::string> drawn(outcome.plots.begin(), outcome.plots.end());

  std::ostringstream md;
  md << "# Integrator accuracy report\n\n"
     << "Generated by `study report` from `results.json` (revision " << results.revision << ", " << results.date << "; "
     << results.compiler << ", `" << results.flags << "`; " << results.cpu << "). Every number below is read from the "
     << "results; nothing is typed in. Errors are relative (phase space: the larger of |Δq|/Q and |Δv|/V, Q and V the "
     << "largest |q| and |v| of the reference); orders are least-squares slopes over an automatically chosen "
     << "asymptotic window; an order passes when it is determined over at least 3 points and within "
     << fixed(order_tolerance, 1) << " of the expected one.\n\n";
  if (!outcome.missing.empty())
    md << "> **" << outcome.missing.size() << " plot(s) missing**: " << outcome.problem
       << ". Their data and gnuplot scripts are in `plots/`.\n\n";

  const auto claims = evaluate_claims(results);
  if (!claims.empty()) {
    md << "## The seeds' claims\n\n"
       << "Each claim from the five source write-ups (`shared/seeds/`), the experiment of this study that tests it, "
          "the measured evidence, the criterion, and the verdict computed from them.\n\n"
       << "| seed | claim | experiment | evidence | criterion | verdict |\n|---|---|---|---|---|---|\n";
    for (const auto& c : claims)
      md << "| " << c.seed << " | " << c.quote << " | " << c.experiment << " | " << c.evidence << " | " << c.criterion << " | **"
         << c.verdict << "** |\n";
    md << "\n";
  }

  md << "## Contents\n\n";
  for (const auto& s : results.studies) md << "- [" << s.title << "](#" << s.name << ")\n";
  md << "\n";

  for (const auto& s : results.studies) {
    md << "<a id=\"" << s.name << "\"></a>\n## " << s.title << "\n\n"
       << "Problem `" << s.problem << "`, t_end = " << g(s.t_end) << ". Reference: float128 Bulirsch–Stoer at tolerance "
       << sci(s.ref_tol) << ", certified error bound " << sci(s.ref_bound) << ".\n\n";

    if (!s.orders.empty()) {
      md << "### Orders (observed, expected)\n\n"
         << "| integrator | global (at t_end) | max (over the run) | local (one step) | window of the global fit | R² |\n"
         << "|---|---|---|---|---|---|\n";
      for (const auto& i : s.integrators) {
        const OrderRow* og = find_order(s, i, "global");
        md << "| " << i << " | " << order_cell(og) << " | " << order_cell(find_order(s, i, "max")) << " | "
           << order_cell(find_order(s, i, "local")) << " | "
           << (og && std::isfinite(og->observed) ? fmt::format("dt {}–{}, {} points", g(og->dt_min), g(og->dt_max), og->points)
                                                  : (og ? og->reason : "—"))
           << " | " << (og ? fixed(og->r2, 4) : "—") << " |\n";
      }
      md << "\n";
      for (const auto& p : plots[s.name])
        if (drawn.count(p.name)) md << "![" << p.title << "](plots/" << p.name << ".svg)\n\n";
    }

    md << "### Error, energy and cost at the finest step that ended well\n\n"
       << "| integrator | dt | global error | energy: max rel. | drift / time | behaviour | ns / step | evals / step | evals to reach 1e-6 |\n"
       << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& i : s.integrators) {
      const RunRow* r = finest_ok(s, i);
      if (!r) {
        md << "| " << i << " | every run diverged |  |  |  |  |  |  |  |\n";
        continue;
      }
      const auto reach = cost_to_reach(s, i, 1e-6);
      md << "| " << i << " | " << g(r->dt) << " | " << sci(r->global) << " | " << sci(r->energy_max) << " | " << sci(r->drift)
         << " | " << (r->behaviour.empty() ? "—" : r->behaviour) << " | " << fixed(r->ns_min, 1) << " | "
         << fixed(r->evals_per_step, 1) << " | " << (reach ? fmt::format("{:.3g}", *reach) : "not reached") << " |\n";
    }
    std::size_t diverged = 0;
    for (const auto& r : s.runs) diverged += r.status != "ok";
    md << "\n" << s.runs.size() << " runs, " << diverged << " diverged.\n\n";

    if (!s.energy_long.empty()) {
      md << "### Long energy run\n\n| integrator | dt | status | final relative energy error | growth exponent (error ∝ t^a) |\n"
         << "|---|---|---|---|---|\n";
      for (const auto& e : s.energy_long)
        md << "| " << e.integrator << " | " << g(e.dt) << " | " << e.status << " | " << sci(e.final_rel) << " | "
           << fixed(e.growth) << " |\n";
      md << "\n";
    }
    if (!s.stability.empty()) {
      md << "### Linear stability on the harmonic oscillator\n\n| integrator | largest stable ωh | note |\n|---|---|---|\n";
      for (const auto& x : s.stability) md << "| " << x.integrator << " | " << fixed(x.limit, 4) << " | " << x.note << " |\n";
      md << "\n";
    }
  }
  outcome.markdown = out / "REPORT.md";
  study::write_atomic(outcome.markdown, md.str());
  return outcome;
}

}  // namespace report
