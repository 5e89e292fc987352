#pragma once
/// The report's Markdown pages (internal to reports/): REPORT.md, a one-screen summary, and one page per study,
/// STUDY/REPORT.md, opening with its verdicts.  Both read the loaded results only.

#include <set>
#include <string>
#include <vector>

#include "study/reader/accuracy.hpp"
#include "study/reader/model.hpp"
#include "reports/plots.hpp"

namespace report {

/// What the pages need besides the results: the accuracy targets, the plots drawn, and how to name the results.
struct PageContext {
  std::vector<double> targets;          ///< the user's (--accuracy), or empty: each study's decades
  std::string vs;                       ///< the user's --vs, or empty: each study's own (its spec's `vs`)
  std::set<std::string> drawn;          ///< plots whose pictures exist
  std::map<std::string, std::vector<Plot>> plots;  ///< by study
  std::map<std::string, std::vector<Plot>> scan_plots;  ///< by scan
  std::string shown_results;            ///< how the report names the results folder
  std::string missing;                  ///< why plots are missing ("" when none are)
  std::size_t missing_count = 0;
  bool bench = false;                   ///< BENCH.md was written
  bool claims = false;                  ///< CLAIMS.md was written
  bool point_plots = false;             ///< a scan's points have plots on their pages (study report --point-plots)
  /// The plot `suffix` of study s, when drawn.
  const Plot* plot(const Study& s, const std::string& suffix) const;
};

/// Text for a Markdown table cell: a '|' would end the cell, a '<' start a tag.
std::string cell(const std::string& text);
/// A head-to-head as a Markdown table cell: versus_cell, in bold where it decides (cheaper or dearer).
std::string versus_markdown(const HeadToHead& h);
/// "4.01 (4) pass", "1.00 (2) **FAIL**", "5.18 (4) undetermined".
std::string order_cell(const OrderRow* o);
/// The targets a study's page uses: the user's, else its decades.
std::vector<double> study_targets(const PageContext& c, const Study& s);
/// The summary's targets: the user's, else every third decade of the results' (1e-3, 1e-6, ...).
std::vector<double> summary_targets(const std::vector<double>& user, const Results& r);
/// "rk4 5.31e+03 (+35 % over yoshida4)" / "rk4 ≈2.1e+03 (tie with ...)" / "none reached it": one cell of the answer.
std::string winner_cell(const Study& s, double target, bool by_time);

/// What the gate says of a study: its checks passed, failed and undetermined (`study check`'s own rules; results
/// before the gate: the orders' verdicts), and its diverged runs.
struct VerdictCounts {
  std::size_t pass = 0, fail = 0, undetermined = 0, diverged = 0;
};
VerdictCounts verdict_counts(const Results& r, const Study& s);

std::string summary_page(const Results& r, const PageContext& c);
std::string study_page(const Results& r, const Study& s, const PageContext& c);
/// The seeds' claims in full (experiment, evidence, criterion, verdict); "" when no study tests one.
std::string claims_page(const Results& r, const PageContext& c);

/// Which method for which accuracy, as terminal lines (study run prints them): per study, the cheapest method to
/// each target by force evaluations, with its margin.
std::string accuracy_lines(const Results& r, const std::vector<double>& targets);
/// The head-to-head as terminal lines (study run and study report print them): per study with a method to measure
/// against (`vs`, else the study's own), a line per target, each other method's cost over its by force evaluations,
/// with the ratio's interval and verdict.  "" when no study has one.
std::string versus_lines(const Results& r, const std::vector<double>& targets, const std::string& vs);

}  // namespace report
