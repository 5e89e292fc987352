#pragma once
/// Damped oscillator x'' = -omega^2 x - 2 zeta omega x': a velocity-dependent force.  Splitting methods
/// (symplectic Euler, Verlet, leapfrog, Yoshida, Blanes–Moan) refuse it at compile time (they need a(q)).
/// Exact for all damping ratios (under-, critically and over-damped).
/// Source: any text on linear ODEs, e.g. Boyce & DiPrima, Elementary Differential Equations, §3.8.

#include <array>
#include <cmath>
#include <string_view>

#include <boost/math/constants/constants.hpp>

#include "integrators/state.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class DampedOscillator {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "damped-oscillator";
  static constexpr std::string_view summary = "damped oscillator x'' = -omega^2 x - 2 zeta omega x' (velocity-dependent force, exact)";
  static constexpr std::string_view source = "Boyce & DiPrima, Elementary Differential Equations, §3.8";
  /// Units of time and of positions ("" dimensionless), for the report's axes: dimensionless.
  static constexpr std::string_view time_unit = "", length_unit = "";
  static constexpr std::size_t dim = 1, space_dim = 1, bodies = 1;
  static constexpr bool has_exact = true, has_angular_momentum = false, has_linear_momentum = false;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = false, bounded = true;  // friction removes energy
  static constexpr bool periodic = false;  // it decays
  static constexpr bool linear = true;     // a = -omega^2 q - 2 zeta omega v: constant coefficients
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 4> params{{{"omega", "1", "undamped angular frequency, > 0"},
                                                    {"zeta", "0.1", "damping ratio, >= 0 (1 is critical)"},
                                                    {"x0", "1", "initial position"},
                                                    {"v0", "0", "initial velocity"}}};

  explicit DampedOscillator(const ParamValues& values = {}) {
    ParamReader<Real, 4> p(id, params, values);
    omega_ = p("omega"), zeta_ = p("zeta"), x0_ = p("x0"), v0_ = p("v0");
    p.require(omega_ > 0, "omega", "the frequency must be > 0");
    p.require(zeta_ >= 0, "zeta", "the damping ratio must be >= 0 (negative damping feeds energy in)");
  }

  State initial() const { return {{x0_}, {v0_}, Real(0)}; }
  void accel(const Vec& q, const Vec& v, Vec& a) const { a[0] = -omega_ * omega_ * q[0] - 2 * zeta_ * omega_ * v[0]; }
  void jacobian(const Vec&, const Vec&, ode::Jacobian<Real, dim>& dadq, ode::Jacobian<Real, dim>& dadv) const {
    dadq[0][0] = -omega_ * omega_, dadv[0][0] = -2 * zeta_ * omega_;
  }
  /// Mechanical energy: decays; not an invariant.
  Real energy(const State& s) const { return (s.v[0] * s.v[0] + omega_ * omega_ * s.q[0] * s.q[0]) / 2; }

  State exact(Real t) const {
    using std::cos;
    using std::exp;
    using std::sin;
    using std::sqrt;
    if (zeta_ < 1) {
      const Real wd = omega_ * sqrt(1 - zeta_ * zeta_), decay = exp(-zeta_ * omega_ * t);
      const Real A = x0_, B = (v0_ + zeta_ * omega_ * x0_) / wd, c = cos(wd * t), s = sin(wd * t);
      return {{decay * (A * c + B * s)},
              {decay * ((wd * B - zeta_ * omega_ * A) * c - (wd * A + zeta_ * omega_ * B) * s)}, t};
    }
    if (zeta_ == 1) {
      const Real decay = exp(-omega_ * t), A = x0_, B = v0_ + omega_ * x0_;
      return {{decay * (A + B * t)}, {decay * (B - omega_ * (A + B * t))}, t};
    }
    const Real root = sqrt(zeta_ * zeta_ - 1);
    const Real r1 = -omega_ * (zeta_ - root), r2 = -omega_ * (zeta_ + root);
    const Real c1 = (v0_ - r2 * x0_) / (r1 - r2), c2 = x0_ - c1;
    const Real e1 = exp(r1 * t), e2 = exp(r2 * t);
    return {{c1 * e1 + c2 * e2}, {c1 * r1 * e1 + c2 * r2 * e2}, t};
  }

  Real period() const { return boost::math::constants::two_pi<Real>() / omega_; }

 private:
  Real omega_{}, zeta_{}, x0_{}, v0_{};
};

}  // namespace study
