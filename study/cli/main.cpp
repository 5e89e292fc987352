/// The `study` command: run convergence studies, render reports, gate CI on error orders.

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <vector>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "integrators/all.hpp"
#include "reference/reference.hpp"
#include "study/cli.hpp"
#include "study/engine.hpp"
#include "study/extensions.hpp"
#include "study/write.hpp"
#include "reports/accuracy.hpp"
#include "reports/compare_page.hpp"
#include "reports/markdown.hpp"
#include "reports/model.hpp"
#include "reports/process.hpp"
#include "reports/render.hpp"
#ifndef STUDY_NO_BENCH
#include "study/bench/steppers.hpp"
#endif
#include "study/atomic_file.hpp"
#include "study/data_dir.hpp"
#include "study/input_file.hpp"
#include "study/publish.hpp"
#include "study/check/check.hpp"
#include "study/check/compare.hpp"
#include "study/problems/all.hpp"
#include "study/suggest.hpp"
#include "study/tables/library.hpp"

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
  if (!study::extensions().integrators.empty()) {
    fmt::print("  This program's own (registered with study::register_integrator):\n");
    for (const auto& user : study::extensions().integrators) row(user.info(study::IntegratorChoice{.id = user.id, .substeps = 1, .start = {}, .variant = {}, .table = {}}));
  }
  fmt::print("  Any integrator takes the option substeps = k (k steps of dt/k per step).\n\n");
  fmt::print("Method tables (study/methods/; any spec may list them, `study method ID` shows what their coefficients say):\n");
  fmt::print("  {:<24} {:>5} {:>9} {:>6} {:>10} {:>9}  {}\n", "id", "order", "predicted", "evals", "symplectic", "symmetric", "kind; source");
  for (const auto* m : study::tables::shipped_library().methods()) {
    const auto& t = *m->table;
    fmt::print("  {:<24} {:>5} {:>9} {:>6} {:>10} {:>9}  {}{}; {}\n", t.id, t.order, m->predicted.order.order, t.evals_per_step,
               yes_no(t.symplectic), yes_no(t.symmetric), m->kind, m->base.empty() ? "" : " of " + m->base, t.source);
  }
  fmt::print("  Your own: [methods.ID] in a spec, or a file given with --methods (README, \"Study your own method\").\n\n");
}

void list_problems() {
  fmt::print("Problems (id, dimension, exact solution, parameters with defaults):\n");
  auto row = [](const study::ProblemFacts& f) {
    std::string params;
    for (const auto& info : f.params) params += fmt::format(" {}={}", info.name, info.default_value);
    fmt::print("  {:<20} dim {:>2}  exact {:<3}  {}  [{} ]\n", f.id, f.dim, yes_no(f.has_exact), f.summary, params);
  };
  study::for_each_problem<double>([&](auto p) { row(study::facts_of(p)); });
  if (!study::extensions().problems.empty()) {
    fmt::print("  This program's own (registered with study::register_problem):\n");
    for (const auto& user : study::extensions().problems) row(user.defaults);
  }
}

std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) {
  if (interrupted.exchange(true)) {  // a second Ctrl-C: stop now (files are written atomically), gnuplot too
    report::kill_running_groups();
    std::_Exit(130);
  }
}

/// Throws report::Interrupted once a signal came (for loops outside the engine).
void stop_if_interrupted() {
  if (interrupted) throw report::Interrupted();
}

/// Splits "a,b,c" (spaces allowed) into its items; an empty item ("a,,b", a trailing comma) is a usage error
/// naming `option`.
std::vector<std::string> split_list(const std::string& text, const std::string& option) {
  std::vector<std::string> items;
  std::string item;
  const std::string all = text + ",";
  for (std::size_t i = 0; i < all.size(); ++i) {
    const char c = all[i];
    if (c == ',') {
      if (item.empty()) throw study::SpecError(option + " '" + text + "': an empty item; give comma-separated values");
      items.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  return items;
}

/// Whether `inner` is `outer` or lies within it (both canonical paths).
bool within(const std::filesystem::path& inner, const std::filesystem::path& outer) {
  return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
}

/// A folder the command will write into, checked before any work: not empty, not a file, each name within the
/// system's limit, and writable (or creatable) by us.  Throws SpecError naming the option.
void check_output_dir(const std::string& dir, const std::string& option, bool published = false) {
  namespace fs = std::filesystem;
  if (dir.empty()) throw study::SpecError(option + " \"\": give a folder (e.g. " + option + " results)");
  if (dir.find('\0') != std::string::npos) throw study::SpecError(option + ": the folder name holds a NUL character");
  const fs::path p(dir);
  for (const auto& part : p)
    if (part.string().size() > 255)
      throw study::SpecError(option + " " + dir + ": the name '" + part.string().substr(0, 40) + "...' is " +
                             std::to_string(part.string().size()) + " characters long (at most 255)");
  std::error_code ec;
  const auto status = fs::status(p, ec);
  if (fs::is_symlink(fs::symlink_status(p, ec)) && (published || !fs::exists(status)))
    throw study::SpecError(option + " " + dir + ": is a symbolic link" + (fs::exists(status) ? "" : " to nothing") +
                           (published ? "; the folder is replaced whole when published: give the folder itself" : ""));
  if (fs::exists(status) && !fs::is_directory(status))
    throw study::SpecError(option + " " + dir + ": is a file, not a folder (give a folder, or remove the file)");
  if (published && fs::exists(status)) {  // replaced whole: never the folder we (or the shell) stand in, or above it
    const fs::path here = fs::current_path(ec), target = fs::canonical(p, ec);
    if (!ec && (here == target || within(here, target)))
      throw study::SpecError(option + " " + dir + ": is the current folder or holds it, and the output folder is replaced whole "
                             "when published; give a folder of its own, e.g. " + option + " results");
  }
  fs::path existing = fs::absolute(p, ec);
  while (!existing.empty() && !fs::exists(existing, ec) && existing != existing.parent_path()) existing = existing.parent_path();
  if (!fs::is_directory(existing, ec))
    throw study::SpecError(option + " " + dir + ": " + existing.string() + " is a file, so the folder cannot be made there");
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    throw study::SpecError(option + " " + dir + ": " + existing.string() + " is not writable by this user");
}

/// name=value pairs of --param, each name once and each value non-empty.  Throws SpecError.
std::map<std::string, std::string> param_pairs(const std::vector<std::string>& params) {
  std::map<std::string, std::string> out;
  for (const auto& kv : params) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
      throw study::SpecError("--param '" + kv + "' is not of the form name=value (e.g. --param e=0.7)");
    if (!out.emplace(kv.substr(0, eq), kv.substr(eq + 1)).second)
      throw study::SpecError("--param " + kv.substr(0, eq) + " is given twice");
  }
  return out;
}

struct ReferenceArgs {
  std::string problem;
  std::vector<std::string> params;
  std::string at;
  double tolerance = reference::Options{}.tolerance;
  std::string cache_dir;
  bool cache_dir_given = false;
  bool no_cache = false;
};

int run_reference(const ReferenceArgs& a) {
  reference::Request request;
  request.problem = a.problem;
  for (const auto& [k, v] : param_pairs(a.params)) request.params[k] = v;
  if (!std::isfinite(a.tolerance) || a.tolerance < 1e-29 || a.tolerance > 1e-10)
    throw study::SpecError(fmt::format("--tol {:g}: must lie in [1e-29, 1e-10] (float128 references; the certifying solve is "
                                       "100 x tighter)", a.tolerance));
  if (a.cache_dir_given) check_output_dir(a.cache_dir, "--cache-dir");
  // The problem and its parameters first (their errors name the valid range), then the times against its time scale.
  double time_scale = 1;
  try {
    time_scale = study::problem_facts(a.problem, request.params).period;
  } catch (const study::ParamError& e) {
    throw study::SpecError(e.what());
  }
  if (const std::string why = study::time_scale_problem(a.problem, time_scale); !why.empty()) throw study::SpecError(why);
  const double latest = study::max_time_scales * time_scale;
  for (const auto& t : split_list(a.at, "--at")) {
    double x = 0;
    try {
      request.times.push_back(reference::from_decimal(t));
      x = static_cast<double>(request.times.back());
    } catch (const std::exception&) {
      throw study::SpecError("--at: '" + t + "' is not a number (give times as --at 1,2.5,10)");
    }
    if (!(x >= 0 && x <= latest))
      throw study::SpecError("--at " + t + ": times must lie in [0, " + fmt::format("{:.6g}", latest) + "] (" +
                             fmt::format("{:g}", study::max_time_scales) + " time scales of " + a.problem + ", whose time scale is " +
                             fmt::format("{:.6g}", time_scale) + ")");
    if (request.times.size() > 1 && !(request.times.back() > request.times[request.times.size() - 2]))
      throw study::SpecError("--at: times must increase (" + t + " comes after a later or equal time)");
  }
  if (request.times.empty()) throw study::SpecError("--at: give at least one time, e.g. --at 1,2.5,10");
  reference::Options options;
  options.cancel = &interrupted;
  options.tolerance = a.tolerance;
  options.use_cache = !a.no_cache;
  if (!a.cache_dir.empty()) options.cache_dir = a.cache_dir;
  const reference::Reference r = reference::compute(request, options);

  nlohmann::ordered_json out;
  out["problem"] = r.problem;
  for (const auto& [k, v] : r.params) out["params"][k] = v;
  out["tolerance"] = r.tolerance;
  out["check_tolerance"] = r.check_tolerance;
  out["error_bound"] = {{"relative", reference::to_decimal(r.error_bound)},
                        {"position", reference::to_decimal(r.position_bound)},
                        {"velocity", reference::to_decimal(r.velocity_bound)},
                        {"method", r.bound_method},
                        {"two_tolerance", reference::to_decimal(r.two_tolerance_bound)},
                        {"exact_error", r.exact_error ? nlohmann::ordered_json(reference::to_decimal(*r.exact_error))
                                                      : nlohmann::ordered_json(nullptr)}};
  out["states"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.times.size(); ++i) {
    nlohmann::ordered_json state;
    state["t"] = reference::to_decimal(r.times[i]);
    for (const auto& x : r.q[i]) state["q"].push_back(reference::to_decimal(x));
    for (const auto& x : r.v[i]) state["v"].push_back(reference::to_decimal(x));
    out["states"].push_back(state);
  }
  out["cached"] = r.from_cache;
  out["evaluations"] = r.evaluations;
  std::cout << out.dump(2) << "\n";
  return EXIT_SUCCESS;
}


/// A spec argument: a path, or the name of a shipped spec ("kepler" for study/specs/kepler.toml).
std::filesystem::path resolve_spec(const std::string& arg) {
  if (std::filesystem::exists(arg)) return arg;
  std::vector<std::string> names;
  for (const auto& f : study::shipped_specs()) {
    if (f.stem() == arg) return f;
    names.push_back(f.stem().string());
  }
  throw study::SpecError(arg + ": no such spec file, and no shipped spec of that name" + study::did_you_mean(arg, names) +
                         "; shipped specs: " + study::join(names));
}

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
  double max_evaluations = 1e11;
  bool no_cache = false, rerun = false, quiet = false, no_report = false, png = false;
  std::vector<double> accuracy;  ///< --accuracy: the targets of "which method for which accuracy"
};

struct ReportArgs {
  std::string results = "results";
  std::string out;
  bool no_plots = false, png = false;
  std::vector<double> accuracy;
  std::string gnuplot = "gnuplot";
  double gnuplot_timeout = 60;
  bool out_given = false;
};

/// Renders the report of the results in `results` into `staged` (a staging folder, published by the caller);
/// `shown` is how messages and the report name the results folder.
report::Outcome render_report(const ReportArgs& a, const std::filesystem::path& results, const std::filesystem::path& staged,
                              const std::string& shown) {
  report::Options o;
  o.results = results;
  o.out = staged;
  o.shown_results = shown;
  o.plots = !a.no_plots;
  o.png = a.png;
  o.accuracy = a.accuracy;
  o.gnuplot = a.gnuplot;
  o.gnuplot_timeout = std::chrono::milliseconds(static_cast<long>(1000 * a.gnuplot_timeout));
  o.interrupted = &interrupted;
  return report::render(o);
}

void print_report(const report::Outcome& r, const std::filesystem::path& out, bool quiet) {
  if (!quiet) std::cout << "wrote " << (out / "REPORT.md").string() << " with " << r.plots.size() << " plot(s)\n";
  if (!r.missing.empty()) std::cerr << "study report: " << r.missing.size() << " plot(s) missing: " << r.problem << "\n";
}

/// `study report`: REPORT.md and plots/ rendered into a staging folder and published whole with the folder's
/// other files (results, bench.json, the user's own) carried over: the folder is old or new, never half of each.
int run_report(const ReportArgs& a, bool quiet = false) {
  namespace fs = std::filesystem;
  if (a.out_given) {
    check_output_dir(a.out, "--out");
    // Elsewhere than the results: a new or empty folder, or an earlier report (it is replaced whole), never a folder
    // inside the results (a study's folder would get a summary page) or one holding other results.
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(a.out, ec), source = fs::weakly_canonical(a.results, ec);
    if (target != source) {
      if (within(target, source))
        throw study::SpecError("--out " + a.out + ": lies in the results folder " + a.results + "; give a folder elsewhere (or leave --out "
                               "out to render into " + a.results + " itself)");
      if (fs::exists(fs::path(a.out) / "results.json", ec))
        throw study::SpecError("--out " + a.out + ": holds results of its own (results.json); to render those: study report " + a.out);
      if (fs::is_directory(a.out, ec) && !fs::is_empty(a.out, ec) &&
          !(fs::exists(fs::path(a.out) / "REPORT.md", ec) && fs::is_directory(fs::path(a.out) / "plots", ec)))
        throw study::SpecError("--out " + a.out + ": a folder of other files (not an earlier report: no REPORT.md and plots/), and "
                               "a report's pages replace theirs; give an empty or new folder");
    }
  }
  const fs::path out = a.out.empty() ? a.results : a.out;
  check_output_dir(out.string(), a.out.empty() ? "results folder" : "--out", true);
  const report::Results loaded = report::load(a.results);  // a missing or malformed results file: an error before anything is staged
  (void)report::load_bench(a.results);
  study::StagedFolder staged(out);
  std::vector<std::string> studies;
  for (const auto& s : loaded.studies) studies.push_back(s.name);
  const auto generated = report::generated_entries(studies);
  staged.carry_forward({generated.begin(), generated.end()}, stop_if_interrupted);
  // Read from the results folder itself, also when it is the output: messages name the user's files, not copies.
  const report::Outcome r = render_report(a, a.results, staged.path(), a.results);
  staged.publish();
  print_report(r, out, quiet);
  return EXIT_SUCCESS;
}

struct BenchArgs {
  std::string out = "results";
  double min_time = 0.1;
  int repetitions = 3;
  std::string filter;
  bool console = false, quiet = false, no_report = false;
};

/// `study bench`: the stepper benchmark into DIR/bench.json, then the report again if DIR has results.
int run_bench(const BenchArgs& a) {
#ifdef STUDY_NO_BENCH
  (void)a;
  throw study::SpecError("bench: this `study` is the sanitizer build, which times nothing; use the release build "
                         "(cmake --workflow --preset build)");
#else
#if !defined(NDEBUG) || defined(__SANITIZE_ADDRESS__)
  std::cerr << "study bench: warning: this `study` is a debug or sanitizer build; its timings say little about the "
               "integrators (build the release preset: cmake --workflow --preset build)\n";
#endif
  check_output_dir(a.out, "--out", true);
  bench::Options o;
  o.min_time = a.min_time, o.repetitions = a.repetitions, o.filter = a.filter, o.console = a.console;
  std::ostringstream quiet_log;
  const auto doc = bench::run(o, a.quiet ? static_cast<std::ostream&>(quiet_log) : std::cerr);
  const std::filesystem::path file = std::filesystem::path(a.out) / "bench.json";
  study::write_atomic(file, doc.dump(2) + "\n");
  if (!a.quiet) {
    std::cout << "\n" << report::bench_markdown(*report::load_bench(a.out)) << "wrote " << file.string() << "\n";
  }
  if (a.no_report) return EXIT_SUCCESS;
  if (!std::filesystem::exists(std::filesystem::path(a.out) / "results.json")) {
    if (!a.quiet)
      std::cout << "no results.json in " << a.out << ": the report needs a study too (`study run --out " << a.out
                << "`, which renders the report with this table)\n";
    return EXIT_SUCCESS;
  }
  ReportArgs rep;
  rep.results = a.out;
  return run_report(rep, a.quiet);
#endif
}

/// The --methods files, each checked against the shipped library's ids (a user's table may not silently replace one).
study::tables::Library user_methods(const std::vector<std::string>& files) {
  study::tables::Library lib;
  for (const auto& f : files) lib.add_file(f, study::spec_keys());  // a spec holding tables is a methods file too
  for (const auto* m : lib.methods())
    if (const auto* shipped = study::tables::shipped_library().find(m->table->id))
      throw study::tables::TableError(m->origin + ": methods." + m->table->id + ": also a shipped method (" + shipped->origin +
                                      "); give yours another id");
  return lib;
}

/// A spec from --problem, --integrators, --t-end, --dt (and --param, --metrics, --name), validated like a file.
study::Spec command_line_spec(const RunArgs& a, const study::tables::Library& methods) {
  auto missing = [](const char* option, const char* what) {
    throw study::SpecError(std::string("a study from the command line needs ") + option + " (" + what + ")");
  };
  if (a.integrators.empty()) missing("--integrators", "comma-separated ids, e.g. rk4,ruth3");
  if (a.t_end.empty()) missing("--t-end", "the final time, e.g. 7.3");
  if (a.dt.empty()) missing("--dt", "auto, or comma-separated step sizes");
  auto number = [](const std::string& option, const std::string& text) {
    double x = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec == std::errc::result_out_of_range && end == text.data() + text.size())
      throw study::SpecError(option + " " + text + ": out of range: a double holds magnitudes from 2.2e-308 to 1.8e308" +
                             (option == "--t-end" ? fmt::format(", and t_end must lie within {:g} time scales of the problem",
                                                                study::max_time_scales)
                                                  : std::string()));
    if (ec != std::errc{} || end != text.data() + text.size())
      throw study::SpecError(option + " " + text + ": not a number");
    return x;
  };
  toml::table t;
  t.insert("name", a.name.empty() ? a.problem : a.name);
  t.insert("problem", a.problem);
  toml::table params;
  for (const auto& [k, v] : param_pairs(a.params)) params.insert(k, v);  // decimal strings: the spec reads them exactly
  if (!params.empty()) t.insert("params", std::move(params));
  t.insert("t_end", number("--t-end", a.t_end));
  toml::array ints;
  for (const auto& id : split_list(a.integrators, "--integrators")) ints.push_back(id);
  t.insert("integrators", std::move(ints));
  if (a.dt == "auto") {
    t.insert("dt", "auto");
  } else {
    toml::array dts;
    for (const auto& x : split_list(a.dt, "--dt")) dts.push_back(number("--dt", x));
    t.insert("dt", std::move(dts));
  }
  if (!a.metrics.empty()) {
    toml::array ms;
    for (const auto& m : split_list(a.metrics, "--metrics")) ms.push_back(m);
    t.insert("metrics", std::move(ms));
  }
  std::ostringstream text;
  text << t;
  try {
    return study::parse_spec(text.str(), "command line", &methods);
  } catch (const study::SpecError& e) {
    // "command line:4: dt: ..." -> "command line: dt: ...": the lines of the generated text mean nothing to the user.
    std::string m = e.what();
    if (m.rfind("command line:", 0) == 0) {
      const auto colon = m.find(':', 13);
      if (colon != std::string::npos && m.find_first_not_of("0123456789", 13) == colon) m.erase(12, colon - 12);
    }
    throw study::SpecError(m);
  }
}

int run_study(const RunArgs& a) {
  check_output_dir(a.out, "--out", true);
  if (a.cache_dir_given) check_output_dir(a.cache_dir, "--cache-dir");
  std::vector<study::Spec> specs;
  const study::tables::Library methods = user_methods(a.methods);
  const bool from_options = !a.problem.empty() || !a.integrators.empty() || !a.t_end.empty() || !a.dt.empty() ||
                            !a.params.empty() || !a.metrics.empty() || !a.name.empty();
  if (from_options) {
    if (a.problem.empty())
      throw study::SpecError("--integrators, --t-end, --dt, --param, --metrics and --name make a study from the command line, "
                             "which needs --problem (see study list --problems); a spec file sets them itself");
    if (!a.specs.empty() || !a.profile.empty())
      throw study::SpecError("give --problem (a study from the command line) or spec files or --profile, not both");
    specs.push_back(command_line_spec(a, methods));
  } else if (!a.profile.empty()) {
    if (!a.specs.empty()) throw study::SpecError("give spec files or --profile, not both");
    for (const auto& f : study::profile_specs(a.profile)) specs.push_back(study::load_spec(f, &methods));
  } else if (a.specs.empty()) {
    for (const auto& f : study::shipped_specs()) specs.push_back(study::load_spec(f, &methods));
  } else {
    for (const auto& arg : a.specs) {
      if (arg == "-") {  // a spec on standard input
        const std::optional<std::string> text = study::read_at_most(std::cin);
        if (!text) throw study::SpecError("<stdin>: more than a spec file may hold (" + study::input_limit_text() + ")");
        specs.push_back(study::parse_spec(*text, "<stdin>", &methods));
      } else {
        specs.push_back(study::load_spec(resolve_spec(arg), &methods));
      }
    }
  }
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (specs[i].name == specs[j].name)
        throw study::SpecError(specs[i].file.string() + ": name '" + specs[i].name + "' is also the name of " + specs[j].file.string());

  // The cost, before anything runs: a request that would compute for hours is refused, naming its biggest part.
  double total = 0;
  for (const auto& spec : specs) {
    const study::CostEstimate c = study::estimate_cost(spec);
    total += c.evaluations;
    if (c.evaluations > a.max_evaluations)
      throw study::SpecError(fmt::format("{}: this study would take about {:.2g} force evaluations, above the limit of {:.2g} "
                                         "(most of it: {}); use larger step sizes or a shorter t_end, or raise the limit "
                                         "with --max-evaluations",
                                         spec.file.string(), c.evaluations, a.max_evaluations, c.biggest));
  }
  if (total > a.max_evaluations)
    throw study::SpecError(fmt::format("these {} studies would take about {:.2g} force evaluations together, above the limit "
                                       "of {:.2g}; run fewer at once, or raise the limit with --max-evaluations",
                                       specs.size(), total, a.max_evaluations));

  study::EngineOptions o;
  o.jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!a.cache_dir.empty()) o.cache_dir = a.cache_dir;
  o.use_cache = !a.no_cache;
  o.reuse_runs = !a.rerun;
  o.interrupted = &interrupted;
  const bool tty = ::isatty(STDERR_FILENO);
  int last_tenth = -1;
  std::string last_phase;
  if (!a.quiet)
    o.progress = [&](const std::string& phase, std::size_t done, std::size_t total, const std::string& what) {
      if (tty) {
        const int width = 30, filled = total ? static_cast<int>(width * done / total) : width;
        std::cerr << "\r\033[K" << phase << " [" << std::string(filled, '#') << std::string(width - filled, '-') << "] " << done
                  << "/" << total << "  " << what.substr(0, 50) << (done == total ? "\n" : "") << std::flush;
      } else {
        const int tenth = total ? static_cast<int>(10 * done / total) : 10;
        if (tenth != last_tenth || phase != last_phase)
          std::cerr << "study run: " << phase << " " << done << "/" << total << "\n";
        last_tenth = tenth, last_phase = phase;
      }
    };
  if (!a.quiet)
    std::cerr << "study run: " << specs.size() << " spec(s), " << o.jobs << " job(s), results in " << a.out << "/\n";
  const auto t0 = std::chrono::steady_clock::now();
  const auto results = study::run_studies(specs, o);
  study::Meta meta = study::collect_meta();
  meta.jobs = o.jobs;
  meta.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Results, tables and report built beside the output folder and published with one rename: an interrupted or
  // failed run leaves the folder as it was.  Other files in it (bench.json, the user's) are carried over.
  study::StagedFolder staged(a.out);
  std::optional<report::Outcome> rendered;
  std::string report_failed;  // the results are published even when their report cannot be rendered
  try {
    study::write_results(staged.path(), results, meta);
    std::vector<std::string> studies;
    for (const auto& r : results) studies.push_back(r.spec.name);
    auto replaced = report::generated_entries(studies);
    replaced.push_back("results.json");
    staged.carry_forward({replaced.begin(), replaced.end()}, stop_if_interrupted);
    if (!a.no_report) {
      ReportArgs rep;
      rep.results = a.out;
      rep.png = a.png, rep.accuracy = a.accuracy;
      try {
        rendered = render_report(rep, staged.path(), staged.path(), a.out);
      } catch (const report::ReportError& e) {
        report_failed = e.what();
      }
    }
    staged.publish();
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const report::Interrupted*>(&e) || dynamic_cast<const report::ReportError*>(&e)) throw;
    throw std::runtime_error("the results were not written (" + a.out + " is unchanged): " + e.what());
  }

  if (!a.quiet) {
    for (const auto& r : results) {
      std::cout << r.spec.name << " (" << r.spec.problem << "): " << r.runs.size() << " runs";
      std::size_t diverged = 0, reused = 0;
      for (const auto& run : r.runs) diverged += run.status != "ok", reused += run.reused;
      if (reused) std::cout << " (" << reused << " from the run cache)";
      if (diverged) std::cout << ", " << diverged << " diverged";
      std::cout << "; reference bound " << fmt::format("{:.1e}", r.reference_bound) << "\n";
      for (const auto& w : r.sweeps)
        if (w.automatic && !w.dts.empty())
          std::cout << "  " << fmt::format("{:<34} sweep  {} runs, dt {:.3g}..{:.3g}: {}", w.integrator, w.dts.size(), w.dts.front(),
                                           w.dts.back(), w.stop)
                    << "\n";
      for (const auto& ord : r.orders) {
        std::cout << "  " << fmt::format("{:<34} {:<6} {:<12} ", ord.integrator, ord.metric, ord.verdict.verdict);
        if (ord.fit.determined)
          std::cout << fmt::format("order {:5.2f} in [{:.2f}, {:.2f}] (expected {}) over dt {:.3g}..{:.3g}, {} points", ord.fit.order,
                                   ord.fit.lo, ord.fit.hi, ord.expected, ord.fit.dt_min, ord.fit.dt_max, ord.fit.points);
        if (ord.verdict.verdict == "undetermined")
          std::cout << (ord.fit.determined ? ": " : "") << ord.verdict.reason << (ord.verdict.action.empty() ? "" : "; " + ord.verdict.action);
        std::cout << "\n";
      }
      for (const auto& st : r.stability)
        std::cout << "  " << fmt::format("{:<34} stable up to omega h = {:.6g}{}", st.integrator, st.limit,
                                         st.beyond_search ? " (whole search range)" : "")
                  << "\n";
    }
    std::size_t runs = 0, reused = 0;
    for (const auto& r : results)
      for (const auto& run : r.runs) ++runs, reused += run.reused;
    std::cout << "wrote " << (std::filesystem::path(a.out) / "results.json").string() << " in "
              << fmt::format("{:.1f}", meta.elapsed_seconds) << " s";
    if (reused) std::cout << " (" << reused << " of " << runs << " runs from the run cache, timed again; --rerun measures them anew)";
    std::cout << "\n";
  }
  if (rendered) print_report(*rendered, a.out, a.quiet);
  if (!report_failed.empty()) {
    std::cerr << "study run: the results are in " << a.out << ", but their report could not be rendered: " << report_failed
              << " (study report " << a.out << " tries again)\n";
    return EXIT_FAILURE;
  }
  if (!a.quiet) {  // the answer to "which method for my accuracy", from the results just written
    const report::Results written = report::load(a.out);
    const std::vector<double> targets = report::sorted_targets(a.accuracy);
    if (const std::string lines = report::accuracy_lines(written, report::summary_targets(targets, written)); !lines.empty())
      std::cout << "cheapest method to each accuracy (force evaluations, interpolated on its own runs; each study's REPORT.md has "
                   "wall time and more):\n"
                << lines;
  }
  return EXIT_SUCCESS;
}

struct CheckArgs {
  std::string results = "results";
  std::string baseline, junit;
  double order_tolerance = check::Options{}.order_tolerance;
  std::vector<std::string> studies, integrators;
  bool verbose = false, strict = false;
};

/// Exit status: 0 no check failed, 1 some check failed (--strict: or is undetermined), 2 the input could not be read.
int run_check(const CheckArgs& a) {
  if (!a.junit.empty()) {
    if (const std::string why = study::replace_problem(a.junit); !why.empty()) throw study::SpecError("--junit " + why);
    const auto parent = std::filesystem::path(a.junit).parent_path();
    check_output_dir(parent.empty() ? "." : parent.string(), "--junit's folder");
    if (std::filesystem::is_directory(a.junit)) throw study::SpecError("--junit " + a.junit + ": is a folder; give a file name");
  }
  const report::Results results = report::load(a.results);
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
    std::cout << "study check: FAIL: no check was judged (" << v.count(check::Outcome::undetermined)
              << " undetermined): a gate that judged nothing does not pass; the lines above say what would decide them\n";
  return v.passed(a.strict) ? EXIT_SUCCESS : EXIT_FAILURE;
}

struct BaselineArgs {
  std::string results = "results";
  std::string out;
};

/// A folder `compare` or `history` writes: replaced whole when published, so never one of the results it reads (nor a
/// folder holding one), nor a folder of the user's: an existing one must be empty or hold `page` (an earlier output
/// of the same command), and not the other command's page.
void check_pages_folder(const std::string& out, const std::vector<std::string>& inputs, const std::string& page,
                        const std::string& other_page) {
  namespace fs = std::filesystem;
  check_output_dir(out, "--out", true);
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(out, ec);
  for (const auto& in : inputs) {
    const fs::path source = fs::weakly_canonical(in, ec);
    if (within(source, target))
      throw study::SpecError("--out " + out + ": is the results folder " + in + " or holds it, and the output folder is replaced whole "
                             "when published; give a folder of its own, e.g. --out " + fs::path(page).stem().string());
    if (within(target, source))
      throw study::SpecError("--out " + out + ": lies in the results folder " + in + ", which it would change; give a folder elsewhere");
  }
  if (fs::is_directory(out, ec) && !fs::is_empty(out, ec)) {
    if (fs::exists(fs::path(out) / other_page, ec))
      throw study::SpecError("--out " + out + ": holds " + other_page + " (another command's pages, whose plots would be replaced); "
                             "give this one a folder of its own");
    if (!fs::exists(fs::path(out) / page, ec))
      throw study::SpecError("--out " + out + ": a folder of other files (no " + page + " in it), and the output folder is replaced "
                             "whole when published; give an empty or new folder");
  }
}

/// A file a command writes beside its pages (--junit) must not be inside one of the results it reads.
void check_not_inside(const std::string& file, const std::string& option, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(file, ec);
  for (const auto& in : inputs) {
    const fs::path source = fs::weakly_canonical(in, ec);
    if (within(target, source))
      throw study::SpecError(option + " " + file + ": lies in the results folder " + in + ", which it would change; write it elsewhere");
  }
}


/// Draws the pages' plots with these settings (null: --no-plots).
struct PlotArgs {
  bool no_plots = false;
  std::string gnuplot = "gnuplot";
  double gnuplot_timeout = 60;
  std::optional<report::Gnuplot> make() const {
    if (no_plots) return std::nullopt;
    return report::Gnuplot{gnuplot, false, std::chrono::milliseconds(static_cast<long>(1000 * gnuplot_timeout)), &interrupted};
  }
};

struct CompareArgs {
  std::string old_dir, new_dir, out = "compare", junit;
  std::vector<double> accuracy;
  double error_tolerance = 0.01, order_tolerance = check::Options{}.order_tolerance, time_tolerance = NAN;
  bool quiet = false, verbose = false;
  PlotArgs plots;
};

/// `study compare OLD NEW`: exit 0 nothing worse, 1 something worse (or nothing could be compared), 2 unreadable input.
int run_compare(const CompareArgs& a) {
  namespace fs = std::filesystem;
  if (!a.junit.empty()) {
    if (const std::string why = study::replace_problem(a.junit); !why.empty()) throw study::SpecError("--junit " + why);
    const auto parent = fs::path(a.junit).parent_path();
    check_output_dir(parent.empty() ? "." : parent.string(), "--junit's folder");
    if (fs::is_directory(a.junit)) throw study::SpecError("--junit " + a.junit + ": is a folder; give a file name");
    check_not_inside(a.junit, "--junit", {a.old_dir, a.new_dir});
  }
  check_pages_folder(a.out, {a.old_dir, a.new_dir}, "COMPARE.md", "HISTORY.md");
  const report::Results old = report::load(a.old_dir), now = report::load(a.new_dir);
  check::CompareOptions o;
  o.error_tolerance = a.error_tolerance, o.order_tolerance = a.order_tolerance, o.time_tolerance = a.time_tolerance;
  o.targets = report::sorted_targets(a.accuracy);
  std::error_code same_ec;
  if (fs::equivalent(a.old_dir, a.new_dir, same_ec))
    std::cerr << "study compare: warning: " << a.old_dir << " and " << a.new_dir << " are the same folder: nothing can have changed\n";
  const check::Comparison c = check::compare(old, now, o);
  if (!a.quiet) std::cout << report::compare_text(c, o);
  for (const auto& x : c.verdict.outcomes)
    if (x.status == check::Outcome::fail) std::cout << "WORSE" << x.line().substr(4) << "\n";  // "FAIL ...": worse than before
    else if (a.verbose) std::cout << x.line() << "\n";
  study::StagedFolder staged(a.out);
  staged.carry_forward({"COMPARE.md", "plots"}, stop_if_interrupted);
  const auto gnuplot = a.plots.make();
  const report::PagesOutcome pages = report::render_compare(old, now, a.old_dir, a.new_dir, c, o, staged.path(), gnuplot ? &*gnuplot : nullptr,
                                                            std::max(1u, std::thread::hardware_concurrency()));
  stop_if_interrupted();
  if (!a.junit.empty()) study::write_atomic(a.junit, check::junit_xml(c.verdict, "study compare"));  // before: a failed write publishes nothing
  staged.publish();
  const std::size_t worse = c.verdict.count(check::Outcome::fail);
  std::cout << fmt::format("study compare: {} comparisons of {} methods: {} worse, {} not worse, {} with nothing to compare{}; wrote {}\n",
                           c.verdict.outcomes.size(), c.methods.size(), worse, c.verdict.count(check::Outcome::pass),
                           c.verdict.count(check::Outcome::undetermined),
                           std::isfinite(a.time_tolerance) ? "" : " (timing shown, not judged: --time-tolerance judges it)",
                           (fs::path(a.out) / "COMPARE.md").string());
  if (!pages.missing.empty()) std::cerr << "study compare: " << pages.missing.size() << " plot(s) missing: " << pages.problem << "\n";
  if (worse == 0 && c.verdict.count(check::Outcome::pass) == 0)
    std::cout << "study compare: FAIL: nothing could be compared (no study and method in both, or nothing measured in both)\n";
  return c.verdict.passed() ? EXIT_SUCCESS : EXIT_FAILURE;
}

struct HistoryArgs {
  std::vector<std::string> dirs;
  std::string out = "history";
  std::vector<double> accuracy;
  bool quiet = false;
  PlotArgs plots;
};

/// `study history DIR...`: exit 0, or 2 when a folder cannot be read.
int run_history(const HistoryArgs& a) {
  namespace fs = std::filesystem;
  if (a.dirs.size() < 2) throw study::SpecError("history needs at least two results folders, in order (oldest first)");
  check_pages_folder(a.out, a.dirs, "HISTORY.md", "COMPARE.md");
  report::History h;
  h.names = a.dirs, h.targets = report::sorted_targets(a.accuracy);
  for (const auto& d : a.dirs) {
    stop_if_interrupted();
    h.results.push_back(report::load(d));
  }
  if (!a.quiet) std::cout << report::history_text(h);
  study::StagedFolder staged(a.out);
  staged.carry_forward({"HISTORY.md", "plots"}, stop_if_interrupted);
  const auto gnuplot = a.plots.make();
  const report::PagesOutcome pages =
      report::render_history(h, staged.path(), gnuplot ? &*gnuplot : nullptr, std::max(1u, std::thread::hardware_concurrency()));
  stop_if_interrupted();
  staged.publish();
  std::cout << "wrote " << (fs::path(a.out) / "HISTORY.md").string() << " with " << pages.plots.size() << " plot(s)\n";
  if (!pages.missing.empty()) std::cerr << "study history: " << pages.missing.size() << " plot(s) missing: " << pages.problem << "\n";
  return EXIT_SUCCESS;
}

int run_baseline(const BaselineArgs& a) {
  if (a.out.empty()) throw study::SpecError("--out \"\": give the baseline's file name, e.g. --out baseline.toml");
  const report::Results results = report::load(a.results);
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

void list_specs() {
  fmt::print("\nSpecs ({}; `study run` with no argument runs them all, the default study):\n",
             (study::data_dir() / "specs").string());
  for (const auto& file : study::shipped_specs()) {
    try {
      const study::Spec s = study::load_spec(file);
      const std::string dts = s.auto_dt ? "auto" : fmt::format("{:>2} dt", s.steps.size());
      fmt::print("  {:<24} {:<20} {:>2} integrators x {:>5}  {}\n", s.name, s.problem, s.integrators.size(), dts, s.title);
    } catch (const study::SpecError& e) {
      fmt::print("  {:<24} INVALID: {}\n", file.stem().string(), e.what());
    }
  }
  fmt::print("\nProfiles ({}; `study run --profile NAME`, then `study check --baseline` its baseline):\n",
             (study::data_dir() / "profiles").string());
  for (const auto& name : study::profile_names()) {
    std::vector<std::string> names;
    for (const auto& f : study::profile_specs(name)) names.push_back(f.stem().string());
    const auto baseline = study::profile_baseline(name);
    fmt::print("  {:<24} {} spec(s): {}; baseline {}\n", name, names.size(), study::join(names),
               std::filesystem::exists(baseline) ? baseline.string() : "none");
  }
}

/// `study method FILE|ID...`: what the coefficients of each method say, without running anything.
int run_method(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    const auto& builtin = study::tables::builtin_tables();
    if (const auto it = builtin.find(arg); it != builtin.end()) {
      std::cout << study::tables::describe(it->second) << "\n";
    } else if (const auto* m = study::tables::shipped_library().find(arg)) {
      std::cout << study::tables::describe(*m) << "\n";
    } else if (std::filesystem::exists(arg)) {
      const study::tables::Library file = study::tables::read_methods_file(arg, study::spec_keys());  // alive while its methods are printed
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

static int study_main(int argc, char** argv) {
  // CLI::Range lets NaN through (every comparison with it is false): each number option is checked finite too.
  const CLI::Validator finite([](std::string& x) { return std::isfinite(std::strtod(x.c_str(), nullptr)) ? "" : "must be a finite number"; },
                              "FINITE");
  // An accuracy target: a relative error strictly between 0 and 1.
  const CLI::Validator accuracy_target(
      [](std::string& x) {
        const double v = std::strtod(x.c_str(), nullptr);
        return std::isfinite(v) && v >= 1e-300 && v < 1 ? "" : "an accuracy is a relative error from 1e-300 to below 1, e.g. 1e-8";
      },
      "ACCURACY");
  CLI::App app{"study: measure how accurate ODE integrators really are (orders, energy drift, cost) against "
               "high-precision references"};
  app.require_subcommand(1);
  auto* list = app.add_subcommand("list", "list the integrators and problems with their properties");
  bool only_integrators = false, only_problems = false, only_specs = false;
  list->add_flag("--integrators", only_integrators, "only the integrators");
  list->add_flag("--problems", only_problems, "only the problems");
  list->add_flag("--specs", only_specs, "only the shipped specs");
  app.set_version_flag("--version", std::string("study ") + STUDY_VERSION + " (source revision " + study::source_revision() + ")",
                       "print the version and the source revision, and exit");
  RunArgs run;
  auto* runcmd = app.add_subcommand("run", "run convergence studies: every integrator of each spec across its dt sweep, "
                                           "against certified references; writes results.json and CSV tables");
  runcmd->add_option("specs", run.specs, "spec files, names of shipped specs, or - for a spec on standard input (default: "
                                         "every shipped spec, the default study)");
  runcmd->add_option("--methods", run.methods, "a file of method tables ([methods.ID], repeatable): its ids may be listed as "
                                               "integrators (README, \"Study your own method\")");
  runcmd->add_option("--problem", run.problem, "a study from the command line, without a spec file: the problem id "
                                               "(needs --integrators, --t-end, --dt)");
  runcmd->add_option("--param,-p", run.params, "with --problem: a parameter as name=value (repeatable), e.g. --param e=0.7");
  runcmd->add_option("--integrators", run.integrators, "with --problem: comma-separated integrator ids, e.g. rk4,ruth3");
  runcmd->add_option("--t-end", run.t_end, "with --problem: the final time");
  runcmd->add_option("--dt", run.dt, "with --problem: auto (chosen from the errors as it runs), or comma-separated step sizes "
                                     "that divide t_end");
  runcmd->add_option("--metrics", run.metrics, "with --problem: comma-separated metrics (default global,local,energy,walltime)");
  runcmd->add_option("--name", run.name, "with --problem: the study's name (default: the problem's id)");
  runcmd->add_option("--profile", run.profile, "run a profile's specs instead (study/profiles/NAME/; `ci`: the fast CI gate)");
  runcmd->add_option("--out,-o", run.out, "output directory (default: results)");
  runcmd->add_option("--jobs,-j", run.jobs, "threads (default: every core); results do not depend on it")->check(CLI::Range(1, 256));
  runcmd->add_option("--cache-dir", run.cache_dir,
                     "cache directory: references, with the long double round-off shadows in DIR/roundoff/ and whole runs "
                     "in DIR/runs/ (default $STUDY_CACHE_DIR or ~/.cache/ode-study/reference)");
  runcmd->add_flag("--no-cache", run.no_cache, "neither read nor write any cache: compute everything");
  runcmd->add_option("--max-evaluations", run.max_evaluations,
                     "refuse a request whose estimated cost (force evaluations of every run, long energy run and "
                     "reference) is above this, before anything runs (default 1e11, about half an hour)")
      ->check(CLI::Range(1.0, 1e18))
      ->check(finite);
  runcmd->add_flag("--rerun", run.rerun,
                   "measure every run again, not from the run cache (references and round-off shadows still come "
                   "from the cache); a cached run is the same bytes, its wall time is always measured again");
  runcmd->add_flag("--quiet,-q", run.quiet, "no progress and no summary");
  runcmd->add_flag("--no-report", run.no_report, "do not render REPORT.md and the plots at the end");
  runcmd->add_option("--accuracy", run.accuracy, "a relative global error to say which method reaches at the least cost "
                                                 "(repeatable; default: the decades from 1e-3 down to the smallest error reached)")
      ->check(accuracy_target);
  runcmd->add_flag("--png", run.png, "draw a PNG beside each SVG plot (three times gnuplot's work)");

  ReportArgs rep;
  auto* repcmd = app.add_subcommand("report", "render REPORT.md and the plots (gnuplot: SVG, PNG, with their .gp scripts "
                                              "and data) from a results directory, without recomputing anything");
  repcmd->add_option("results", rep.results, "results directory holding results.json (default: results)");
  repcmd->add_option("--out,-o", rep.out, "where REPORT.md and plots/ go (default: the results directory)");
  repcmd->add_flag("--no-plots", rep.no_plots, "write the plot data and scripts but do not run gnuplot");
  repcmd->add_option("--accuracy", rep.accuracy, "a relative global error to say which method reaches at the least cost, "
                                                 "interpolated on each method's own runs (repeatable, e.g. --accuracy 1e-8; "
                                                 "default: the decades from 1e-3 down to the smallest error reached)")
      ->check(accuracy_target);
  repcmd->add_flag("--png", rep.png, "draw a PNG beside each SVG plot (three times gnuplot's work)");
  repcmd->add_option("--gnuplot", rep.gnuplot, "the gnuplot program: a name on PATH or a path, started without a shell "
                                               "(default: gnuplot)");
  repcmd->add_option("--gnuplot-timeout", rep.gnuplot_timeout, "seconds one plot may take before gnuplot is stopped and the "
                                                               "plot reported missing (default 60)")
      ->check(CLI::Range(0.1, 3600.0))
      ->check(finite);

  CheckArgs chk;
  auto* chkcmd = app.add_subcommand("check", "the CI gate: check a results directory against the integrators' declared "
                                             "orders, bounded energy, identities and (with --baseline) committed error constants");
  chkcmd->add_option("results", chk.results, "results directory holding results.json (default: results)");
  chkcmd->add_option("--baseline", chk.baseline, "baseline of error constants (TOML, written by `study baseline`)");
  chkcmd->add_option("--junit", chk.junit, "also write the verdict as JUnit XML to this file");
  chkcmd->add_option("--order-tolerance", chk.order_tolerance, "largest |observed - expected| order (default 0.2)")
      ->check(CLI::Range(0.01, 1.0))
      ->check(finite);
  chkcmd->add_option("--study", chk.studies, "check only this study (repeatable); it must be in the results");
  chkcmd->add_option("--integrator", chk.integrators, "check only this integrator, a label or an id (repeatable); it must be "
                                                      "in the results");
  chkcmd->add_flag("--verbose,-v", chk.verbose, "print every check, also those that pass");
  chkcmd->add_flag("--strict", chk.strict, "an undetermined check fails too (for a CI that wants every check decided)");
  chkcmd->footer("Every check is PASS, FAIL, or UNDETERMINED when the data cannot decide (it then says why and what would\n"
                 "decide it). One line per failed or undetermined check: study (problem) | integrator | metric | expected |\n"
                 "observed | window | how far off, or why undetermined | to decide: what to do.\n"
                 "Exit status: 0 no check failed and at least one passed, 1 a check failed, no check could be judged, or a\n"
                 "--study/--integrator is missing (--strict: or a check is undetermined), 2 unreadable results or baseline.");

  auto plot_options = [&](CLI::App* cmd, PlotArgs& p) {
    cmd->add_flag("--no-plots", p.no_plots, "write the plot data and scripts but do not run gnuplot");
    cmd->add_option("--gnuplot", p.gnuplot, "the gnuplot program: a name on PATH or a path, started without a shell (default: gnuplot)");
    cmd->add_option("--gnuplot-timeout", p.gnuplot_timeout, "seconds one plot may take (default 60)")->check(CLI::Range(0.1, 3600.0))->check(finite);
  };
  CompareArgs cmp;
  auto* cmpcmd = app.add_subcommand("compare", "compare two results folders run for run and fit for fit (your code before and "
                                               "after a change): orders, error constants, cost to accuracy targets, time per step, "
                                               "energy, divergence; exit 1 when something got worse beyond the tolerances");
  cmpcmd->add_option("old", cmp.old_dir, "the results folder before (holding results.json)")->required();
  cmpcmd->add_option("new", cmp.new_dir, "the results folder after")->required();
  cmpcmd->add_option("--out,-o", cmp.out, "where COMPARE.md and its plots go (default: compare); replaced whole");
  cmpcmd->add_option("--error-tolerance", cmp.error_tolerance,
                     "an error (where the old one is above 1000 x its noise floor) or a cost to an accuracy larger by more than "
                     "this fraction is worse (default 0.01)")
      ->check(CLI::Range(0.0, 100.0))
      ->check(finite);
  cmpcmd->add_option("--order-tolerance", cmp.order_tolerance, "an order lower by more than this, its interval apart, is worse (default 0.2)")
      ->check(CLI::Range(0.01, 5.0))
      ->check(finite);
  cmpcmd->add_option("--time-tolerance", cmp.time_tolerance,
                     "a time per step slower by more than this fraction and more than the timing noise is worse (default: timing "
                     "is shown, never judged)")
      ->check(CLI::Range(0.0, 100.0))
      ->check(finite);
  cmpcmd->add_option("--accuracy", cmp.accuracy, "an accuracy target to compare costs at (repeatable; default: the decades from 1e-3)")
      ->check(accuracy_target);
  cmpcmd->add_option("--junit", cmp.junit, "also write the judgement as JUnit XML to this file");
  cmpcmd->add_flag("--quiet,-q", cmp.quiet, "no table, only what got worse and the summary");
  cmpcmd->add_flag("--verbose,-v", cmp.verbose, "print every comparison, also those not worse");
  plot_options(cmpcmd, cmp.plots);
  cmpcmd->footer("Runs are matched by study, method and step size; fits by study, method and metric. Added and removed studies and\n"
                 "methods are listed, not judged. Exit status: 0 nothing got worse, 1 something got worse (or nothing could be\n"
                 "compared), 2 unreadable results or a bad option.");

  HistoryArgs hist;
  auto* histcmd = app.add_subcommand("history", "track results folders in order (one per commit, as CI keeps artefacts): each "
                                                "method's error constant, observed order, cost to accuracy targets and time per "
                                                "step across them, as tables and plots");
  histcmd->add_option("folders", hist.dirs, "results folders, oldest first (at least two)")->required();
  histcmd->add_option("--out,-o", hist.out, "where HISTORY.md and its plots go (default: history); replaced whole");
  histcmd->add_option("--accuracy", hist.accuracy, "an accuracy target to track the cost to (repeatable; default: 1e-3, 1e-6, ...)")
      ->check(accuracy_target);
  histcmd->add_flag("--quiet,-q", hist.quiet, "no table on the terminal");
  plot_options(histcmd, hist.plots);

  BaselineArgs base;
  auto* basecmd = app.add_subcommand("baseline", "write (or update) a baseline of error constants from a results directory, "
                                                 "for `study check --baseline`");
  basecmd->add_option("results", base.results, "results directory holding results.json (default: results)");
  basecmd->add_option("--out,-o", base.out, "the baseline file; an existing one is updated: its other studies and "
                                            "its tolerance are kept, and the changes are listed")->required();

  BenchArgs bch;
  auto* benchcmd = app.add_subcommand("bench", "time every integrator per step beside Boost.Odeint's steppers and the force "
                                               "floor (kepler, harmonic, outer-solar-system); writes bench.json, which the "
                                               "report includes");
  benchcmd->add_option("--out,-o", bch.out, "results directory to write bench.json into (default: results)");
  benchcmd->add_option("--min-time", bch.min_time, "seconds of timing per benchmark and repetition (default 0.1)")
      ->check(CLI::Range(1e-6, 60.0))
      ->check(finite);
  benchcmd->add_option("--repetitions", bch.repetitions, "repetitions, interleaved at random; the fastest is kept (default 3)")
      ->check(CLI::Range(1, 100));
  benchcmd->add_option("--filter", bch.filter, "only benchmarks whose problem/integrator matches this regular expression "
                                               "(e.g. 'kepler/rk4'); the floor and Odeint counterparts come along");
  benchcmd->add_flag("--console", bch.console, "show Google Benchmark's own table as it runs");
  benchcmd->add_flag("--quiet,-q", bch.quiet, "no progress and no table");
  benchcmd->add_flag("--no-report", bch.no_report, "do not render REPORT.md again afterwards");
  benchcmd->footer("Takes about 30 s with the defaults. Run it on a quiet machine, on the release build; "
                   "the table is in REPORT.md under 'Time per step against Boost.Odeint'.");

  std::vector<std::string> method_args;
  auto* methodcmd = app.add_subcommand("method", "what a method's coefficients say, without running anything: its order "
                                                 "predicted from Butcher's order conditions, the first failing condition, "
                                                 "its principal error coefficient, symplectic, symmetric, cost");
  methodcmd->add_option("methods", method_args, "methods files ([methods.ID] tables) or ids of method tables "
                                                "(shipped, or built-in ones that are tables)")->required();
  methodcmd->footer("A table that declares a higher order than its coefficients have is refused, naming the first failing "
                    "condition (exit status 2).");

  ReferenceArgs ref;
  auto* refcmd = app.add_subcommand("reference",
                                    "print the high-precision reference state of a problem at given times, as JSON with "
                                    "every float128 digit, and its certified error bound");
  refcmd->add_option("problem", ref.problem, "problem id (see study list)")->required();
  refcmd->add_option("--param,-p", ref.params, "parameter as name=value (repeatable), e.g. --param e=0.9");
  refcmd->add_option("--at", ref.at, "comma-separated times >= 0, increasing, e.g. --at 1,2.5,10")->required();
  refcmd->add_option("--tol", ref.tolerance, "Bulirsch-Stoer tolerance of the reference solve (default 1e-28)");
  refcmd->add_option("--cache-dir", ref.cache_dir, "cache directory (default $STUDY_CACHE_DIR or ~/.cache/ode-study/reference)");
  refcmd->add_flag("--no-cache", ref.no_cache, "neither read nor write the cache");
  refcmd->footer("The bound is max(2|x(tol) - x(tol/100)| + 100 eps evaluations, |x - exact|) relative to the "
                 "largest |q| and |v| on the requested samples; the exact term only where the problem has an exact solution.");

  if (argc > 1 && argv[1][0] != '-') {  // an unknown command gets a suggestion, not just "a subcommand is required"
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      std::cerr << "study: unknown command '" << argv[1] << "'" << study::did_you_mean(argv[1], names)
                << "; commands: " << study::join(names) << " (see study --help)\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is a usage error: 2, as documented.  An unknown option
    // gets a suggestion from the command's own (--acuracy: did you mean --accuracy?).
    if (argc > 1 && dynamic_cast<const CLI::ExtrasError*>(&e)) {
      const CLI::App* sub = nullptr;
      try {
        sub = app.get_subcommand(argv[1]);
      } catch (const CLI::Error&) {
      }
      if (sub) {
        std::vector<std::string> names;
        for (const auto* opt : sub->get_options())
          for (const auto& n : opt->get_lnames()) names.push_back("--" + n);
        for (int i = 2; i < argc; ++i) {
          const std::string arg = argv[i], flag = arg.substr(0, arg.find('='));
          if (flag.rfind("--", 0) == 0 && std::find(names.begin(), names.end(), flag) == names.end()) {
            std::cerr << "study " << argv[1] << ": unknown option '" << flag << "'" << study::did_you_mean(flag, names) << " (see study "
                      << argv[1] << " --help)\n";
            return 2;
          }
        }
      }
    }
    if (argc > 1 && std::string(argv[1]) == "compare" && dynamic_cast<const CLI::RequiredError*>(&e)) {
      std::cerr << "study compare: give two results folders, the old one first: study compare OLD NEW (see study compare --help)\n";
      return 2;
    }
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  // An option given as "" is an error, not its default (--out "" would write into the current folder, --problem ""
  // would run the default study).
  for (const auto* sub : app.get_subcommands())
    for (const auto* opt : sub->get_options())
      for (const auto& value : opt->results())
        if (value.empty() && opt->get_type_size() != 0) {
          std::cerr << "study " << sub->get_name() << ": " << (opt->get_name().empty() ? "an argument" : opt->get_name())
                    << " \"\": an empty value; give one (see study " << sub->get_name() << " --help)\n";
          return 2;
        }
  run.cache_dir_given = runcmd->count("--cache-dir") > 0;
  ref.cache_dir_given = refcmd->count("--cache-dir") > 0;
  rep.out_given = repcmd->count("--out") > 0;
  std::signal(SIGINT, on_interrupt);  // every command stops at the next check of the flag; a second signal at once
  std::signal(SIGTERM, on_interrupt);
  study::cancel_flag.store(&interrupted);  // the long loops outside the engine ask it too (a table's order conditions)
  try {
    if (*refcmd) return run_reference(ref);
    if (*runcmd) return run_study(run);
    if (*repcmd) return run_report(rep);
    if (*chkcmd) return run_check(chk);
    if (*basecmd) return run_baseline(base);
    if (*cmpcmd) return run_compare(cmp);
    if (*histcmd) return run_history(hist);
    if (*benchcmd) return run_bench(bch);
    if (*methodcmd) return run_method(method_args);
    if (*list) {
      study::tables::shipped_library();  // a broken library is an error (exit 2), not a half-printed list
      const bool all = !only_integrators && !only_problems && !only_specs;
      if (all || only_integrators) list_integrators();
      if (all || only_problems) list_problems();
      if (all || only_specs) list_specs();
    }
  } catch (const study::Interrupted&) {
    const std::string command = app.get_subcommands().empty() ? "study" : "study " + app.get_subcommands().front()->get_name();
    std::cerr << "\n" << command << (*runcmd ? ": interrupted; no results were written\n" : ": interrupted; nothing was written\n");
    return 130;
  } catch (const reference::Cancelled&) {
    std::cerr << "\nstudy reference: interrupted; nothing was cached\n";
    return 130;
  } catch (const report::Interrupted&) {
    std::cerr << "\nstudy " << app.get_subcommands().front()->get_name() << ": interrupted; the report was not written\n";
    return 130;
  } catch (const study::SpecError& e) {
    std::cerr << "study: " << e.what() << "\n";
    return 2;
  } catch (const study::tables::TableError& e) {
    std::cerr << "study: " << e.what() << "\n";
    return 2;
  } catch (const report::ReportError& e) {
    std::cerr << "study " << app.get_subcommands().front()->get_name() << ": " << e.what() << "\n";
    return 2;
#ifndef STUDY_NO_BENCH
  } catch (const bench::BenchError& e) {
    std::cerr << "study bench: " << e.what() << "\n";
    return 2;
#endif
  } catch (const check::BaselineError& e) {
    std::cerr << "study " << app.get_subcommands().front()->get_name() << ": " << e.what() << "\n";
    return 2;
  } catch (const reference::ReferenceError& e) {
    std::cerr << "study " << app.get_subcommands().front()->get_name() << ": " << e.what() << "\n";
    return 1;
  } catch (const study::DataDirError& e) {
    std::cerr << "study: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "study " << app.get_subcommands().front()->get_name() << ": " << e.what() << "\n";
    return 2;
  }
  return EXIT_SUCCESS;
}

namespace study {

/// Every error is a message and an exit status: nothing uncaught reaches the runtime (an abort, exit 134).
int cli_main(int argc, char** argv) {
  try {
    if (const auto errors = registration_errors(); !errors.empty()) {  // a registration refused: before anything runs
      for (const auto& e : errors) std::cerr << "study: this program's registration of " << e << "\n";
      return 2;
    }
    return study_main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "study: " << e.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "study: an unknown error\n";
    return 2;
  }
}

}  // namespace study
