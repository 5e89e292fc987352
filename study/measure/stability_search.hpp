#pragma once
/// The stability search: the largest omega h for which a method's one-step map on x'' = -x has spectral radius
/// at most 1 (study/measure/binding.hpp runs it per method, whatever the study's problem).

#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include "integrators/method.hpp"
#include "study/measure/stability_theory.hpp"
#include "study/measure/stepper.hpp"
#include "study/problems/harmonic.hpp"
#include "study/common/interrupt.hpp"
#include "study/registry/choice.hpp"
#include "study/results/results.hpp"

namespace study::engine {

/// Spectral radius of the one-step map on x'' = -x with step h (2x2: (q, v), or (x_{n-1}, x_n) with history).
template <class M>
double amplification(const M& m, double h) {
  using P = Harmonic<double>;
  const P p;
  std::array<std::array<double, 2>, 2> a{};
  for (int col = 0; col < 2; ++col) {
    auto st = ode::make_stepper<P>(m);
    P::State s{{col == 0 ? 1.0 : 0.0}, {col == 1 ? 1.0 : 0.0}, 0.0};
    if constexpr (HasHistory<decltype(st), P::State, P>) {
      // Basis of (x_{n-1}, x_n) pairs; the map returns (x_n, x_{n+1}).
      const P::Vec prev{col == 0 ? 1.0 : 0.0};
      s.q = {col == 1 ? 1.0 : 0.0};
      st.set_history(prev, s, h, p);
      const double xn = s.q[0];
      st.step(s, h, p);
      a[0][col] = xn, a[1][col] = s.q[0];
    } else {
      st.step(s, h, p);
      a[0][col] = s.q[0], a[1][col] = s.v[0];
    }
  }
  const double tr = a[0][0] + a[1][1], det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  const std::complex<double> root = std::sqrt(std::complex<double>(tr * tr - 4 * det));
  return std::max(std::abs((tr + root) / 2.0), std::abs((tr - root) / 2.0));
}

/// The largest stable omega h: scanned on 0.01, 0.02, ..., 10, then bisected to 1e-9.
template <class M>
Stability stability(const M& m, const IntegratorChoice& choice) {
  Stability st;
  st.integrator = choice.label();
  const StabilityTheory theory = stability_theory(m);
  st.theory = theory.limit, st.theory_basis = theory.basis;
  const double tolerance = 64 * std::numeric_limits<double>::epsilon();
  std::string failure;
  auto stable = [&](double h) {
    stop_if_interrupted();  // two steps each, up to 1030 of them: seconds for a large implicit table
    try {
      const double rho = amplification(m, h);
      return std::isfinite(rho) && rho <= 1 + tolerance;
    } catch (const ode::ConvergenceError&) {
      failure = "the Newton iteration of the stage equations stops converging here; the method itself may be stable beyond";
      return false;
    }
  };
  if (!stable(0.01)) {
    st.limit = 0;
    st.note = failure.empty() ? "unstable for every omega h tried: |lambda| > 1 already at omega h = 0.01" : failure;
    return st;
  }
  double lo = 0.01, hi = 0;
  for (int i = 2; i <= 1000 && hi == 0; ++i) {
    if (stable(0.01 * i)) lo = 0.01 * i;
    else hi = 0.01 * i;
  }
  if (hi == 0) {
    st.limit = lo, st.beyond_search = true, st.note = "stable over the whole search range omega h <= 10";
    return st;
  }
  while (hi - lo > 1e-9) {
    const double mid = (lo + hi) / 2;
    (stable(mid) ? lo : hi) = mid;
  }
  st.limit = lo;
  st.note = failure;
  return st;
}

}  // namespace study::engine
