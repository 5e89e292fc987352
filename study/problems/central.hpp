#pragma once
/// One body attracted to a fixed centre at the origin: x'' = -mu x / |x|^3 (2-D).  Shared physics of
/// `kepler` and `central-force`; exact through Kepler's equation (two_body.hpp).

#include <array>
#include <cmath>
#include <cstddef>

#include "integrators/state.hpp"
#include "study/problems/two_body.hpp"

namespace study {

/// Central inverse-square force with strength mu; energy and angular momentum are conserved.
template <class Real>
class CentralBody {
 public:
  using real_type = Real;
  static constexpr std::size_t dim = 2, space_dim = 2, bodies = 1;
  static constexpr bool has_exact = true, has_angular_momentum = true, has_linear_momentum = false;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = true, bounded = true;
  static constexpr bool periodic = true;  // the orbit repeats after period(): some error terms cancel at whole periods
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;

  CentralBody(Real mu, const Vec& x0, const Vec& v0) : mu_(mu), x0_(x0), v0_(v0), orbit_(mu, x0, v0) {}

  State initial() const { return {x0_, v0_, Real(0)}; }

  void accel(const Vec& q, Vec& a) const {
    using std::sqrt;
    const Real r2 = q[0] * q[0] + q[1] * q[1];
    const Real k = -mu_ / (r2 * sqrt(r2));
    a[0] = k * q[0];
    a[1] = k * q[1];
  }
  /// d a / d q = -mu (I / r^3 - 3 q q^T / r^5).
  void jacobian(const Vec& q, const Vec&, ode::Jacobian<Real, dim>& dadq, ode::Jacobian<Real, dim>& dadv) const {
    using std::sqrt;
    const Real r2 = q[0] * q[0] + q[1] * q[1], r3 = r2 * sqrt(r2);
    for (std::size_t i = 0; i < dim; ++i)
      for (std::size_t j = 0; j < dim; ++j) dadq[i][j] = -mu_ * ((i == j ? Real(1) : Real(0)) / r3 - 3 * q[i] * q[j] / (r3 * r2));
    for (auto& row : dadv) row.fill(Real(0));
  }

  Real energy(const State& s) const {
    using std::sqrt;
    return (s.v[0] * s.v[0] + s.v[1] * s.v[1]) / 2 - mu_ / sqrt(s.q[0] * s.q[0] + s.q[1] * s.q[1]);
  }

  /// (0, 0, x vy - y vx): the z-component is the only one in the plane.
  std::array<Real, 3> angular_momentum(const State& s) const {
    return {Real(0), Real(0), s.q[0] * s.v[1] - s.q[1] * s.v[0]};
  }

  State exact(Real t) const {
    State s;
    orbit_.at(t, s.q, s.v);
    s.t = t;
    return s;
  }

  /// Orbital period: the natural time scale.
  Real period() const { return orbit_.period(); }
  Real eccentricity() const { return orbit_.eccentricity(); }

 private:
  Real mu_;
  Vec x0_, v0_;
  KeplerOrbit<Real, 2> orbit_;
};

}  // namespace study
