#include "reports/render.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "study/reader/accuracy.hpp"
#include "reports/markdown.hpp"
#include "study/reader/model.hpp"
#include "reports/plots.hpp"
#include "reports/scan.hpp"
#include "study/common/atomic_file.hpp"
#include "study/common/interrupt.hpp"

namespace report {

namespace fs = std::filesystem;

std::vector<std::string> generated_entries(const std::vector<std::string>& studies, const std::vector<std::string>& scans) {
  std::vector<std::string> out{"REPORT.md", "CLAIMS.md", "BENCH.md", "plots"};
  for (const auto& s : studies) out.push_back(s + "/REPORT.md");
  for (const auto& s : scans) out.push_back(scan_page_file(s));
  return out;
}

Outcome render(const Options& options) {
  for (double t : options.accuracy)
    if (!(t >= 1e-300 && t < 1)) throw ReportError(fmt::format("--accuracy {:g}: a relative error from 1e-300 to below 1, e.g. 1e-8", t));
  const Results results = load(options.results, options.max_memory);
  const fs::path out = options.out.empty() ? options.results : options.out;
  const fs::path plots_dir = out / "plots";
  fs::create_directories(plots_dir);
  Outcome outcome;
  auto stop = study::stop_if_interrupted;

  // Plots first (data and scripts always; pictures when gnuplot is there).
  PageContext c;
  c.targets = sorted_targets(options.accuracy);
  c.vs = options.vs;
  c.shown_results = (options.shown_results.empty() ? options.results : options.shown_results).string();
  std::vector<std::string> names;
  c.point_plots = options.point_plots;
  for (const auto& s : results.studies) {
    stop();
    auto& list = c.plots[s.name];
    if (!s.scan.name.empty() && !options.point_plots) continue;  // drawn on the scan's page
    for (const std::string metric : {"global", "max", "local"})
      if (std::any_of(s.orders.begin(), s.orders.end(), [&](const OrderRow& o) { return o.metric == metric; }))
        list.push_back(convergence_plot(s, metric, plots_dir));
    if (std::any_of(s.runs.begin(), s.runs.end(), [](const RunRow& r) { return std::isfinite(r.reversal); }))
      list.push_back(convergence_plot(s, "reversal", plots_dir));
    const StudySamples samples = s.wants("energy") || s.plot_dt > 0 ? read_samples(results, s) : StudySamples{};
    for (auto p : {work_precision_plot(s, false, plots_dir), work_precision_plot(s, true, plots_dir), energy_dt_plot(s, plots_dir),
                   energy_time_plot(s, samples, plots_dir), energy_long_plot(results, s, plots_dir), trajectory_plot(s, samples, plots_dir),
                   stability_plot(s, plots_dir), tolerance_plot(s, plots_dir), adaptive_energy_plot(results, s, plots_dir)})
      if (p) list.push_back(*p);
    for (const auto& p : list) names.push_back(p.name);
  }
  const std::vector<ScanGroup> scans = scans_of(results);
  for (const auto& sg : scans) {
    stop();
    auto& list = c.scan_plots[sg.name];
    list = scan_plots(sg, scan_target(c), plots_dir);
    for (const auto& p : list) names.push_back(p.name);
  }
  const Gnuplot gnuplot{options.gnuplot, options.png, options.gnuplot_timeout};
  const std::string gnuplot_missing = options.plots ? gnuplot_problem(gnuplot) : std::string();
  const bool can_draw = options.plots && gnuplot_missing.empty();
  if (options.plots && !can_draw) outcome.problem = gnuplot_missing;
  else if (!options.plots) outcome.problem = "plots were not drawn (--no-plots)";
  std::map<std::string, std::string> failed;
  if (can_draw) {
    stop();
    const unsigned jobs = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
    failed = draw_all(gnuplot, plots_dir, names, jobs);
  }
  for (const auto& n : names) {
    if (can_draw && !failed.count(n)) {
      outcome.plots.push_back(n);
      continue;
    }
    outcome.missing.push_back(n);
    if (can_draw && outcome.problem.empty()) outcome.problem = "gnuplot failed on " + n + ".gp: " + failed[n];
  }
  outcome.failed = can_draw && !failed.empty();
  c.drawn = std::set<std::string>(outcome.plots.begin(), outcome.plots.end());
  c.missing = outcome.problem, c.missing_count = outcome.missing.size();

  // The pages: a summary, one per study, the claims and the benchmark.
  stop();
  if (const std::optional<Bench> bench = load_bench(options.results)) {
    c.bench = true;
    study::write_atomic(out / "BENCH.md", "# Time per step against Boost.Odeint\n\n[← summary](REPORT.md)\n\n" + bench_markdown(*bench));
    outcome.pages.push_back(out / "BENCH.md");
  }
  if (const std::string claims = claims_page(results, c); !claims.empty()) {
    study::write_atomic(out / "CLAIMS.md", claims);
    outcome.pages.push_back(out / "CLAIMS.md");
  }
  for (const auto& s : results.studies) {
    stop();
    fs::create_directories(out / s.name);
    study::write_atomic(out / s.name / "REPORT.md", study_page(results, s, c));
    outcome.pages.push_back(out / s.name / "REPORT.md");
  }
  for (const auto& sg : scans) {
    stop();
    study::write_atomic(out / scan_page_file(sg.name), scan_page(results, sg, c));
    outcome.pages.push_back(out / scan_page_file(sg.name));
  }
  outcome.markdown = out / "REPORT.md";
  study::write_atomic(outcome.markdown, summary_page(results, c));
  return outcome;
}

}  // namespace report
