// `study history DIR...`: results folders in order, each method's numbers across them as tables and plots.
#include <cstdlib>
#include <iostream>

#include "reports/compare_page.hpp"
#include "study/reader/accuracy.hpp"
#include "study/reader/model.hpp"
#include "study/cli/options.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/printable.hpp"
#include "study/common/publish.hpp"
#include "study/common/results_folder.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {
namespace {

struct HistoryArgs {
  std::vector<std::string> dirs;
  std::string out = "history";
  std::vector<double> accuracy;
  bool quiet = false;
  PlotArgs plots;
  double max_memory = report::default_max_memory;  ///< of each folder read
};

/// `study history DIR...`: exit 0, or 2 when a folder cannot be read.
int run_history(const HistoryArgs& a) {
  namespace fs = std::filesystem;
  if (a.dirs.size() < 2) throw study::SpecError("history needs at least two results folders, in order (oldest first)");
  check_pages_folder(a.out, a.dirs, "HISTORY.md", "COMPARE.md");
  report::History h;
  h.names = a.dirs, h.targets = report::sorted_targets(a.accuracy);
  report::check_memory_together({a.dirs.begin(), a.dirs.end()}, a.max_memory);  // every folder held at once
  for (const auto& d : a.dirs) {
    stop_if_interrupted();
    h.results.push_back(report::load(d, a.max_memory));
  }
  if (!a.quiet) std::cout << report::history_text(h);
  const study::FolderLock lock(a.out, true);
  study::StagedFolder staged(a.out);
  staged.carry_forward({"HISTORY.md", "plots"}, stop_if_interrupted);
  const auto gnuplot = a.plots.make();
  const report::PagesOutcome pages =
      report::render_history(h, staged.path(), gnuplot ? &*gnuplot : nullptr, cores());
  stop_if_interrupted();
  if (pages.failed)  // an incomplete page is not published: the old one stays
    throw study::WriteError("HISTORY.md was not published (" + a.out + " is unchanged): " + std::to_string(pages.missing.size()) +
                            " plot(s) failed: " + pages.problem);
  staged.publish();
  std::cout << "wrote " << (fs::path(a.out) / "HISTORY.md").string() << " with " << pages.plots.size() << " plot(s)\n";
  if (!pages.missing.empty())
    std::cerr << "study history: " << pages.missing.size() << " plot(s) missing: " << study::printable_message(pages.problem) << "\n";
  return EXIT_SUCCESS;
}

}  // namespace

Command add_history(CLI::App& app) {
  auto a = std::make_shared<HistoryArgs>();
  auto* cmd = app.add_subcommand("history", "track results folders in order (one per commit, as CI keeps artefacts): each "
                                            "method's error constant, observed order, cost to accuracy targets and time per "
                                            "step across them, as tables and plots");
  cmd->add_option("folders", a->dirs, "results folders, oldest first (at least two)")->required();
  cmd->add_option("--out,-o", a->out, "where HISTORY.md and its plots go (default: history); replaced whole");
  cmd->add_option("--accuracy", a->accuracy, "an accuracy target to track the cost to (repeatable; default: 1e-3, 1e-6, ...)")
      ->check(accuracy_target());
  cmd->add_flag("--quiet,-q", a->quiet, "no table on the terminal");
  add_plot_options(cmd, a->plots);
  add_memory_option(cmd, a->max_memory, results_memory_help() + "; each folder by itself (all are held at once)");
  return {cmd, [a] { return run_history(*a); }, "the report was not written"};
}

}  // namespace study::cli
