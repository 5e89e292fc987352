// `study report [RESULTS]`: REPORT.md and the plots from a results folder, without recomputing anything.
#include "study/cli/report.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "reports/markdown.hpp"
#include "study/reader/accuracy.hpp"
#include "study/reader/model.hpp"
#include "study/cli/options.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/printable.hpp"
#include "study/common/publish.hpp"
#include "study/common/results_folder.hpp"
#include "study/common/suggest.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {

report::Outcome render_report(const ReportArgs& a, const std::filesystem::path& results, const std::filesystem::path& staged,
                              const std::string& shown) {
  report::Options o;
  o.results = results;
  o.out = staged;
  o.shown_results = shown;
  o.plots = !a.plots.no_plots;
  o.png = a.png;
  o.point_plots = a.point_plots;
  o.accuracy = a.accuracy;
  o.vs = a.vs;
  o.max_memory = a.max_memory;
  o.gnuplot = a.plots.gnuplot;
  o.gnuplot_timeout = a.plots.timeout();
  return report::render(o);
}

void print_report(const report::Outcome& r, const std::filesystem::path& out, bool quiet) {
  if (!quiet) {
    std::cout << "wrote " << (out / "REPORT.md").string() << " with " << r.plots.size() << " plot(s)";
    std::vector<std::string> scans;  // a scan's page: where its family is drawn
    for (const auto& p : r.pages)
      if (p.filename().string().rfind("SCAN-", 0) == 0) scans.push_back((out / p.filename()).string());  // not the staging folder's
    if (!scans.empty()) std::cout << "; the scan" << (scans.size() == 1 ? "" : "s") << " on " << study::join(scans);
    std::cout << "\n";
  }
  if (!r.missing.empty())
    std::cerr << "study report: " << r.missing.size() << " plot(s) missing: " << study::printable_message(r.problem) << "\n";
}

int run_report(const ReportArgs& a, bool quiet) {
  namespace fs = std::filesystem;
  if (a.out_given) {
    check_output_dir(a.out, "--out");
    // Elsewhere than the results: a new or empty folder, or an earlier report (it is replaced whole), never a folder
    // inside the results (a study's folder would get a summary page) or one holding other results.
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(a.out, ec), source = fs::weakly_canonical(a.results, ec);
    if (target != source) {
      if (within(target, source))
        throw study::SpecError("--out " + a.out + ": lies in the results folder " + a.results + "; give a folder elsewhere (or leave --out "
                               "out to render into " + a.results + " itself)");
      if (fs::exists(fs::path(a.out) / "results.json", ec) || fs::exists(fs::path(a.out) / study::results_marker, ec))
        throw study::SpecError("--out " + a.out + ": holds results of its own (results.json); to render those: study report " + a.out);
      if (const fs::path up = study::results_folder_above(a.out); !up.empty())
        throw study::SpecError("--out " + a.out + ": lies in the results folder " + up.string() + ", whose studies' folders "
                               "are its own; give a folder outside it");
      if (fs::is_directory(a.out, ec) && !fs::is_empty(a.out, ec) && !study::is_report_folder(a.out))
        throw study::SpecError("--out " + a.out + ": a folder of other files (not an earlier report: no REPORT.md and plots/), and "
                               "a report's pages replace theirs; give an empty or new folder");
    }
  }
  const fs::path out = a.out.empty() ? a.results : a.out;
  check_output_dir(out.string(), a.out.empty() ? "results folder" : "--out", true);
  // A run or another report writing the results (or the output): wait for it, then read what it wrote.  Results
  // before output, always in that order (an output folder never holds results, so no two processes wait on each other).
  const study::FolderLock lock(a.results, true);
  std::optional<study::FolderLock> out_lock;
  if (fs::weakly_canonical(out) != fs::weakly_canonical(a.results)) out_lock.emplace(out, true);
  const report::Results loaded = report::load(a.results, a.max_memory);  // a missing or malformed results file: an error before anything is staged
  if (!a.vs.empty() && std::none_of(loaded.studies.begin(), loaded.studies.end(),
                                    [&](const report::Study& s) { return !report::versus_label(s, a.vs).empty(); })) {
    std::string methods;
    for (const auto& s : loaded.studies) methods += (methods.empty() ? "" : "; ") + s.name + ": " + report::join_names(s.work_methods());
    throw study::SpecError("--vs " + study::printable(a.vs) + ": names no method of these results (by label, or an id of exactly one "
                           "method of a study); their methods: " + methods);
  }
  (void)report::load_bench(a.results);
  std::vector<std::string> studies, scans;
  for (const auto& s : loaded.studies) {
    studies.push_back(s.name);
    if (!s.scan.name.empty() && std::find(scans.begin(), scans.end(), s.scan.name) == scans.end()) scans.push_back(s.scan.name);
  }
  const auto generated = report::generated_entries(studies, scans);
  // A study's folder that is a link would take its page out of the output: refused before any work, as a usage error.
  for (const auto& entry : generated) {
    std::error_code ec;
    const fs::path first = *fs::path(entry).begin();
    if (first != fs::path(entry) && fs::is_symlink(fs::symlink_status(out / first, ec)))
      throw study::SpecError((out / first).string() + ": is a symbolic link, and " + entry + " is written there: the folders of an "
                             "output are its own, never links (the write would leave " + out.string() + "); put the folder itself in "
                             "its place");
  }
  study::StagedFolder staged(out);
  staged.carry_forward({generated.begin(), generated.end()}, stop_if_interrupted);
  // Read from the results folder itself, also when it is the output: messages name the user's files, not copies.
  const report::Outcome r = render_report(a, a.results, staged.path(), a.results);
  if (r.failed)  // an incomplete report is not published: the old one stays
    throw study::WriteError("the report was not published (" + out.string() + " is unchanged): " + std::to_string(r.missing.size()) +
                            " plot(s) failed: " + r.problem);
  staged.publish();
  print_report(r, out, quiet);
  if (!quiet)
    std::cout << report::versus_lines(loaded, report::summary_targets(report::sorted_targets(a.accuracy), loaded), a.vs);
  return EXIT_SUCCESS;
}

Command add_report(CLI::App& app) {
  auto a = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "render REPORT.md and the plots (gnuplot: SVG, PNG, with their .gp scripts "
                                           "and data) from a results directory, without recomputing anything");
  cmd->add_option("results", a->results, "results directory holding results.json (default: results)");
  cmd->add_option("--out,-o", a->out, "where REPORT.md and plots/ go (default: the results directory)");
  add_plot_options(cmd, a->plots);
  cmd->add_option("--accuracy", a->accuracy, "a relative global error to say which method reaches at the least cost, "
                                             "interpolated on each method's own runs (repeatable, e.g. --accuracy 1e-8; "
                                             "default: the decades from 1e-3 down to the smallest error reached)")
      ->check(accuracy_target());
  cmd->add_option("--vs", a->vs, "a method to measure every other against: each one's cost to each accuracy over its, with "
                                 "the ratio's interval and a verdict (cheaper, dearer, a tie), on each study's page and on the "
                                 "terminal; a label (\"dopri5 (adaptive)\") or an id naming one method of a study (default: "
                                 "each study's own, its spec's vs key)")
      ->check(method_name());
  cmd->add_flag("--png", a->png, "draw a PNG beside each SVG plot (three times gnuplot's work)");
  cmd->add_flag("--point-plots", a->point_plots, "draw the plots of every study of a scan on its own page too (by default a "
                                                 "scan's studies are drawn on its page only)");
  add_memory_option(cmd, a->max_memory, results_memory_help());
  return {cmd, [a, cmd] {
            a->out_given = cmd->count("--out") > 0;
            return run_report(*a);
          },
          "the report was not written"};
}

}  // namespace study::cli
