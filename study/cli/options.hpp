#pragma once
/// What every command of `study` shares: how a command is added (its options, validation and execution in
/// its own file here), the checks of folders and files it will write, and the option parsers.

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "reports/plots.hpp"

namespace study::cli {

/// A command of `study`: its subcommand with its options, what runs it once they are parsed (its exit status), and
/// what a signal leaves unwritten ("nothing was written").
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
  std::string interrupted = "nothing was written";
  /// More to say when interrupted, known only once the command ran (what was kept, how to resume); may be empty.
  std::function<std::string()> interrupted_more = {};
};

/// Each command's file adds it to `app` (list.cpp, run.cpp, report.cpp, ...).
Command add_list(CLI::App& app);
Command add_run(CLI::App& app);
Command add_report(CLI::App& app);
Command add_check(CLI::App& app);
Command add_compare(CLI::App& app);
Command add_history(CLI::App& app);
Command add_baseline(CLI::App& app);
Command add_bench(CLI::App& app);
Command add_method(CLI::App& app);
Command add_reference(CLI::App& app);

/// CLI::Range lets NaN through (every comparison with it is false): each number option is checked finite too.
const CLI::Validator& finite();
/// An accuracy target: a relative error strictly between 0 and 1.
const CLI::Validator& accuracy_target();
/// A method's name for --vs: not empty (an empty one would silently mean "none").
const CLI::Validator& method_name();

/// The limits a command holds its work and memory to before it starts (raised by the user, never silently).
struct Limits {
  double work = 1e11;    ///< --max-work: weighted force evaluations (about half an hour here)
  double memory = 2e9;   ///< --max-memory: bytes held at once
};
/// --max-work (alias --max-evaluations); with `memory`, --max-memory too.
void add_limit_options(CLI::App* cmd, Limits& limits, bool memory);
/// --max-memory alone (bytes; units 2GB, 512MB, 4GiB accepted; 1 MB .. 1 PB).
void add_memory_option(CLI::App* cmd, double& bytes, const std::string& help);
/// --max-memory's help for the commands that read results folders (report, check, compare, history, baseline).
const std::string& results_memory_help();
/// Throws SpecError when `work` (weighted evaluations; `what` says of what) is above the limit, naming both and
/// what would help.
void check_work(double work, const Limits& limits, const std::string& what, const std::string& help);

/// Splits "a,b,c" (spaces allowed) into its items; an empty item ("a,,b", a trailing comma) is a usage error
/// naming `option`.
std::vector<std::string> split_list(const std::string& text, const std::string& option);
/// name=value pairs of --param, each name once and each value non-empty.  Throws SpecError.
std::map<std::string, std::string> param_pairs(const std::vector<std::string>& params);

/// Whether `inner` is `outer` or lies within it (both canonical paths).
bool within(const std::filesystem::path& inner, const std::filesystem::path& outer);
/// A folder the command will write into, checked before any work: not empty, not a file, each name within the
/// system's limit, and writable (or creatable) by us.  Throws SpecError naming the option.
void check_output_dir(const std::string& dir, const std::string& option, bool published = false);
/// A folder `compare` or `history` writes: replaced whole when published, so never one of the results it reads (nor a
/// folder holding one), nor a folder of the user's: an existing one must be empty or hold `page` (an earlier output
/// of the same command), and not the other command's page.
void check_pages_folder(const std::string& out, const std::vector<std::string>& inputs, const std::string& page,
                        const std::string& other_page);
/// An output file (--junit, --task-log, baseline's --out, and any added later), checked before any work by one rule:
/// a file name (not a folder, a link, a FIFO or a device) in a writable folder; not one of the command's inputs (a
/// spec, a baseline) nor inside a folder it reads; not inside any results folder (the next run replaces it whole, and
/// its files are another command's); and, when it exists and is not empty, an earlier output of the same option,
/// whose text starts with `own` (nothing else the user named is replaced).  Throws SpecError naming the option and
/// the file.
void check_output_file(const std::string& file, const std::string& option, const std::vector<std::string>& inputs,
                       const std::string& own, const std::string& own_name);
/// The --junit file of check and compare (check_output_file: an earlier JUnit file may be replaced).
void check_junit_file(const std::string& file, const std::vector<std::string>& inputs);

/// Draws the pages' plots with these settings (null: --no-plots).
struct PlotArgs {
  bool no_plots = false;
  std::string gnuplot = "gnuplot";
  double gnuplot_timeout = 60;
  std::chrono::milliseconds timeout() const { return std::chrono::milliseconds(static_cast<long>(1000 * gnuplot_timeout)); }
  std::optional<report::Gnuplot> make() const {
    if (no_plots) return std::nullopt;
    return report::Gnuplot{gnuplot, false, timeout()};
  }
};
/// --no-plots, --gnuplot and --gnuplot-timeout of report, compare and history.
void add_plot_options(CLI::App* cmd, PlotArgs& p);

/// Threads for work spread over the cores (gnuplot): one per core.
unsigned cores();

}  // namespace study::cli
