#pragma once
/// The theoretical linear stability limit on x'' = -omega^2 x: the largest omega h below which the one-step
/// map stays bounded.  Worked out from each method's formula, independently of its stepper code, so that the
/// measured limit (study/measure/binding.hpp, from real steps) is checked against it.
/// Sources: Hairer, Nørsett, Wanner, Solving ODEs I, §IV.2 (stability functions: Euler 1 + z, RK2
/// 1 + z + z^2/2, RK4 to z^4/24: stable on the imaginary axis only for RK4, up to |y| = 2 sqrt 2; implicit
/// midpoint and Gauss methods: |R(iy)| = 1, A-stable); Hairer, Lubich, Wanner, GNI §I.5 and Blanes & Casas,
/// A Concise Introduction to Geometric Numerical Integration (2016) §3.5 (splitting methods on the harmonic
/// oscillator: the step map has determinant 1 and is stable while |trace| < 2; Verlet: trace 2 - (omega h)^2).

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "integrators/all.hpp"
#include "integrators/table.hpp"

namespace study {

struct StabilityTheory {
  double limit = std::numeric_limits<double>::quiet_NaN();  ///< NaN: no theoretical value; inf: unbounded
  std::string basis;                                        ///< how it was obtained
};

template <class M>
concept HasCoefficients = requires { M::coefficients.kick.size(); };

/// First omega h where |trace| of a splitting's 2x2 step map on x'' = -x (its drifts and kicks in order: (kick?,
/// coefficient)) exceeds 2: scanned every 1e-4, bisected.
inline double splitting_limit(const std::vector<std::pair<bool, long double>>& ops) {
  auto trace = [&](long double h) {
    // (q, v) -> (q, v): drift [[1, a h], [0, 1]], kick [[1, 0], [-b h, 1]].
    long double m00 = 1, m01 = 0, m10 = 0, m11 = 1;
    for (const auto& [is_kick, c] : ops) {
      if (is_kick) m10 -= c * h * m00, m11 -= c * h * m01;
      else m00 += c * h * m10, m01 += c * h * m11;
    }
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

/// The same for a DKD composition given by its static table.
template <class M>
double composition_limit() {
  constexpr auto table = M::coefficients;
  std::vector<std::pair<bool, long double>> ops;
  for (std::size_t i = 0; i < table.kick.size(); ++i) {
    ops.emplace_back(false, ode::from_decimal<long double>(table.drift[i]));
    ops.emplace_back(true, ode::from_decimal<long double>(table.kick[i]));
  }
  ops.emplace_back(false, ode::from_decimal<long double>(table.drift[table.kick.size()]));
  return splitting_limit(ops);
}

/// |R(i y)| for a Runge-Kutta tableau: R(z) = 1 + z b^T (I - z a)^-1 1 (Hairer & Wanner, Solving ODEs II, §IV.3),
/// by Gaussian elimination with partial pivoting in complex long double.
inline long double runge_kutta_amplification(const std::vector<std::vector<long double>>& a, const std::vector<long double>& b,
                                             long double y) {
  using C = std::complex<long double>;
  const std::size_t s = b.size();
  const C z(0, y);
  std::vector<std::vector<C>> m(s, std::vector<C>(s + 1));
  for (std::size_t i = 0; i < s; ++i) {
    for (std::size_t j = 0; j < s; ++j) m[i][j] = C(i == j ? 1 : 0) - z * a[i][j];
    m[i][s] = 1;
  }
  for (std::size_t c = 0; c < s; ++c) {
    std::size_t best = c;
    for (std::size_t r = c + 1; r < s; ++r)
      if (std::abs(m[r][c]) > std::abs(m[best][c])) best = r;
    std::swap(m[c], m[best]);
    for (std::size_t r = c + 1; r < s; ++r) {
      const C f = m[r][c] / m[c][c];
      for (std::size_t k = c; k <= s; ++k) m[r][k] -= f * m[c][k];
    }
  }
  std::vector<C> x(s);
  for (std::size_t c = s; c-- > 0;) {
    C v = m[c][s];
    for (std::size_t k = c + 1; k < s; ++k) v -= m[c][k] * x[k];
    x[c] = v / m[c][c];
  }
  C r = 1;
  for (std::size_t i = 0; i < s; ++i) r += z * b[i] * x[i];
  return std::abs(r);
}

/// First omega h where |R(i omega h)| exceeds 1 (by more than 1e-12: Gauss methods have |R| = 1 to round-off):
/// 0 when already at 0.01, scanned every 1e-3 to 10, bisected; infinity when stable over the whole scan.
inline double runge_kutta_limit(const std::vector<std::vector<long double>>& a, const std::vector<long double>& b) {
  auto stable = [&](long double y) { return runge_kutta_amplification(a, b, y) <= 1 + 1e-12L; };
  if (!stable(0.01L)) return 0;
  long double lo = 0.01L, hi = 0;
  for (int i = 11; i <= 10000 && hi == 0; ++i) (stable(1e-3L * i) ? lo : hi) = 1e-3L * i;
  if (hi == 0) return std::numeric_limits<double>::infinity();
  while (hi - lo > 1e-15L) {
    const long double mid = (lo + hi) / 2;
    (stable(mid) ? lo : hi) = mid;
  }
  return static_cast<double>(lo);
}

/// A coefficient table's limit, from its coefficients: the trace of a splitting's step map, the stability function
/// of a Runge-Kutta tableau; none worked out for Nyström tables.
inline StabilityTheory stability_theory(const ode::TableMethod& m) {
  const ode::MethodTable& t = *m.table;
  switch (t.kind) {
    case ode::MethodTable::Kind::splitting: {
      std::vector<std::pair<bool, long double>> ops;
      for (const auto& op : t.operations) ops.emplace_back(op.kick, ode::from_decimal<long double>(op.coefficient));
      return {splitting_limit(ops), "|trace| < 2 of the product of its drift and kick matrices"};
    }
    case ode::MethodTable::Kind::runge_kutta: {
      std::vector<std::vector<long double>> a;
      std::vector<long double> b;
      for (const auto& row : t.a) {
        a.emplace_back(t.b.size(), 0.0L);
        for (std::size_t j = 0; j < row.size(); ++j) a.back()[j] = ode::from_decimal<long double>(row[j]);
      }
      for (const auto& x : t.b) b.push_back(ode::from_decimal<long double>(x));
      const double limit = runge_kutta_limit(a, b);
      return {limit, std::isinf(limit) ? "|R(i y)| <= 1 for every y scanned (<= 10) of R(z) = 1 + z b^T (I - z a)^-1 1"
                                       : "|R(i y)| <= 1 of its stability function R(z) = 1 + z b^T (I - z a)^-1 1"};
    }
    case ode::MethodTable::Kind::nystrom: return {};
  }
  return {};
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
