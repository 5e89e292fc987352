#pragma once
/// Newtonian gravity between B point masses in S dimensions, positions flattened body by body:
/// a_i = sum_{j != i} G m_j (x_j - x_i) / |x_j - x_i|^3, each pair visited once.
/// Shared by `earth-moon` and `outer-solar-system`.

#include <array>
#include <cmath>
#include <cstddef>

#include "integrators/state.hpp"

namespace study {

/// Pairwise gravity and the invariants it conserves (energy, linear and angular momentum).
template <class Real, std::size_t B, std::size_t S>
struct Gravity {
  static constexpr std::size_t dim = B * S;
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;

  Real G{};
  std::array<Real, B> m{};

  void accel(const Vec& q, Vec& a) const {
    using std::sqrt;
    a.fill(Real(0));
    for (std::size_t i = 0; i < B; ++i)
      for (std::size_t j = i + 1; j < B; ++j) {
        std::array<Real, S> d;
        Real r2 = 0;
        for (std::size_t k = 0; k < S; ++k) d[k] = q[j * S + k] - q[i * S + k], r2 += d[k] * d[k];
        const Real inv = G / (r2 * sqrt(r2));
        for (std::size_t k = 0; k < S; ++k) {
          a[i * S + k] += m[j] * inv * d[k];
          a[j * S + k] -= m[i] * inv * d[k];
        }
      }
  }

  Real energy(const State& s) const {
    using std::sqrt;
    Real kinetic = 0, potential = 0;
    for (std::size_t i = 0; i < B; ++i) {
      Real v2 = 0;
      for (std::size_t k = 0; k < S; ++k) v2 += s.v[i * S + k] * s.v[i * S + k];
      kinetic += m[i] * v2 / 2;
      for (std::size_t j = i + 1; j < B; ++j) {
        Real r2 = 0;
        for (std::size_t k = 0; k < S; ++k) {
          const Real d = s.q[j * S + k] - s.q[i * S + k];
          r2 += d * d;
        }
        potential -= G * m[i] * m[j] / sqrt(r2);
      }
    }
    return kinetic + potential;
  }

  /// Total momentum, padded to three components.
  std::array<Real, 3> linear_momentum(const State& s) const {
    std::array<Real, 3> p{};
    for (std::size_t i = 0; i < B; ++i)
      for (std::size_t k = 0; k < S; ++k) p[k] += m[i] * s.v[i * S + k];
    return p;
  }

  /// Total angular momentum about the origin (only z in the plane).
  std::array<Real, 3> angular_momentum(const State& s) const {
    std::array<Real, 3> L{};
    for (std::size_t i = 0; i < B; ++i) {
      std::array<Real, 3> x{}, v{};
      for (std::size_t k = 0; k < S; ++k) x[k] = s.q[i * S + k], v[k] = s.v[i * S + k];
      L[0] += m[i] * (x[1] * v[2] - x[2] * v[1]);
      L[1] += m[i] * (x[2] * v[0] - x[0] * v[2]);
      L[2] += m[i] * (x[0] * v[1] - x[1] * v[0]);
    }
    return L;
  }
};

}  // namespace study
