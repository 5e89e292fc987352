#pragma once
/// The stepper benchmark behind `study bench` and bench_steppers: time per step of every hand-written integrator
/// on kepler, harmonic and outer-solar-system, side by side in one process with Boost.Odeint's counterparts on the
/// same problem and state type, and the floor (a bare loop of force evaluations).  Each pair is first checked to
/// compute the same trajectory.  The result is the bench.json document that `study report` renders.

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/common/printable.hpp"

namespace bench {

struct Options {
  double min_time = 0.1;  ///< seconds of timing per benchmark and repetition
  int repetitions = 3;    ///< interleaved at random; the table keeps each benchmark's fastest repetition
  std::string filter;     ///< regular expression on "problem/integrator" (empty: everything)
  bool console = false;   ///< Google Benchmark's console table (else one progress line per tenth of the runs)
  std::vector<std::string> benchmark_args;  ///< further Google Benchmark flags (--benchmark_...)
};

/// A pair that does not compute the same trajectory, or unusable options: nothing was timed.
struct BenchError : study::EchoError {  // its message echoes input: printable
  using study::EchoError::EchoError;
};

/// Checks every pair, then times everything.  Progress and the checks go to `log`.  Returns bench.json.
nlohmann::ordered_json run(const Options& options, std::ostream& log);

}  // namespace bench
