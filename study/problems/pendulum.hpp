#pragma once
/// Mathematical pendulum theta'' = -omega0^2 sin(theta), released from rest at amplitude theta0.
/// Exact through Jacobi elliptic functions (Boost.Math), k = sin(theta0/2), u = K(k) - omega0 t:
///   sin(theta/2) = k sn(u, k),   theta' = -2 k omega0 cn(u, k),   period 4 K(k) / omega0.
/// Source: Lawden, Elliptic Functions and Applications (1989), §5.2; Hairer, Lubich, Wanner, GNI §I.1.

#include <array>
#include <cmath>
#include <string_view>

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>

#include "integrators/state.hpp"
#include "study/problems/params.hpp"
#include "study/problems/trig.hpp"

namespace study {

template <class Real>
class Pendulum {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "pendulum";
  static constexpr std::string_view summary = "pendulum theta'' = -omega0^2 sin(theta) from rest at amplitude theta0 (exact, Jacobi elliptic)";
  static constexpr std::string_view source = "Lawden, Elliptic Functions and Applications, §5.2";
  /// Units of time and of positions ("" dimensionless), for the report's axes: the angle in radians; time in units of 1/omega0.
  static constexpr std::string_view time_unit = "", length_unit = "rad";
  static constexpr std::size_t dim = 1, space_dim = 1, bodies = 1;
  static constexpr bool has_exact = true, has_angular_momentum = false, has_linear_momentum = false;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = true, bounded = true;
  static constexpr bool periodic = true;  // it swings with period() = 4K/omega0
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 2> params{{{"amplitude", "2", "release angle theta0 in radians, 0 < theta0 < pi"},
                                                    {"omega0", "1", "small-amplitude angular frequency sqrt(g/L), > 0"}}};

  explicit Pendulum(const ParamValues& values = {}) {
    ParamReader<Real, 2> p(id, params, values);
    theta0_ = p("amplitude"), omega0_ = p("omega0");
    const Real pi = boost::math::constants::pi<Real>();
    p.require(theta0_ > 0 && theta0_ < pi, "amplitude",
              "the amplitude must satisfy 0 < theta0 < pi (pi is the unstable top, beyond it the pendulum rotates)");
    p.require(omega0_ > 0, "omega0", "omega0 must be > 0");
    using std::sin;
    k_ = sin(theta0_ / 2);
    // Near pi, sin(theta0/2) rounds to 1 and the period 4K(k)/omega0 is infinite: refused, not Boost's overflow.
    p.require(k_ < 1, "amplitude", "the amplitude is so close to pi that sin(theta0/2) rounds to 1 (an infinite period); "
                                   "keep theta0 below pi - 1e-7");
    K_ = boost::math::ellint_1(k_);
  }

  State initial() const { return {{theta0_}, {Real(0)}, Real(0)}; }
  void accel(const Vec& q, Vec& a) const { a[0] = -omega0_ * omega0_ * sin_of(q[0]); }  // sin_of: trig.hpp
  void jacobian(const Vec& q, const Vec&, ode::Jacobian<Real, dim>& dadq, ode::Jacobian<Real, dim>& dadv) const {
    dadq[0][0] = -omega0_ * omega0_ * cos_of(q[0]), dadv[0][0] = 0;
  }
  /// theta'^2/2 + omega0^2 (1 - cos theta): zero at rest at the bottom, so relative errors are meaningful.
  Real energy(const State& s) const {
    return s.v[0] * s.v[0] / 2 + omega0_ * omega0_ * (1 - cos_of(s.q[0]));
  }

  /// How much the closed form may amplify its roundings: K(k) and sn near k = 1 (the separatrix) by 1 / (1 - k^2)
  /// (measured: amplitude 3.14 loses 5 digits of float128).  The float128 runs' truth (study/measure/wide_truth.hpp)
  /// bounds exact()'s error with it.
  Real exact_condition() const { return 1 / (1 - k_ * k_); }
  State exact(Real t) const {
    using std::asin;
    Real cn, dn;
    const Real sn = boost::math::jacobi_elliptic(k_, K_ - omega0_ * t, &cn, &dn);
    return {{2 * asin(k_ * sn)}, {-2 * k_ * omega0_ * cn}, t};
  }

  Real period() const { return 4 * K_ / omega0_; }

 private:
  Real theta0_{}, omega0_{}, k_{}, K_{};
};

}  // namespace study
