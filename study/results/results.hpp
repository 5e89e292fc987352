#pragma once
/// What a study measures: the data model of results.json (docs/results-files.md), filled by every stage from the
/// context on; below them in the layers, as each writes into it.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "study/fit/order_fit.hpp"
#include "study/fit/wide.hpp"
#include "study/fit/sweep_advice.hpp"
#include "study/spec/spec.hpp"

namespace study {

inline constexpr double not_measured = std::numeric_limits<double>::quiet_NaN();

/// One integrator at one step size.
struct Run {
  std::string integrator;  ///< label: "rk4 x4", "stormer-verlet (backward-euler)"
  std::string id;
  int substeps = 1;
  double dt = 0;
  long steps = 0;
  std::string status = "ok";  ///< "ok" or "diverged"
  long diverged_step = -1;
  double diverged_t = not_measured;
  std::string reason;
  // Errors, relative to the reference's scales (largest |q|, |v|): phase space = max of the two.
  double global = not_measured, position = not_measured, max = not_measured;
  double local = not_measured, local_position = not_measured;
  /// Round-off in `global`: the distance to the same method, step and start run in long double (measured
  /// only where the error is small enough for round-off to matter).
  double roundoff = not_measured;
  /// Round-off in `max`: the largest distance to that long double run over the samples (a decaying problem's end
  /// state, and so its round-off, is far smaller than the state where its largest error lies).
  double roundoff_max = not_measured;
  /// Time reversal: n steps of h then n of -h; the distance from the start, relative to the largest |q|.
  double reversal = not_measured;
  double energy_max_rel = not_measured, energy_final_rel = not_measured, energy_drift_per_time = not_measured;
  std::string energy_class;  ///< "bounded", "drifting", "round-off", "large", or "" (not measured)
  double energy_roundoff = not_measured;  ///< round-off in the relative energy error at t_end (long double shadow)
  double angular_momentum_max_rel = not_measured;
  std::vector<double> final_q, final_v;
  double ns_per_step_min = not_measured, ns_per_step_median = not_measured;  ///< timing (not reproducible)
  std::uint64_t force_evals = 0;
  std::uint64_t jacobian_evals = 0;  ///< analytic Jacobians (differenced ones are in force_evals)
  std::uint64_t iterations = 0;      ///< Newton iterations of an implicit method's stage equations
  // Samples for plots: time, positions, phase-space error, relative energy error.
  std::vector<double> sample_t, sample_error, sample_energy;
  std::vector<std::vector<double>> sample_q, sample_v;
  bool reused = false;  ///< taken from the run cache (its timing measured again); not written to results
};

/// One integrator at one step size in a wider arithmetic (long double, float128), run where round-off ended its
/// double sweep's range before an order settled (study/fit/wide.hpp): its errors and their noise floors, nothing of
/// its cost or energy (what a user ships is the double run's).
struct WideRun {
  std::string integrator;
  std::string arithmetic;  ///< "long double" or "float128"
  double dt = 0;
  long steps = 0;
  std::string status = "ok";  ///< "ok", "diverged", or "unsupported" (the method's step is written for double only)
  std::string reason;         ///< why it diverged or was not run
  double global = not_measured, max = not_measured, local = not_measured;
  /// The noise floor of each: wide_reference_factor x the reference's bound, and round-off estimated from the double
  /// runs' measured round-off scaled to this arithmetic's unit roundoff (study/measure/wide.cpp).
  double floor_global = not_measured, floor_max = not_measured, floor_local = not_measured;
  std::uint64_t force_evals = 0;  ///< steps x evaluations a step (an implicit method: per iteration, 8 a step)
  bool reused = false;            ///< taken from the run cache; not written to results
};

/// An integrator's runs in one wide arithmetic: the step sizes run, why no smaller one, and why it was run.
struct WideSweep {
  std::string integrator, arithmetic;
  std::vector<double> dts;  ///< largest first
  std::string why;          ///< the orders double left undetermined for round-off
  std::string stop;         ///< why no smaller step was run
  double work = 0;          ///< weighted force evaluations spent (wide_weight(arithmetic) each)
  /// What the runs' errors are measured against: "float128 reference" (the certified solve, from the double runs'
  /// start) or, in float128 on a shipped problem that has one, "exact solution" (from the problem's own float128
  /// start), and its relative error bound: a tenth of the runs' lowest noise floor (study/measure/wide.cpp).
  std::string reference = "float128 reference";
  double reference_bound = 0;
};

/// A fitted order.
struct Order {
  std::string integrator, metric;  ///< metric: "global", "max" or "local"
  int expected = 0;
  OrderFit fit;                    ///< the fit the verdict was decided on: double's, or a wide arithmetic's
  OrderVerdict verdict;            ///< pass / fail / undetermined at the default tolerance
  std::vector<ErrorPoint> points;  ///< double's points: the report plots them, `study check` judges them again
  std::string arithmetic = "double";  ///< where the verdict was decided ("long double", "float128": wide_points)
  std::vector<WidePoints> wide;       ///< each wide arithmetic's points, where they were run
};

/// The long energy run of one integrator.
struct EnergyLong {
  std::string integrator;
  double dt = 0;  ///< its step; an adaptive pair's: its mean step (the time it reached over its accepted steps)
  long steps = 0;  ///< an adaptive pair's: its accepted steps
  double tol = 0;  ///< an adaptive pair's long run: its tolerance (energy_tol); 0: a fixed-step run
  std::string status = "ok";  ///< "ok", "diverged"; an adaptive pair's may stop too ("step-limit", "underflow", "rejections")
  std::string reason{};       ///< why an adaptive pair's run stopped
  double diverged_t = not_measured;
  std::vector<double> t, rel_error;  ///< log-uniform samples
  std::vector<double> envelope;      ///< at each sample, the largest |relative energy error| of every step so far
  double max_rel = not_measured;     ///< the largest |relative energy error| of the run, every step
  /// Slope of log(envelope) on log t over the second half of the samples, from 3 of the problem's time scales on (the
  /// envelope of a bounded oscillation has reached its height by then: 0; a linear drift: 1).
  double growth_exponent = not_measured;
  double growth_lo = not_measured, growth_hi = not_measured;  ///< its 99 % Student-t interval
};

/// The largest stable omega h on the harmonic oscillator.
struct Stability {
  std::string integrator;
  double limit = not_measured;  ///< largest stable omega h found (0: unstable for every h > 0)
  bool beyond_search = false;   ///< stable over the whole search range
  std::string note;
  double theory = not_measured;  ///< the theoretical limit (inf: A-stable; NaN: none known)
  std::string theory_basis;
};

/// The step sizes one integrator ran, and why the sweep ended there (dt = "auto": chosen while it ran).
struct Sweep {
  std::string integrator;
  bool automatic = false;
  std::vector<double> dts;  ///< largest first
  std::string stop;         ///< why no smaller step was run
  SweepStop cause = SweepStop::none;  ///< the rule that stopped an automatic sweep, or a range at dt.past_floor (noise floor)
  SweepStop halvings = SweepStop::none;  ///< when it went on with levels between the halvings: what ended those
};

/// One adaptive integrator at one tolerance (eps_abs = eps_rel = tol): its errors at the output times against the
/// reference, its counts and step sizes, and its wall time.
struct AdaptiveRun {
  std::string integrator;  ///< label: "dopri5 (adaptive)"
  std::string id, controller;
  double tol = 0;
  /// "ok", or why it stopped before t_end: "step-limit" (tol.max_steps tries), "underflow" (the step fell below the
  /// time's resolution), "rejections" (500 in a row), "diverged" (the state passed 1e100 of its scale).
  std::string status = "ok";
  std::string reason;
  double t_reached = 0;
  double global = not_measured, position = not_measured, max = not_measured;  ///< as a fixed-step Run's
  double energy_final_rel = not_measured, energy_max_rel = not_measured;
  /// At each output time (Spec::adaptive_times, up to where the run stopped): the phase-space error and the relative
  /// energy error (against E0, or on a dissipative problem the reference's energy there).
  std::vector<double> sample_error, sample_energy;
  /// Round-off in `global` and `max`: the distance to the same steps taken in long double (a replay of the accepted
  /// steps: the truncation error is the same), at t_end and the largest over the output times.
  double roundoff = not_measured, roundoff_max = not_measured;
  long accepted = 0, rejected = 0;
  long cut = 0;  ///< accepted steps cut short to land on an output time (most of them: the output times set the steps)
  std::uint64_t force_evals = 0;
  double h_min = not_measured, h_max = not_measured;  ///< of the steps the controller chose (not those cut short)
  double seconds_min = not_measured, seconds_median = not_measured;  ///< one whole run's wall time (not reproducible)
  bool reused = false;  ///< taken from the run cache (its timing measured again); not written to results
};

/// Tolerance proportionality: the slope of log global error on log tolerance over an adaptive integrator's sweep,
/// fitted and judged by the order fit's rules (its 99 % interval against expected +/- 0.2).
struct Proportionality {
  std::string integrator;
  double expected = 1;
  OrderFit fit;
  OrderVerdict verdict;
  std::vector<ErrorPoint> points;  ///< dt: the tolerance
  std::size_t output_limited = 0;  ///< runs left out of the fit: most of their steps were cut to land on output times
};

/// Everything a spec produced.
struct StudyResult {
  Spec spec;
  bool conservative = false, bounded = false, periodic = false;  ///< the problem's (see study/problems)
  double period = 0;                           ///< the problem's natural time scale
  std::string time_unit, length_unit;          ///< the problem's units ("" dimensionless), for the report
  double position_scale = 1, velocity_scale = 1;
  double reference_bound = 0, reference_tolerance = 0;
  std::vector<Run> runs;
  std::vector<Sweep> sweeps;  ///< one per integrator, when the spec has a sweep
  std::vector<Order> orders;
  std::vector<EnergyLong> energy_long;
  std::vector<Stability> stability;
  std::vector<WideRun> wide_runs;      ///< where an order needed them (empty slots erased after the runs)
  std::vector<WideSweep> wide_sweeps;  ///< one per integrator and wide arithmetic run
  std::vector<AdaptiveRun> adaptive_runs;      ///< per adaptive integrator, its tolerances largest first
  std::vector<Proportionality> proportionality;  ///< one per adaptive integrator
};

}  // namespace study
