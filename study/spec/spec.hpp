#pragma once
/// Stage 1 of a study, spec: which problem, which integrators, which step sizes, which metrics (TOML, study/specs/).
/// The keys are documented in docs/specs.md; every error names the file, the line, the key and what is valid.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "study/common/data_dir.hpp"
#include "study/common/printable.hpp"
#include "study/common/schema.hpp"
#include "study/registry/choice.hpp"
#include "study/problems/params.hpp"

namespace study {

/// A spec that cannot be used: "file:line: key: what is wrong (what would be valid)".
struct SpecError : study::OneLineError {  // its message echoes input: printable, one line
  using study::OneLineError::OneLineError;
};

/// What the coefficients of a method predict (study/methods/), when they are known.
struct PredictedOrder {
  int order = 0;        ///< every order condition up to this holds (to the coefficients' precision); 0: unknown
  int exact_order = 0;  ///< the same with the digits taken as exact
  double error_coefficient = 0;  ///< principal error coefficient (NaN: every checked order holds)
  std::string conditions;        ///< which: "rooted trees (...)" or "Nystrom trees (...)"
  std::string first_failing;     ///< the first condition of order order + 1 that fails, with its residual
  /// How far the digits as written miss consistency, exactly (|sum of the weights - 1|): a step of h advances the flow
  /// by (1 + consistency) h, an error per time scale that no step size removes.
  double consistency = 0;
  /// [k - 1]: how far the order conditions of order k = 1 .. order miss, the largest (the digits' doing: exact
  /// coefficients leave 1e-50): each adds an error of that times (h / time scale)^(k - 1) per time scale.
  std::vector<double> residuals;
  /// On a linear problem (x' = L x), where a Runge–Kutta table's stability function matches exp to a higher order
  /// than `order`: that order (linear_order); 0 otherwise.
  int linear_order = 0;
};

/// One integrator of a spec, with its expected orders (declared, or overridden by the spec's `expect`).
struct SpecIntegrator {
  IntegratorChoice choice;
  int expected_global = 0;
  int expected_local = 0;
  bool symplectic = false, symmetric = false, implicit = false;  ///< as the method declares (ode::Info)
  int declared_order = 0;   ///< the method's own (expected_global may be the spec's override)
  std::string table;        ///< "" for a built-in; else where its table is: "file:line"
  std::string source;       ///< where the method's formula and coefficients come from
  PredictedOrder predicted;  ///< from its coefficients (built-ins too, study/methods/builtin.toml)
  int evals_per_step = 1;    ///< force evaluations per step, substeps included (implicit: per Newton iteration)
  /// What the report groups it with: "explicit-rk", "splitting" (splittings, compositions, Nystrom tables and the
  /// Verlet family), "implicit", or "own" (a C++ integrator of the user's program).
  std::string family;
};

/// An adaptive integrator (`adaptive = [...]`): an explicit Runge–Kutta pair (a table with b_hat) under a step-size
/// controller, run at each of the spec's tolerances (`tol`).
struct SpecAdaptive {
  IntegratorChoice choice;            ///< the pair: its table (none for Odeint's own steppers)
  /// The method whose fixed-step orders are the pair's (with ID-embedded, its b_hat's): its table's id; for Odeint's
  /// peers our table of the same coefficients ("dopri5" for odeint-dopri5).
  std::string fixed_steps;
  /// Odeint's peers: our table of the same coefficients, whose step from a step's start observes an output time inside it.
  std::shared_ptr<const ode::MethodTable> peer_table;
  std::string odeint;                 ///< Odeint's own controlled stepper ("dopri5", "cash-karp54", "fehlberg78"; study/registry/peers.hpp), or ""
  std::string label;                  ///< how results name it: "dopri5 (adaptive)", "dopri5 (adaptive, pi)"
  std::string controller = "odeint";  ///< "odeint" (Odeint's default_error_checker and step adjuster) or "pi"
  /// The controller's parameters as given (odeint: a_x, a_dxdt, max_dt; pi: beta, safe, fac_min, fac_max, max_dt).
  std::map<std::string, double> params;
  int order = 0, order_hat = 0;       ///< the propagated and the embedded weights' orders
  int evals_per_step = 0;             ///< force evaluations a tried step (first same as last: one less)
  /// The slope of log error against log tolerance the pair should show: order / (min(order, order_hat) + 1) (an
  /// error-per-step controller: h ~ tol^(1/(q+1)) over t_end / h steps, each of error h^(p+1)), or the spec's `slope`.
  double expected_slope = 1;
  bool slope_given = false;
  std::string slope_basis;  ///< where the expected slope is not the declared orders': what it is from (a linear problem's orders)
  /// Tries (accepted and rejected) of a pilot run at tol.max, before the study (study/measure/adaptive.hpp,
  /// adaptive_pilots): the work estimate scales each tolerance's from it; 0: none, each run counted at tol.max_steps.
  double pilot_tries = 0;
  std::string pilot_stop;  ///< why a pilot that ran did not reach t_end (its tries then say nothing), or ""
  std::string table;                  ///< where its table is: "file:line"
  std::string source;
};

/// dt = "auto": the step sizes are chosen per integrator while it runs (sweep.cpp), from a ladder of halvings
/// that starts near the problem's time scale and ends at max_steps; the budget bounds how far down it goes.
struct AutoSweep {
  static constexpr int default_runs = 16;
  static constexpr long max_steps = 1L << 24;  ///< the ladder ends here whatever the budget
  int runs = default_runs;  ///< at most this many runs per integrator (>= 3, the fewest a fit needs)
  double seconds = 0;       ///< at most about this much wall time per integrator (0: no limit; machine-dependent)
  /// The step counts between the ladder's halvings, 3/2 of each level but the last (between[j] lies between
  /// steps[j] and steps[j + 1]): where an order's interval is still too wide, the sweep fills them in.
  std::vector<long> between;
};

/// 3 N / 2 for each level N of a ladder of halvings but the last (N0 >= 4 is even, so each is whole).
inline std::vector<long> between_halvings(const std::vector<long>& ladder) {
  std::vector<long> b;
  for (std::size_t j = 0; j + 1 < ladder.size(); ++j) b.push_back(ladder[j] + ladder[j] / 2);
  return b;
}

/// Where a study sits in a scan (`scan` in its spec, docs/specs.md): one study per point of a grid of values of
/// t_end or of the problem's parameters.
struct ScanPoint {
  std::string scan;                  ///< the spec's own name; "" when the study is not part of a scan
  std::vector<std::string> axes;     ///< "t_end" or a parameter's name, in the order the spec gives them
  std::vector<double> values;        ///< this point's value on each axis
  std::size_t index = 0, count = 0;  ///< its place in the grid, the first axis varying slowest, and the grid's size
  bool operator==(const ScanPoint&) const = default;
};

struct Spec;
/// The label of the method of spec s that `name` means as a spec's `vs` (or study run --vs): a label of its integrators
/// or adaptive integrators, or an id naming exactly one of them; "" when none, with `why` saying so and listing them.
std::string versus_method(const Spec& s, const std::string& name, std::string& why);

/// A parsed and validated spec.
struct Spec {
  std::filesystem::path file;
  std::string name, title, problem;
  ParamValues params;
  double t_end = 0;
  std::vector<SpecIntegrator> integrators;
  std::vector<long> steps;           ///< N per sweep point; dt = t_end / N (largest dt first); auto: the ladder
  std::optional<AutoSweep> auto_dt;  ///< set by dt = "auto": each integrator runs a prefix of `steps`
  /// dt = { max, min, per_decade, past_floor = K }: each integrator runs the range largest step first and stops
  /// after K step sizes in a row at its noise floor (study/measure/sweep.cpp); 0: every step size.
  int past_floor = 0;
  std::set<std::string> metrics;     ///< subset of metric_names()
  /// Varying steps (varying_dt): "" (constant), or "alternating": steps dt (1 + a), dt (1 - a), ... (N even).
  std::string dt_pattern;
  double dt_amplitude = 0;
  std::optional<double> energy_t_end;  ///< long energy run, sampled log-uniformly
  double energy_dt = 0;              ///< its step (default: the largest dt of the sweep)
  double energy_tol = 0;             ///< the adaptive pairs' tolerance in it (0: the pairs have no long run)
  double plot_dt = 0;                ///< the step whose trajectories and energy the report plots (one of the sweep's)
  int repeats = 3;                   ///< timed repetitions per run
  double reference_tol = 1e-28;
  /// The work the wider arithmetics (study/fit/wide.hpp) may spend on one integrator's orders where round-off ended its
  /// double sweep's range, in multiples of that sweep's estimated work (sweep_work); 0: none.
  double wide_budget = 4;
  /// Relative global errors the user asks about (`accuracy`, and `study run --accuracy`): an automatic sweep runs on
  /// until each method's global error passes the smallest, its noise floor or its budget.  Empty: none.
  std::vector<double> accuracy;
  /// The method the report measures every other against (`vs`, and study run --vs): its label, as results name it.
  std::string vs;
  int samples = 64;                  ///< trajectory samples per run (max error, energy, plots)
  int local_points = 8;              ///< reference states the one-step error starts from
  double time_scale = 1;             ///< the problem's period or time scale (what the reference's cost scales with)
  double evaluation_cost = 1;        ///< one force evaluation's cost in two-body evaluations (ProblemFacts)
  std::size_t dim = 0;               ///< the problem's degrees of freedom (positions; as many velocities)

  /// Adaptive integrators and the tolerances each runs at (largest first), with the step-count limit of one run.
  std::vector<SpecAdaptive> adaptive;
  std::vector<double> tolerances;
  long adaptive_max_steps = 1000000;
  /// tol.outputs = "cut": steps cut to land on each output time (Odeint's integrate_times, bit for bit); else "free",
  /// the default: the controller chooses every step, the output times observed by a step to each from the one before.
  bool adaptive_cut = false;

  double dt(std::size_t i) const { return t_end / static_cast<double>(steps[i]); }
  /// The output times of an adaptive run: t_end j / samples, j = 0 .. samples (the last t_end exactly); steps are cut
  /// to land on them, and the reference holds each.
  std::vector<double> adaptive_times() const {
    std::vector<double> t;
    for (int j = 0; j < samples; ++j) t.push_back(t_end * static_cast<double>(j) / static_cast<double>(samples));
    t.push_back(t_end);
    return t;
  }
  /// Time of grid point k of the sweep point with n steps (k = n gives t_end exactly).  Constant steps: k
  /// t_end / n.  Alternating: t_end (k + a (k mod 2)) / n; consecutive grid times are within a factor 2 of each
  /// other from k = 1 on, so every step t_{k+1} - t_k is exact in double (Sterbenz) and the integrator's
  /// clock lands on the grid.
  double grid_time(long k, long n) const {
    if (k == n) return t_end;
    const double x = dt_pattern.empty() ? static_cast<double>(k) : static_cast<double>(k) + dt_amplitude * static_cast<double>(k % 2);
    return t_end * x / static_cast<double>(n);
  }
  bool wants(const std::string& metric) const { return metrics.count(metric) != 0; }
  ScanPoint scan;                    ///< its point, when its spec has a scan
};

/// Whether a spec's orders are fitted: errors measured (global or local) at 3 step sizes or more, the fewest a fit
/// needs.  A study of two step sizes (the outer planets at 200 and 10 days over 550 years) cannot decide an order by
/// design, and carries no order checks.
inline bool fits_orders(const Spec& s) { return (s.wants("global") || s.wants("local")) && s.steps.size() >= 3; }

/// The metric names a spec may ask for.
inline const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names{"global", "local", "energy", "walltime", "stability", "reversibility", "roundoff"};
  return names;
}

namespace tables {
class Library;
}

/// Reads and validates a spec file.  Integrator ids are built-ins, the spec's own [methods.ID] tables, then the
/// tables of `methods` (--methods files), then the shipped library's.  Throws SpecError (tables::TableError for a
/// bad table); a spec with a scan is refused here (load_specs reads it).
Spec load_spec(const std::filesystem::path& file, const tables::Library* methods = nullptr);
/// The same for a spec that may hold a scan: one Spec per point of its grid, named "<name>_<axis>-<value>..." (the
/// value's shortest decimal, '.' as 'p' and '-' as 'm': kepler-scan_e-0p3), every point validated before any
/// work; a spec without one gives one Spec.  An error at a point names it: "... [scan point 3 of 10: e = 0.3]".
std::vector<Spec> load_specs(const std::filesystem::path& file, const tables::Library* methods = nullptr);
std::vector<Spec> parse_specs(const std::string& text, const std::filesystem::path& name, const tables::Library* methods = nullptr);
/// The name of a scan's point: "<scan>_<axis>-<value>" for each axis ("G" as "g"; "0.3" as "0p3", "-1e-05" as
/// "m1em05").
std::string scan_point_name(const std::string& scan, const std::vector<std::string>& axes, const std::vector<double>& values);
/// The top-level keys of a spec file ("methods" among them): a methods file may be a spec holding tables.
const std::vector<std::string>& spec_keys();
/// The same from TOML text (a spec on standard input: `name` is where errors say it came from).
Spec parse_spec(const std::string& text, const std::filesystem::path& name, const tables::Library* methods = nullptr);

/// The most steps one run may take (t_end / dt): beyond it a spec is refused before anything runs.
inline constexpr double max_steps_per_run = 1e12;
/// The longest reference, in time scales of the problem (t_end / time scale).
inline constexpr double max_time_scales = 1e7;

/// Why a problem's time scale (its period() with the given parameters) cannot be worked in, or "": every step, time
/// and cost is measured in it, and parameters that each lie in range can still make it under- or overflow
/// (earth-moon at a distance of 1e-150).
std::string time_scale_problem(const std::string& problem, double time_scale);

/// What a spec will cost before it runs.  Work: force evaluations of every run (auto sweeps: their whole budget of
/// runs), its long energy run, and its reference, each weighted by what one evaluation of the problem costs
/// (ProblemFacts::evaluation_cost: pair forces for N bodies), so that the unit is one two-body evaluation whatever
/// the problem.  Memory: the bytes the results hold until they are written (each run's samples with their
/// reference states) and the largest of its CSV tables, built in memory before it is written.  `biggest` says
/// which part of the work costs most, for the message that refuses it.
struct CostEstimate {
  double evaluations = 0;  ///< weighted: two-body force evaluations' worth
  double held_bytes = 0;   ///< samples kept until the results are written
  double text_bytes = 0;   ///< its samples.csv (built in memory, and copied once as it is written)
  std::string biggest;
  std::string advice;      ///< what lowers the biggest part ("" for a fixed-step part: larger steps or a shorter t_end)
  std::size_t runs = 0;    ///< runs at most (auto sweeps: their budget)
};
CostEstimate estimate_cost(const Spec& spec);
/// The weighted work of one integrator's double sweep as estimate_cost counts it (every run of its sweep, every pass:
/// the step, the way back, the long double shadow), the unit of its wide runs' budget (wide_budget).
double sweep_work(const Spec& spec, const SpecIntegrator& si);
/// What an integrator's wide runs may spend, weighted: wide_budget x its double sweep's work (the estimate counts it
/// in full before any work, so it stays in proportion to the study: a floor of a second of float128 per integrator
/// made a 1e3-evaluation study's estimate 1e8).
double wide_work_budget(const Spec& spec, const SpecIntegrator& si);
/// The same in words, for a stop: "wide_budget = 4 x the double sweep's 1.1e+06".
std::string wide_budget_text(const Spec& spec, const SpecIntegrator& si);
/// The floating-point operations that count as one two-body force evaluation in the work estimates.
inline constexpr double flops_per_evaluation = 30;
/// An implicit method's linear algebra a step (its Newton matrix's factors, a solve an iteration), in two-body
/// evaluations; 0 for an explicit one.
double implicit_solve_work(const Spec& s, const SpecIntegrator& i);
/// The largest wide_budget a spec may give.
inline constexpr double max_wide_budget = 1000;
/// What one force evaluation in a wide arithmetic weighs against one in double, in the work estimate and the wide
/// budget: measured 2.7 and 3.4 x (long double, x87) and 66 and 99 x (float128, libquadmath) for RK4 on Kepler and
/// Henon-Heiles, rounded up.
inline double wide_weight(const std::string& arithmetic) { return arithmetic == "float128" ? 100 : 4; }
/// The work of a reference to t_end (two Bulirsch-Stoer solves in float128), in weighted evaluations.
double reference_cost(double t_end, double time_scale, double evaluation_cost);
/// The weighted work one evaluation of the reference solve stands for: a float128 evaluation and its share of the
/// certifying solve's (Kepler e = 0.6, 10 periods: 1.4e4 evaluations per period took 3e6 double evaluations' time).
inline constexpr double reference_work_per_evaluation = 200;

/// The shipped specs (study/specs/*.toml), sorted by file name: the default study.
std::vector<std::filesystem::path> shipped_specs();
/// The shipped scans (study/scans/*.toml): families of tens of studies each, run by name (`study run
/// kepler-eccentricity`), not in the default study.
std::vector<std::filesystem::path> shipped_scans();
/// The spec files of a folder (*.toml), sorted by name.
std::vector<std::filesystem::path> spec_files_in(const std::filesystem::path& dir);

/// Profiles: named sets of specs (study/profiles/NAME/*.toml), each with its committed baseline of error
/// constants (study/profiles/NAME.baseline.toml).  `ci` is the fast gate the tests run.
std::vector<std::string> profile_names();
/// The specs of a profile.  Throws SpecError for an unknown name.
std::vector<std::filesystem::path> profile_specs(const std::string& name);
std::filesystem::path profile_baseline(const std::string& name);

}  // namespace study
