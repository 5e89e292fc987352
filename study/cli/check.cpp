// `study check [RESULTS]`: the CI gate, every check PASS, FAIL or UNDETERMINED with its cause.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include <fmt/core.h>

#include "study/reader/model.hpp"
#include "study/check/check.hpp"
#include "study/cli/options.hpp"
#include "study/common/atomic_file.hpp"

namespace study::cli {
namespace {

struct CheckArgs {
  std::string results = "results";
  std::string baseline, junit;
  double order_tolerance = check::Options{}.order_tolerance;
  std::vector<std::string> studies, integrators;
  bool verbose = false, strict = false;
  double max_memory = report::default_max_memory;
};

/// Exit status: 0 no check failed, 1 some check failed (--strict: or is undetermined), 2 the input could not be read.
int run_check(const CheckArgs& a) {
  if (!a.junit.empty()) {  // anywhere but over what the gate reads (the results' files, the baseline): beside the results too
    std::vector<std::string> inputs{(std::filesystem::path(a.results) / "results.json").string()};
    if (!a.baseline.empty()) inputs.push_back(a.baseline);
    check_junit_file(a.junit, inputs);
  }
  const report::Results results = report::load(a.results, a.max_memory);
  std::optional<check::Baseline> baseline;
  if (!a.baseline.empty()) baseline = check::read_baseline(a.baseline);
  check::Options o;
  o.order_tolerance = a.order_tolerance;
  o.studies = a.studies, o.integrators = a.integrators;
  const check::Verdict v = check::run_checks(results, baseline ? &*baseline : nullptr, o);
  for (const auto& x : v.outcomes)
    if (a.verbose || x.status != check::Outcome::pass) std::cout << x.line() << "\n";
  if (!a.junit.empty()) study::write_atomic(a.junit, check::junit_xml(v));
  std::cout << fmt::format("study check: {} checks on {} stud{} in {}: {} passed, {} failed, {} undetermined{}{}{}\n", v.outcomes.size(),
                           results.studies.size(), results.studies.size() == 1 ? "y" : "ies", a.results, v.count(check::Outcome::pass),
                           v.count(check::Outcome::fail), v.count(check::Outcome::undetermined),
                           a.strict && v.count(check::Outcome::undetermined) ? " (--strict: undetermined fails)" : "",
                           baseline ? "; baseline " + a.baseline : "; error constants not checked (no --baseline)",
                           a.verbose ? "" : " (-v lists the passes too)");
  if (v.count(check::Outcome::pass) + v.count(check::Outcome::fail) == 0)
    std::cout << "study check: FAIL: no check was judged (" << v.count(check::Outcome::undetermined) << " undetermined): a gate that "
              << "judged nothing does not pass"
              << (v.count(check::Outcome::undetermined) ? "; the lines above say what would decide them\n"
                                                         : ": these results hold nothing the gate checks (no order fit, slope, energy or "
                                                           "identity)\n");
  return v.passed(a.strict) ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace

Command add_check(CLI::App& app) {
  auto a = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "the CI gate: check a results directory against the integrators' declared "
                                          "orders, bounded energy, identities and (with --baseline) committed error constants");
  cmd->add_option("results", a->results, "results directory holding results.json (default: results)");
  cmd->add_option("--baseline", a->baseline, "baseline of error constants (TOML, written by `study baseline`)");
  cmd->add_option("--junit", a->junit, "also write the verdict as JUnit XML to this file");
  cmd->add_option("--order-tolerance", a->order_tolerance, "largest |observed - expected| order (default 0.2)")
      ->check(CLI::Range(0.01, 1.0))
      ->check(finite());
  cmd->add_option("--study", a->studies, "check only this study (repeatable); it must be in the results");
  cmd->add_option("--integrator", a->integrators, "check only this integrator, a label or an id (repeatable); it must be "
                                                  "in the results");
  cmd->add_flag("--verbose,-v", a->verbose, "print every check, also those that pass");
  cmd->add_flag("--strict", a->strict, "an undetermined check fails too (for a CI that wants every check decided)");
  add_memory_option(cmd, a->max_memory, results_memory_help());
  cmd->footer("Every check is PASS, FAIL, or UNDETERMINED when the data cannot decide (it then says why and what would\n"
              "decide it). One line per failed or undetermined check: study (problem) | integrator | metric | expected |\n"
              "observed | window | how far off, or why undetermined | to decide: what to do.\n"
              "Exit status: 0 no check failed and at least one passed, 1 a check failed, no check could be judged, or a\n"
              "--study/--integrator is missing (--strict: or a check is undetermined), 2 unreadable results or baseline.");
  return {cmd, [a] { return run_check(*a); }};
}

}  // namespace study::cli
