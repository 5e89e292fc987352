#pragma once
/// The state every integrator advances: positions q, velocities v, time t.
/// Shared vocabulary of integrators/ and study/problems/ (both include only this header of each other's).

#include <array>
#include <bit>
#include <cstdint>
#include <charconv>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace ode {

/// Positions and velocities of a system with D degrees of freedom (bodies flattened in order), at time t.
template <class Real, std::size_t D>
struct State {
  using value_type = Real;
  static constexpr std::size_t dim = D;
  std::array<Real, D> q{};
  std::array<Real, D> v{};
  Real t{};
};

/// d a / d q or d a / d v at one state, D x D (row i: component i of a): problems that give theirs analytically
/// define jacobian(q, v, dadq, dadv); implicit methods use it (integrators/implicit_rk.hpp).
template <class Real, std::size_t D>
using Jacobian = std::array<std::array<Real, D>, D>;

/// y += c * x (the one vector operation the integrators need; kept visible at call sites as drift/kick).
template <class Real, std::size_t D>
inline void axpy(std::array<Real, D>& y, Real c, const std::array<Real, D>& x) {
  for (std::size_t i = 0; i < D; ++i) y[i] += c * x[i];
}

/// Whether a and b hold the same bits.  Cached-force methods ask it every step (was the state changed from
/// outside?), so for double it is an OR of XORs that vectorises, without the branch per element of operator==
/// (which cost 10 % of a velocity Verlet step on outer-solar-system).  Bits, not ==: -0 and +0 differ, so the
/// cache is only trusted for the very q it was computed at.
template <class Real, std::size_t D>
inline bool same(const std::array<Real, D>& a, const std::array<Real, D>& b) {
  if constexpr (std::is_same_v<Real, double>) {
    std::uint64_t diff = 0;
    for (std::size_t i = 0; i < D; ++i) diff |= std::bit_cast<std::uint64_t>(a[i]) ^ std::bit_cast<std::uint64_t>(b[i]);
    return diff == 0;
  } else {
    return a == b;
  }
}

/// Drift: positions move with the velocities for a time h.
template <class Real, std::size_t D>
inline void drift(std::array<Real, D>& q, const std::array<Real, D>& v, Real h) { axpy(q, h, v); }

/// Kick: velocities change with the accelerations for a time h.
template <class Real, std::size_t D>
inline void kick(std::array<Real, D>& v, const std::array<Real, D>& a, Real h) { axpy(v, h, a); }

/// Parses a decimal literal into Real with Real's own precision (coefficients are kept as text so
/// that float128 gets all 34 digits, not a double's 17).
template <class Real>
Real from_decimal(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);  // from_chars rejects a leading '+'
  if constexpr (std::is_floating_point_v<Real>) {
    Real value{};
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end)
      throw std::invalid_argument("not a number: '" + std::string(text) + "'");
    return value;
  } else {
    return Real(std::string(text));  // Boost.Multiprecision types parse decimal strings exactly rounded
  }
}

}  // namespace ode
