#pragma once
/// `study run`'s options, and the specs a run reads (run_specs.cpp: files, standard input, the command line, a profile
/// or the default study; every error found and the cost bounded before any work).

#include <string>
#include <vector>

#include "study/cli/options.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {

struct RunArgs {
  std::vector<std::string> specs;
  std::vector<std::string> methods;  ///< --methods files
  // A study from the command line (no spec file).
  std::string problem, integrators, t_end, dt, metrics, name;
  std::vector<std::string> params;
  std::string profile;
  std::string out = "results";
  int jobs = 0;
  std::string cache_dir;
  bool cache_dir_given = false;
  Limits limits;  ///< --max-work, --max-memory
  bool no_cache = false, rerun = false, quiet = false, no_report = false, png = false, point_plots = false;
  std::vector<double> accuracy;  ///< --accuracy: the targets of "which method for which accuracy"
  std::string vs;                ///< --vs: the method the report measures the others against, as a spec's `vs`
  std::string task_log;          ///< --task-log: a CSV of every item's rank and seconds
};

/// The specs `a` asks for, validated, with distinct names, and within --max-work and --max-memory.  Throws SpecError.
std::vector<Spec> specs_to_run(const RunArgs& a);

/// A terminal's progress bar: `width` cells, done / total of them filled ('#', the rest '-'), all when total is 0.
std::string progress_bar(std::size_t done, std::size_t total, int width = 24);

}  // namespace study::cli
