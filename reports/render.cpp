#include "reports/render.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
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
