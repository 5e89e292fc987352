#pragma once
/// A results folder in memory: results.json and the CSV tables beside it, as plain rows.  What the renderer, the gate
/// (study/check/) and compare read; nothing here knows the engine that wrote them.

#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json_fwd.hpp>

#include "study/common/printable.hpp"

namespace report {

/// A results directory that cannot be read or rendered: names the file and the field.
struct ReportError : study::EchoError {  // its message echoes input: printable
  using study::EchoError::EchoError;
};

struct RunRow {
  std::string integrator, status, behaviour;
  std::string id, reason;  ///< the method's id; why it diverged ("" when it did not)
  int substeps = 1;
  double dt = 0, global = 0, max = 0, local = 0, reversal = 0, energy_max = 0, drift = 0, ns_min = 0, evals_per_step = 0;
  double roundoff_max = NAN;  ///< the round-off of `max` (schema 5)
  double position = 0, local_position = 0, energy_final = 0, energy_roundoff = 0, angular_momentum = 0, ns_median = 0;
  double roundoff = 0;  ///< round-off in `global` (NaN: not measured)
  double force_evals = 0, jacobian_evals = 0, iterations = 0;
  long steps = 0;
  double tol = NAN;  ///< a run under step-size control (Study::adaptive_work): its tolerance; NaN for a fixed step
  long diverged_step = -1;
  double diverged_t = NAN;
  std::vector<double> final_q, final_v;
};
struct OrderRow {
  std::string integrator, metric, reason;
  std::string verdict, action;  ///< "pass", "fail", "undetermined" ("" in results older than schema 2)
  int expected = 0;
  double observed = 0, dt_min = 0, dt_max = 0, r2 = 0;
  double lo = NAN, hi = NAN;    ///< the order's interval (99 %, floors and trend included)
  double std_error = NAN, trend_limit = NAN;
  std::vector<double> local_slopes;  ///< in the window, smallest dt first
  bool asymptotic = false;
  long points = 0;
  std::vector<std::array<double, 3>> sweep;  ///< every point: dt, error, noise floor (schema 2)
  /// Where the verdict was decided: "double", or a wide arithmetic where round-off ended double's range (schema 5).
  std::string arithmetic = "double";
  /// Each wide arithmetic's points (dt, error, noise floor), copies of wide_runs' (schema 5): the gate fits them too.
  std::vector<std::pair<std::string, std::vector<std::array<double, 3>>>> wide;
};
/// A run in a wider arithmetic (results.json wide_runs, schema 5).
struct WideRunRow {
  std::string integrator, arithmetic, status, reason;
  double dt = 0, global = NAN, max = NAN, local = NAN, floor_global = NAN, floor_max = NAN, floor_local = NAN;
  long steps = 0;
  double force_evals = 0;
};
/// An integrator's runs in one wide arithmetic: why they started and stopped (results.json wide_sweeps, schema 5).
struct WideSweepRow {
  std::string integrator, arithmetic, why, stop;
  std::vector<double> dts;
  double work = 0;
  std::string reference;       ///< what the runs' errors are measured against: "float128 reference" or "exact solution"
  double reference_bound = 0;  ///< its relative error bound
};
struct LongRow {
  std::string integrator, status;
  double dt = 0, growth = 0, final_rel = 0;
  long steps = 0;
  double diverged_t = NAN;
  double growth_lo = NAN, growth_hi = NAN;  ///< the growth exponent's 99 % interval (schema 2)
  double max_rel = NAN;                     ///< the largest |relative energy error| of its samples (schema 5)
  double tol = 0;          ///< an adaptive pair's long run: its tolerance (dt its mean step, steps its accepted steps); 0: fixed step
  std::string reason{};    ///< why an adaptive pair's long run stopped
};
/// An integrator of a study as it declares itself (results.json "integrators").
struct IntegratorRow {
  std::string label, id;
  int expected_global = 0, expected_local = 0;
  bool symplectic = false, symmetric = false, implicit = false;
  int declared_order = 0;  ///< the method's own order (expected_global may be a spec's override); 0: not recorded
  int evals_per_step = 0;  ///< force evaluations per step, substeps included; 0: not recorded (results before 0.8)
  std::string table;       ///< where its coefficient table is ("file:line"); "" for a built-in
  std::string source;      ///< where its formula and coefficients come from
  /// explicit-rk, splitting, implicit, own (schema 3; before it, from implicit and symplectic)
  std::string family;
  /// What its coefficients predict (0: not known): the order, the same with rounded digits taken as exact, the
  /// principal error coefficient, which conditions, the first failing one.
  int predicted_order = 0, predicted_exact_order = 0;
  double error_coefficient = NAN;
  std::string conditions, first_failing;
  int linear_order = 0;  ///< on a linear problem, the stability function's order where above predicted_order; 0: none
};
struct StabilityRow {
  std::string integrator, note, theory_basis;
  double limit = 0, theory = 0;  ///< theory: inf when unbounded (A-stable), NaN when unknown
  bool beyond_search = false;    ///< stable over the whole search range
};
/// The step sizes one integrator ran and why its sweep stopped (results.json "sweeps").
struct SweepRow {
  std::string integrator;
  bool automatic = false;
  std::vector<double> dts;
  std::string stop;
  std::string stop_cause;  ///< the rule that stopped an automatic sweep or a range at dt.past_floor ("" for none; study/fit/sweep_advice.hpp)
  std::string halvings_end;  ///< what ended its halvings when levels between them followed ("" for none)
};
/// An adaptive integrator (results.json "adaptive"): an embedded pair under its controller.
struct AdaptiveIntegratorRow {
  std::string label, id, controller, source;
  int order = 0, order_hat = 0, evals_per_step = 0;
  double expected_slope = 1;
  std::map<std::string, double> params{};  ///< the controller's parameters as the spec gave them
  std::string coefficients{};              ///< a digest of every coefficient of its table, b_hat too ("": Odeint's own stepper)
  std::string fixed_steps{};               ///< the method whose fixed-step orders are the pair's (with ID-embedded, its b_hat's)
  std::string slope_basis{};               ///< where expected_slope is not the declared orders': what it is from ("": theirs)
};
/// One adaptive run at one tolerance.
struct AdaptiveRow {
  std::string integrator, status, reason;  ///< status: ok, step-limit, underflow, rejections, diverged
  double tol = 0, t_reached = 0;
  double global = NAN, max = NAN, energy_final = NAN, energy_max = NAN, h_min = NAN, h_max = NAN;
  double roundoff = NAN, roundoff_max = NAN;  ///< measured (a long double replay of its steps); NaN: not measured
  double seconds_min = NAN, seconds_median = NAN;
  long accepted = 0, rejected = 0, cut = 0;
  double force_evals = 0;
};
/// An adaptive integrator's tolerance proportionality: the slope of its error on the tolerance.
struct ProportionalityRow {
  std::string integrator, verdict, reason, action;
  double expected = 1;
  double observed = NAN, lo = NAN, hi = NAN;  ///< the engine's fit: the slope and its 99 % interval (NaN: no fit)
  double tol_min = NAN, tol_max = NAN;        ///< its window
  long window_points = 0;
  long output_limited = 0;  ///< runs the fit left out: the output times set their steps
  std::vector<std::array<double, 3>> points;  ///< tolerance, error, noise floor
};
/// The point of a scan a study is (results schema 4; study::ScanPoint).
struct ScanInfo {
  std::string name;  ///< "" when the study is not part of a scan
  std::vector<std::string> axes;
  std::vector<double> values;
  std::size_t index = 0, count = 0;
};

struct Study {
  std::string name, title, problem, dt_pattern;
  ScanInfo scan;
  std::string spec_file;  ///< the spec's file name
  std::vector<std::pair<std::string, std::string>> params;  ///< as the spec gave them
  double t_end = 0, ref_tol = 0, ref_bound = 0, plot_dt = 0, dt_amplitude = 0;
  std::vector<std::string> metrics;
  double position_scale = 1, velocity_scale = 1;
  /// dt = "auto": the run budget (0: not automatic), the time budget (NaN: none), the ladder of step sizes and the
  /// step sizes between its halvings.
  int auto_runs = 0;
  double auto_seconds = NAN;
  std::vector<double> ladder, between;
  bool conservative = false, bounded = false, periodic = false;  ///< the problem's
  double period = 0;                           ///< the problem's natural time scale
  std::string time_unit, length_unit;          ///< "" dimensionless (or results before schema 3)
  std::vector<std::string> integrators;  ///< in spec order
  std::vector<IntegratorRow> declared;   ///< what each integrator declares (empty in results older than `study check`)
  std::vector<RunRow> runs;
  std::vector<SweepRow> sweeps;  ///< empty in results older than automatic sweeps
  std::vector<OrderRow> orders;
  std::vector<LongRow> energy_long;
  std::vector<StabilityRow> stability;
  std::vector<WideRunRow> wide_runs;      ///< empty where no order needed them
  std::vector<WideSweepRow> wide_sweeps;
  double wide_budget = 1;                 ///< the spec's (schema 5)
  std::vector<double> accuracy;           ///< the accuracies the spec (or study run --accuracy) asked for; the report answers each
  std::string vs;                         ///< the method the spec (or study run --vs) measures the others against ("": none)
  std::vector<AdaptiveIntegratorRow> adaptive;  ///< empty without adaptive integrators
  std::vector<double> tolerances;               ///< largest first
  std::vector<AdaptiveRow> adaptive_runs;
  bool adaptive_samples = false;  ///< adaptive_samples.csv holds each adaptive run's errors at its output times (results before: none)
  long adaptive_outputs = 0;      ///< those output times: t_end j / (adaptive_outputs - 1), j = 0 .. adaptive_outputs - 1
  /// How the runs met them: cut (each step that would pass one cut to land on it, Odeint's integrate_times; results
  /// before tol.outputs), or free (the controller's steps, each time observed by a step to it from the one before).
  bool adaptive_cut = true;
  std::vector<ProportionalityRow> proportionality;
  /// Each adaptive run that reached t_end as a run of the work-precision answers (the cheapest method to an accuracy,
  /// the Pareto front): its error and cost, dt its mean step t_end / accepted, its time the whole run's.
  std::vector<RunRow> adaptive_work;
  /// The methods those answers weigh: the fixed-step integrators, then the adaptive ones.
  std::vector<std::string> work_methods() const {
    std::vector<std::string> m = integrators;
    for (const auto& a : adaptive) m.push_back(a.label);
    return m;
  }
  bool wants(const std::string& m) const {
    for (const auto& x : metrics)
      if (x == m) return true;
    return false;
  }
};
/// Each adaptive run of s that reached t_end as a run of the work-precision answers (Study::adaptive_work): derived
/// from s.adaptive_runs, its one copy.
std::vector<RunRow> adaptive_work_of(const Study& s);
/// What adaptive pair `label`'s tolerance proportionality fit is made of, derived from its runs (s.adaptive_runs) as
/// the engine derives it: its points (tolerance, largest error, noise floor) and the runs left out (output_limited).
ProportionalityRow proportionality_of(const Study& s, const std::string& label);

struct Results {
  int schema_version = 1;  ///< of results.json (study/common/schema.hpp)
  std::string compiler, flags, cpu, revision, date, reference_solver;
  double elapsed = std::nan("");  ///< seconds the study took (a timing: not reproducible)
  std::vector<Study> studies;
  std::filesystem::path dir;
};

/// bench.json, written by `study bench`: time per step of each integrator beside Boost.Odeint's steppers.
struct BenchRow {
  std::string integrator, odeint;  ///< odeint: the counterpart ("" when Odeint has none)
  double ns = 0, spread = 0, evals = 0, floor_ratio = 0, odeint_ns = 0, odeint_ratio = 0;  ///< NaN: not measured
  bool implicit = false;
};
struct BenchStepper {
  std::string name;
  double ns = 0, spread = 0, evals = 0;
};
/// A built-in's own coefficients run as a table (integrators/table.hpp), against the built-in.
struct BenchTable {
  std::string integrator;
  double ns = 0, spread = 0, builtin_ns = 0, builtin_spread = 0, ratio = 0;
};
/// An embedded pair under step-size control, ours against Odeint's own: time per try (accepted or rejected).
struct BenchPair {
  std::string integrator, odeint;
  double tol = 0, span = 0, tries = 0, ns = 0, spread = 0, odeint_ns = 0, odeint_spread = 0, ratio = 0;
};
struct BenchProblem {
  std::string problem;
  double dt = 0, floor_ns = 0, floor_spread = 0, throughput_ns = 0;
  std::vector<BenchRow> rows;
  std::vector<BenchStepper> odeint;
  std::vector<BenchTable> tables;  ///< absent from bench.json written before tables: empty
  std::vector<BenchPair> pairs;    ///< absent from bench.json written before adaptive pairs: empty
};
struct BenchCheck {
  std::string problem, integrator, odeint, criterion;
  double distance = 0, allowance = 0;
  bool ok = false;
};
struct Bench {
  std::string compiler, flags, cpu, revision, date, statistic;
  int cpus = 0, repetitions = 0;
  double mhz = 0, min_time = 0;
  long steps = 0;  ///< per benchmark iteration
  std::vector<BenchCheck> checks;
  std::vector<BenchProblem> problems;
};

/// Reads DIR/bench.json if there is one (nullopt: `study bench` was not run).  Throws ReportError naming the field.
std::optional<Bench> load_bench(const std::filesystem::path& dir);
/// The same for a document already parsed.
Bench load_bench_document(const nlohmann::json& doc, const std::filesystem::path& file);
/// The report's section on it: one table per problem and the goals, met or not, computed from the numbers.
std::string bench_markdown(const Bench& b);

/// A CSV table written by `study run`, every row as long as its header.
struct Table {
  std::filesystem::path file;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> lines;  ///< the line each row starts on (a quoted field may span several)
  /// The index of column `name`.  Throws ReportError naming the file when there is none.
  std::size_t column(const std::string& name) const;
  /// Row r's field in column `name`.
  const std::string& text(std::size_t r, const std::string& name) const { return rows.at(r).at(column(name)); }
  /// Row r's field in column `name` as a number (an empty field: NaN).  Throws ReportError naming the file, line
  /// and column when it is not one.
  double number(std::size_t r, const std::string& name) const;
};
/// Reads a CSV table (RFC 4180 quoting); nullopt when there is no such file.  Throws ReportError naming the file
/// and line when a row has another number of fields than the header.
std::optional<Table> read_table(const std::filesystem::path& file);
/// The same for text already open (`file` names it in messages).
Table parse_table(std::istream& in, const std::filesystem::path& file);

/// The tables beside results.json say what it says: a study with runs has runs.csv and samples.csv, one with long
/// energy runs energy_long.csv; runs.csv holds its runs in order (integrator, status, dt, steps and global error to
/// every digit); samples.csv's and energy_long.csv's rows each name a run (checked as they are read).  load()
/// calls it.  Throws ReportError naming the file, line and what is missing or disagrees.
void check_tables(const Results& res);

/// One row of samples.csv.
struct Sample {
  double t = 0, error = 0, energy = 0;
  std::vector<double> q, v;
};

/// The default of --max-memory for the commands that read results (as study run's).
inline constexpr double default_max_memory = 2e9;
/// Bytes held per byte of text once parsed, for a JSON document (nlohmann's tree) and a CSV table (a string per
/// field): about 6 measured (a 234 MB results.json took 1.4 GB; a 24 MB samples.csv, 160 MB at the report's peak),
/// counted as 8.
inline constexpr double parsed_bytes_per_byte = 8;
/// Reads DIR/results.json.  Throws ReportError naming the file and the field, or, before parsing, when
/// results.json and the largest table would take more than `max_memory` bytes once parsed.
Results load(const std::filesystem::path& dir, double max_memory = default_max_memory);
/// Refuses, before anything is parsed, folders whose results.json files, all held at once (compare, history), and the
/// largest of their tables would take more than `max_memory` bytes.  Throws ReportError.
void check_memory_together(const std::vector<std::filesystem::path>& dirs, double max_memory);
/// The same for a document already parsed (`file` names it in messages; `dir` is where its tables are).
Results load_document(const nlohmann::json& doc, const std::filesystem::path& file, const std::filesystem::path& dir);
/// The samples of every integrator of a study at step dt (from samples.csv), by integrator label.
std::map<std::string, std::vector<Sample>> samples_at(const Results& res, const Study& s, double dt);
/// The samples of a study (samples.csv read once), grouped by step size in the order they first appear; with `only`,
/// those of these step sizes only.
std::vector<std::pair<double, std::map<std::string, std::vector<Sample>>>> all_samples(const Results& res, const Study& s,
                                                                                    const std::vector<double>& only = {});
/// The long energy run of each integrator (energy_long.csv): (t, relative energy error) by integrator label.
std::map<std::string, std::vector<std::pair<double, double>>> energy_long_samples(const Results& res, const Study& s);
/// The growth exponent that tells a drift from a bounded energy error: |dE| ~ t^g, 0 bounded, 1 a linear drift (and
/// 1/2 the random walk of round-off, Brouwer's law, which the round-off rule keeps out).
inline constexpr double drift_exponent = 0.5;
/// What a long run's energy error does, one rule for the study page, the summary and the gate
/// (defined in accuracy.cpp): stopped (before its
/// end), too_large (its largest error above 0.1: the step or tolerance is too coarse for the energy to be the
/// method's; the final error where max_rel was not recorded), roundoff (at most 100 eps sqrt(steps) throughout), no_exponent (fewer than 3 nonzero samples in its
/// second half), bounded (the growth exponent's 99 % interval wholly below 1/2), drifting (wholly above), straddles.
enum class LongBehaviour { stopped, too_large, roundoff, no_exponent, bounded, drifting, straddles };
LongBehaviour long_run_behaviour(const LongRow& e);
/// Its largest |relative energy error|: max_rel, or where results before schema 5 lack it, its final one.
double long_run_largest(const LongRow& e);
/// Its word in a table: "stopped", "too large", "round-off", "cannot tell", "bounded", "drift", "cannot tell".
std::string behaviour_word(LongBehaviour b);
/// Each adaptive run's errors at its output times (adaptive_samples.csv), by label then tolerance; each row must name a
/// run results.json has, and a run that reached t_end must end on its error and energy error there (the one copy).
std::map<std::string, std::map<double, std::vector<Sample>>> adaptive_samples(const Results& res, const Study& s);

// Formatting and lookups shared by the report's parts.
inline std::string sci(double x) { return std::isfinite(x) ? fmt::format("{:.2e}", x) : "—"; }
inline std::string fixed(double x, int digits = 2) { return std::isfinite(x) ? fmt::format("{:.{}f}", x, digits) : "—"; }
inline std::string g(double x) { return std::isfinite(x) ? fmt::format("{:.4g}", x) : "—"; }
inline std::string num17(double x) { return fmt::format("{:.17g}", x); }

/// Pass: determined over >= 3 points and within 0.2 of the expected order.
inline constexpr double order_tolerance = 0.2;

const OrderRow* find_order(const Study& s, const std::string& integrator, const std::string& metric);
const RunRow* run_at(const Study& s, const std::string& integrator, double dt);
/// The integrator's sweep (the step sizes it ran and why it stopped), or nullptr.
const SweepRow* find_sweep(const Study& s, const std::string& integrator);
const RunRow* finest_ok(const Study& s, const std::string& integrator);
const Study* study_named(const Results& r, const std::string& name);
/// The run with the smallest global error of a study (stands for the true solution in pictures).
const RunRow* most_accurate(const Study& s);
/// The runs of an integrator at its largest and smallest dt among those where `usable` holds (null, null: none).
template <class Usable>
std::pair<const RunRow*, const RunRow*> sweep_ends(const Study& s, const std::string& integrator, Usable usable) {
  const RunRow *coarse = nullptr, *fine = nullptr;
  for (const auto& r : s.runs)
    if (r.integrator == integrator && usable(r)) {
      if (!coarse || r.dt > coarse->dt) coarse = &r;
      if (!fine || r.dt < fine->dt) fine = &r;
    }
  return {coarse, fine};
}
/// "a, b, c"
inline std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& x : names) out += (out.empty() ? "" : ", ") + x;
  return out;
}
/// The cheapest run (force evaluations, or wall time when `by_time`) reaching relative global error `target`.
const RunRow* cheapest_to_reach(const Study& s, const std::string& integrator, double target, bool by_time);

}  // namespace report
