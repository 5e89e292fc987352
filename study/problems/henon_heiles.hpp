#pragma once
/// Hénon–Heiles: H = (px^2 + py^2)/2 + (x^2 + y^2)/2 + x^2 y - y^3/3.  No exact solution; bounded for
/// H < 1/6, increasingly chaotic towards it.  The start (x0, y0, px0) is given and py0 > 0 is set from the
/// energy.  Source: Hénon & Heiles, Astron. J. 69 (1964) 73; Hairer, Lubich, Wanner, GNI §I.3.
/// Default start: q0 = (0.1, 0), p0 = (0, 0.5), H = 0.13, the start of the SciML benchmark "Hénon–Heiles
/// energy conservation" (Micluța-Câmpeanu & Rackauckas, SciMLBenchmarks.jl), a genuinely two-dimensional
/// orbit.  x = px = 0 is invariant (the potential is even in x): x0 = px0 = 0 gives the one-dimensional
/// oscillation along y (energy = 0.125, x0 = 0, y0 = 0.1, px0 = 0 was the default before).

#include <array>
#include <cmath>
#include <string_view>

#include <boost/math/constants/constants.hpp>

#include "integrators/state.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class HenonHeiles {
 public:
  using real_type = Real;
  static constexpr std::string_view id = "henon-heiles";
  static constexpr std::string_view summary = "Henon-Heiles potential at energy H (no exact solution)";
  static constexpr std::string_view source = "Henon & Heiles, Astron. J. 69 (1964) 73; GNI §I.3";
  /// Units of time and of positions ("" dimensionless), for the report's axes: dimensionless.
  static constexpr std::string_view time_unit = "", length_unit = "";
  static constexpr std::size_t dim = 2, space_dim = 2, bodies = 1;
  static constexpr bool has_exact = false, has_angular_momentum = false, has_linear_momentum = false;
  /// conservative: the energy is a first integral; bounded: its level sets are compact (symplectic methods then keep
  /// the energy error bounded, GNI §IX.8).
  static constexpr bool conservative = true, bounded = true;
  static constexpr bool periodic = false;  // period() is only the time scale of small oscillations
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 4> params{{{"energy", "0.13", "total energy H, 0 < H < 1/6"},
                                                    {"x0", "0.1", "initial x (x0 = px0 = 0: a one-dimensional orbit)"},
                                                    {"y0", "0", "initial y"},
                                                    {"px0", "0", "initial x momentum (py0 follows from H)"}}};

  explicit HenonHeiles(const ParamValues& values = {}) {
    ParamReader<Real, 4> p(id, params, values);
    const Real h = p("energy");
    x0_ = p("x0"), y0_ = p("y0"), px0_ = p("px0");
    p.require(h > 0 && h < Real(1) / 6, "energy", "the energy must satisfy 0 < H < 1/6 (at 1/6 the orbit escapes)");
    const Real rest = 2 * h - px0_ * px0_ - 2 * potential(x0_, y0_);
    p.require(rest >= 0, "energy", "the energy is below the potential at (x0, y0) plus px0^2/2: no real py0");
    using std::sqrt;
    py0_ = sqrt(rest);
  }

  State initial() const { return {{x0_, y0_}, {px0_, py0_}, Real(0)}; }
  void accel(const Vec& q, Vec& a) const {
    a[0] = -q[0] - 2 * q[0] * q[1];
    a[1] = -q[1] - q[0] * q[0] + q[1] * q[1];
  }
  void jacobian(const Vec& q, const Vec&, ode::Jacobian<Real, dim>& dadq, ode::Jacobian<Real, dim>& dadv) const {
    dadq[0][0] = -1 - 2 * q[1], dadq[0][1] = -2 * q[0];
    dadq[1][0] = -2 * q[0], dadq[1][1] = -1 + 2 * q[1];
    for (auto& row : dadv) row.fill(Real(0));
  }
  Real energy(const State& s) const { return (s.v[0] * s.v[0] + s.v[1] * s.v[1]) / 2 + potential(s.q[0], s.q[1]); }

  /// 2 pi: the period of the small oscillations.
  Real period() const { return boost::math::constants::two_pi<Real>(); }

 private:
  static Real potential(Real x, Real y) { return (x * x + y * y) / 2 + x * x * y - y * y * y / 3; }
  Real x0_{}, y0_{}, px0_{}, py0_{};
};

}  // namespace study
