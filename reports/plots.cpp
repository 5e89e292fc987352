#include "reports/plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "study/reader/accuracy.hpp"
#include "reports/process.hpp"
#include "reports/render.hpp"
#include "reports/series.hpp"
#include "study/common/atomic_file.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/names.hpp"

namespace report {
namespace fs = std::filesystem;

/// 16 distinct colours and 6 point shapes: no two of up to 16 integrators look alike.  A method keeps its colour in
/// every plot of a study (its position in the spec).
std::string colour(std::size_t i) {
  static constexpr const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                                            "#bcbd22", "#7f7f7f", "#000000", "#aec7e8", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94"};
  return colours[i % 16];
}
std::string style(std::size_t i) {
  static constexpr int shapes[] = {7, 5, 9, 11, 13, 15};
  return fmt::format("lc rgb '{}' pt {}", colour(i), shapes[i % 6]);
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

std::string axis_title(const std::string& axis, const std::string& text) {
  return "  set " + axis + "label " + quoted(text) + " font ',11' noenhanced\n";
}

/// The script: the panels drawn once as SVG (for the report) and once as PNG (beside it), into temporary names that
/// draw() renames into place only when gnuplot succeeded.  Every panel shares `axes` (scales, ranges, labels, key).
void write_plot(const fs::path& dir, const std::string& name, const std::string& title, const std::string& axes,
                const std::vector<PanelText>& panels, const std::string& data, int panel_width, int panel_height) {
  std::vector<PanelText> drawn;  // a panel with nothing to draw is left out (gnuplot refuses a plot of no points)
  for (const auto& p : panels)
    if (!p.elements.empty()) drawn.push_back(p);
  const std::size_t n = std::max<std::size_t>(1, drawn.size());
  const std::size_t cols = n == 1 ? 1 : 2, rows = (n + cols - 1) / cols;
  const int width = static_cast<int>(cols) * panel_width, height = static_cast<int>(rows) * panel_height + 40;
  std::ostringstream gp;
  // `study report` passes -e "out = '<temporary name>'" so that the pictures appear whole, under names no other
  // process uses; run by hand, the script writes NAME.svg (and NAME.png with -e "png = 1": three times the work).
  gp << "# " << script_text(title) << "\n# Data: " << name << ".dat.  Regenerate with: gnuplot " << name << ".gp (a PNG too: gnuplot -e \"png = 1\" "
     << name << ".gp)\n"
     << "if (!exists(\"out\")) out = '" << name << "'\n"
     << "if (!exists(\"png\")) png = 0\n"
     << "do for [i = 1:(png ? 2 : 1)] {\n"
     << "  if (i == 1) {\n"
     << "    set terminal svg size " << width << "," << height << " dynamic font 'Sans,10' background rgb 'white'\n"
     << "    set output out.'.svg'\n"
     << "  } else {\n"
     << "    set terminal pngcairo size " << width << "," << height << " font 'Sans,9' background rgb 'white'\n"
     << "    set output out.'.png'\n"
     << "  }\n"
     << "  reset\n  set grid\n  set key noenhanced\n  set samples 200\n"
     << "  set multiplot layout " << rows << "," << cols << " title " << quoted(title) << " font ',13' noenhanced\n"
     << axes;
  for (const auto& p : drawn) {
    gp << "  set title " << quoted(p.title) << " font ',12' noenhanced\n  unset label\n" << p.labels;
    for (std::size_t k = 0; k < p.elements.size(); ++k) gp << (k ? ", \\\n       " : "  plot ") << p.elements[k];
    gp << "\n";
  }
  // Nothing to draw at all: a panel that says so, on linear axes of its own (gnuplot cannot plot no point).
  if (drawn.empty())
    gp << "  unset logscale\n  set xrange [0:1]\n  set yrange [0:1]\n  set title 'no data: no method has a value to draw' font ',12'\n"
          "  plot 2 notitle\n";
  gp << "  unset multiplot\n  set output\n}\n";
  study::write_atomic(dir / (name + ".dat"), data);
  study::write_atomic(dir / (name + ".gp"), gp.str());
}

namespace {

/// At most `keep` of the points, evenly spread, first and last kept: small files, same picture.
template <class T>
std::vector<T> thin(const std::vector<T>& x, std::size_t keep) {
  if (x.size() <= keep) return x;
  std::vector<T> out;
  for (std::size_t i = 0; i < keep; ++i) out.push_back(x[i * (x.size() - 1) / (keep - 1)]);
  return out;
}

std::string unit_of(const std::string& unit) { return unit.empty() ? "dimensionless" : unit; }

/// The error of a run for a convergence metric.
double metric_error(const RunRow& r, const std::string& metric) {
  return metric == "global" ? r.global : metric == "max" ? r.max : metric == "reversal" ? r.reversal : r.local;
}

/// A line's points: the first member's runs, and a step only another member ran (merged lines are the same curve).
template <class Value>
std::vector<std::pair<double, double>> series_points(const Study& s, const Series& x, Value value) {
  std::vector<std::pair<double, double>> out;
  std::set<double> seen;
  std::vector<const RunRow*> runs;  // an adaptive method's runs too (Study::adaptive_work, dt its mean step)
  for (const auto& r : s.runs) runs.push_back(&r);
  for (const auto& r : s.adaptive_work) runs.push_back(&r);
  for (const auto& member : x.members)
    for (const RunRow* p : runs) {
      const RunRow& r = *p;
      if (r.integrator != member || seen.count(r.dt)) continue;
      const auto [a, b] = value(r);
      if (!(a > 0) || !(b > 0) || !std::isfinite(a) || !std::isfinite(b)) continue;
      out.emplace_back(a, b);
      seen.insert(r.dt);
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::string rows_of(const std::vector<std::pair<double, double>>& points) {
  std::string rows;
  for (const auto& [a, b] : points) rows += num17(a) + ' ' + num17(b) + '\n';
  return rows;
}

/// One panel per `panels` entry, each line the points `value(run)` gives (x, y > 0), with `labels` and a `first` element
/// (the Pareto front) in every panel.
template <class Value>
std::vector<PanelText> point_panels(const Study& s, const std::vector<Panel>& panels, const std::string& name, Blocks& data, Extent& all,
                                    const std::string& labels, const std::string& first, Value value) {
  std::vector<PanelText> out;
  for (const auto& panel : panels) {
    PanelText p{panel.title, labels, {}};
    if (!first.empty()) p.elements.push_back(first);
    for (const auto& x : panel.series) {
      const auto points = series_points(s, x, value);
      if (points.empty()) continue;
      for (const auto& [a, b] : points) all.add(a, b);
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with linespoints {} ps 0.6 lw 1.5 title {}", name,
                                       data.add(x.label(), rows_of(points)), style(x.colour), quoted(x.label())));
    }
    out.push_back(std::move(p));
  }
  return out;
}

/// "rk4: 4.01", "euler: 0.98 FAIL (expected 2)", "yoshida6: 5.14? undetermined (expected 6)", "yoshida8: 7.99 (float128)",
/// with the line's width and dashes (one lw each: gnuplot refuses two).
std::pair<std::string, std::string> fitted_label(const Study& s, const Series& x, const std::string& metric) {
  const OrderRow* o = metric == "reversal" ? nullptr : find_order(s, x.members.front(), metric);
  if (!o) return {x.label(), " lw 1.5"};
  const std::string in = o->arithmetic == "double" ? "" : " (" + o->arithmetic + ")";
  if (!std::isfinite(o->observed))
    return {x.label() + ": no fit" + (o->verdict == "fail" ? " FAIL" : ""), o->verdict == "fail" ? " lw 3.5" : " lw 1.5 dt 3"};
  if (o->verdict == "fail") return {fmt::format("{}: {:.2f}{} FAIL (expected {})", x.label(), o->observed, in, o->expected), " lw 3.5"};
  if (o->verdict == "undetermined")
    return {fmt::format("{}: {:.2f}{}? undetermined (expected {})", x.label(), o->observed, in, o->expected), " lw 1.5 dt 3"};
  return {fmt::format("{}: {:.2f}{}", x.label(), o->observed, in), " lw 1.5"};
}

}  // namespace

const std::map<std::string, std::vector<Sample>>& StudySamples::at(double dt) const {
  static const std::map<std::string, std::vector<Sample>> none;
  for (const auto& [step, samples] : by_dt)
    if (std::abs(step - dt) <= 1e-12 * std::abs(dt)) return samples;
  return none;
}

StudySamples read_samples(const Results& res, const Study& s) {
  // The plots use two step sizes: the study's plot_dt, and its most accurate run's (the trajectories' truth).
  std::vector<double> used{s.plot_dt};
  if (const RunRow* best = most_accurate(s)) used.push_back(best->dt);
  StudySamples out;
  for (auto& [dt, by_integrator] : all_samples(res, s, used)) out.by_dt.emplace_back(dt, std::move(by_integrator));
  return out;
}

std::string problem_context(const Study& s) {
  std::string params;
  for (const auto& [k, v] : s.params) params += (params.empty() ? "" : ", ") + k + " = " + g(std::strtod(v.c_str(), nullptr));
  return s.problem + (params.empty() ? "" : " (" + params + ")") + ", t_end = " + g(s.t_end) +
         (s.time_unit.empty() ? "" : " " + s.time_unit);
}

std::string time_axis(const Study& s, const std::string& what) { return what + " (" + unit_of(s.time_unit) + ")"; }

Plot convergence_plot(const Study& s, const std::string& metric, const fs::path& dir) {
  const std::string name = s.name + "-" + metric;
  const auto panels = panels_of(series_of(s, true));
  Blocks data;
  Extent all;
  std::vector<PanelText> out;
  for (const auto& panel : panels) {
    PanelText p{panel.title, "", {}};
    for (const auto& x : panel.series) {
      const auto points = series_points(s, x, [&](const RunRow& r) { return std::pair{r.dt, metric_error(r, metric)}; });
      if (points.empty()) continue;
      for (const auto& [dt, e] : points) all.add(dt, e);
      const int index = data.add(x.label(), rows_of(points));
      const auto [label, line] = fitted_label(s, x, metric);
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with linespoints {} ps 0.6{} title {}", name, index,
                                       style(x.colour), line, quoted(label)));
      const OrderRow* o = metric == "reversal" ? nullptr : find_order(s, x.members.front(), metric);
      // The runs in wider arithmetic where round-off ended double's range: their errors as open circles (long double)
      // and open squares (float128) in the line's colour, a thin line through them.
      std::vector<std::pair<double, double>> decided_points;  // the arithmetic the order was decided in
      if (o)
        for (const auto& [arithmetic, pts] : o->wide) {
          std::vector<std::pair<double, double>> wide;
          for (const auto& [dt, e, floor] : pts)
            if (std::isfinite(e) && e > 0) wide.emplace_back(dt, e);
          std::sort(wide.begin(), wide.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
          if (wide.empty()) continue;
          for (const auto& [dt, e] : wide) all.add(dt, e);
          if (arithmetic == o->arithmetic) decided_points = wide;
          p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with linespoints lc rgb '{}' pt {} ps 0.7 lw 0.8 title {}", name,
                                           data.add(x.label() + " in " + arithmetic, rows_of(wide)), colour(x.colour),
                                           arithmetic == "float128" ? 4 : 6, quoted(x.label() + " in " + arithmetic)));
        }
      // The fitted order, drawn over its window parallel to the least-squares line through the window's points (a
      // factor 3 below it, so that it hides no point) and written below it in the line's colour: the points of the
      // arithmetic the order was decided in.
      if (!o || !std::isfinite(o->observed) || !(o->dt_min > 0) || !(o->dt_max > o->dt_min)) continue;
      const auto& fitted = o->arithmetic == "double" ? points : decided_points;
      double sum = 0;
      int n = 0;
      for (const auto& [dt, e] : fitted)
        if (dt >= o->dt_min * (1 - 1e-9) && dt <= o->dt_max * (1 + 1e-9)) sum += std::log(e) - o->observed * std::log(dt), ++n;
      if (n == 0) continue;
      // The label's place along the window differs from line to line (a quarter, the middle, three quarters in log dt),
      // so that two lines with close windows do not write their orders on top of each other.
      const double t = 0.25 + 0.25 * static_cast<double>(p.elements.size() % 3);
      const double c = std::exp(sum / n) / 3, xm = std::pow(o->dt_min, 1 - t) * std::pow(o->dt_max, t);
      p.elements.push_back(fmt::format("(x >= {:.9e} && x <= {:.9e}) ? {:.9e} * x**{:.9g} : 1/0 with lines dt 2 lw 2 lc rgb '{}' notitle",
                                       o->dt_min, o->dt_max, c, o->observed, colour(x.colour)));
      p.labels += fmt::format("  set label {} at {:.9e},{:.9e} center tc rgb '{}' font ',9' front\n", quoted(fmt::format("{:.2f}", o->observed)), xm,
                              c * std::pow(xm, o->observed) / 3, colour(x.colour));
    }
    out.push_back(std::move(p));
  }
  const std::string what = metric == "global" ? "error at t_end"
                           : metric == "max"  ? "largest error over the run"
                           : metric == "reversal" ? "distance from the start after n steps of dt and n of -dt"
                                                  : "one-step error";
  std::string axes = "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n  set key outside right top\n" + all.ranges(true, true) +
                     axis_title("x", s.dt_pattern.empty() ? time_axis(s, "time step dt")
                                                          : time_axis(s, "mean time step dt, steps alternating dt (1 ± " + g(s.dt_amplitude) + ")")) +
                     axis_title("y", what + (metric == "reversal" ? " (relative to the largest |q|)" : " (relative, phase space)"));
  write_plot(dir, name, what + " against dt — " + problem_context(s), axes, out, data.data.str());
  return {name, s.title + ": " + what + " against dt"};
}

/// One panel holding the best line of each family: the cheapest (force evaluations, an estimate) to the smallest of
/// the study's decade targets that some member of the family reaches, so that the best of two families meet on one
/// plot.  Empty when fewer than two families have one.
Panel best_of_families(const Study& s, const std::vector<Series>& series) {
  Panel best{"the best of each family", {}};  // the cheapest to the smallest error its family reaches
  std::vector<std::string> families;
  for (const auto& x : series)
    if (std::find(families.begin(), families.end(), x.family) == families.end()) families.push_back(x.family);
  const auto targets = default_targets(s);
  for (const auto& family : families) {
    const Series* pick = nullptr;
    for (auto t = targets.rbegin(); t != targets.rend() && !pick; ++t) {
      double cheapest = INFINITY;
      for (const auto& x : series) {
        if (x.family != family) continue;
        const CostToAccuracy c = cost_to_reach(s, x.members.front(), *t);
        if ((c.how == Reach::interpolated || c.how == Reach::extrapolated) && c.evals < cheapest) cheapest = c.evals, pick = &x;
      }
    }
    if (pick) best.series.push_back(*pick);
  }
  if (best.series.size() < 2) best.series.clear();
  return best;
}

std::optional<Plot> work_precision_plot(const Study& s, bool by_time, const fs::path& dir) {
  if (!s.wants("global") || (by_time && !s.wants("walltime"))) return std::nullopt;
  const std::string name = s.name + (by_time ? "-work-time" : "-work");
  auto cost = [&](const RunRow& r) { return by_time ? r.ns_min * 1e-9 * static_cast<double>(r.steps) : r.force_evals; };
  // Timings differ between methods that compute the same: merged lines only where the evaluations are the measure.
  auto lines = work_series_of(s, !by_time, true);  // the adaptive methods, a family of their own
  auto panels = panels_of(lines);
  if (!by_time)  // first, the best of each family on one panel (at most one line a family: 4)
    if (Panel best = best_of_families(s, lines); !best.series.empty()) panels.insert(panels.begin(), std::move(best));
  Blocks data;
  Extent all;
  const auto front = pareto_front(s, by_time);
  std::string front_rows;
  for (const auto& f : front) front_rows += num17(f.cost) + ' ' + num17(f.error) + '\n', all.add(f.cost, f.error);
  const int front_index = front.empty() ? -1 : data.add("Pareto front: " + describe_front(front), front_rows);
  // The front named on the plot: each method once, where its first stretch of the front begins.
  std::string front_labels;
  std::set<std::string> named;
  for (std::size_t k = 0; k < front.size(); ++k)
    if (named.insert(front[k].integrator).second)
      front_labels += fmt::format("  set label {} at {:.9e},{:.9e} left offset 0.6,-0.6 tc rgb '#707070' font ',9' front\n",
                                  quoted(front[k].integrator), front[k].cost, front[k].error);
  const std::string front_line =
      front_index < 0 ? "" : fmt::format("'{}.dat' index {} using 1:2 with lines lw 7 lc rgb '#d9d9d9' title 'Pareto front (all methods)'",
                                         name, front_index);
  const auto out = point_panels(s, panels, name, data, all, front_labels, front_line, [&](const RunRow& r) {
    return r.status == "ok" ? std::pair{cost(r), r.global} : std::pair{0.0, 0.0};
  });
  if (all.empty()) return std::nullopt;
  const std::string axes = "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n  set key outside right top\n" +
                           all.ranges(true, true) +
                           axis_title("x", by_time ? "wall time of the stepping loop, minimum of the repeats (s)" : "force evaluations (count)") +
                           axis_title("y", "global error at t_end (relative, phase space)");
  const std::string what = by_time ? "global error against wall time" : "global error against force evaluations";
  write_plot(dir, name, what + " — " + problem_context(s), axes, out, data.data.str());
  return Plot{name, s.title + ": " + what + ", with the Pareto front"};
}

std::optional<Plot> energy_time_plot(const Study& s, const StudySamples& samples, const fs::path& dir) {
  if (!s.wants("energy") || !(s.plot_dt > 0)) return std::nullopt;
  const auto& at = samples.at(s.plot_dt);
  const std::string name = s.name + "-energy";
  Blocks data;
  Extent all;
  std::vector<PanelText> out;
  for (const auto& panel : panels_of(series_of(s, true))) {
    PanelText p{panel.title, "", {}};
    for (const auto& x : panel.series) {
      const auto it = at.find(x.members.front());
      if (it == at.end()) continue;
      std::string rows;
      int n = 0;
      for (const auto& sample : thin(it->second, 400))
        if (std::abs(sample.energy) > 0 && std::isfinite(sample.energy))  // exactly 0 has no place on a log axis
          rows += num17(sample.t) + ' ' + num17(std::abs(sample.energy)) + '\n', all.add(sample.t, std::abs(sample.energy)), ++n;
      if (n < 2) continue;
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with lines lw 1.5 lc rgb '{}' title {}", name, data.add(x.label(), rows),
                                       colour(x.colour), quoted(x.label())));
    }
    out.push_back(std::move(p));
  }
  if (all.empty()) return std::nullopt;
  const std::string y = s.conservative ? "|relative energy error| |E - E0| / |E0| (dimensionless)"
                                       : "|E - E_ref(t)| / |E0|, against the reference's energy (dimensionless)";
  const std::string axes = "  set logscale y\n  set format y '10^{%L}'\n  set key outside right top\n" + all.ranges(false, true) +
                           axis_title("x", time_axis(s, "time t")) + axis_title("y", y);
  write_plot(dir, name, "energy error against time at dt = " + g(s.plot_dt) + " — " + problem_context(s), axes, out,
             data.data.str());
  return Plot{name, s.title + ": relative energy error against time, dt = " + g(s.plot_dt)};
}

std::optional<Plot> energy_dt_plot(const Study& s, const fs::path& dir) {
  if (!s.wants("energy")) return std::nullopt;
  const std::string name = s.name + "-energy-dt";
  Blocks data;
  Extent all;
  const auto out = point_panels(s, panels_of(series_of(s, true)), name, data, all, "", "", [](const RunRow& r) {
    return r.status == "ok" ? std::pair{r.dt, r.energy_max} : std::pair{0.0, 0.0};
  });
  if (all.empty()) return std::nullopt;
  const std::string axes = "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n  set key outside right top\n" +
                           all.ranges(true, true) + axis_title("x", time_axis(s, "time step dt")) +
                           axis_title("y", std::string("largest |ΔE| / |E0| over the run") +
                                               (s.conservative ? " (dimensionless)" : ", against the reference (dimensionless)"));
  write_plot(dir, name, "largest energy error of each run against dt — " + problem_context(s), axes, out, data.data.str());
  return Plot{name, s.title + ": largest relative energy error of each run against its step size"};
}

std::optional<Plot> energy_long_plot(const Results& res, const Study& s, const fs::path& dir) {
  if (s.energy_long.empty()) return std::nullopt;
  const auto series = energy_long_samples(res, s);
  const std::string name = s.name + "-energy-long";
  Blocks data;
  Extent all;
  std::vector<PanelText> out;
  // Lines merged where the long runs agree too (final relative energy error within 1 %); else one line each.
  std::vector<Series> lines;
  for (const auto& x : work_series_of(s, true)) {  // the adaptive pairs' long runs too (energy_tol), a panel of their own
    auto final_of = [&](const std::string& m) -> double {
      for (const auto& e : s.energy_long)
        if (e.integrator == m) return e.final_rel;
      return NAN;
    };
    bool agree = true;
    for (const auto& m : x.members) agree = agree && std::abs(final_of(m) - final_of(x.members.front())) <= 0.01 * std::abs(final_of(x.members.front()));
    if (agree) {
      lines.push_back(x);
      continue;
    }
    for (const auto& m : x.members) lines.push_back({{m}, x.family, x.order, static_cast<std::size_t>(
                                        std::find(s.integrators.begin(), s.integrators.end(), m) - s.integrators.begin())});
  }
  for (const auto& panel : panels_of(lines)) {
    PanelText p{panel.title, "", {}};
    for (const auto& x : panel.series) {
      const auto it = series.find(x.members.front());
      if (it == series.end()) continue;
      std::string rows;
      int n = 0;
      for (const auto& [t, e] : it->second)
        if (std::abs(e) > 0 && std::isfinite(e) && t > 0) rows += num17(t) + ' ' + num17(std::abs(e)) + '\n', all.add(t, std::abs(e)), ++n;
      if (n < 2) continue;
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with lines lw 1.5 lc rgb '{}' title {}", name, data.add(x.label(), rows),
                                       colour(x.colour), quoted(x.label())));
    }
    if (!p.elements.empty()) out.push_back(std::move(p));  // the pairs' panel only where they had a long run
  }
  if (all.empty()) return std::nullopt;
  // Guides through the middle of the plot: t^1/2 (random walk of round-off) and t^1 (drift), written on the plot.
  const double tm = std::sqrt(all.x_lo * all.x_hi), em = std::sqrt(all.y_lo * all.y_hi);
  std::string labels;
  for (auto& p : out) {
    for (const double slope : {0.5, 1.0})
      p.elements.push_back(fmt::format("{:.9e} * (x / {:.9e})**{} with lines dt 2 lc rgb '#888888' notitle", em, tm, slope));
    p.labels = fmt::format("  set label 't^1/2: random walk' at {:.9e},{:.9e} tc rgb '#555555' font ',9' front\n"
                           "  set label 't^1: drift' at {:.9e},{:.9e} tc rgb '#555555' font ',9' front\n",
                           all.x_hi / 3, em * std::pow(all.x_hi / 3 / tm, 0.5) * 1.6, all.x_hi / 3, em * (all.x_hi / 3 / tm) * 1.6);
  }
  const std::string axes = "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n  set key outside right top\n" +
                           all.ranges(false, true) + "  set logscale x\n  set xrange [" + num17(all.x_lo) + ":" + num17(all.x_hi) + "]\n" +
                           axis_title("x", time_axis(s, "time t")) + axis_title("y", "|relative energy error| (dimensionless)");
  // The fixed-step runs' step, the pairs' tolerance, and how long they ran.
  std::string at;
  for (const auto& e : s.energy_long)
    if (e.tol > 0 ? at.find("tol") == std::string::npos : at.find("dt") == std::string::npos)
      at += (at.empty() ? "" : ", ") + (e.tol > 0 ? "tol = " + g(e.tol) : "dt = " + g(e.dt));
  double span = 0;  // the longest run's (a pair that stopped short ends before energy_t_end)
  for (const auto& e : s.energy_long) span = std::max(span, static_cast<double>(e.steps) * e.dt);
  write_plot(dir, name, "long-run energy error at " + at + " — " + s.problem + ", t_end = " + g(span), axes, out, data.data.str());
  return Plot{name, s.title + ": long-run energy error against time (log-log: flat = bounded, slope 1 = drift)"};
}

std::optional<Plot> adaptive_energy_plot(const Results& res, const Study& s, const fs::path& dir) {
  if (!s.adaptive_samples) return std::nullopt;
  const auto samples = adaptive_samples(res, s);
  const std::string name = s.name + "-adaptive-energy";
  Blocks data;
  Extent all;
  std::vector<PanelText> out;
  // At most 6 tolerances a panel, evenly spread from the loosest to the tightest: more lines than that on one panel
  // cannot be told apart.  The same tolerances, in the same colours, on every panel.
  std::vector<std::size_t> shown;
  const std::size_t n = s.tolerances.size(), most = 6;
  for (std::size_t k = 0; k < std::min(n, most); ++k) shown.push_back(n <= most ? k : (k * (n - 1) + (most - 1) / 2) / (most - 1));
  for (const auto& a : s.adaptive) {
    const auto it = samples.find(a.label);
    if (it == samples.end()) continue;
    PanelText p{a.label, "", {}};
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const auto at = it->second.find(s.tolerances[shown[k]]);
      if (at == it->second.end()) continue;
      std::string rows;
      int count = 0;
      for (const auto& x : at->second)
        if (std::abs(x.energy) > 0 && std::isfinite(x.energy))  // exactly 0 (the start) has no place on a log axis
          rows += num17(x.t) + ' ' + num17(std::abs(x.energy)) + '\n', all.add(x.t, std::abs(x.energy)), ++count;
      if (count < 2) continue;
      const std::string title = "tol " + g(s.tolerances[shown[k]]);
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with lines lw 1.5 lc rgb '{}' title {}", name,
                                       data.add(a.label + " " + title, rows), colour(k), quoted(title)));
    }
    if (!p.elements.empty()) out.push_back(std::move(p));
  }
  if (all.empty()) return std::nullopt;
  const std::string y = s.conservative ? "|relative energy error| |E - E0| / |E0| (dimensionless)"
                                       : "|E - E_ref(t)| / |E0|, against the reference's energy (dimensionless)";
  const std::string axes = "  set logscale y\n  set format y '10^{%L}'\n  set key outside right top\n" + all.ranges(false, true) +
                           axis_title("x", time_axis(s, "time t")) + axis_title("y", y);
  write_plot(dir, name,
             "energy error against time, each adaptive pair at " + (n > most ? fmt::format("{} of its {} tolerances", most, n) : "its tolerances") +
                 " — " + problem_context(s),
             axes, out, data.data.str());
  return Plot{name, s.title + ": each adaptive pair's relative energy error against time, at its tolerances"};
}

std::optional<Plot> trajectory_plot(const Study& s, const StudySamples& samples, const fs::path& dir) {
  const bool distance = s.problem == "earth-moon", orbit = s.problem == "central-force", phase = s.problem == "pendulum";
  if (!(distance || orbit || phase) || !(s.plot_dt > 0)) return std::nullopt;
  const RunRow* best = most_accurate(s);
  if (!best) return std::nullopt;
  const auto& at = samples.at(s.plot_dt);
  const auto& truth_samples = samples.at(best->dt);
  std::vector<Series> shown;
  for (const auto& x : series_of(s, true))
    if (!distance || x.members.front() == "euler" || x.members.front() == "symplectic-euler") shown.push_back(x);  // the seed's figure
  const std::string name = s.name + "-trajectory";
  Blocks data;
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
  const auto truth = truth_samples.find(best->integrator);
  int truth_index = -1;
  if (truth != truth_samples.end()) {
    std::string rows;
    for (const auto& x : thin(truth->second, 1000)) rows += point(x, true);
    truth_index = data.add("most accurate run: " + best->integrator + ", dt = " + g(best->dt), rows);
  }
  std::vector<PanelText> out;
  int drawn = 0;
  for (const auto& panel : panels_of(shown)) {
    PanelText p{panel.title, "", {}};
    if (truth_index >= 0)
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with lines lw 5 lc rgb '#cccccc' title {}", name, truth_index,
                                       quoted("most accurate: " + best->integrator + ", dt = " + g(best->dt))));
    for (const auto& x : panel.series) {
      const auto it = at.find(x.members.front());
      if (it == at.end() || it->second.size() < 2) continue;
      std::string rows;
      for (const auto& sample : thin(it->second, 400)) rows += point(sample, false);
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with lines lw 1.2 lc rgb '{}' title {}", name,
                                       data.add(x.label() + ", dt = " + g(s.plot_dt), rows), colour(x.colour), quoted(x.label())));
      ++drawn;
    }
    out.push_back(std::move(p));
  }
  if (drawn == 0 || truth_index < 0) return std::nullopt;
  std::string axes = "  set key outside right top\n";
  const double pad = (distance ? 0.05 : 0.35) * (hi - lo);
  const std::string length = unit_of(s.length_unit);
  if (distance) {
    axes += axis_title("x", "time (days)") + axis_title("y", "Earth–Moon distance (km)") + "  set yrange [" + num17(lo - pad) + ":" +
            num17(hi + pad) + "]\n";
  } else {
    // Same scale on both axes (an orbit looks like itself), clipped to the true path's extent plus a margin:
    // a run that flies off leaves the frame instead of shrinking everything else.
    axes += "  set size ratio -1\n  set xrange [" + num17(lo - pad) + ":" + num17(hi + pad) + "]\n  set yrange [" + num17(lo - pad) + ":" +
            num17(hi + pad) + "]\n" +
            (orbit ? axis_title("x", "x (" + length + ")") + axis_title("y", "y (" + length + ")")
                   : axis_title("x", "angle q (" + length + ")") +
                         axis_title("y", "angular velocity v (" + length + (s.time_unit.empty() ? " per time unit" : "/" + s.time_unit) + ")"));
  }
  const std::string what = distance ? "Earth–Moon distance over the year" : orbit ? "orbits" : "phase portrait";
  write_plot(dir, name, what + " at dt = " + g(s.plot_dt) + " — " + problem_context(s), axes, out, data.data.str(), 760,
             distance ? 440 : 520);
  return Plot{name, s.title + ": " + what + " at dt = " + g(s.plot_dt)};
}

std::optional<Plot> tolerance_plot(const Study& s, const fs::path& dir) {
  if (s.proportionality.empty()) return std::nullopt;
  const std::string name = s.name + "-tolerance";
  Blocks data;
  Extent all;
  // At most 7 methods a panel (and the guide): more lines than that on one panel cannot be told apart.
  constexpr std::size_t per_panel = 7;
  const std::size_t panels = (s.proportionality.size() + per_panel - 1) / per_panel;
  std::vector<PanelText> out;
  for (std::size_t k = 0; k < s.proportionality.size(); ++k) {
    if (k % per_panel == 0)
      out.push_back({panels > 1 ? fmt::format("adaptive methods {}–{} of {}", k + 1, std::min(k + per_panel, s.proportionality.size()),
                                              s.proportionality.size())
                                : std::string("each adaptive method at every tolerance (eps_abs = eps_rel = tol)"),
                     "", {}});
    PanelText& p = out.back();
    const auto& x = s.proportionality[k];
    std::vector<std::pair<double, double>> points;
    for (const auto& [tol, e, floor] : x.points)
      if (tol > 0 && e > 0 && std::isfinite(e)) points.emplace_back(tol, e), all.add(tol, e);
    if (points.empty()) continue;
    std::sort(points.begin(), points.end());
    // The slope and verdict on the line's label, a FAIL drawn thick, an undetermined one dashed (as the orders' plots).
    std::string slope = "no fit";
    for (const auto& a : s.adaptive)
      if (a.label == x.integrator) slope = fmt::format("expected {:g}", a.expected_slope);
    std::string label = x.integrator + ": " + (x.verdict == "fail" ? "FAIL, " : x.verdict == "undetermined" ? "undetermined, " : "") + slope;
    if (std::isfinite(x.observed))
      label = fmt::format("{}: slope {:.2f}{} ({})", x.integrator, x.observed, x.verdict == "fail" ? " FAIL" : x.verdict == "undetermined" ? "?" : "", slope);
    p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2 with linespoints {} ps 0.6{} title {}", name, data.add(x.integrator, rows_of(points)),
                                     style(s.integrators.size() + k), x.verdict == "fail" ? " lw 3.5" : x.verdict == "undetermined" ? " lw 1.5 dt 3" : " lw 1.5",
                                     quoted(std::as_const(label))));  // not std::quoted's non-const overload
  }
  if (all.empty()) return std::nullopt;
  // The tolerance itself, error = tol: a guide (a pair's global error is not bounded by it).
  for (auto& p : out) p.elements.push_back("x with lines dt 2 lw 1 lc rgb '#909090' title 'error = tol'");
  const std::string axes = "  set logscale xy\n  set format x '10^{%L}'\n  set format y '10^{%L}'\n  set key outside right top\n" +
                           all.ranges(true, true) + axis_title("x", "tolerance tol (absolute and relative)") +
                           axis_title("y", "largest error over the output times (relative, phase space)");
  write_plot(dir, name, "tolerance proportionality — " + problem_context(s), axes, out, data.data.str());
  return Plot{name, s.title + ": error against tolerance, each adaptive method's slope and verdict"};
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
  const std::string axes = "  set yrange [0:" + num17(top) + "]\n  set xrange [-0.7:" + g(static_cast<double>(s.stability.size()) - 0.3) +
                           "]\n  set xtics rotate by -40 noenhanced\n  unset grid\n  set grid ytics\n  set key top left\n" +
                           axis_title("x", "integrator (each on the harmonic oscillator x'' = -omega^2 x)") +
                           axis_title("y", "largest stable omega h (dimensionless)");
  PanelText p{"measured (spectral radius of the step map) and theoretical", "", {}};
  p.elements.push_back("'" + name + ".dat' using 1:3:xtic(2) with impulses lw 10 lc rgb '#1f77b4' title 'measured'");
  p.elements.push_back("'' using 1:4 with points pt 7 ps 1.6 lc rgb '#d62728' title 'theory'");
  if (unbounded) p.elements.push_back("'' using 1:5 with points pt 9 ps 1.8 lc rgb '#d62728' title 'theory: unbounded (A-stable)'");
  write_plot(dir, name, "linear stability: the largest stable omega h of each method — " + s.problem, axes, {p}, data.str(), 960, 520);
  return Plot{name, s.title + ": largest stable ωh, measured against theory"};
}

std::string gnuplot_problem(const Gnuplot& g) {
  const ProcessResult r = run_process({g.program, "--version"}, {}, g.timeout);
  if (r.cancelled) throw study::Interrupted();
  if (r.ok()) return {};
  // Installing is the advice only when there is nothing to run; a gnuplot that hangs or fails needs another.
  const std::string advice = r.not_found ? " (Debian: apt-get install gnuplot-nox)"
                             : r.timed_out ? " (it did not answer --version: raise --gnuplot-timeout, or check the program)"
                                           : "";
  return "cannot run gnuplot ('" + g.program + "': " + r.describe(g.timeout) + ")" + advice;
}

namespace {

std::string temporary(const std::string& name) { return "." + name + ".tmp" + std::to_string(::getpid()); }

/// The last `n` bytes of a file (fewer when it is shorter; "" when it cannot be read).
std::string file_tail(const fs::path& file, std::streamoff n) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return {};
  const auto size = static_cast<std::streamoff>(in.tellg());
  n = std::min(n, size);
  in.seekg(size - n);
  std::string end(static_cast<std::size_t>(n), '\0');
  in.read(end.data(), n);
  return in ? end : std::string();
}

/// Whether an SVG ends with its closing tag (trailing white space aside): gnuplot ignores failed writes.
bool svg_closed(const fs::path& file) {
  std::string end = file_tail(file, 256);
  end.erase(end.find_last_not_of(" \t\r\n") + 1);
  return end.ends_with("</svg>");
}

/// Whether a PNG ends with its IEND chunk (its CRC included).
bool png_closed(const fs::path& file) { return file_tail(file, 8) == std::string("IEND\xae\x42\x60\x82", 8); }

/// The pictures gnuplot wrote under a plot's temporary names, moved into place; "" when all are there and whole.
std::string settle(const fs::path& dir, const std::string& name, bool with_png) {
  const std::string tmp = temporary(name);
  const fs::path svg = dir / (tmp + ".svg"), png = dir / (tmp + ".png");
  std::error_code ec;
  // gnuplot may exit 0 after warnings yet write nothing: the pictures must exist and be non-empty.
  std::string error;
  if (!(fs::file_size(svg, ec) > 0 && !ec && (!with_png || (fs::file_size(png, ec) > 0 && !ec)))) {
    error = "it wrote no picture";
  } else if (!svg_closed(svg)) {
    error = "its SVG is incomplete (no closing </svg>: a full disk or a file-size limit?)";  // gnuplot ignores failed writes
  } else if (with_png && !png_closed(png)) {
    error = "its PNG is incomplete (no IEND chunk: a full disk or a file-size limit?)";
  } else {
    fs::rename(svg, dir / (name + ".svg"), ec);
    if (!ec && with_png) fs::rename(png, dir / (name + ".png"), ec);
    if (ec) error = "cannot move the picture into place: " + ec.message();
  }
  fs::remove(svg, ec);
  fs::remove(png, ec);
  return error;
}

void check_name(const std::string& name) {
  if (const std::string why = study::name_problem(name, study::max_derived_length); !why.empty())
    throw ReportError("plot name '" + name + "' " + why);  // never a path outside plots/
}

}  // namespace

bool draw(const Gnuplot& g, const fs::path& dir, const std::string& name, std::string& error) {
  check_name(name);
  const ProcessResult r =
      run_process({g.program, "-e", "out = '" + temporary(name) + "'; png = " + (g.png ? "1" : "0"), name + ".gp"}, dir, g.timeout);
  if (r.cancelled) throw study::Interrupted();
  if (!r.ok()) {
    error = r.describe(g.timeout);
    std::error_code ec;
    fs::remove(dir / (temporary(name) + ".svg"), ec), fs::remove(dir / (temporary(name) + ".png"), ec);
    return false;
  }
  error = settle(dir, name, g.png);
  return error.empty();
}

std::map<std::string, std::string> draw_all(const Gnuplot& g, const fs::path& dir, const std::vector<std::string>& names,
                                            unsigned jobs) {
  for (const auto& n : names) check_name(n);
  // At most one process a slot of running_groups, so that a second Ctrl-C reaches every one.
  jobs = std::max(1u, std::min<unsigned>({jobs, static_cast<unsigned>(names.size()), static_cast<unsigned>(max_running)}));
  // Batches of about equal size, plots dealt round-robin (a study's plots are of similar size), each one gnuplot
  // process loading the plots' own scripts in turn; its time limit is the per-plot limit times its plots.
  std::vector<std::vector<std::string>> batches(jobs);
  for (std::size_t k = 0; k < names.size(); ++k) batches[k % jobs].push_back(names[k]);
  std::map<std::string, std::string> errors;
  std::mutex m;
  bool stopped = false;  // a batch saw the interruption flag (study/common/interrupt.hpp)
  std::exception_ptr failure;  // anything else a batch throws, handed over after the threads are joined
  auto draw_batch = [&](const std::vector<std::string>& batch) {
    if (batch.empty()) return;
    std::string script = std::string("png = ") + (g.png ? "1" : "0") + "; ";
    for (const auto& n : batch) script += "out = '" + temporary(n) + "'; load '" + n + ".gp'; ";
    const ProcessResult r = run_process({g.program, "-e", script}, dir, g.timeout * static_cast<long>(batch.size()));
    std::vector<std::string> retry;
    for (const auto& n : batch) {
      if (r.cancelled) break;
      if (r.ok()) {
        if (std::string e = settle(dir, n, g.png); !e.empty()) {
          const std::lock_guard<std::mutex> lock(m);
          errors[n] = e;
        }
      } else {
        retry.push_back(n);  // which plot failed, and why, is found by drawing each alone
      }
    }
    if (r.cancelled) {
      const std::lock_guard<std::mutex> lock(m);
      stopped = true;
      return;
    }
    for (const auto& n : retry) {
      std::string e;
      try {
        if (draw(g, dir, n, e)) continue;
      } catch (const study::Interrupted&) {
        const std::lock_guard<std::mutex> lock(m);
        stopped = true;
        return;
      }
      const std::lock_guard<std::mutex> lock(m);
      errors[n] = e;
    }
  };
  auto run_batch = [&](const std::vector<std::string>& batch) {
    try {
      draw_batch(batch);
    } catch (const study::Interrupted&) {
      const std::lock_guard<std::mutex> lock(m);
      stopped = true;
    } catch (...) {
      const std::lock_guard<std::mutex> lock(m);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t k = 1; k < batches.size(); ++k) threads.emplace_back(run_batch, std::cref(batches[k]));
  run_batch(batches[0]);
  for (auto& t : threads) t.join();
  // Pictures of a stopped batch are never left behind under their temporary names.
  for (const auto& n : names) {
    std::error_code ec;
    fs::remove(dir / (temporary(n) + ".svg"), ec), fs::remove(dir / (temporary(n) + ".png"), ec);
  }
  if (stopped) throw study::Interrupted();
  if (failure) std::rethrow_exception(failure);
  return errors;
}

}  // namespace report
