#pragma once
/// Harmonic oscillator x'' = -omega^2 x (stiff when omega h is large).  Exact:
/// x = x0 cos(omega t) + v0/omega sin(omega t).  Linear stability limits of omega h are the classic test
/// (symplectic Euler / Verlet 2, RK4 2 sqrt 2, explicit Euler and RK2 none).
/// Source: Hairer, Lubich, Wanner, GNI §I.1; seed 004 ("stiff systems").

#include <array>
#include <cmath>
#include <string_view>

#include <boost/math/constants/constants.hpp>

#include "integrators/state.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class Harmonic {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "harmonic";
  static constexpr std::string_view summary = "harmonic oscillator x'' = -omega^2 x (exact)";
  static constexpr std::string_view source = "Hairer, Lubich, Wanner, Geometric Numerical Integration, §I.1";
  /// Units of time and of positions ("" dimensionless), for the report's axes: dimensionless.
  static constexpr std::string_view time_unit = "", length_unit = "";
  static constexpr std::size_t dim = 1, space_dim = 1, bodies = 1;
  static constexpr bool has_exact = true, has_angular_momentum = false, has_linear_momentum = false;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = true, bounded = true;
  static constexpr bool periodic = true;  // it repeats after period()
  static constexpr bool linear = true;    // a = -omega^2 q
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 3> params{{{"omega", "1", "angular frequency, > 0"},
                                                    {"x0", "1", "initial position"},
                                                    {"v0", "0", "initial velocity"}}};

  explicit Harmonic(const ParamValues& values = {}) {
    ParamReader<Real, 3> p(id, params, values);
    omega_ = p("omega"), x0_ = p("x0"), v0_ = p("v0");
    p.require(omega_ > 0, "omega", "the frequency must be > 0 (0 has no oscillation, and the sign is not a frequency)");
    p.require(x0_ != 0 || v0_ != 0, "x0", "x0 and v0 must not both be 0 (the rest state has no error to measure)");
  }

  State initial() const { return {{x0_}, {v0_}, Real(0)}; }
  void accel(const Vec& q, Vec& a) const { a[0] = -omega_ * omega_ * q[0]; }
  /// d a / d q = -omega^2: the implicit methods' Newton iteration is exact in one step.
  void jacobian(const Vec&, const Vec&, ode::Jacobian<Real, dim>& dadq, ode::Jacobian<Real, dim>& dadv) const {
    dadq[0][0] = -omega_ * omega_, dadv[0][0] = 0;
  }
  Real energy(const State& s) const { return (s.v[0] * s.v[0] + omega_ * omega_ * s.q[0] * s.q[0]) / 2; }

  State exact(Real t) const {
    using std::cos;
    using std::sin;
    const Real c = cos(omega_ * t), s = sin(omega_ * t);
    return {{x0_ * c + v0_ / omega_ * s}, {-x0_ * omega_ * s + v0_ * c}, t};
  }

  Real period() const { return boost::math::constants::two_pi<Real>() / omega_; }
  Real omega() const { return omega_; }

 private:
  Real omega_{}, x0_{}, v0_{};
};

}  // namespace study
