// `study list`: the integrators, method tables, problems, shipped specs and profiles.
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

#include <fmt/core.h>

#include "integrators/all.hpp"
#include "study/cli/options.hpp"
#include "study/common/data_dir.hpp"
#include "study/common/suggest.hpp"
#include "study/methods/library.hpp"
#include "study/problems/all.hpp"
#include "study/registry/extensions.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {
namespace {

const char* yes_no(bool b) { return b ? "yes" : "no"; }

/// Through std::cout, like every command's output (a test captures it there; its failure is checked at exit).
template <class... Args>
void print(fmt::format_string<Args...> f, Args&&... args) {
  std::cout << fmt::format(f, std::forward<Args>(args)...);
}

void list_integrators() {
  print("Integrators (id, global order, force evaluations per step, symplectic, symmetric):\n");
  print("  {:<24} {:>5} {:>6} {:>10} {:>9}  {}\n", "id", "order", "evals", "symplectic", "symmetric", "notes");
  auto row = [](const ode::Info& i) {
    std::string notes;
    if (i.implicit) notes += "implicit (evaluations per iteration); ";
    if (i.position_force_only) notes += "needs a(q); ";
    if (!i.start.empty()) notes += "start=" + std::string(i.start) + "; ";
    if (i.startup_evals) notes += fmt::format("+{} evaluation on the first step; ", i.startup_evals);
    if (!notes.empty()) notes.resize(notes.size() - 2);
    print("  {:<24} {:>5} {:>6} {:>10} {:>9}  {}\n", i.id, i.order, i.evals_per_step, yes_no(i.symplectic),
               yes_no(i.symmetric), notes);
  };
  ode::for_each_method([&](auto m) {
    row(m.info());
    if constexpr (std::is_same_v<decltype(m), ode::StormerVerlet>)
      row(ode::StormerVerlet{ode::StormerVerlet::Start::backward_euler}.info());
  });
  if (!extensions().integrators.empty()) {
    print("  This program's own (registered with study::register_integrator):\n");
    for (const auto& user : extensions().integrators) row(user.info(IntegratorChoice{.id = user.id, .substeps = 1, .start = {}, .variant = {}, .table = {}}));
  }
  print("  Any integrator takes the option substeps = k (k steps of dt/k per step).\n\n");
  print("Method tables (study/methods/; any spec may list them, `study method ID` shows what their coefficients say):\n");
  print("  {:<24} {:>5} {:>9} {:>6} {:>10} {:>9}  {}\n", "id", "order", "predicted", "evals", "symplectic", "symmetric", "kind; source");
  for (const auto* m : tables::shipped_library().methods()) {
    const auto& t = *m->table;
    print("  {:<24} {:>5} {:>9} {:>6} {:>10} {:>9}  {}{}; {}\n", t.id, t.order, m->predicted.order().order, t.evals_per_step,
               yes_no(t.symplectic), yes_no(t.symmetric), m->kind, m->base.empty() ? "" : " of " + m->base, t.source);
  }
  print("  Your own: [methods.ID] in a spec, or a file given with --methods (docs/method-tables.md).\n\n");
}

void list_problems() {
  print("Problems (id, dimension, exact solution, parameters with defaults):\n");
  auto row = [](const ProblemFacts& f) {
    std::string params;
    for (const auto& info : f.params) params += fmt::format(" {}={}", info.name, info.default_value);
    print("  {:<20} dim {:>2}  exact {:<3}  {}  [{} ]\n", f.id, f.dim, yes_no(f.has_exact), f.summary, params);
  };
  for_each_problem<double>([&](auto p) { row(facts_of(p)); });
  if (!extensions().problems.empty()) {
    print("  This program's own (registered with study::register_problem):\n");
    for (const auto& user : extensions().problems) row(user.defaults);
  }
}

void list_specs() {
  print("\nSpecs ({}; `study run` with no argument runs them all, the default study):\n",
             (data_dir() / "specs").string());
  const auto show = [](const std::filesystem::path& file) {
    try {
      const std::vector<Spec> points = load_specs(file);
      const Spec& s = points.front();
      const std::string dts = s.auto_dt ? "auto" : fmt::format("{:>2} dt", s.steps.size());
      const std::string name = s.scan.scan.empty() ? s.name : s.scan.scan;
      const std::string scan = s.scan.scan.empty() ? "" : fmt::format(" (a scan of {}: {} studies)", join(s.scan.axes), points.size());
      print("  {:<24} {:<20} {:>2} integrators x {:>5}  {}{}\n", name, s.problem, s.integrators.size(), dts, s.title, scan);
    } catch (const SpecError& e) {
      print("  {:<24} INVALID: {}\n", file.stem().string(), e.what());
    }
  };
  for (const auto& file : shipped_specs()) show(file);
  print("\nScans ({}; families of studies, each run by name, e.g. `study run kepler-eccentricity`):\n",
        (data_dir() / "scans").string());
  for (const auto& file : shipped_scans()) show(file);
  print("\nProfiles ({}; `study run --profile NAME`, then `study check --baseline` its baseline):\n",
             (data_dir() / "profiles").string());
  for (const auto& name : profile_names()) {
    std::vector<std::string> names;
    for (const auto& f : profile_specs(name)) names.push_back(f.stem().string());
    const auto baseline = profile_baseline(name);
    print("  {:<24} {} spec(s): {}; baseline {}\n", name, names.size(), join(names),
               std::filesystem::exists(baseline) ? baseline.string() : "none");
  }
}

}  // namespace

Command add_list(CLI::App& app) {
  struct Args {
    bool integrators = false, problems = false, specs = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("list", "list the integrators and problems with their properties");
  cmd->add_flag("--integrators", a->integrators, "only the integrators");
  cmd->add_flag("--problems", a->problems, "only the problems");
  cmd->add_flag("--specs", a->specs, "only the shipped specs");
  return {cmd, [a] {
            tables::shipped_library();  // a broken library is an error (exit 2), not a half-printed list
            const bool all = !a->integrators && !a->problems && !a->specs;
            if (all || a->integrators) list_integrators();
            if (all || a->problems) list_problems();
            if (all || a->specs) list_specs();
            return 0;
          }};
}

}  // namespace study::cli
