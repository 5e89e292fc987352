#pragma once
/// The report's plots: each writes NAME.dat (the data, sampled) and NAME.gp (a gnuplot script that draws
/// NAME.svg and NAME.png), so that a user can restyle any plot by editing its script (internal to reports/).
/// Every plot is a set of panels of at most 8 legend entries (reports/series.hpp), with the same axes in every
/// panel, a title that says what is plotted for which problem and parameters, and units on its axes.  The SVG
/// uses three font sizes a reader (and tests/reports) can tell apart: the title 13, axis labels 11, the rest 10.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "study/reader/model.hpp"

namespace report {

struct Plot {
  std::string name, title;
};

/// samples.csv of a study, read once: the samples of every run, by step size and integrator.
struct StudySamples {
  std::vector<std::pair<double, std::map<std::string, std::vector<Sample>>>> by_dt;
  /// The samples of every integrator at step dt (empty when none).
  const std::map<std::string, std::vector<Sample>>& at(double dt) const;
};
StudySamples read_samples(const Results& res, const Study& s);

/// Error of `metric` (global, max, local, or reversal) against dt, log-log; each method's fitted order drawn over
/// its window and written beside it; failed and undetermined fits marked in the legend and by the line.
Plot convergence_plot(const Study& s, const std::string& metric, const std::filesystem::path& dir);
/// Global error against force evaluations (or the stepping loop's wall time), with the study's Pareto front.
std::optional<Plot> work_precision_plot(const Study& s, bool by_time, const std::filesystem::path& dir);
/// |relative energy error| against time at the study's plot_dt (log y): against E0, or on a dissipative problem
/// against the reference's energy at the same time.
std::optional<Plot> energy_time_plot(const Study& s, const StudySamples& samples, const std::filesystem::path& dir);
/// The largest |relative energy error| of each run against its dt, log-log: every step size.
std::optional<Plot> energy_dt_plot(const Study& s, const std::filesystem::path& dir);
/// |relative energy error| of the long run against time, log-log: bounded (slope 0), random walk (1/2), drift (1).
std::optional<Plot> energy_long_plot(const Results& res, const Study& s, const std::filesystem::path& dir);
/// Trajectories at plot_dt: Earth-Moon distance (earth-moon), orbits (central-force), phase portrait (pendulum).
std::optional<Plot> trajectory_plot(const Study& s, const StudySamples& samples, const std::filesystem::path& dir);
/// Measured largest stable omega h against the theoretical value.
std::optional<Plot> stability_plot(const Study& s, const std::filesystem::path& dir);
/// Each adaptive pair's |relative energy error| against time at (up to 6 of) its tolerances, a panel a pair
/// (adaptive_samples.csv).
std::optional<Plot> adaptive_energy_plot(const Results& res, const Study& s, const std::filesystem::path& dir);
/// Each adaptive method's largest error against the tolerance, its slope and verdict on its label.
std::optional<Plot> tolerance_plot(const Study& s, const std::filesystem::path& dir);

std::string script_text(const std::string& x);

/// The extent of the data drawn, for axes shared by every panel.
struct Extent {
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  void add(double x, double y) { x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y); }
  bool empty() const { return !(x_hi >= x_lo); }
  /// gnuplot ranges: log axes padded by factors, linear ones by a fraction of the span.
  std::string ranges(bool log_x, bool log_y, double pad_y = 10) const {
    if (empty()) return "";
    auto range = [](double lo, double hi, bool log, double pad) {
      if (log) {
        // A log axis labelled '10^{%L}' is read at its powers of ten: gnuplot labels only those, so a range holding
        // fewer than two has one label or none.  Out to the whole decades around it.
        double a = lo / pad, b = hi * pad;
        if (std::floor(std::log10(b)) - std::ceil(std::log10(a)) < 1) {
          a = std::pow(10.0, std::floor(std::log10(a))), b = std::pow(10.0, std::ceil(std::log10(b)));
          if (!(b > a)) b = 10 * a;
        }
        return "[" + num17(a) + ":" + num17(b) + "]";
      }
      const double d = hi > lo ? 0.05 * (hi - lo) : std::max(1e-300, std::abs(hi) * 0.05 + 1e-300);
      return "[" + num17(lo - d) + ":" + num17(hi + d) + "]";
    };
    return "  set xrange " + range(x_lo, x_hi, log_x, 1.5) + "\n  set yrange " + range(y_lo, y_hi, log_y, pad_y) + "\n";
  }
};

/// Data blocks: each `add` starts a new index of NAME.dat.
struct Blocks {
  std::ostringstream data;
  int index = 0;
  int add(const std::string& comment, const std::string& rows) {
    data << "# " << script_text(comment) << '\n' << rows << "\n\n";
    return index++;
  }
};

/// One panel of a plot: its title, the gnuplot commands that set its labels, and its plot elements (each "DATA using
/// ... title ...", joined into one plot command).
struct PanelText {
  std::string title, labels;
  std::vector<std::string> elements;
};
/// Writes NAME.dat and NAME.gp: the panels (at most two a row) under `title`, each with the settings `axes` (scales,
/// ranges, labels, key), drawn as SVG (and PNG when the script is given png = 1).
void write_plot(const std::filesystem::path& dir, const std::string& name, const std::string& title, const std::string& axes,
                const std::vector<PanelText>& panels, const std::string& data, int panel_width = 760, int panel_height = 420);
/// Text from a results file made safe for a gnuplot script: no line break, quote or backquote (reports/plots.cpp).
std::string script_text(const std::string& x);
/// The same, single-quoted for gnuplot.
std::string quoted(const std::string& x);
/// "  set xlabel '...' font ',11' noenhanced\n": an axis label at the size tests/reports/test_svg.cpp reads.
std::string axis_title(const std::string& axis, const std::string& text);
/// The colour and point style of the i-th method (16 colours, 6 shapes).
std::string colour(std::size_t i);
std::string style(std::size_t i);

/// "kepler (e = 0.6), t_end = 20": the problem, its parameters and span, for titles.
std::string problem_context(const Study& s);
/// "time step dt (days)", "time t (dimensionless)": an axis of times in the problem's unit.
std::string time_axis(const Study& s, const std::string& what);

/// How gnuplot is run: the program (a name on PATH or a path; no shell) and a time limit per plot (a signal stops
/// it: study/common/interrupt.hpp).
struct Gnuplot {
  std::string program = "gnuplot";
  bool png = false;  ///< a PNG beside each SVG (three times gnuplot's work)
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
};

/// Why gnuplot cannot be run ("" when `gnuplot --version` works).
std::string gnuplot_problem(const Gnuplot& g);
/// Runs a plot's script in `dir`; moves its SVG (and PNG) into place on success, else sets `error` (gnuplot's
/// exit status and last line of standard error, or its time-out).  Throws Interrupted when cancelled.
bool draw(const Gnuplot& g, const std::filesystem::path& dir, const std::string& name, std::string& error);
/// Draws every plot of `names`, several in one gnuplot process and `jobs` processes at once (gnuplot's start-up is
/// most of a small plot's time); a batch that fails is drawn again one plot at a time, so that each failure names
/// its plot.  Returns the error of each plot not drawn (by name).  Throws Interrupted when cancelled.
std::map<std::string, std::string> draw_all(const Gnuplot& g, const std::filesystem::path& dir, const std::vector<std::string>& names,
                                            unsigned jobs);

}  // namespace report
