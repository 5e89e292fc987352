/// corpus SOURCE_DIR CACHE_DIR: the held-out corpus (tests/corpus/), through the engine and `study check` as a
/// user would meet them.
///   correct/*.toml: studies of correct built-in methods on every problem, with parameters, t_end and step
///     sizes that no shipped spec uses: no check may fail, and at least 90 % of the order checks must pass.
///   broken/*.toml:  the same kind of studies with one method deliberately broken (broken_methods.hpp): every
///     breakage must be caught by at least one failing check on the broken method.
/// Prints the rates (docs/check.md quotes them) and "corpus: ok"; exit 1 otherwise, 2 on bad arguments.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "reports/read/model.hpp"
#include "study/check/check.hpp"
#include "study/engine.hpp"
#include "study/methods/library.hpp"
#include "study/results/write.hpp"
#include "tests/study/broken_methods.hpp"
#include "tests/study/broken_runner.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<study::Spec> load_specs(const fs::path& dir, const study::tables::Library* methods) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<study::Spec> specs;
  for (const auto& f : files) specs.push_back(study::load_spec(f, methods));
  return specs;
}

/// Writes the results, reads them back as `study check` does, and judges them.
check::Verdict judge(const std::vector<study::StudyResult>& results, const fs::path& dir) {
  study::write_results(dir, results, study::collect_meta());
  return check::run_checks(report::load(dir), nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: corpus SOURCE_DIR CACHE_DIR\n";
    return 2;
  }
  const fs::path corpus = fs::path(argv[1]) / "tests" / "corpus";
  study::EngineOptions o;
  o.jobs = 2;
  o.cache_dir = argv[2];
  const fs::path out = fs::temp_directory_path() / ("ode-study-corpus-" + std::to_string(::getpid()));
  fs::remove_all(out);
  bool ok = true;

  // Method tables the harness does not ship, as `study run --methods tests/corpus/methods.toml` reads them.
  study::tables::Library methods;
  methods.add_file(corpus / "methods.toml");

  // Correct methods.
  const auto specs = load_specs(corpus / "correct", &methods);
  std::set<std::string> problems;
  for (const auto& s : specs) problems.insert(s.problem);
  const check::Verdict v = judge(study::run_studies(specs, o), out / "correct");
  std::size_t orders = 0, orders_passed = 0;
  std::map<std::string, std::size_t> undetermined_by_metric, passed_by_metric;
  for (const auto& x : v.outcomes) {
    if (x.status == check::Outcome::pass) ++passed_by_metric[x.metric];
    const bool order = x.metric.size() > 6 && x.metric.ends_with(" order");
    orders += order, orders_passed += order && x.status == check::Outcome::pass;
    if (x.status == check::Outcome::fail) std::cout << "FALSE FAIL " << x.line() << "\n";
    if (x.status == check::Outcome::undetermined) ++undetermined_by_metric[x.metric], std::cout << "  undetermined: " << x.line() << "\n";
  }
  const double share = orders ? static_cast<double>(orders_passed) / static_cast<double>(orders) : 0;
  std::cout << fmt::format("correct methods: {} studies on {} of {} problems, {} checks: {} passed, {} failed, {} undetermined\n",
                           specs.size(), problems.size(), std::tuple_size_v<study::AllProblems<double>>, v.outcomes.size(),
                           v.count(check::Outcome::pass), v.count(check::Outcome::fail), v.count(check::Outcome::undetermined));
  std::cout << fmt::format("order checks: {} of {} passed ({:.1f} %)\n", orders_passed, orders, 100 * share);
  for (const auto& [metric, n] : passed_by_metric)
    std::cout << fmt::format("  {}: {} passed, {} undetermined\n", metric, n, undetermined_by_metric[metric]);
  if (specs.size() < 40 || problems.size() != std::tuple_size_v<study::AllProblems<double>>) {
    std::cout << "FAIL: the corpus needs at least 40 studies covering every problem\n";
    ok = false;
  }
  if (v.count(check::Outcome::fail) > 0) ok = false;
  if (share < 0.9) std::cout << "FAIL: under 90 % of the order checks passed\n", ok = false;

  // Broken methods: each must fail at least one check on its own label.
  const auto broken_specs = load_specs(corpus / "broken", &methods);
  std::size_t caught = 0;
  for (const auto name : broken::caught_without_baseline) {
    std::set<std::string> by;
    broken::with_breakage(name, [&](auto methods) {
      using Methods = decltype(methods);
      const std::string id(std::get<0>(Methods{}).info().id);
      std::vector<study::Spec> mine;
      for (const auto& s : broken_specs)
        if (std::any_of(s.integrators.begin(), s.integrators.end(), [&](const auto& i) { return i.choice.id == id; })) mine.push_back(s);
      // The broken method stands in for its id (with its default options); every other integrator is the hand-written one.
      auto runner = [&](study::TaskKind kind, const study::Spec& spec, const study::SpecIntegrator& si, long steps,
                        const study::engine::Context& ctx, study::StudyResult& res, std::size_t slot) {
        if (si.choice.id == id && si.choice.start.empty() && si.choice.variant.empty())
          broken::run_task<Methods>(kind, spec, si, steps, ctx, res, slot);
        else
          study::run_hand_written_task(kind, spec, si, steps, ctx, res, slot);
      };
      const check::Verdict b = judge(study::run_studies(mine, o, runner), out / std::string(name));
      for (const auto& x : b.outcomes)
        if (x.status == check::Outcome::fail && x.integrator == id) by.insert(x.study + ": " + x.metric);
    });
    std::string list;
    for (const auto& s : by) list += (list.empty() ? "" : ", ") + s;
    std::cout << fmt::format("broken {:<28} {}\n", name, by.empty() ? "NOT CAUGHT" : "caught by " + list);
    caught += !by.empty();
  }
  std::cout << fmt::format("broken methods: {} of {} caught\n", caught, broken::caught_without_baseline.size());
  if (caught != broken::caught_without_baseline.size()) ok = false;
  fs::remove_all(out);
  std::cout << (ok ? "corpus: ok\n" : "corpus: FAILED\n");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
