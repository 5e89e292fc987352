#pragma once
// A charged particle in a uniform magnetic field B along z: the Lorentz force a = (q/m) v x B, a velocity-
// dependent force that does no work.  With omega = q B / m (the cyclotron frequency) the particle gyrates in the
// (x, y) plane with period 2 pi / omega and drifts along z:
//   vx = vx0 cos wt + vy0 sin wt,   vy = -vx0 sin wt + vy0 cos wt,   vz = vz0
//   x = (vx0 sin wt + vy0 (1 - cos wt)) / w,   y = (vx0 (cos wt - 1) + vy0 sin wt) / w,   z = vz0 t
// Source: J. D. Jackson, Classical Electrodynamics, 3rd ed., §12.2 (motion in a uniform static magnetic field).

#include <array>
#include <cmath>
#include <string_view>

#include <boost/math/constants/constants.hpp>

#include "integrators/state.hpp"  // from the installed package (ode_accuracy_harness::cli)
#include "study/problems/params.hpp"

namespace physics {

/// Broken = true is a mistake such a problem is written with: exact() turns the wrong way round (the sign of the
/// charge lost), so the exact solution contradicts the force; the study must refuse it.
template <class Real, bool Broken>
class BasicChargedParticle {
 public:
  using real_type = Real;
  static constexpr std::string_view id = Broken ? "charged-particle-broken" : "charged-particle";
  static constexpr std::string_view summary = Broken ? "charged particle with a wrong exact solution (turns the wrong way)"
                                                     : "charged particle in a uniform magnetic field, a = omega v x z (exact)";
  static constexpr std::string_view source = "J. D. Jackson, Classical Electrodynamics, 3rd ed., §12.2";
  static constexpr std::size_t dim = 3;
  static constexpr bool has_exact = true, has_angular_momentum = false;
  // Energy |v|^2 / 2 is conserved, but the drift along z leaves every bounded set: no "bounded energy" check.
  static constexpr bool conservative = true, bounded = false, periodic = false;
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<study::ParamInfo, 4> params{{{"omega", "1", "cyclotron frequency q B / m, > 0"},
                                                           {"vx0", "1", "initial velocity along x"},
                                                           {"vy0", "0.5", "initial velocity along y"},
                                                           {"vz0", "0.25", "initial velocity along z (the drift)"}}};

  explicit BasicChargedParticle(const study::ParamValues& values = {}) {
    study::ParamReader<Real, 4> p(id, params, values);
    omega_ = p("omega"), vx0_ = p("vx0"), vy0_ = p("vy0"), vz0_ = p("vz0");
    p.require(omega_ > 0, "omega", "the cyclotron frequency must be > 0 (flip the field instead of the sign)");
    p.require(vx0_ != 0 || vy0_ != 0, "vx0", "vx0 and vy0 must not both be 0 (a particle along B feels no force)");
  }

  State initial() const { return {{Real(0), Real(0), Real(0)}, {vx0_, vy0_, vz0_}, Real(0)}; }
  void accel(const Vec&, const Vec& v, Vec& a) const { a = {omega_ * v[1], -omega_ * v[0], Real(0)}; }
  Real energy(const State& s) const { return (s.v[0] * s.v[0] + s.v[1] * s.v[1] + s.v[2] * s.v[2]) / 2; }

  State exact(Real t) const {
    using std::cos;
    using std::sin;
    const Real w = Broken ? -omega_ : omega_;
    const Real c = cos(w * t), s = sin(w * t);
    return {{(vx0_ * s + vy0_ * (1 - c)) / w, (vx0_ * (c - 1) + vy0_ * s) / w, vz0_ * t},
            {vx0_ * c + vy0_ * s, -vx0_ * s + vy0_ * c, vz0_},
            t};
  }

  /// The gyration period: the time scale of the motion.
  Real period() const { return boost::math::constants::two_pi<Real>() / omega_; }

 private:
  Real omega_{}, vx0_{}, vy0_{}, vz0_{};
};

// A problem is a class template on its scalar type alone (the study rebinds it to long double and float128):
// each variant is one, not an alias of the two-parameter template.
template <class Real>
class ChargedParticle : public BasicChargedParticle<Real, false> {
  using BasicChargedParticle<Real, false>::BasicChargedParticle;
};
template <class Real>
class ChargedParticleBroken : public BasicChargedParticle<Real, true> {
  using BasicChargedParticle<Real, true>::BasicChargedParticle;
};

}  // namespace physics
