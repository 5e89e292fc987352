#pragma once
/// The version of the results contract (results.json and the CSV tables, docs/results-files.md).  Written by the
/// engine, required by the readers: a file of another version is an error that says what to do.
///   1: (no schema_version key) up to the CI gate and the stepper benchmark.
///   2: order entries carry verdict, reason, action, interval and every point with its noise floor;
///      problem_info carries periodic; energy behaviour "large".
///   3: integrators carry family (explicit-rk, splitting, implicit, own); problem_info carries time_unit and
///      length_unit (the report's axes).
///   4: a study of a scan carries scan (its scan's name, axes, this point's values, index and count).
///   5: energy_long entries carry max_rel (the largest |relative energy error| of their samples); runs' errors carry
///      roundoff_max (the round-off of the largest error over the samples).
///   6: energy_long entries of adaptive pairs (tol, reason; statuses step-limit, underflow, rejections); adaptive
///      carries samples (adaptive_samples.csv).

#include <cstddef>

namespace study {
inline constexpr int results_schema_version = 6;
/// At most this many points in one scan (studies of one spec), and this many values on one axis.
inline constexpr std::size_t max_scan_points = 10000, max_scan_values = 1000;
}
