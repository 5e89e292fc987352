#pragma once
/// Exact motion on a bound Kepler orbit, x'' = -mu x / |x|^3, from (x0, v0) at t = 0: Kepler's equation in
/// the eccentric-anomaly difference dE, solved by bracketed Newton (Boost.Math), then the f and g functions.
///   n t = dE - (1 - r0/a) sin dE + (sigma0/sqrt(a)) (1 - cos dE),   sigma0 = x0.v0 / sqrt(mu),
///   x = f x0 + g v0,  v = f' x0 + g' v0.
/// Source: Battin, An Introduction to the Mathematics and Methods of Astrodynamics (1999), §4.4–4.5;
/// Danby, Fundamentals of Celestial Mechanics, §6.8.

#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include <boost/math/constants/constants.hpp>
#include <boost/math/tools/roots.hpp>

namespace study {

/// A bound two-body orbit in N dimensions, propagated exactly.
template <class Real, std::size_t N>
class KeplerOrbit {
 public:
  using Vec = std::array<Real, N>;

  KeplerOrbit(Real mu, const Vec& x0, const Vec& v0) : mu_(mu), x0_(x0), v0_(v0) {
    using std::sqrt;
    Real rr = 0, vv = 0, rv = 0;
    for (std::size_t i = 0; i < N; ++i) rr += x0[i] * x0[i], vv += v0[i] * v0[i], rv += x0[i] * v0[i];
    r0_ = sqrt(rr);
    const Real alpha = 2 / r0_ - vv / mu;  // 1/a
    if (!(mu > 0) || !(r0_ > 0) || !(alpha > 0))
      throw std::invalid_argument("the two-body orbit is not bound (energy >= 0): no elliptic solution");
    a_ = 1 / alpha;
    n_ = sqrt(mu / (a_ * a_ * a_));
    ecos_ = 1 - r0_ / a_;               // e cos E0
    esin_ = rv / sqrt(mu * a_);         // e sin E0 = sigma0 / sqrt(a)
  }

  Real semi_major_axis() const { return a_; }
  Real eccentricity() const { using std::sqrt; return sqrt(ecos_ * ecos_ + esin_ * esin_); }
  Real period() const { return boost::math::constants::two_pi<Real>() / n_; }

  /// Position and velocity at time t.
  void at(Real t, Vec& x, Vec& v) const {
    using std::cos;
    using std::floor;
    using std::sin;
    using std::sqrt;
    const Real two_pi = boost::math::constants::two_pi<Real>();
    Real mean = n_ * t;
    mean -= two_pi * floor(mean / two_pi);  // dE is periodic with the mean anomaly
    const Real t_red = mean / n_;
    // F(dE) = dE - ecos sin dE + esin (1 - cos dE) - M is increasing (F' = r/a > 0) and |F - dE + M| <= 2e < 2.
    auto kepler = [&](Real de) {
      return std::pair<Real, Real>(de - ecos_ * sin(de) + esin_ * (1 - cos(de)) - mean,
                                   1 - ecos_ * cos(de) + esin_ * sin(de));
    };
    std::uintmax_t iterations = 200;
    const Real de = boost::math::tools::newton_raphson_iterate(kepler, mean, mean - 2, mean + 2,
                                                               std::numeric_limits<Real>::digits, iterations);
    const Real c = cos(de), s = sin(de);
    const Real r = a_ + (r0_ - a_) * c + esin_ * a_ * s;
    const Real f = 1 - a_ / r0_ * (1 - c);
    const Real g = t_red - (de - s) / n_;
    const Real fdot = -sqrt(mu_ * a_) * s / (r * r0_);
    const Real gdot = 1 - a_ / r * (1 - c);
    for (std::size_t i = 0; i < N; ++i) {
      x[i] = f * x0_[i] + g * v0_[i];
      v[i] = fdot * x0_[i] + gdot * v0_[i];
    }
  }

 private:
  Real mu_;
  Vec x0_, v0_;
  Real r0_{}, a_{}, n_{}, ecos_{}, esin_{};
};

}  // namespace study
