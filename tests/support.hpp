#pragma once
/// Helpers shared by the tests: integrate n steps, measure errors, sweep dt.

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <limits>
#include <vector>

#include "integrators/method.hpp"
#include "study/fit/order_fit.hpp"

namespace testing {

inline constexpr double eps = std::numeric_limits<double>::epsilon();

/// A fresh, empty directory under the system's temporary directory, removed with the object.  Names are unique
/// per test (ctest runs tests in parallel: pass "area-case") and per process (two suites may run at once).
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("ode-study-test-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// Writes `text` to a file in the directory and returns its path.
  std::filesystem::path file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

/// The whole content of a file (empty if it cannot be read).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// n steps of h = t_end / n from the problem's initial state (time set as k h, not accumulated).
template <class M, class P>
typename P::State integrate(const M& method, const P& p, typename P::real_type t_end, long n) {
  auto stepper = ode::make_stepper<P>(method);
  auto s = p.initial();
  const typename P::real_type h = t_end / n;
  for (long k = 0; k < n; ++k) stepper.step(s, h, p);
  return s;
}

/// Largest absolute difference over all positions and velocities.
template <class S>
auto phase_error(const S& a, const S& b) {
  using std::abs;
  typename S::value_type e = 0;
  for (std::size_t i = 0; i < S::dim; ++i) e = std::max({e, abs(a.q[i] - b.q[i]), abs(a.v[i] - b.v[i])});
  return e;
}

/// Largest absolute difference over positions only.
template <class S>
auto position_error(const S& a, const S& b) {
  using std::abs;
  typename S::value_type e = 0;
  for (std::size_t i = 0; i < S::dim; ++i) e = std::max(e, abs(a.q[i] - b.q[i]));
  return e;
}

/// Global phase-space errors at t_end against the exact solution for n = n_min, 2 n_min, ..., n_max steps.
/// The noise floor of each point is the round-off a run of n steps accumulates as a random walk,
/// eps sqrt(n) times the size of the state (Brouwer's law; Hairer, Lubich, Wanner, GNI §VIII.5).
template <class M, class P>
std::vector<study::ErrorPoint> sweep(const M& method, const P& p, typename P::real_type t_end, long n_min, long n_max) {
  using Real = typename P::real_type;
  const auto exact = p.exact(t_end);
  using std::abs;
  double scale = 0;
  for (std::size_t i = 0; i < P::dim; ++i)
    scale = std::max({scale, static_cast<double>(abs(exact.q[i])), static_cast<double>(abs(exact.v[i]))});
  std::vector<study::ErrorPoint> points;
  for (long n = n_min; n <= n_max; n *= 2) {
    const double eps = static_cast<double>(std::numeric_limits<Real>::epsilon());
    double error = std::numeric_limits<double>::infinity();  // an implicit iteration that fails is a diverged point
    try {
      error = static_cast<double>(phase_error(integrate(method, p, t_end, n), exact));
    } catch (const ode::ConvergenceError&) {
    }
    points.push_back({static_cast<double>(t_end / n), error, eps * std::sqrt(static_cast<double>(n)) * scale});
  }
  return points;
}

}  // namespace testing
