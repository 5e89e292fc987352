#pragma once
/// The renderer: results files in, REPORT.md and gnuplot plots out.  It reads DIR/results.json, the CSV tables
/// beside it and bench.json (when `study bench` wrote one) only: no integrator, problem or Odeint code, so a
/// report can be regenerated anywhere in seconds.  Same results, same bytes.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "study/reader/model.hpp"

namespace report {

struct Options {
  std::filesystem::path results;  ///< the directory holding results.json
  std::filesystem::path out;      ///< where REPORT.md and plots/ go (default: results)
  std::filesystem::path shown_results;  ///< how the report names the results folder (default: results)
  bool plots = true;
  bool png = false;  ///< a PNG beside each SVG
  /// Plots on the page of each study of a scan too (off: a scan's points are drawn on its page, and a scan of
  /// hundreds of points would take minutes of gnuplot and megabytes of pictures).
  bool point_plots = false;
  std::string gnuplot = "gnuplot";  ///< a program name on PATH or a path (started without a shell)
  std::chrono::milliseconds gnuplot_timeout{std::chrono::seconds(60)};  ///< per plot; then it is stopped
  /// Relative global errors to answer "which method reaches it at the least cost" for (empty: each study's decades
  /// from 1e-3 down to the smallest error reached); each in (0, 1).
  std::vector<double> accuracy;
  /// A method to measure every other against (study report --vs): each one's cost over its to each target, a study's
  /// own `vs` (its spec's) when empty.  A label, or an id naming one method of a study (versus_label).
  std::string vs;
  unsigned jobs = 0;  ///< gnuplot processes at once (0: one per core)
  double max_memory = default_max_memory;  ///< of the results read (load)
};

struct Outcome {
  std::filesystem::path markdown;              ///< REPORT.md, the summary
  std::vector<std::filesystem::path> pages;    ///< every other page: STUDY/REPORT.md, CLAIMS.md, BENCH.md
  std::vector<std::string> plots;    ///< written (SVG + PNG each)
  std::vector<std::string> missing;  ///< not written, with the reason in `problem`
  std::string problem;               ///< why plots are missing ("" when none are)
  /// gnuplot ran and a plot failed (an error, a signal such as SIGXFSZ, an incomplete picture): the output is
  /// incomplete, and the command fails (without gnuplot, or with --no-plots, the pages say which plots are missing).
  bool failed = false;
};

/// Renders the report: REPORT.md (a one-screen summary), STUDY/REPORT.md for each study, CLAIMS.md, BENCH.md (when
/// bench.json is there) and plots/.  Throws ReportError for a missing or malformed results file or a bad option.
Outcome render(const Options& options);

/// What render() writes into its output folder for these studies, as StagedFolder::carry_forward names them (paths
/// relative to the folder): a regenerated report replaces these whole, and carries everything else.
std::vector<std::string> generated_entries(const std::vector<std::string>& studies, const std::vector<std::string>& scans = {});

}  // namespace report
