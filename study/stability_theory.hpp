#pragma once
/// The theoretical linear stability limit on x'' = -omega^2 x: the largest omega h below which the one-step
/// map stays bounded.  Worked out from each method's formula, independently of its stepper code, so that the
/// measured limit (engine_impl.hpp, from real steps) is checked against it.
/// Sources: Hairer, Nørsett, Wanner, Solving ODEs I, §IV.2 (stability functions: Euler 1 + z, RK2
/// 1 + z + z^2/2, RK4 to z^4/24: stable on the imaginary axis only for RK4, up to |y| = 2 sqrt 2; implicit
/// midpoint and Gauss methods: |R(iy)| = 1, A-stable); Hairer, Lubich, Wanner, GNI §I.5 and Blanes & Casas,
/// A Concise Introduction to Geometric Numerical Integration (2016) §3.5 (splitting methods on the harmonic
/// oscillator: the step map has determinant 1 and is stable while |trace| < 2; Verlet: trace 2 - (omega h)^2).

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "integrators/all.hpp"

namespace study {

struct StabilityTheory {
  double limit = std::numeric_limits<double>::quiet_NaN();  ///< NaN: no theoretical value; inf: unbounded
  std::string basis;                                        ///< how it was obtained
};

template <class M>
concept HasCoefficients = requires { M::coefficients.kick.size(); };

/// First omega h where |trace| of a DKD composition's 2x2 step map exceeds 2: scanned every 1e-4, bisected.
template <class M>
double composition_limit() {
  constexpr auto table = M::coefficients;
  auto trace = [&](long double h) {
    // (q, v) -> (q, v): drift [[1, a h], [0, 1]], kick [[1, 0], [-b h, 1]].
    long double m00 = 1, m01 = 0, m10 = 0, m11 = 1;
    auto drift = [&](long double a) { m00 += a * h * m10, m01 += a * h * m11; };
    auto kick = [&](long double b) { m10 -= b * h * m00, m11 -= b * h * m01; };
    for (std::size_t i = 0; i < table.kick.size(); ++i) {
      drift(ode::from_decimal<long double>(table.drift[i]));
      kick(ode::from_decimal<long double>(table.kick[i]));
    }
    drift(ode::from_decimal<long double>(table.drift[table.kick.size()]));
    return m00 + m11;
  };
  long double lo = 0, hi = 0;
  for (int i = 1; i <= 100000 && hi == 0; ++i) {
    const long double h = 1e-4L * i;
    if (std::abs(trace(h)) <= 2) lo = h;
    else hi = h;
  }
  if (hi == 0) return std::numeric_limits<double>::infinity();
  while (hi - lo > 1e-15L) {
    const long double mid = (lo + hi) / 2;
    (std::abs(trace(mid)) <= 2 ? lo : hi) = mid;
  }
  return static_cast<double>(lo);
}

template <class M>
StabilityTheory stability_theory(const M& m) {
  const std::string id(m.info().id);
  if constexpr (HasCoefficients<M>) {
    return {composition_limit<M>(), "|trace| < 2 of the product of its drift and kick matrices"};
  } else {
    if (id == "euler") return {0, "|1 + i omega h| > 1 for every h > 0"};
    if (id == "rk2-midpoint" || id == "rk2-heun") return {0, "|R(i y)|^2 = 1 + y^4/4 > 1 for every y > 0"};
    if (id == "rk4") return {2 * std::numbers::sqrt2, "|R(i y)|^2 = 1 - y^6/72 + y^8/576 <= 1 up to y = 2 sqrt 2"};
    if (id == "symplectic-euler" || id == "symplectic-euler-drift" || id == "velocity-verlet" || id == "leapfrog" ||
        id == "stormer-verlet")
      return {2, "trace 2 - (omega h)^2 of the step map, |trace| < 2 up to omega h = 2"};
    if (id == "implicit-midpoint" || id == "gauss-legendre4")
      return {std::numeric_limits<double>::infinity(), "A-stable: |R(i y)| = 1 for every y"};
    return {};
  }
}

template <class Base>
StabilityTheory stability_theory(const ode::Substeps<Base>& m) {
  StabilityTheory t = stability_theory(m.base);
  t.limit *= m.k;  // k steps of h/k
  if (m.k > 1) t.basis += "; " + std::to_string(m.k) + " substeps of h/k";
  return t;
}

}  // namespace study
