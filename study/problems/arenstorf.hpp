#pragma once
/// The circular restricted three-body problem in the rotating frame (a small body near the Earth and the
/// Moon), with Arenstorf's periodic orbit:
///   x'' = x + 2 y' - mu' (x + mu) / D1 - mu (x - mu') / D2,   y'' = y - 2 x' - mu' y / D1 - mu y / D2,
///   D1 = ((x + mu)^2 + y^2)^(3/2),  D2 = ((x - mu')^2 + y^2)^(3/2),  mu' = 1 - mu.
/// Defaults: mu = 0.012277471, x(0) = 0.994, y(0) = x'(0) = 0, y'(0) = -2.00158510637908252240537862224; the
/// orbit closes after T = 17.0652165601579625588917206249: the state at T is the initial state (the exact check).
/// The force depends on velocity (Coriolis): the splitting methods refuse it.  The Jacobi integral
/// C = x'^2/2 + y'^2/2 - (x^2 + y^2)/2 - mu'/r1 - mu/r2 is conserved (energy()).  Close approaches to the Moon make
/// it hard for fixed steps (HNW: explicit Euler needs ~24000 steps per period to draw it).
/// Source: Arenstorf, Amer. J. Math. 85 (1963) 27; Hairer, Nørsett, Wanner, Solving ODEs I, §II.0, eq. (0.1)
/// and the data that follow it.

#include <array>
#include <cmath>
#include <string_view>

#include "integrators/state.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class Arenstorf {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "arenstorf";
  static constexpr std::string_view summary = "restricted three-body problem, Arenstorf's periodic orbit (velocity-dependent, closes after T)";
  static constexpr std::string_view source = "Arenstorf (1963); Hairer, Norsett, Wanner, Solving ODEs I, §II.0";
  /// Units of time and of positions ("" dimensionless), for the report's axes: dimensionless: the Earth-Moon distance and the rotating frame's time.
  static constexpr std::string_view time_unit = "", length_unit = "";
  static constexpr std::size_t dim = 2, space_dim = 2, bodies = 1;
  static constexpr bool has_exact = false, has_angular_momentum = false, has_linear_momentum = false;
  /// conservative: the Jacobi integral is a first integral; not bounded: its level set here is not compact.
  static constexpr bool conservative = true, bounded = false;
  static constexpr bool periodic = true;  // Arenstorf's start closes after period() (other starts: a time scale)
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 4> params{
      {{"mu", "0.012277471", "mass ratio of the Moon, 0 < mu < 1/2"},
       {"x0", "0.994", "initial x (rotating frame, Earth at -mu, Moon at 1 - mu)"},
       {"vy0", "-2.00158510637908252240537862224", "initial y velocity (x velocity and y start at 0)"},
       {"period", "17.0652165601579625588917206249", "period of the orbit (of Arenstorf's; for another start a time scale), > 0"}}};

  explicit Arenstorf(const ParamValues& values = {}) {
    ParamReader<Real, 4> p(id, params, values);
    mu_ = p("mu"), x0_ = p("x0"), vy0_ = p("vy0"), period_ = p("period");
    p.require(mu_ > 0 && mu_ < Real(1) / 2, "mu", "the mass ratio must satisfy 0 < mu < 1/2");
    p.require(x0_ != -mu_ && x0_ != 1 - mu_, "x0", "the start must not be at the Earth (-mu) or the Moon (1 - mu)");
    p.require(period_ > 0, "period", "the period must be > 0");
  }

  State initial() const { return {{x0_, Real(0)}, {Real(0), vy0_}, Real(0)}; }

  void accel(const Vec& q, const Vec& v, Vec& a) const {
    using std::sqrt;
    const Real m1 = 1 - mu_;
    const Real dx1 = q[0] + mu_, dx2 = q[0] - m1, y2 = q[1] * q[1];
    const Real r1 = dx1 * dx1 + y2, r2 = dx2 * dx2 + y2;
    const Real d1 = r1 * sqrt(r1), d2 = r2 * sqrt(r2);
    a[0] = q[0] + 2 * v[1] - m1 * dx1 / d1 - mu_ * dx2 / d2;
    a[1] = q[1] - 2 * v[0] - m1 * q[1] / d1 - mu_ * q[1] / d2;
  }

  /// The Jacobi integral (as an energy: kinetic minus the effective potential); conserved.
  Real energy(const State& s) const {
    using std::sqrt;
    const Real m1 = 1 - mu_;
    const Real r1 = sqrt((s.q[0] + mu_) * (s.q[0] + mu_) + s.q[1] * s.q[1]);
    const Real r2 = sqrt((s.q[0] - m1) * (s.q[0] - m1) + s.q[1] * s.q[1]);
    return (s.v[0] * s.v[0] + s.v[1] * s.v[1]) / 2 - (s.q[0] * s.q[0] + s.q[1] * s.q[1]) / 2 - m1 / r1 - mu_ / r2;
  }

  Real period() const { return period_; }

 private:
  Real mu_{}, x0_{}, vy0_{}, period_{};
};

}  // namespace study
