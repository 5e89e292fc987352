#pragma once
/// What `study compare` and `study history` show: a terminal table and a Markdown page with plots, from loaded
/// results only.

#include <filesystem>
#include <string>
#include <vector>

#include "study/reader/model.hpp"
#include "reports/plots.hpp"
#include "study/check/compare.hpp"

namespace report {

/// Pages and pictures written into an output folder.
struct PagesOutcome {
  std::filesystem::path markdown;
  std::vector<std::string> plots, missing;
  std::string problem;  ///< why plots are missing
  bool failed = false;  ///< gnuplot ran and a plot failed: the output is incomplete (report::Outcome::failed)
};

/// The comparison as a terminal table: one line per method (orders, error ratio, cost to the first target, time ratio
/// with its noise, energy, divergence), the worse ones flagged, then what was added and removed.
std::string compare_text(const check::Comparison& c, const check::CompareOptions& o);
/// COMPARE.md and plots/compare-STUDY.svg (the ratios per method) in `out`.  `old_name`, `new_name`: how the two
/// folders are named on the page.
PagesOutcome render_compare(const Results& old, const Results& now, const std::string& old_name, const std::string& new_name,
                            const check::Comparison& c, const check::CompareOptions& o, const std::filesystem::path& out,
                            const Gnuplot* gnuplot, unsigned jobs);

/// Results folders in order (one per commit of the user's code): per study and method, the error constant, the
/// observed global order, the cost to the targets and the time per step across them.
struct History {
  std::vector<std::string> names;  ///< the folders as given
  std::vector<Results> results;
  std::vector<double> targets;     ///< the accuracy targets (empty: 1e-3, 1e-6, 1e-9, 1e-12 where reached)
};
std::string history_text(const History& h);
/// HISTORY.md and plots/history-STUDY-{constant,order,cost,time}.svg in `out`.
PagesOutcome render_history(const History& h, const std::filesystem::path& out, const Gnuplot* gnuplot, unsigned jobs);

}  // namespace report
