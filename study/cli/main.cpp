/// The `study` command: run convergence studies, render reports, gate CI.  This build: `study list`.

#include <algorithm>
#include <cstdlib>
#include <vector>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "integrators/all.hpp"
#include "study/problems/all.hpp"
#include "study/suggest.hpp"

namespace {

const char* yes_no(bool b) { return b ? "yes" : "no"; }

void list_integrators() {
  fmt::print("Integrators (id, global order, force evaluations per step, symplectic, symmetric):\n");
  fmt::print("  {:<24} {:>5} {:>6} {:>10} {:>9}  {}\n", "id", "order", "evals", "symplectic", "symmetric", "notes");
  auto row = [](const ode::Info& i) {
    std::string notes;
    if (i.implicit) notes += "implicit (evaluations per iteration); ";
    if (i.position_force_only) notes += "needs a(q); ";
    if (!i.start.empty()) notes += "start=" + std::string(i.start) + "; ";
    if (i.startup_evals) notes += fmt::format("+{} evaluation on the first step; ", i.startup_evals);
    if (!notes.empty()) notes.resize(notes.size() - 2);
    fmt::print("  {:<24} {:>5} {:>6} {:>10} {:>9}  {}\n", i.id, i.order, i.evals_per_step, yes_no(i.symplectic),
               yes_no(i.symmetric), notes);
  };
  ode::for_each_method([&](auto m) {
    row(m.info());
    if constexpr (std::is_same_v<decltype(m), ode::StormerVerlet>)
      row(ode::StormerVerlet{ode::StormerVerlet::Start::backward_euler}.info());
  });
  fmt::print("  Any integrator takes the option substeps = k (k steps of dt/k per step).\n\n");
}

void list_problems() {
  fmt::print("Problems (id, dimension, exact solution, parameters with defaults):\n");
  study::for_each_problem<double>([](auto p) {
    using P = decltype(p);
    std::string params;
    for (const auto& info : P::params) params += fmt::format(" {}={}", info.name, info.default_value);
    fmt::print("  {:<20} dim {:>2}  exact: {:<3}  {}\n      params:{}\n", P::id, P::dim, yes_no(P::has_exact),
               P::summary, params);
  });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"study: measure how accurate ODE integrators really are (orders, energy drift, cost) against "
               "high-precision references"};
  app.require_subcommand(1);
  auto* list = app.add_subcommand("list", "list the integrators and problems with their properties");
  bool only_integrators = false, only_problems = false;
  list->add_flag("--integrators", only_integrators, "only the integrators");
  list->add_flag("--problems", only_problems, "only the problems");
  if (argc > 1 && argv[1][0] != '-') {  // an unknown command gets a suggestion, not just "a subcommand is required"
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      std::cerr << "study: unknown command '" << argv[1] << "'" << study::did_you_mean(argv[1], names)
                << "; commands: " << study::join(names) << " (see study --help)\n";
      return 2;
    }
  }
  CLI11_PARSE(app, argc, argv);

  if (*list) {
    if (!only_problems) list_integrators();
    if (!only_integrators) list_problems();
  }
  return EXIT_SUCCESS;
}
