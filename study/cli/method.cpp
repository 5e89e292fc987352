// `study method FILE|ID...`: what a method's coefficients say, without running anything.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "study/cli/options.hpp"
#include "study/common/suggest.hpp"
#include "study/methods/library.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {
namespace {

/// `study method FILE|ID...`: what the coefficients of each method say, without running anything.
int run_method(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    // A path (an id has no '.' or '/') is read at once: the libraries' tables are checked only when needed.
    if (arg.find_first_of("./") != std::string::npos && std::filesystem::exists(arg)) {
      const study::tables::Library file = study::tables::read_user_methods({arg}, study::spec_keys());
      for (const auto* x : file.methods()) std::cout << study::tables::describe(*x) << "\n";
      continue;
    }
    const auto& builtin = study::tables::builtin_tables();
    if (const auto it = builtin.find(arg); it != builtin.end()) {
      std::cout << study::tables::describe(it->second) << "\n";
    } else if (const auto* m = study::tables::shipped_library().find(arg)) {
      std::cout << study::tables::describe(*m) << "\n";
    } else if (std::filesystem::exists(arg)) {
      // Checked as `study run --methods` checks it; alive while its methods are printed.
      const study::tables::Library file = study::tables::read_user_methods({arg}, study::spec_keys());
      for (const auto* x : file.methods()) std::cout << study::tables::describe(*x) << "\n";
    } else {
      std::vector<std::string> ids = study::tables::shipped_library().ids();
      for (const auto& [id, unused] : builtin) ids.push_back(id);
      throw study::SpecError(arg + ": no such methods file, and no method of that id" + study::did_you_mean(arg, ids) +
                             " (ids: " + study::join(ids) + ")");
    }
  }
  return EXIT_SUCCESS;
}

}  // namespace

Command add_method(CLI::App& app) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("method", "what a method's coefficients say, without running anything: its order "
                                           "predicted from Butcher's order conditions, the first failing condition, "
                                           "its principal error coefficient, symplectic, symmetric, cost");
  cmd->add_option("methods", *args, "methods files ([methods.ID] tables) or ids of method tables "
                                    "(shipped, or built-in ones that are tables)")->required();
  cmd->footer("A table that declares a higher order than its coefficients have is refused, naming the first failing "
              "condition (exit status 2).");
  return {cmd, [args] { return run_method(*args); }};
}

}  // namespace study::cli
