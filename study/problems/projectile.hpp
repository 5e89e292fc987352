#pragma once
/// Seed 001's particle under constant gravity: x'' = (0, -g).  Exact:
/// x(t) = x0 + v0 t + a t^2 / 2.  Velocity Verlet and RK2 reproduce it exactly; explicit and symplectic
/// Euler err by -/+ a t h / 2 in position.
/// Source: seed 001_6acc8ac4a7803fd3.txt ("Time integration methods"); the seed gives no numbers, so the
/// defaults are ours: launched from the origin at (10, 10) m/s, g = 9.81 m/s^2.

#include <array>
#include <string_view>

#include "integrators/state.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class Projectile {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "projectile";
  static constexpr std::string_view summary = "seed 001: particle under constant gravity g (exact)";
  static constexpr std::string_view source = "seed 001_6acc8ac4a7803fd3.txt";
  /// Units of time and of positions ("" dimensionless), for the report's axes: SI units.
  static constexpr std::string_view time_unit = "s", length_unit = "m";
  static constexpr std::size_t dim = 2, space_dim = 2, bodies = 1;
  static constexpr bool has_exact = true, has_angular_momentum = false, has_linear_momentum = false;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = true, bounded = false;  // it falls forever: no compact energy surface
  static constexpr bool periodic = false;  // period() is the time of flight
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 3> params{{{"g", "9.81", "gravitational acceleration (downwards), > 0"},
                                                    {"vx", "10", "initial horizontal velocity"},
                                                    {"vy", "10", "initial vertical velocity"}}};

  explicit Projectile(const ParamValues& values = {}) {
    ParamReader<Real, 3> p(id, params, values);
    g_ = p("g"), vx_ = p("vx"), vy_ = p("vy");
    p.require(g_ > 0, "g", "g must be > 0 (gravity points down; 0 leaves nothing to integrate)");
  }

  State initial() const { return {{Real(0), Real(0)}, {vx_, vy_}, Real(0)}; }
  void accel(const Vec&, Vec& a) const { a[0] = 0, a[1] = -g_; }
  void jacobian(const Vec&, const Vec&, ode::Jacobian<Real, dim>& dadq, ode::Jacobian<Real, dim>& dadv) const {
    for (auto* j : {&dadq, &dadv})
      for (auto& row : *j) row.fill(Real(0));
  }
  Real energy(const State& s) const { return (s.v[0] * s.v[0] + s.v[1] * s.v[1]) / 2 + g_ * s.q[1]; }
  State exact(Real t) const { return {{vx_ * t, vy_ * t - g_ * t * t / 2}, {vx_, vy_ - g_ * t}, t}; }

  /// Time of flight back to y = 0 (the natural time scale), or 1 when it never comes back up.
  Real period() const { return vy_ > 0 ? 2 * vy_ / g_ : Real(1); }
  Real gravity() const { return g_; }

 private:
  Real g_{}, vx_{}, vy_{};
};

}  // namespace study
