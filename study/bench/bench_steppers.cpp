// Google Benchmark program: every hand-written integrator against Boost.Odeint's steppers and the force floor on
// kepler, harmonic and outer-solar-system (study/bench/steppers.hpp), with Google Benchmark's console table.
// `study bench` runs the same benchmark and writes bench.json into a results directory for the report.
// Run: build/release/bench_steppers [--json FILE] [--min-time S] [--repetitions N] [--filter REGEX] [--benchmark_...]
#include <cstring>
#include <iostream>
#include <string>

#include "study/common/atomic_file.hpp"
#include "study/bench/steppers.hpp"

int main(int argc, char** argv) {
  bench::Options o;
  o.console = true;
  std::string json;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw bench::BenchError(a + " needs a value");
        return argv[++i];
      };
      if (a == "--json") json = value();
      else if (a == "--min-time") o.min_time = std::stod(value());
      else if (a == "--repetitions") o.repetitions = std::stoi(value());
      else if (a == "--filter") o.filter = value();
      else if (a == "--help" || a == "-h") {
        std::cout << "usage: bench_steppers [--json FILE] [--min-time SECONDS (0.1)] [--repetitions N (3)] [--filter REGEX] "
                     "[Google Benchmark --benchmark_... flags]\n";
        return 0;
      } else o.benchmark_args.push_back(a);
    }
    const auto doc = bench::run(o, std::cout);
    if (!json.empty()) {
      study::write_atomic(json, doc.dump(2) + "\n");
      std::cout << "wrote " << json << "\n";
    }
  } catch (const std::exception& e) {  // BenchError, and std::stod on a bad number
    std::cerr << "bench_steppers: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
