#pragma once
/// The outer solar system of Hairer, Lubich, Wanner, GNI §I.2.4 (Table 2.1): the Sun (with the inner planets'
/// mass added), Jupiter, Saturn, Uranus, Neptune and Pluto in 3-D; masses relative to the Sun, distances in
/// AU, time in days, G = 2.95912208286e-4; positions and velocities at 5 September 1994, heliocentric with
/// the Sun at rest at the origin (as printed).  No exact solution.  State order: Sun, Jupiter, ..., Pluto.

#include <array>
#include <string_view>

#include "integrators/state.hpp"
#include "study/problems/nbody.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class OuterSolarSystem {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "outer-solar-system";
  static constexpr std::string_view summary = "Sun, Jupiter, Saturn, Uranus, Neptune, Pluto (GNI §I.2.4; AU, days)";
  static constexpr std::string_view source = "Hairer, Lubich, Wanner, Geometric Numerical Integration, §I.2.4, Table 2.1";
  /// Units of time and of positions ("" dimensionless), for the report's axes: GNI Table I.2.1: astronomical units and Earth days.
  static constexpr std::string_view time_unit = "days", length_unit = "AU";
  static constexpr std::size_t dim = 18, space_dim = 3, bodies = 6;
  static constexpr bool has_exact = false, has_angular_momentum = true, has_linear_momentum = true;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = true, bounded = true;
  static constexpr bool periodic = false;  // period() is Jupiter's, a time scale
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 1> params{{{"G", "2.95912208286e-4", "gravitational constant in AU^3 / (solar mass day^2), > 0"}}};

  explicit OuterSolarSystem(const ParamValues& values = {}) {
    ParamReader<Real, 1> p(id, params, values);
    gravity_.G = p("G");
    p.require(gravity_.G > 0, "G", "G must be > 0");
    static constexpr std::array<std::string_view, 6> masses{"1.00000597682", "0.000954786104043", "0.000285583733151",
                                                            "0.0000437273164546", "0.0000517759138449", "7.692307692307692307692307692307692e-9"};
    static constexpr std::array<std::string_view, 18> x{
        "0", "0", "0",
        "-3.5023653", "-3.8169847", "-1.5507963",
        "9.0755314", "-3.0458353", "-1.6483708",
        "8.3101420", "-16.2901086", "-7.2521278",
        "11.4707666", "-25.7294829", "-10.8169456",
        "-15.5387357", "-25.2225594", "-3.1902382"};
    static constexpr std::array<std::string_view, 18> v{
        "0", "0", "0",
        "0.00565429", "-0.00412490", "-0.00190589",
        "0.00168318", "0.00483525", "0.00192462",
        "0.00354178", "0.00137102", "0.00055029",
        "0.00288930", "0.00114527", "0.00039677",
        "0.00276725", "-0.00170702", "-0.00136504"};
    for (std::size_t i = 0; i < 6; ++i) gravity_.m[i] = ode::from_decimal<Real>(masses[i]);
    for (std::size_t i = 0; i < dim; ++i) initial_.q[i] = ode::from_decimal<Real>(x[i]), initial_.v[i] = ode::from_decimal<Real>(v[i]);
  }

  State initial() const { return initial_; }
  void accel(const Vec& q, Vec& a) const { gravity_.accel(q, a); }
  Real energy(const State& s) const { return gravity_.energy(s); }
  std::array<Real, 3> linear_momentum(const State& s) const { return gravity_.linear_momentum(s); }
  std::array<Real, 3> angular_momentum(const State& s) const { return gravity_.angular_momentum(s); }

  /// Jupiter's period, about 4332 days: the fastest motion in the system.
  Real period() const { return Real(4332.59); }

 private:
  Gravity<Real, 6, 3> gravity_{};
  State initial_{};
};

}  // namespace study
