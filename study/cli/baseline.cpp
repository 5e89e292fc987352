// `study baseline [RESULTS] --out FILE`: the error constants `study check --baseline` compares against.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <fmt/core.h>

#include "study/reader/model.hpp"
#include "study/check/baseline.hpp"
#include "study/cli/options.hpp"
#include "study/common/atomic_file.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {
namespace {

struct BaselineArgs {
  std::string results = "results";
  std::string out;
  double max_memory = report::default_max_memory;
};

int run_baseline(const BaselineArgs& a) {
  if (a.out.empty()) throw study::SpecError("--out \"\": give the baseline's file name, e.g. --out baseline.toml");
  // An existing file is updated only when it reads as a baseline (read_baseline below says why not); never inside the
  // results it is drawn from, nor a link.
  check_output_file(a.out, "--out", {(std::filesystem::path(a.results) / "results.json").string()}, "", "a baseline");
  const report::Results results = report::load(a.results, a.max_memory);
  const check::Baseline fresh = check::baseline_of(results);
  const bool update = std::filesystem::exists(a.out);
  const check::Baseline before = update ? check::read_baseline(a.out) : check::Baseline{};
  const check::Baseline after = check::merge(before, fresh);
  study::write_atomic(a.out, check::to_toml(after));
  std::size_t values = 0;
  for (const auto& e : after.entries) values += e.points.size();
  std::cout << fmt::format("{} {}: {} integrators, {} errors, tolerance {:g}\n", update ? "updated" : "wrote", a.out,
                           after.entries.size(), values, after.tolerance);
  if (update) {
    const auto diff = check::differences(before, after);
    for (const auto& line : diff) std::cout << "  " << line << "\n";
    if (diff.empty()) std::cout << "  no error constant moved beyond the tolerance\n";
  }
  return EXIT_SUCCESS;
}

}  // namespace

Command add_baseline(CLI::App& app) {
  auto a = std::make_shared<BaselineArgs>();
  auto* cmd = app.add_subcommand("baseline", "write (or update) a baseline of error constants from a results directory, "
                                             "for `study check --baseline`");
  cmd->add_option("results", a->results, "results directory holding results.json (default: results)");
  cmd->add_option("--out,-o", a->out, "the baseline file; an existing one is updated: its other studies and "
                                      "its tolerance are kept, and the changes are listed")->required();
  add_memory_option(cmd, a->max_memory, results_memory_help());
  return {cmd, [a] { return run_baseline(*a); }};
}

}  // namespace study::cli
