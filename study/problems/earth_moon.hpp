#pragma once
/// Seed 002's Earth and Moon in the plane, SI units: masses 5.9722e24 and 7.342e22 kg, G = 6.674e-11,
/// Earth at the origin moving (0, -12.5) m/s, Moon at (384 405 000, 0) m moving (0, 1022) m/s; the seed
/// steps dt = 3600 s for one year (24 * 365 steps).  State order: Earth then Moon.
/// Exact: the relative vector follows a Kepler orbit with mu = G (m1 + m2) and the centre of mass moves
/// uniformly (the seed's velocities leave it a small drift).
/// Source: seed 002_f9bd3397a803d23e.txt (mgaillard, "EulerIntegration").

#include <array>
#include <cmath>
#include <string_view>

#include "integrators/state.hpp"
#include "study/problems/nbody.hpp"
#include "study/problems/params.hpp"
#include "study/problems/two_body.hpp"

namespace study {

template <class Real>
class EarthMoon {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "earth-moon";
  static constexpr std::string_view summary = "seed 002: Earth and Moon in the plane, SI units (exact two-body)";
  static constexpr std::string_view source = "seed 002_f9bd3397a803d23e.txt";
  /// Units of time and of positions ("" dimensionless), for the report's axes: SI units.
  static constexpr std::string_view time_unit = "s", length_unit = "m";
  static constexpr std::size_t dim = 4, space_dim = 2, bodies = 2;
  static constexpr bool has_exact = true, has_angular_momentum = true, has_linear_momentum = true;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = true, bounded = true;
  static constexpr bool periodic = true;  // the relative orbit repeats after period()
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 6> params{{{"G", "6.674e-11", "gravitational constant in m^3 kg^-1 s^-2, > 0"},
                                                    {"m_earth", "5.9722e24", "Earth mass in kg, > 0"},
                                                    {"m_moon", "7.342e22", "Moon mass in kg, > 0"},
                                                    {"distance", "384405000", "initial Earth-Moon distance in m, > 0"},
                                                    {"v_moon", "1022", "initial Moon velocity (y) in m/s"},
                                                    {"v_earth", "-12.5", "initial Earth velocity (y) in m/s"}}};

  explicit EarthMoon(const ParamValues& values = {}) : EarthMoon(ParamReader<Real, 6>(id, params, values)) {}

  State initial() const { return initial_; }
  void accel(const Vec& q, Vec& a) const { gravity_.accel(q, a); }
  Real energy(const State& s) const { return gravity_.energy(s); }
  std::array<Real, 3> linear_momentum(const State& s) const { return gravity_.linear_momentum(s); }
  std::array<Real, 3> angular_momentum(const State& s) const { return gravity_.angular_momentum(s); }

  State exact(Real t) const {
    std::array<Real, 2> r, w;
    orbit_.at(t, r, w);
    const Real m1 = gravity_.m[0], m2 = gravity_.m[1], M = m1 + m2;
    State s;
    for (std::size_t k = 0; k < 2; ++k) {
      const Real centre = cm_x_[k] + cm_v_[k] * t;
      s.q[k] = centre - m2 / M * r[k];
      s.q[2 + k] = centre + m1 / M * r[k];
      s.v[k] = cm_v_[k] - m2 / M * w[k];
      s.v[2 + k] = cm_v_[k] + m1 / M * w[k];
    }
    s.t = t;
    return s;
  }

  /// Sidereal period of the relative orbit.
  Real period() const { return orbit_.period(); }

 private:
  explicit EarthMoon(const ParamReader<Real, 6>& p)
      : gravity_(checked(p)),
        initial_{{Real(0), Real(0), p("distance"), Real(0)}, {Real(0), p("v_earth"), Real(0), p("v_moon")}, Real(0)},
        orbit_(gravity_.G * (gravity_.m[0] + gravity_.m[1]), relative(initial_.q), relative(initial_.v)) {
    const Real M = gravity_.m[0] + gravity_.m[1];
    for (std::size_t k = 0; k < 2; ++k) {
      cm_x_[k] = (gravity_.m[0] * initial_.q[k] + gravity_.m[1] * initial_.q[2 + k]) / M;
      cm_v_[k] = (gravity_.m[0] * initial_.v[k] + gravity_.m[1] * initial_.v[2 + k]) / M;
    }
  }
  static Gravity<Real, 2, 2> checked(const ParamReader<Real, 6>& p) {
    const Real G = p("G"), me = p("m_earth"), mm = p("m_moon"), d = p("distance");
    p.require(G > 0, "G", "G must be > 0");
    p.require(me > 0, "m_earth", "masses must be > 0");
    p.require(mm > 0, "m_moon", "masses must be > 0");
    p.require(d > 0, "distance", "the distance must be > 0");
    const Real dv = p("v_moon") - p("v_earth");
    using std::sqrt;
    p.require(dv * dv / 2 < G * (me + mm) / d, "v_moon", "the relative orbit must be bound: (v_moon - v_earth)^2/2 < G (m_earth + m_moon)/distance");
    return {G, {me, mm}};
  }
  static std::array<Real, 2> relative(const Vec& x) { return {x[2] - x[0], x[3] - x[1]}; }

  Gravity<Real, 2, 2> gravity_;
  State initial_;
  KeplerOrbit<Real, 2> orbit_;
  std::array<Real, 2> cm_x_{}, cm_v_{};
};

}  // namespace study
