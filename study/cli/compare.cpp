// `study compare OLD NEW`: two results folders run for run and fit for fit; exit 1 when something got worse.
#include <cmath>
#include <cstdlib>
#include <iostream>

#include <fmt/core.h>

#include "reports/compare_page.hpp"
#include "study/reader/accuracy.hpp"
#include "study/reader/model.hpp"
#include "study/check/compare.hpp"
#include "study/cli/options.hpp"
#include "study/common/atomic_file.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/printable.hpp"
#include "study/common/publish.hpp"
#include "study/common/results_folder.hpp"

namespace study::cli {
namespace {

struct CompareArgs {
  std::string old_dir, new_dir, out = "compare", junit;
  std::vector<double> accuracy;
  double error_tolerance = 0.01, order_tolerance = check::Options{}.order_tolerance, time_tolerance = NAN, cost_tolerance = NAN;
  bool quiet = false, verbose = false;
  PlotArgs plots;
  double max_memory = report::default_max_memory;  ///< of each folder read
};

/// `study compare OLD NEW`: exit 0 nothing worse, 1 something worse (or nothing could be compared), 2 unreadable input.
int run_compare(const CompareArgs& a) {
  namespace fs = std::filesystem;
  if (!a.junit.empty()) {  // not over what it reads, nor into its own pages folder, which publishing replaces whole
    check_junit_file(a.junit, {(fs::path(a.old_dir) / "results.json").string(), (fs::path(a.new_dir) / "results.json").string()});
    std::error_code ec;
    if (within(fs::weakly_canonical(fs::absolute(a.junit), ec), fs::weakly_canonical(fs::absolute(a.out), ec)))
      throw study::SpecError("--junit " + a.junit + ": lies in the output folder " + a.out +
                             ", which is replaced whole when the pages are published; write it elsewhere");
  }
  check_pages_folder(a.out, {a.old_dir, a.new_dir}, "COMPARE.md", "HISTORY.md");
  report::check_memory_together({a.old_dir, a.new_dir}, a.max_memory);  // both held at once
  const report::Results old = report::load(a.old_dir, a.max_memory), now = report::load(a.new_dir, a.max_memory);
  check::CompareOptions o;
  o.error_tolerance = a.error_tolerance, o.order_tolerance = a.order_tolerance, o.time_tolerance = a.time_tolerance;
  o.cost_tolerance = a.cost_tolerance;
  o.targets = report::sorted_targets(a.accuracy);
  std::error_code same_ec;
  if (fs::equivalent(a.old_dir, a.new_dir, same_ec))
    std::cerr << "study compare: warning: " << a.old_dir << " and " << a.new_dir << " are the same folder: nothing can have changed\n";
  const check::Comparison c = check::compare(old, now, o);
  if (!a.quiet) std::cout << report::compare_text(c, o);
  for (const auto& x : c.verdict.outcomes)
    if (x.status == check::Outcome::fail) std::cout << "WORSE" << x.line().substr(4) << "\n";  // "FAIL ...": worse than before
    else if (a.verbose) std::cout << x.line() << "\n";
  const study::FolderLock lock(a.out, true);
  study::StagedFolder staged(a.out);
  staged.carry_forward({"COMPARE.md", "plots"}, stop_if_interrupted);
  const auto gnuplot = a.plots.make();
  const report::PagesOutcome pages = report::render_compare(old, now, a.old_dir, a.new_dir, c, o, staged.path(), gnuplot ? &*gnuplot : nullptr,
                                                            cores());
  stop_if_interrupted();
  if (pages.failed)  // an incomplete page is not published: the old one stays
    throw study::WriteError("COMPARE.md was not published (" + a.out + " is unchanged): " + std::to_string(pages.missing.size()) +
                            " plot(s) failed: " + pages.problem);
  if (!a.junit.empty()) study::write_atomic(a.junit, check::junit_xml(c.verdict, "study compare"));  // before: a failed write publishes nothing
  staged.publish();
  const std::size_t worse = c.verdict.count(check::Outcome::fail);
  std::cout << fmt::format("study compare: {} comparisons of {} methods: {} worse, {} not worse, {} with nothing to compare{}; wrote {}\n",
                           c.verdict.outcomes.size(), c.methods.size(), worse, c.verdict.count(check::Outcome::pass),
                           c.verdict.count(check::Outcome::undetermined),
                           std::isfinite(a.time_tolerance) ? "" : " (timing shown, not judged: --time-tolerance judges it)",
                           (fs::path(a.out) / "COMPARE.md").string());
  if (!pages.missing.empty())
    std::cerr << "study compare: " << pages.missing.size() << " plot(s) missing: " << study::printable_message(pages.problem) << "\n";
  if (worse == 0 && c.verdict.count(check::Outcome::pass) == 0)
    std::cout << "study compare: FAIL: nothing could be compared (no study and method in both, or nothing measured in both)\n";
  return c.verdict.passed() ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace

Command add_compare(CLI::App& app) {
  auto a = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand("compare", "compare two results folders run for run and fit for fit (your code before and "
                                            "after a change): orders, error constants, cost to accuracy targets, time per step, "
                                            "energy, divergence; exit 1 when something got worse beyond the tolerances");
  cmd->add_option("old", a->old_dir, "the results folder before (holding results.json)")->required();
  cmd->add_option("new", a->new_dir, "the results folder after")->required();
  cmd->add_option("--out,-o", a->out, "where COMPARE.md and its plots go (default: compare); replaced whole");
  cmd->add_option("--error-tolerance", a->error_tolerance,
                  "an error (where the old one is above 1000 x its noise floor) larger by more than this fraction is worse "
                  "(default 0.01)")
      ->check(CLI::Range(0.0, 100.0))
      ->check(finite());
  cmd->add_option("--cost-tolerance", a->cost_tolerance,
                  "a cost to an accuracy (force evaluations, interpolated or extrapolated in both) larger by more than this "
                  "fraction is worse (default: the two costs' uncertainties combined, at least --error-tolerance)")
      ->check(CLI::Range(0.0, 1000.0))
      ->check(finite());
  cmd->add_option("--order-tolerance", a->order_tolerance, "an order lower by more than this, its interval apart, is worse (default 0.2)")
      ->check(CLI::Range(0.01, 5.0))
      ->check(finite());
  cmd->add_option("--time-tolerance", a->time_tolerance,
                  "a time per step slower by more than this fraction and more than the timing noise is worse (default: timing "
                  "is shown, never judged)")
      ->check(CLI::Range(0.0, 100.0))
      ->check(finite());
  cmd->add_option("--accuracy", a->accuracy, "an accuracy target to compare costs at (repeatable; default: the decades from 1e-3)")
      ->check(accuracy_target());
  cmd->add_option("--junit", a->junit, "also write the judgement as JUnit XML to this file");
  cmd->add_flag("--quiet,-q", a->quiet, "no table, only what got worse and the summary");
  cmd->add_flag("--verbose,-v", a->verbose, "print every comparison, also those not worse");
  add_plot_options(cmd, a->plots);
  add_memory_option(cmd, a->max_memory, results_memory_help() + "; each folder by itself");
  cmd->footer("Runs are matched by study, method and step size; fits by study, method and metric. Added and removed studies and\n"
              "methods are listed, not judged. Exit status: 0 nothing got worse, 1 something got worse (or nothing could be\n"
              "compared), 2 unreadable results or a bad option.");
  return {cmd, [a] { return run_compare(*a); }, "the report was not written"};
}

}  // namespace study::cli
