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

namespace report {

/// A results directory that cannot be rendered: names the file and the field.
struct ReportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Rendering was stopped by the cancellation flag (Ctrl-C): nothing was published.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

struct Options {
  std::filesystem::path results;  ///< the directory holding results.json
  std::filesystem::path out;      ///< where REPORT.md and plots/ go (default: results)
  std::filesystem::path shown_results;  ///< how the report names the results folder (default: results)
  bool plots = true;
  std::string gnuplot = "gnuplot";  ///< a program name on PATH or a path (started without a shell)
  std::chrono::milliseconds gnuplot_timeout{std::chrono::seconds(60)};  ///< per plot; then it is stopped
  const std::atomic<bool>* interrupted = nullptr;                       ///< set by a signal handler: stop
};

struct Outcome {
  std::filesystem::path markdown;
  std::vector<std::string> plots;    ///< written (SVG + PNG each)
  std::vector<std::string> missing;  ///< not written, with the reason in `problem`
  std::string problem;               ///< why plots are missing ("" when none are)
};

/// Renders the report.  Throws ReportError for a missing or malformed results file.
Outcome render(const Options& options);

}  // namespace report
