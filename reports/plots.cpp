#include "reports/plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <unistd.h>

#include "reports/process.hpp"
#include "reports/render.hpp"
#include "study/atomic_file.hpp"
#include "study/names.hpp"

namespace report {
namespace {

namespace fs = std::filesystem;

/// 16 distinct colours and 6 point shapes: no two of up to 16 integrators look alike.  An integrator keeps
/// its colour across all plots of a study (its position in the spec).
std::string style(const Study& s, const std::string& integrator) {
  static constexpr const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                                            "#bcbd22", "#7f7f7f", "#000000", "#aec7e8", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94"};
  static constexpr int shapes[] = {7, 5, 9, 11, 13, 15};
  const auto i = static_cast<std::size_t>(std::find(s.integrators.begin(), s.integrators.end(), integrator) - s.integrators.begin());
  return fmt::format("lc rgb '{}' pt {}", colours[i % 16], shapes[i % 6]);
}

/// Text from a results file made safe for a gnuplot script or data line: control characters (a line break would
/// start a new command) become spaces; quotes and backquotes (command substitution) become typographic ones.
std::string script_text(const std::string& x) {
  std::string q;
  for (char c : x) {
    if (c == '\'') q += "’";
    else if (c == '"') q += "”";
    else if (c == '`') q += "‘";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) q += ' ';
    else q += c;
  }
  return q;
}

/// gnuplot single-quoted text: no command substitution happens inside single quotes; a ' inside becomes a
/// typographic apostrophe (gnuplot's '' escape does not survive a do-for block).
std::string quoted(const std::string& x) {
  std::string q(1, '\'');  // appended piecewise: "'" + std::string&& trips GCC 12's false -Wrestrict (bug 105329)
  q += script_text(x);
  q += '\'';
  return q;
}

/// The script: draws `body` once as SVG (for the report) and once as PNG (beside it), into temporary names
/// that draw() renames into place only when gnuplot succeeded.
void write_plot(const fs::path& dir, const std::string& name, const std::string& about, const std::string& body,
                const std::string& data, int width = 960, int height = 600) {
  std::ostringstream gp;
  // `study report` passes -e "out = '<temporary name>'" so that the pictures appear whole, under names no other
  // process uses; run by hand, the script writes NAME.svg and NAME.png.
  gp << "# " << script_text(about) << "\n# Data: " << name << ".dat.  Regenerate with: gnuplot " << name << ".gp\n"
     << "if (!exists(\"out\")) out = '" << name << "'\n"
     << "do for [i = 1:2] {\n"
     << "  if (i == 1) {\n"
     << "    set terminal svg size " << width << "," << height << " dynamic font 'Sans,12' background rgb 'white'\n"
     << "    set output out.'.svg'\n"
     << "  } else {\n"
     << "    set terminal pngcairo size " << width << "," << height << " font 'Sans,10' background rgb 'white'\n"
     << "    set output out.'.png'\n"
     << "  }\n"
     << "  reset\n  set grid\n  set key noenhanced\n  set samples 400\n"
     << body << "  set output\n}\n";
  study::write_atomic(dir / (name + ".dat"), data);
  study::write_atomic(dir / (name + ".gp"), gp.str());
}

/// At most `keep` of the points, evenly spread, first and last kept: small files, same picture.
template <class T>
std::vector<T> thin(const std::vector<T>& x, std::size_t keep) {
  if (x.size() <= keep) return x;
  std::vector<T> out;
  for (std::size_t i = 0; i < keep; ++i) out.push_back(x[i * (x.size() - 1) / (keep - 1)]);
  return out;
}

std::string axis_title(const std::string& axis, const std::string& text) { return "  set " + axis + "label " + quoted(text) + " noenhanced\n"; }

}  // namespace

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
      const double e = metric == "global" ? r.global : metric == "max" ? r.max : metric == "reversal" ? r.reversal : r.local;
      if (r.integrator != integrator || !(e > 0) || !std::isfinite(e)) continue;
      block << num17(r.dt) << ' ' << num17(e) << '\n';
      ++points;
      x_lo = std::min(x_lo, r.dt), x_hi = std::max(x_hi, r.dt), y_lo = std::min(y_lo, e), y_hi = std::max(y_hi, e);
    }
    if (points == 0) continue;
    data << "# " << integrator << '\n' << block.str() << "\n\n";
    const OrderRow* o = find_order(s, integrator, metric);
    const std::string label = integrator + (o && std::isfinite(o->observed) ? fmt::format(" (order {:.2f})", o->observed) : "");
    plot << (index ? ", \\\n       " : "  plot ")
         << fmt::format("'{}.dat' index {} using 1:2 with linespoints {} ps 0.6 lw 1.5 title {}", name, index, style(s, integrator),
                        quoted(label));
    if (o) slopes.insert(o->expected);
    ++index;
  }
  if (index == 0) x_lo = 0.1, x_hi = 1, y_lo = 0.1, y_hi = 1, plot << "  plot 1/0 notitle";
  // Reference slopes C dt^p through the middle of the data, drawn over the middle of the dt range only.
  const double x0 = std::sqrt(x_lo * x_hi), y0 = std::sqrt(y_lo * y_hi), span = std::sqrt(x_hi / x_lo);
  const double a = x0 / std::pow(span, 0.5), b = x0 * std::pow(span, 0.5);
  for (int p : slopes)
    plot << fmt::format(", \\\n       (x >= {:.6e} && x <= {:.6e}) ? {:.6e} * x**{} : 1/0 with lines dt 2 lw 1.5 lc rgb '#888888' "
                        "title 'slope {}'",
                        a, b, y0 / std::pow(x0, p), p, p);
  const std::string what = metric == "global" ? "error at t_end"
                           : metric == "max"  ? "largest error over the run"
                           : metric == "reversal" ? "distance from the start after n steps of dt and n of -dt"
                                                  : "one-step error";
  std::ostringstream body;
  body << "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n"
       << "  set xrange [" << num17(x_lo / 1.5) << ":" << num17(x_hi * 1.5) << "]\n"
       << "  set yrange [" << num17(y_lo / 10) << ":" << num17(y_hi * 10) << "]\n"
       << axis_title("x", s.dt_pattern.empty() ? "time step dt" : "mean time step dt (steps alternate dt (1 ± " + g(s.dt_amplitude) + "))")
       << axis_title("y", what + (metric == "reversal" ? " (relative, positions)" : " (relative, phase space)")) << "  set title " << quoted(s.title) << " noenhanced\n"
       << "  set key outside right top\n"
       << plot.str() << "\n";
  write_plot(dir, name, s.title + ": " + what + " against dt", body.str(), data.str());
  return {name, s.title + ": " + what};
}

std::optional<Plot> energy_time_plot(const Results& res, const Study& s, const fs::path& dir) {
  if (!s.wants("energy") || !(s.plot_dt > 0)) return std::nullopt;
  const auto samples = samples_at(res, s, s.plot_dt);
  const std::string name = s.name + "-energy";
  std::ostringstream data, plot;
  int index = 0;
  for (const auto& integrator : s.integrators) {
    const auto it = samples.find(integrator);
    if (it == samples.end() || it->second.size() < 2) continue;
    data << "# " << integrator << ": t, relative energy error\n";
    for (const auto& x : thin(it->second, 400)) data << num17(x.t) << ' ' << num17(x.energy) << '\n';
    data << "\n\n";
    plot << (index ? ", \\\n       " : "  plot ") << fmt::format("'{}.dat' index {} using 1:2 with lines lw 1.5 {} title {}", name, index,
                                                                 style(s, integrator), quoted(integrator));
    ++index;
  }
  if (index == 0) return std::nullopt;
  std::ostringstream body;
  body << axis_title("x", "time t") << axis_title("y", "relative energy error (E - E0) / |E0|")
       << "  set title " << quoted(s.title + ", dt = " + g(s.plot_dt)) << " noenhanced\n  set key outside right top\n"
       << plot.str() << "\n";
  write_plot(dir, name, s.title + ": energy error against time at dt = " + g(s.plot_dt), body.str(), data.str());
  return Plot{name, s.title + ": relative energy error against time, dt = " + g(s.plot_dt)};
}

std::optional<Plot> energy_long_plot(const Results& res, const Study& s, const fs::path& dir) {
  if (s.energy_long.empty()) return std::nullopt;
  const auto series = energy_long_samples(res, s);
  const std::string name = s.name + "-energy-long";
  std::ostringstream data, plot;
  int index = 0;
  double t_lo = INFINITY, t_hi = 0, e_lo = INFINITY, e_hi = 0;
  for (const auto& integrator : s.integrators) {
    const auto it = series.find(integrator);
    if (it == series.end()) continue;
    std::ostringstream block;
    int points = 0;
    for (const auto& [t, e] : it->second)
      if (std::abs(e) > 0 && std::isfinite(e)) {
        block << num17(t) << ' ' << num17(std::abs(e)) << '\n';
        t_lo = std::min(t_lo, t), t_hi = std::max(t_hi, t), e_lo = std::min(e_lo, std::abs(e)), e_hi = std::max(e_hi, std::abs(e));
        ++points;
      }
    if (points < 2) continue;
    data << "# " << integrator << ": t, |relative energy error|\n" << block.str() << "\n\n";
    plot << (index ? ", \\\n       " : "  plot ") << fmt::format("'{}.dat' index {} using 1:2 with lines lw 1.5 {} title {}", name, index,
                                                                 style(s, integrator), quoted(integrator));
    ++index;
  }
  if (index == 0) return std::nullopt;
  // Guides through the upper middle of the plot: t^0 (bounded), t^1/2 (random walk of round-off), t^1 (drift).
  const double tm = std::sqrt(t_lo * t_hi), em = std::sqrt(e_lo * e_hi);
  for (const auto& [p, label] : std::vector<std::pair<double, std::string>>{{0.5, "t^1/2 (random walk)"}, {1, "t^1 (drift)"}})
    plot << fmt::format(", \\\n       {:.6e} * (x / {:.6e})**{} with lines dt 2 lc rgb '#888888' title {}", em, tm, p, quoted(label));
  std::ostringstream body;
  body << "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n"
       << "  set xrange [" << num17(t_lo) << ":" << num17(t_hi) << "]\n  set yrange [" << num17(e_lo / 10) << ":" << num17(e_hi * 10) << "]\n"
       << axis_title("x", "time t") << axis_title("y", "|relative energy error|")
       << "  set title " << quoted(s.title + ": long run, dt = " + g(s.energy_long.front().dt)) << " noenhanced\n"
       << "  set key outside right top\n" << plot.str() << "\n";
  write_plot(dir, name, s.title + ": long-run energy error, log-log", body.str(), data.str());
  return Plot{name, s.title + ": long-run energy error against time (log-log: flat = bounded, slope 1 = drift)"};
}

std::optional<Plot> trajectory_plot(const Results& res, const Study& s, const fs::path& dir) {
  const bool distance = s.problem == "earth-moon", orbit = s.problem == "central-force", phase = s.problem == "pendulum";
  if (!(distance || orbit || phase) || !(s.plot_dt > 0)) return std::nullopt;
  const RunRow* best = most_accurate(s);
  if (!best) return std::nullopt;
  const auto samples = samples_at(res, s, s.plot_dt);
  const auto truth_samples = samples_at(res, s, best->dt);
  std::vector<std::string> shown;
  if (distance) shown = {"euler", "symplectic-euler"};  // the seed's own figure
  else shown = s.integrators;
  const std::string name = s.name + "-trajectory";
  std::ostringstream data, plot;
  double lo = INFINITY, hi = -INFINITY;  // extent of the true path, for the axes
  auto point = [&](const Sample& x, bool truth) {
    double a = 0, b = 0;
    if (distance) a = x.t / 86400, b = std::hypot(x.q[2] - x.q[0], x.q[3] - x.q[1]) / 1e3;
    else if (orbit) a = x.q[0], b = x.q[1];
    else a = x.q[0], b = x.v[0];
    // Axes: the true path's extent (orbits), or every curve's (distance: the seed's point is Euler's growth).
    if (truth || distance) lo = std::min({lo, distance ? b : std::min(a, b)}), hi = std::max({hi, distance ? b : std::max(a, b)});
    return num17(a) + ' ' + num17(b) + '\n';
  };
  int index = 0;
  const auto truth = truth_samples.find(best->integrator);
  if (truth != truth_samples.end()) {
    data << "# most accurate run: " << best->integrator << ", dt = " << g(best->dt) << '\n';
    for (const auto& x : thin(truth->second, 1000)) data << point(x, true);
    data << "\n\n";
    plot << fmt::format("  plot '{}.dat' index 0 using 1:2 with lines lw 5 lc rgb '#cccccc' title {}", name,
                        quoted("most accurate: " + best->integrator + ", dt = " + g(best->dt)));
    ++index;
  }
  for (const auto& integrator : shown) {
    const auto it = samples.find(integrator);
    if (it == samples.end() || it->second.size() < 2) continue;
    data << "# " << integrator << ", dt = " << g(s.plot_dt) << '\n';
    for (const auto& x : thin(it->second, 400)) data << point(x, false);
    data << "\n\n";
    plot << (index ? ", \\\n       " : "  plot ") << fmt::format("'{}.dat' index {} using 1:2 with lines lw 1.2 {} title {}", name, index,
                                                                 style(s, integrator), quoted(integrator));
    ++index;
  }
  if (index < 2) return std::nullopt;
  std::ostringstream body;
  const double pad = (distance ? 0.05 : 0.35) * (hi - lo);
  if (distance) {
    body << axis_title("x", "time (days)") << axis_title("y", "Earth-Moon distance (km)")
         << "  set yrange [" << num17(lo - pad) << ":" << num17(hi + pad) << "]\n";
  } else {
    // Same scale on both axes (an orbit looks like itself), clipped to the true path's extent plus a margin:
    // a run that flies off leaves the frame instead of shrinking everything else.
    body << "  set size ratio -1\n  set xrange [" << num17(lo - pad) << ":" << num17(hi + pad) << "]\n  set yrange [" << num17(lo - pad)
         << ":" << num17(hi + pad) << "]\n"
         << (orbit ? axis_title("x", "x") + axis_title("y", "y") : axis_title("x", "angle q") + axis_title("y", "angular velocity v"));
  }
  const std::string what = distance ? "Earth-Moon distance over the year" : orbit ? "orbits" : "phase portrait";
  body << "  set title " << quoted(s.title + ": " + what + ", dt = " + g(s.plot_dt)) << " noenhanced\n  set key outside right top\n"
       << plot.str() << "\n";
  write_plot(dir, name, s.title + ": " + what, body.str(), data.str(), 960, distance ? 600 : 720);
  return Plot{name, s.title + ": " + what + " at dt = " + g(s.plot_dt)};
}

std::optional<Plot> work_precision_plot(const Study& s, const fs::path& dir) {
  if (!s.wants("walltime") || !s.wants("global")) return std::nullopt;
  const std::string name = s.name + "-work";
  std::ostringstream data, left, right;
  int index = 0;
  for (const auto& integrator : s.integrators) {
    std::ostringstream block;
    int points = 0;
    for (const auto& r : s.runs)
      if (r.integrator == integrator && r.status == "ok" && r.global > 0 && std::isfinite(r.ns_min)) {
        block << num17(r.force_evals) << ' ' << num17(r.ns_min * 1e-9 * static_cast<double>(r.steps)) << ' ' << num17(r.global) << '\n';
        ++points;
      }
    if (points == 0) continue;
    data << "# " << integrator << ": force evaluations, wall time (s), global error\n" << block.str() << "\n\n";
    const std::string line = fmt::format("'{}.dat' index {} using {{}}:3 with linespoints ps 0.6 lw 1.2 {} title {}", name, index,
                                         style(s, integrator), quoted(integrator));
    left << (index ? ", \\\n       " : "  plot ") << fmt::format(fmt::runtime(line), 1);
    right << (index ? ", \\\n       " : "  plot ") << fmt::format(fmt::runtime(line), 2);
    ++index;
  }
  if (index == 0) return std::nullopt;
  std::ostringstream body;
  body << "  set multiplot layout 1,2 title " << quoted(s.title + ": work against precision") << " noenhanced\n"
       << "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n  set key off\n"
       << axis_title("x", "force evaluations") << axis_title("y", "global error (relative)") << left.str() << "\n"
       << "  set key outside right top\n" << axis_title("x", "wall time (s, minimum of repeats)") << "  set ylabel ''\n"
       << right.str() << "\n  unset multiplot\n";
  write_plot(dir, name, s.title + ": global error against force evaluations and wall time", body.str(), data.str(), 1280, 560);
  return Plot{name, s.title + ": global error against force evaluations (left) and wall time (right)"};
}

std::optional<Plot> stability_plot(const Study& s, const fs::path& dir) {
  if (s.stability.empty()) return std::nullopt;
  const std::string name = s.name + "-stability";
  double top = 0;
  for (const auto& x : s.stability) {
    if (std::isfinite(x.limit)) top = std::max(top, x.limit);
    if (std::isfinite(x.theory)) top = std::max(top, x.theory);
  }
  top = top > 0 ? 1.25 * top : 1;
  std::ostringstream data;
  data << "# index, integrator, measured largest stable omega h, theory (finite), theory (unbounded: drawn at the top)\n";
  bool unbounded = false;
  for (std::size_t i = 0; i < s.stability.size(); ++i) {
    const auto& x = s.stability[i];
    unbounded = unbounded || std::isinf(x.theory);
    data << i << " \"" << script_text(x.integrator) << "\" " << num17(x.limit) << ' ' << (std::isfinite(x.theory) ? num17(x.theory) : "NaN") << ' '
         << (std::isinf(x.theory) ? num17(0.96 * top) : "NaN") << '\n';
  }
  std::ostringstream body;
  body << "  set yrange [0:" << num17(top) << "]\n  set xrange [-0.7:" << s.stability.size() - 0.3 << "]\n"
       << "  set xtics rotate by -40 noenhanced\n  set grid ytics\n  unset grid\n  set grid ytics\n"
       << axis_title("y", "largest stable omega h") << "  set title " << quoted(s.title + ": linear stability on the harmonic oscillator")
       << " noenhanced\n  set key top left\n"
       << "  plot '" << name << ".dat' using 1:3:xtic(2) with impulses lw 10 lc rgb '#1f77b4' title 'measured (spectral radius of the step map)', \\\n"
       << "       '' using 1:4 with points pt 7 ps 1.6 lc rgb '#d62728' title 'theory'"
       << (unbounded ? ", \\\n       '' using 1:5 with points pt 9 ps 1.8 lc rgb '#d62728' title 'theory: unbounded (A-stable)'" : "") << "\n";
  write_plot(dir, name, s.title + ": largest stable omega h, measured and theoretical", body.str(), data.str(), 960, 600);
  return Plot{name, s.title + ": largest stable ωh, measured against theory"};
}

std::string gnuplot_problem(const Gnuplot& g) {
  const ProcessResult r = run_process({g.program, "--version"}, {}, g.timeout, g.cancel);
  if (r.cancelled) throw Interrupted();
  if (r.ok()) return {};
  // Installing is the advice only when there is nothing to run; a gnuplot that hangs or fails needs another.
  const std::string advice = r.not_found ? " (Debian: apt-get install gnuplot-nox)"
                             : r.timed_out ? " (it did not answer --version: raise --gnuplot-timeout, or check the program)"
                                           : "";
  return "cannot run gnuplot ('" + g.program + "': " + r.describe(g.timeout) + ")" + advice;
}

bool draw(const Gnuplot& g, const fs::path& dir, const std::string& name, std::string& error) {
  if (const std::string why = study::name_problem(name); !why.empty())
    throw ReportError("plot name '" + name + "' " + why);  // never a path outside plots/
  const std::string tmp = "." + name + ".tmp" + std::to_string(::getpid());
  const fs::path svg = dir / (tmp + ".svg"), png = dir / (tmp + ".png");
  const ProcessResult r = run_process({g.program, "-e", "out = '" + tmp + "'", name + ".gp"}, dir, g.timeout, g.cancel);
  if (r.cancelled) throw Interrupted();
  std::error_code ec;
  // gnuplot may exit 0 after warnings yet write nothing: the pictures must exist and be non-empty.
  const bool ok = r.ok() && fs::file_size(svg, ec) > 0 && !ec && fs::file_size(png, ec) > 0 && !ec;
  if (ok) {
    fs::rename(svg, dir / (name + ".svg"), ec);
    if (!ec) fs::rename(png, dir / (name + ".png"), ec);
    if (ec) error = "cannot move the picture into place: " + ec.message();
  } else {
    error = r.ok() ? "it wrote no picture" : r.describe(g.timeout);
  }
  fs::remove(svg, ec);
  fs::remove(png, ec);
  return ok && error.empty();
}

}  // namespace report
