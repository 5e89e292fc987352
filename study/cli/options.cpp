// The command line's shared option parsers and output checks (options.hpp).
#include "study/cli/options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>

#include <fmt/core.h>

#include "study/common/atomic_file.hpp"
#include "study/common/results_folder.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {

const CLI::Validator& finite() {
  static const CLI::Validator v([](std::string& x) { return std::isfinite(std::strtod(x.c_str(), nullptr)) ? "" : "must be a finite number"; },
                                "FINITE");
  return v;
}

namespace {
/// A number of bytes: a number (2e9) with an optional unit, kB MB GB TB (powers of 1000) or KiB MiB GiB TiB (of
/// 1024), B alone or nothing for bytes; rewritten as the number of bytes.
const CLI::Validator& byte_size() {
  static const CLI::Validator v(
      [](std::string& x) -> std::string {
        char* end = nullptr;
        const double n = std::strtod(x.c_str(), &end);
        std::string unit(end);
        unit.erase(0, unit.find_first_not_of(' '));
        std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        static const std::map<std::string, double> units{{"", 1},       {"b", 1},        {"kb", 1e3},   {"mb", 1e6},
                                                         {"gb", 1e9},   {"tb", 1e12},    {"k", 1e3},    {"m", 1e6},
                                                         {"g", 1e9},    {"t", 1e12},     {"kib", 1024.0}, {"mib", 1048576.0},
                                                         {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
        const auto it = units.find(unit);
        if (end == x.c_str() || it == units.end() || !std::isfinite(n))
          return "'" + x + "' is not a size: a number of bytes with an optional unit, e.g. 2e9, 2GB, 512MB, 4GiB";
        x = fmt::format("{:.17g}", n * it->second);
        return "";
      },
      "SIZE");
  return v;
}
}  // namespace

void add_limit_options(CLI::App* cmd, Limits& limits, bool memory) {
  cmd->add_option("--max-work,--max-evaluations", limits.work,
                  "refuse a request whose estimated work is above this, before anything runs: force evaluations of "
                  "every run, long energy run and reference, each weighted by the problem's cost per evaluation (N "
                  "bodies: their N(N-1)/2 pair forces, so the unit is one two-body evaluation); default 1e11, about "
                  "half an hour on one core")
      ->check(CLI::Range(1.0, 1e18))
      ->check(finite());
  if (memory)
    add_memory_option(cmd, limits.memory,
                      "refuse a request whose estimated memory (each run's samples with their reference states, and "
                      "the largest CSV table) is above this many bytes: 2e9, 2GB, 512MB (default 2e9)");
}

void add_memory_option(CLI::App* cmd, double& bytes, const std::string& help) {
  cmd->add_option("--max-memory", bytes, help)
      ->transform(byte_size())
      ->check(CLI::Validator(
          [](std::string& x) {
            const double b = std::strtod(x.c_str(), nullptr);
            return b >= 1e6 && b <= 1e15 ? "" : "must lie between 1 MB (1e6) and 1 PB (1e15)";
          },
          "1MB..1PB"));
}

const std::string& results_memory_help() {
  static const std::string help =
      "refuse, before reading, results whose results.json and largest table would take more than this many bytes "
      "once parsed (about 8 times their size): 2e9, 2GB, 512MB (default 2e9)";
  return help;
}

void check_work(double work, const Limits& limits, const std::string& what, const std::string& help) {
  if (work > limits.work)
    throw SpecError(fmt::format("{} would take about {:.2g} weighted force evaluations, above the limit of {:.2g}; {}, or raise "
                                "the limit with --max-work",
                                what, work, limits.work, help));
}

const CLI::Validator& accuracy_target() {
  static const CLI::Validator v(
      [](std::string& x) {
        const double t = std::strtod(x.c_str(), nullptr);
        return std::isfinite(t) && t >= 1e-30 && t < 1 ? "" : "an accuracy is a relative error from 1e-30 to below 1, e.g. 1e-8";
      },
      "ACCURACY");
  return v;
}

const CLI::Validator& method_name() {
  static const CLI::Validator v(
      [](std::string& x) { return x.empty() ? "must name a method: a label such as \"dopri5 (adaptive)\", or an id" : ""; }, "METHOD");
  return v;
}

std::vector<std::string> split_list(const std::string& text, const std::string& option) {
  std::vector<std::string> items;
  std::string item;
  const std::string all = text + ",";
  for (std::size_t i = 0; i < all.size(); ++i) {
    const char c = all[i];
    if (c == ',') {
      if (item.empty()) throw SpecError(option + " '" + text + "': an empty item; give comma-separated values");
      items.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  return items;
}

bool within(const std::filesystem::path& inner, const std::filesystem::path& outer) {
  return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
}

void check_output_dir(const std::string& dir, const std::string& option, bool published) {
  namespace fs = std::filesystem;
  if (dir.empty()) throw SpecError(option + " \"\": give a folder (e.g. " + option + " results)");
  if (dir.find('\0') != std::string::npos) throw SpecError(option + ": the folder name holds a NUL character");
  const fs::path p(dir);
  for (const auto& part : p)
    if (part.string().size() > 255)
      throw SpecError(option + " " + dir + ": the name '" + part.string().substr(0, 40) + "...' is " +
                             std::to_string(part.string().size()) + " characters long (at most 255)");
  std::error_code ec;
  const auto status = fs::status(p, ec);
  if (fs::is_symlink(fs::symlink_status(p, ec)) && (published || !fs::exists(status)))
    throw SpecError(option + " " + dir + ": is a symbolic link" + (fs::exists(status) ? "" : " to nothing") +
                           (published ? "; the folder is replaced whole when published: give the folder itself" : ""));
  if (fs::exists(status) && !fs::is_directory(status))
    throw SpecError(option + " " + dir + ": is a file, not a folder (give a folder, or remove the file)");
  if (published && fs::exists(status)) {  // replaced whole: never the folder we (or the shell) stand in, or above it
    const fs::path here = fs::current_path(ec), target = fs::canonical(p, ec);
    if (!ec && (here == target || within(here, target)))
      throw SpecError(option + " " + dir + ": is the current folder or holds it, and the output folder is replaced whole "
                             "when published; give a folder of its own, e.g. " + option + " results");
  }
  fs::path existing = fs::absolute(p, ec);
  while (!existing.empty() && !fs::exists(existing, ec) && existing != existing.parent_path()) existing = existing.parent_path();
  if (!fs::is_directory(existing, ec))
    throw SpecError(option + " " + dir + ": " + existing.string() + " is a file, so the folder cannot be made there");
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    throw SpecError(option + " " + dir + ": " + existing.string() + " is not writable by this user");
}

std::map<std::string, std::string> param_pairs(const std::vector<std::string>& params) {
  std::map<std::string, std::string> out;
  for (const auto& kv : params) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
      throw SpecError("--param '" + kv + "' is not of the form name=value (e.g. --param e=0.7)");
    if (!out.emplace(kv.substr(0, eq), kv.substr(eq + 1)).second)
      throw SpecError("--param " + kv.substr(0, eq) + " is given twice");
  }
  return out;
}

void check_pages_folder(const std::string& out, const std::vector<std::string>& inputs, const std::string& page,
                        const std::string& other_page) {
  namespace fs = std::filesystem;
  check_output_dir(out, "--out", true);
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(out, ec);
  for (const auto& in : inputs) {
    const fs::path source = fs::weakly_canonical(in, ec);
    if (within(source, target))
      throw SpecError("--out " + out + ": is the results folder " + in + " or holds it, and the output folder is replaced whole "
                             "when published; give a folder of its own, e.g. --out " + fs::path(page).stem().string());
    if (within(target, source))
      throw SpecError("--out " + out + ": lies in the results folder " + in + ", which it would change; give a folder elsewhere");
  }
  if (const fs::path up = results_folder_above(out); !up.empty())
    throw SpecError("--out " + out + ": lies in the results folder " + up.string() + ", which the next run replaces whole; give "
                    "a folder elsewhere");
  if (fs::is_directory(out, ec) && !fs::is_empty(out, ec)) {
    if (fs::exists(fs::path(out) / other_page, ec))
      throw SpecError("--out " + out + ": holds " + other_page + " (another command's pages, whose plots would be replaced); "
                             "give this one a folder of its own");
    if (!fs::exists(fs::path(out) / page, ec))
      throw SpecError("--out " + out + ": a folder of other files (no " + page + " in it), and the output folder is replaced "
                             "whole when published; give an empty or new folder");
  }
}


void check_output_file(const std::string& file, const std::string& option, const std::vector<std::string>& inputs,
                       const std::string& own, const std::string& own_name) {
  namespace fs = std::filesystem;
  if (file.empty()) throw SpecError(option + " \"\": give a file name");
  if (file.find('\0') != std::string::npos) throw SpecError(option + ": the file name holds a NUL character");
  if (const std::string why = replace_problem(file); !why.empty()) throw SpecError(option + " " + why);
  const auto parent = fs::path(file).parent_path();
  check_output_dir(parent.empty() ? "." : parent.string(), option + "'s folder");
  std::error_code ec;
  if (fs::is_directory(file, ec)) throw SpecError(option + " " + file + ": is a folder; give a file name");
  const fs::path target = fs::weakly_canonical(fs::absolute(file), ec);
  for (const auto& in : inputs) {
    const fs::path source = fs::weakly_canonical(fs::absolute(in), ec);
    if (target == source) throw SpecError(option + " " + file + ": is an input of this command (" + in + "); write it elsewhere");
    if (within(target, source))
      throw SpecError(option + " " + file + ": lies in " + in + ", which this command reads; write it elsewhere");
  }
  // In a results folder (its marker, or nothing but a run's files): a file of the user's own beside the run's (the
  // next run keeps it: ci-results/junit.xml, ci-results/reports/junit.xml), never one of the run's entries nor
  // anything in them (a study's folder, plots/), which the next run replaces.  Elsewhere a results.json means nothing.
  if (const fs::path up = results_folder_above(file); !up.empty()) {
    const fs::path rel = target.lexically_relative(fs::weakly_canonical(up, ec));
    const std::string first = rel.empty() ? std::string() : rel.begin()->string();
    static const std::set<std::string> runs{"results.json", results_marker, "bench.json", "REPORT.md", "CLAIMS.md", "BENCH.md", "plots"};
    if (runs.count(first) || first.rfind("SCAN-", 0) == 0 || fs::exists(up / first / "runs.csv", ec))
      throw SpecError(option + " " + file + ": is " + (rel.begin() == std::prev(rel.end()) ? "one of the run's own files" : "inside " + first +
                      ", the run's own") + " in the results folder " + up.string() + " (the next run replaces it); give another name, or write it elsewhere");
  }
  if (fs::is_regular_file(file, ec) && fs::file_size(file, ec) > 0) {
    std::ifstream in(file, std::ios::binary);
    std::string start(own.size(), '\0');
    in.read(start.data(), static_cast<std::streamsize>(start.size()));
    if (!in || start != own)
      throw SpecError(option + " " + file + ": exists and is not " + own_name +
                      " (it would be replaced, and only an earlier one is); give a new file name, or remove it");
  }
}

void check_junit_file(const std::string& file, const std::vector<std::string>& inputs) {
  check_output_file(file, "--junit", inputs, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ",
                    "a JUnit file this command wrote");
}

void add_plot_options(CLI::App* cmd, PlotArgs& p) {
  cmd->add_flag("--no-plots", p.no_plots, "write the plot data and scripts but do not run gnuplot");
  cmd->add_option("--gnuplot", p.gnuplot, "the gnuplot program: a name on PATH or a path, started without a shell (default: gnuplot)");
  cmd->add_option("--gnuplot-timeout", p.gnuplot_timeout, "seconds one plot may take before gnuplot is stopped and the plot reported missing (default 60)")->check(CLI::Range(0.1, 3600.0))->check(finite());
}

unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace study::cli
