#pragma once
/// `study report`'s options and rendering, which `study run` and `study bench` render with too (report.cpp).

#include <filesystem>
#include <string>
#include <vector>

#include "reports/render.hpp"
#include "study/cli/options.hpp"

namespace study::cli {

struct ReportArgs {
  std::string results = "results";
  std::string out;
  PlotArgs plots;
  bool png = false;
  bool point_plots = false;  ///< --point-plots
  std::vector<double> accuracy;
  std::string vs;  ///< --vs: the method every other is measured against ("": each study's own `vs`)
  bool out_given = false;
  double max_memory = report::default_max_memory;  ///< --max-memory: of the results read
};

/// Renders the report of the results in `results` into `staged` (a staging folder, published by the caller);
/// `shown` is how messages and the report name the results folder.
report::Outcome render_report(const ReportArgs& a, const std::filesystem::path& results, const std::filesystem::path& staged,
                              const std::string& shown);
/// Says what was written, and which plots are missing and why.
void print_report(const report::Outcome& r, const std::filesystem::path& out, bool quiet);
/// `study report`: REPORT.md and plots/ rendered into a staging folder and published whole with the folder's
/// other files (results, bench.json, the user's own) carried over: the folder is old or new, never half of each.
int run_report(const ReportArgs& a, bool quiet = false);

}  // namespace study::cli
