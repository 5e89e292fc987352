#pragma once
/// The baseline of error constants: each integrator's relative global error at a few fixed step sizes, as a
/// small TOML file (one line per step size) that is committed and reviewed like code.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "study/reader/model.hpp"
#include "study/common/printable.hpp"

namespace check {

/// A baseline file that cannot be used: "file:line: key: what is wrong".
struct BaselineError : study::EchoError {  // its message echoes input: printable
  using study::EchoError::EchoError;
};

struct BaselinePoint {
  double dt = 0, global = 0;
};
/// The error constants of one integrator of one study.
struct BaselineEntry {
  std::string study, integrator;
  std::vector<BaselinePoint> points;  ///< largest dt first
};
struct Baseline {
  /// Relative change of an error that fails the check.  Recorded errors are at least 1e3 times their noise
  /// floor (round-off, the reference's bound), so round-off moves them by at most 1e-3: 1e-2 leaves 10x room.
  double tolerance = 1e-2;
  std::vector<BaselineEntry> entries;
  const BaselineEntry* find(const std::string& study, const std::string& integrator) const;
};

/// Errors recorded are at least this many times above their noise floor.
inline constexpr double baseline_floor_factor = 1e3;

/// Reads a baseline file.  Throws BaselineError naming the file, line and key.
Baseline read_baseline(const std::filesystem::path& file);
/// The error constants of a results directory: per study with a global error and integrator, up to three
/// step sizes (largest, middle, smallest) whose error is between baseline_floor_factor x its noise floor and 0.1.
Baseline baseline_of(const report::Results& results);
/// `previous` with every study of `fresh` replaced by fresh's entries (other studies and the tolerance kept).
Baseline merge(const Baseline& previous, const Baseline& fresh);
/// The file's text: deterministic, sorted as the results are, four significant digits.
std::string to_toml(const Baseline& baseline);
/// One line per difference between two baselines beyond `before.tolerance` (changed, new, removed).
std::vector<std::string> differences(const Baseline& before, const Baseline& after);

/// The noise floor of a run's global error, as the engine's order fit sees it: the reference's bound, and
/// the measured round-off (else its random-walk estimate eps sqrt(steps)).
inline double noise_floor(const report::Study& s, const report::RunRow& r) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double roundoff = std::isfinite(r.roundoff) ? r.roundoff : eps * std::sqrt(static_cast<double>(r.steps));
  return std::max(s.ref_bound, roundoff);
}

/// Same step size.
inline bool same_dt(double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); }
/// A step size as a baseline writes it: 7 significant digits (a sweep's step sizes differ by far more).
inline std::string dt_key(double dt) { return fmt::format("{:.7g}", dt); }
/// Same step size as written in a baseline: the same 7 significant digits.  Not a relative tolerance: 1e-6 |b|
/// is ten units of the 7th digit at 9.999999e-3 and one at 1.000000e-3, so it matched a neighbour's step there.
inline bool same_baseline_dt(double a, double b) { return dt_key(a) == dt_key(b); }

}  // namespace check
