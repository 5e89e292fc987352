#pragma once
/// A scan's page (internal to reports/): the family of studies one spec's `scan` made, drawn against the scanned
/// parameters -- per method, the observed global order, the global error at the plot step, the cost to the accuracy
/// asked for, the long run's energy growth exponent and the stability limit -- and which method is cheapest where
/// (a table; for two axes a map).  Reads the loaded results only.

#include <filesystem>
#include <string>
#include <vector>

#include "reports/markdown.hpp"
#include "reports/plots.hpp"
#include "study/reader/model.hpp"

namespace report {

/// The studies of one scan, in grid order (index).
struct ScanGroup {
  std::string name, title, problem;
  std::vector<std::string> axes;
  std::size_t count = 0;             ///< the grid's size as written (a points missing from the results show as gaps)
  std::vector<const Study*> points;  ///< by index
  /// The values of axis k over the points present, in grid order, each once.
  std::vector<double> values(std::size_t k) const;
};

/// Every scan of the results, in the order of their first study.
std::vector<ScanGroup> scans_of(const Results& r);

/// A point's values: "e = 0.3, t_end = 20".
std::string point_text(const ScanInfo& p);

/// The page's file: "SCAN-<name>.md".
std::string scan_page_file(const std::string& scan);

/// The accuracy a scan page answers for: the tightest --accuracy asked for, else 1e-6.
double scan_target(const PageContext& c);

/// The scan's plots, written into dir (data and scripts): for each axis and quantity measured, one line per method
/// against the axis (the other axes at up to 4 of their values, a plot each), and for two axes a map of the
/// cheapest method.
std::vector<Plot> scan_plots(const ScanGroup& g, double target, const std::filesystem::path& dir);

std::string scan_page(const Results& r, const ScanGroup& g, const PageContext& c);

}  // namespace report
