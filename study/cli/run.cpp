// `study run [SPEC...]`: every integrator of each spec across its dt sweep against certified references, into
// results.json, the CSV tables and the report, published whole.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "reports/markdown.hpp"
#include "reference/reference.hpp"
#include "study/reader/accuracy.hpp"
#include "study/reader/model.hpp"
#include "study/cli/options.hpp"
#include "study/cli/report.hpp"
#include "study/cli/run.hpp"
#include "study/common/atomic_file.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/printable.hpp"
#include "study/common/publish.hpp"
#include "study/common/results_folder.hpp"
#include "study/engine.hpp"
#include "study/fit/reference_bound.hpp"
#include "study/ranks/ranks.hpp"
#include "study/results/write.hpp"

namespace study::cli {

std::string progress_bar(std::size_t done, std::size_t total, int width) {
  const auto cells = static_cast<std::size_t>(std::max(0, width));
  const std::size_t filled = total ? std::min(cells, cells * done / total) : cells;
  return "[" + std::string(filled, '#') + std::string(cells - filled, '-') + "]";
}

namespace {

/// A warning (even with --quiet) for each study whose reference is too coarse for the errors measured against it.
void warn_coarse_references(const std::vector<StudyResult>& results) {
  for (const auto& r : results) {
    const double largest = study::largest_error(r.runs);
    if (const std::string why = study::reference_bound_problem(r.reference_bound, largest, r.reference_tolerance); !why.empty())
      std::cerr << "study run: warning: " << r.spec.name << ": " << why << " (study check refuses these results until then)\n";
  }
}

/// What each study measured, its sweeps, orders and stability limits, and where the results are.

void print_summary(const std::vector<StudyResult>& results, const Meta& meta, const std::string& out) {
  for (const auto& r : results) {
    std::cout << r.spec.name << " (" << r.spec.problem << "): " << r.runs.size() + r.adaptive_runs.size() << " runs";
    std::size_t diverged = 0, reused = 0;
    for (const auto& run : r.runs) diverged += run.status != "ok", reused += run.reused;
    for (const auto& run : r.adaptive_runs) reused += run.reused;
    if (reused) std::cout << " (" << reused << " from the run cache)";
    if (diverged) std::cout << ", " << diverged << " diverged";
    std::cout << "; reference bound " << fmt::format("{:.1e}", r.reference_bound) << "\n";
    for (const auto& w : r.sweeps)
      if ((w.automatic || w.cause != SweepStop::none) && !w.dts.empty())
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
    for (const auto& p : r.proportionality) {
      long runs = 0, stopped = 0, accepted_lo = 0, accepted_hi = 0;
      for (const auto& a : r.adaptive_runs)
        if (a.integrator == p.integrator) {
          ++runs, stopped += a.status != "ok";
          if (a.status == "ok") accepted_lo = accepted_lo ? std::min(accepted_lo, a.accepted) : a.accepted, accepted_hi = std::max(accepted_hi, a.accepted);
        }
      std::cout << "  " << fmt::format("{:<34} {:<6} {:<12} ", p.integrator, "tol", p.verdict.verdict);
      if (p.fit.determined)
        std::cout << fmt::format("slope {:5.2f} in [{:.2f}, {:.2f}] (expected {:g}) over tol {:.3g}..{:.3g}, {} points; ", p.fit.order, p.fit.lo,
                                 p.fit.hi, p.expected, p.fit.dt_min, p.fit.dt_max, p.fit.points);
      else
        std::cout << p.verdict.reason << "; ";
      std::cout << fmt::format("{} tolerances, {}..{} accepted steps", runs, accepted_lo, accepted_hi)
                << (stopped ? fmt::format(", {} stopped before t_end", stopped) : std::string()) << "\n";
    }
    // A pair with no fit (fewer than 3 tolerances): said, with what would give it one, never left out silently.
    for (const auto& a : r.spec.adaptive)
      if (std::none_of(r.proportionality.begin(), r.proportionality.end(), [&](const auto& p) { return p.integrator == a.label; }))
        std::cout << "  " << fmt::format("{:<34} {:<6} {:<12} ", a.label, "tol", "undetermined") << no_slope_reason(r.spec.tolerances.size())
                  << "\n";
    // Each long energy run (a pair's at energy_tol), by the rule of the report's long-run table.
    for (const auto& e : r.energy_long) {
      report::LongRow row;
      row.integrator = e.integrator, row.status = e.status, row.dt = e.dt, row.steps = e.steps, row.tol = e.tol, row.max_rel = e.max_rel;
      row.growth = e.growth_exponent, row.growth_lo = e.growth_lo, row.growth_hi = e.growth_hi;
      std::cout << "  " << fmt::format("{:<34} {:<6} {:<12} ", e.integrator, "energy", report::behaviour_word(report::long_run_behaviour(row)))
                << (e.tol > 0 ? fmt::format("long run at tol {:g}, {} accepted steps", e.tol, e.steps)
                              : fmt::format("long run at dt {:g}, {} steps", e.dt, e.steps))
                << (e.status != "ok" ? ": " + (e.reason.empty() ? e.status + fmt::format(" at t = {:g}", e.diverged_t) : e.reason)
                    : std::isfinite(e.growth_lo)
                        ? fmt::format(": growth exponent {:.2f} in [{:.2f}, {:.2f}], largest error {:.2e}", e.growth_exponent, e.growth_lo,
                                      e.growth_hi, e.max_rel)
                        : fmt::format(": largest error {:.2e}, no growth exponent", e.max_rel))
                << "\n";
    }
    for (const auto& st : r.stability)
      std::cout << "  " << fmt::format("{:<34} stable up to omega h = {:.6g}{}", st.integrator, st.limit,
                                       st.beyond_search ? " (whole search range)" : "")
                << "\n";
  }
  std::size_t runs = 0, reused = 0;
  for (const auto& r : results) {
    for (const auto& run : r.runs) ++runs, reused += run.reused;
    for (const auto& run : r.adaptive_runs) ++runs, reused += run.reused;
  }
  std::cout << "wrote " << (std::filesystem::path(out) / "results.json").string() << " in "
            << fmt::format("{:.1f}", meta.elapsed_seconds) << " s";
  if (reused) std::cout << " (" << reused << " of " << runs << " runs from the run cache, timed again; --rerun measures them anew)";
  std::cout << "\n";
}

/// The engine's options from the command line (every rank's the same).
study::EngineOptions engine_options(const RunArgs& a, const ranks::Ranks* spread) {
  study::EngineOptions o;
  o.jobs = a.jobs > 0 ? a.jobs : spread ? spread->default_threads() : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!a.cache_dir.empty()) o.cache_dir = a.cache_dir;
  o.use_cache = !a.no_cache;
  o.reuse_runs = !a.rerun;
  o.reference_work = std::make_shared<std::atomic<double>>(a.limits.work);
  return o;
}

/// Refusals that hold on every rank of a launch, before any work.
void check_for_ranks(const RunArgs& a, int size) {
  if (size > 1 && std::find(a.specs.begin(), a.specs.end(), "-") != a.specs.end())
    throw study::SpecError(fmt::format("a spec on standard input (-) reaches rank 0 only, and this study runs on {} ranks: give the "
                                       "spec as a file every rank can read",
                                       size));
}

/// A rank other than the leader: the same specs and engine, its share of the work; the leader writes and says
/// everything, this rank nothing (an error of its own goes to the leader, which fails with it).
int run_follower(const RunArgs& a, const std::shared_ptr<ranks::Ranks>& spread) {
  try {
    check_for_ranks(a, spread->size());
    if (a.cache_dir_given) check_output_dir(a.cache_dir, "--cache-dir");
    const std::vector<Spec> specs = specs_to_run(a);
    study::EngineOptions o = engine_options(a, spread.get());
    spread->threads(o.jobs);
    o.spread = spread;
    study::run_studies(specs, o);
    return EXIT_SUCCESS;
  } catch (const ranks::Released&) {
    return EXIT_SUCCESS;  // the leader stopped the run, and says why
  } catch (const Interrupted&) {
    return interrupted_status();  // told to the leader, which says what was stopped
  } catch (const std::exception& e) {
    const std::string kind = ranks::error_kind(e);
    spread->fail(kind, e.what());
    return ranks::error_status(kind);
  }
}

/// The task log (--task-log): every item, the references first, each with the rank that ran it, its seconds and
/// the plan's estimate.
/// The top-level entries of an earlier results folder that no run or report writes: the user's own files.  A run's are
/// its results, marker, pages, plots, bench.json and the study folders its results.json names (an unreadable one
/// names none: its folders are kept rather than lost).
std::vector<std::string> entries_not_the_runs(const std::filesystem::path& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(out, ec))) return {};
  std::set<std::string> ours{"results.json", study::results_marker, "bench.json", "REPORT.md", "CLAIMS.md", "BENCH.md", "plots"};
  bool named = false;
  try {
    std::ifstream in(out / "results.json", std::ios::binary);
    const nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& st : j.at("studies")) ours.insert(st.at("name").get<std::string>());
    named = true;
  } catch (const std::exception&) {
  }
  std::vector<std::string> theirs;
  for (const auto& e : fs::directory_iterator(out, ec)) {
    const std::string name = e.path().filename().string();
    const bool scan_page = name.rfind("SCAN-", 0) == 0 && name.size() > 8 && name.ends_with(".md");
    std::error_code e2;  // a results.json that cannot be read names no study: a folder holding runs.csv is one
    const bool study_folder = !named && fs::is_directory(e.symlink_status(e2)) && fs::exists(e.path() / "runs.csv", e2);
    if (!ours.count(name) && !scan_page && !study_folder) theirs.push_back(name);
  }
  std::sort(theirs.begin(), theirs.end());
  return theirs;
}

const std::string task_log_header = "phase,item,rank,seconds,estimated_cost,what\n";

/// The --task-log file by the rule of every output file (options.hpp): not a spec or methods file given, nor a file of
/// a results folder's, a link, or anything but an earlier task log.
void check_task_log(const RunArgs& a) {
  std::vector<std::string> inputs = a.specs;
  inputs.insert(inputs.end(), a.methods.begin(), a.methods.end());
  check_output_file(a.task_log, "--task-log", inputs, task_log_header, "a task log this command wrote");
}

void write_task_log(const std::string& file, const study::WorkLog& log) {
  std::string text = task_log_header;
  std::size_t index = 0;
  std::string phase;
  for (const auto& item : log.items) {
    index = item.phase == phase ? index + 1 : 0, phase = item.phase;
    std::string what = item.what;
    std::replace(what.begin(), what.end(), '"', '\'');
    text += fmt::format("{},{},{},{:.6f},{:.6g},\"{}\"\n", item.phase, index, item.rank, item.seconds, item.cost, what);
  }
  study::write_atomic(file, text);
}

int run_study(const RunArgs& a) {
  // Under mpirun or srun: MPI started, and every rank but the leader runs its share and leaves the rest to it.
  std::shared_ptr<ranks::Ranks> spread = ranks::start();
  if (spread && !spread->leader()) return run_follower(a, spread);
  // Kept until the program ends (after a failure's message): the other ranks leave when the leader lets go, and the
  // launcher then kills whatever is left at once.
  static std::shared_ptr<ranks::Ranks> kept;
  kept = spread;
  check_for_ranks(a, spread ? spread->size() : 1);
  check_output_dir(a.out, "--out", true);
  if (!a.task_log.empty()) {  // before any work: not after an hours-long run, nor over a spec or another folder's results
    const std::filesystem::path dir = std::filesystem::path(a.task_log).parent_path();
    std::error_code ec;
    const auto log = std::filesystem::weakly_canonical(std::filesystem::absolute(a.task_log), ec);
    if (within(log, std::filesystem::weakly_canonical(std::filesystem::absolute(a.out), ec)))
      throw study::SpecError("--task-log " + a.task_log + ": lies in the output folder " + a.out +
                             ", which is replaced whole when the run is published; write it elsewhere");
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
      throw study::SpecError("--task-log " + a.task_log + ": its folder " + dir.string() + " does not exist (or is not a folder)");
    check_task_log(a);
  }
  if (const std::string why = study::results_folder_problem(a.out); !why.empty()) throw study::SpecError("--out " + a.out + ": " + why);
  if (a.cache_dir_given) check_output_dir(a.cache_dir, "--cache-dir");
  const std::vector<Spec> specs = specs_to_run(a);
  const study::FolderLock lock(a.out, false);  // before any work: a second run into the folder is refused at once

  study::EngineOptions o = engine_options(a, spread.get());
  o.log = std::make_shared<study::WorkLog>();
  if (spread) spread->threads(o.jobs), o.spread = spread;
  const bool tty = ::isatty(STDERR_FILENO);
  int last_tenth = -1;
  std::string last_phase;
  const auto run_start = std::chrono::steady_clock::now();
  if (!a.quiet)
    o.progress = [&](const study::Progress& p) {
      // The ETA, once the run has gone on long enough for one to matter (the engine's: work left at the speed seen).
      const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
      std::string eta;
      if (p.done < p.total && std::isfinite(p.seconds_left) && spent > 2) {
        const long left = std::max(1L, std::lround(p.seconds_left));
        eta = left >= 60 ? fmt::format(", about {}:{:02d} left", left / 60, left % 60) : fmt::format(", about {} s left", left);
      }
      const std::string runs = p.runs > 0 ? fmt::format(", {} run{} done", p.runs, p.runs == 1 ? "" : "s") : "";
      const std::string unit = p.phase == "runs" ? " tasks" : "";
      if (tty) {
        std::cerr << "\r\033[K" << p.phase << " " << progress_bar(p.done, p.total) << " " << p.done << "/"
                  << p.total << unit << runs << eta << "  " << p.what.substr(0, 40) << (p.done == p.total ? "\n" : "") << std::flush;
      } else {
        const int tenth = p.total ? static_cast<int>(10 * p.done / p.total) : 10;
        if (tenth != last_tenth || p.phase != last_phase)
          std::cerr << "study run: " << p.phase << " " << p.done << "/" << p.total << unit << runs << eta << "\n";
        last_tenth = tenth;
      }
      last_phase = p.phase;
    };
  if (!a.quiet)
    std::cerr << "study run: " << specs.size() << " spec(s), "
              << (spread ? fmt::format("{} ranks ({} job(s) on rank 0)", spread->size(), o.jobs) : fmt::format("{} job(s)", o.jobs))
              << ", results in " << a.out << "/\n";
  const auto t0 = std::chrono::steady_clock::now();
  const auto results = study::run_studies(specs, o);
  if (spread) {  // every rank has sent its last result: MPI ends here, before the writing
    o.log->ranks = spread->members();
    spread->finish();
    o.spread.reset(), spread.reset(), kept.reset();
  } else {
    o.log->ranks = {{"this process", o.jobs, 0}};
  }
  study::Meta meta = study::collect_meta();
  meta.jobs = o.jobs;
  meta.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Results, tables and report built beside the output folder and published with one rename: an interrupted or
  // failed run leaves the folder as it was.  The folder is replaced whole (no study of an earlier run survives
  // into these results) but for bench.json, `study bench`'s, which no run writes.
  study::StagedFolder staged(a.out);
  std::vector<std::string> users, replaced;  // the user's own files in the folder: carried over, and said, never dropped silently
  std::optional<report::Outcome> rendered;
  std::string report_failed;  // the results are published even when their report cannot be rendered
  try {
    study::write_results(staged.path(), results, meta);
    study::write_atomic(staged.path() / study::results_marker, study::results_marker_text);
    for (const std::string& name : entries_not_the_runs(a.out)) {
      std::error_code ec;  // one named like a study of this run is replaced by it: said, not kept
      if (std::filesystem::exists(std::filesystem::symlink_status(staged.path() / name, ec))) replaced.push_back(name);
      else users.push_back(name);
    }
    std::set<std::string> carried(users.begin(), users.end());
    carried.insert("bench.json");
    staged.carry_only(carried, stop_if_interrupted);
    if (!a.no_report) {
      ReportArgs rep;
      rep.results = a.out;
      // The run's own estimate counted its report (--max-memory was checked before any work).
      rep.png = a.png, rep.point_plots = a.point_plots, rep.accuracy = a.accuracy, rep.max_memory = std::numeric_limits<double>::infinity();
      try {
        rendered = render_report(rep, staged.path(), staged.path(), a.out);
        if (rendered->failed)  // the results stand; the report's pages say which plots are missing, and the run fails
          report_failed = std::to_string(rendered->missing.size()) + " plot(s) failed: " + rendered->problem;
      } catch (const report::ReportError& e) {
        report_failed = e.what();
      }
    }
    staged.publish();
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const Interrupted*>(&e) || dynamic_cast<const report::ReportError*>(&e)) throw;
    throw study::WriteError("the results were not written (" + a.out + " is unchanged): " + e.what());
  }

  if (!a.task_log.empty()) {
    try {
      check_task_log(a);  // again: the run took hours, and the path is not what it was checked as
      write_task_log(a.task_log, *o.log);
    } catch (const std::runtime_error& e) {
      throw study::WriteError("the results are in " + a.out + ", but the task log was not written: " + e.what());
    }
  }
  if (!users.empty())
    std::cerr << "study run: kept " << study::join(users) << " in " << a.out << " (not this tool's output: a run replaces only its own)\n";
  if (!replaced.empty())
    std::cerr << "study run: replaced " << study::join(replaced) << " in " << a.out << ": a study of this run has that name\n";
  if (!a.quiet) print_summary(results, meta, a.out);
  if (!a.quiet && o.log->ranks.size() > 1) std::cout << "ranks, busy and idle (each rank's threads over the work's wall time):\n" << ranks::busy_summary(*o.log);
  warn_coarse_references(results);
  if (rendered) print_report(*rendered, a.out, a.quiet);
  if (!report_failed.empty()) {
    std::cerr << "study run: the results are in " << a.out << ", but their report could not be rendered: "
              << study::printable_message(report_failed)
              << " (study report " << a.out << " tries again)\n";
    return EXIT_FAILURE;
  }
  if (!a.quiet) {  // the answer to "which method for my accuracy", from the results just written
    const report::Results written = report::load(a.out, std::numeric_limits<double>::infinity());  // counted before the run
    const std::vector<double> targets = report::sorted_targets(a.accuracy);
    if (const std::string lines = report::accuracy_lines(written, report::summary_targets(targets, written)); !lines.empty())
      std::cout << "cheapest method to each accuracy (force evaluations, interpolated on its own runs; each study's REPORT.md has "
                   "wall time and more):\n"
                << lines;
    std::cout << report::versus_lines(written, report::summary_targets(targets, written), "");
  }
  return EXIT_SUCCESS;
}

}  // namespace

Command add_run(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "run convergence studies: every integrator of each spec across its dt sweep, "
                                        "against certified references; writes results.json and CSV tables");
  cmd->add_option("specs", a->specs, "spec files, folders (every *.toml in them), names of shipped specs or scans (study list), or - for a "
                                     "spec on standard input (default: every shipped spec, the default study)");
  cmd->add_option("--methods", a->methods, "a file of method tables ([methods.ID], repeatable): its ids may be listed as "
                                           "integrators (docs/method-tables.md)");
  cmd->add_option("--problem", a->problem, "a study from the command line, without a spec file: the problem id "
                                           "(needs --integrators, --t-end, --dt)");
  cmd->add_option("--param,-p", a->params, "with --problem: a parameter as name=value (repeatable), e.g. --param e=0.7");
  cmd->add_option("--integrators", a->integrators, "with --problem: comma-separated integrator ids, e.g. rk4,ruth3");
  cmd->add_option("--t-end", a->t_end, "with --problem: the final time");
  cmd->add_option("--dt", a->dt, "with --problem: auto (chosen from the errors as it runs), or comma-separated step sizes "
                                 "that divide t_end");
  cmd->add_option("--metrics", a->metrics, "with --problem: comma-separated metrics (default global,local,energy,walltime)");
  cmd->add_option("--name", a->name, "with --problem: the study's name (default: the problem's id)");
  cmd->add_option("--profile", a->profile, "run a profile's specs instead (study/profiles/NAME/; `ci`: the fast CI gate)");
  cmd->add_option("--out,-o", a->out, "output directory (default: results)");
  cmd->add_option("--jobs,-j", a->jobs, "threads (default: every core; under mpirun or srun, per rank: the cores it may run on, shared with the other ranks of its node); results do not depend on it")->check(CLI::Range(1, 256));
  cmd->add_option("--cache-dir", a->cache_dir,
                  "cache directory: references, with the long double round-off shadows in DIR/roundoff/ and whole runs "
                  "in DIR/runs/ (default $STUDY_CACHE_DIR, else $XDG_CACHE_HOME/ode-study/reference, else ~/.cache/ode-study/reference)");
  cmd->add_flag("--no-cache", a->no_cache, "neither read nor write any cache: compute everything");
  add_limit_options(cmd, a->limits, true);
  cmd->add_flag("--rerun", a->rerun,
                "measure every run again, not from the run cache (references and round-off shadows still come "
                "from the cache); a cached run is the same bytes, its wall time is always measured again");
  cmd->add_flag("--quiet,-q", a->quiet, "no progress and no summary");
  cmd->add_flag("--no-report", a->no_report, "do not render REPORT.md and the plots at the end");
  cmd->add_option("--accuracy", a->accuracy, "a relative global error to say which method reaches at the least cost "
                                             "(repeatable; default: the decades from 1e-3 down to the smallest error reached); "
                                             "under dt = \"auto\" each method's halvings run on until its error passes the "
                                             "tightest, its noise floor or its budget (the spec key accuracy = [...] does the same)")
      ->check(accuracy_target());
  cmd->add_option("--vs", a->vs, "a method to measure every other against, in the report and on the terminal: each one's cost "
                                 "over its to each accuracy, with the ratio's interval and a verdict (cheaper, dearer, a tie); "
                                 "a label (\"dopri5 (adaptive)\") or an id naming one method (the spec key vs = \"...\" does the same)")
      ->check(method_name());
  cmd->add_option("--task-log", a->task_log, "after the run, write a CSV of every reference and run: the rank that ran it, its "
                                             "seconds and the plan's estimate of its cost; study/scripts/rank-model reads it to model "
                                             "the study's time on many ranks (docs/ranks.md). Its folder must exist");
  cmd->add_flag("--png", a->png, "draw a PNG beside each SVG plot (three times gnuplot's work)");
  cmd->add_flag("--point-plots", a->point_plots, "in the report, draw the plots of every study of a scan on its own page "
                                                 "too (by default a scan's studies are drawn on its page only)");
  return {cmd,
          [a, cmd] {
            a->cache_dir_given = cmd->count("--cache-dir") > 0;
            return run_study(*a);
          },
          "no results were written",
          [a] {  // what an interrupted run kept, and how to go on from it
            if (a->no_cache)
              return std::string("; with --no-cache nothing was kept (without it, each run that finishes is cached, and the same "
                                 "command resumes from them)");
            const std::filesystem::path dir = a->cache_dir.empty() ? reference::default_cache_dir() : std::filesystem::path(a->cache_dir);
            return "; the references and runs that finished are kept in the cache (references in " + dir.string() + ", runs in " +
                   (dir / "runs").string() + "): the same command resumes from them" + (a->rerun ? " (without --rerun)" : "");
          }};
}

}  // namespace study::cli
