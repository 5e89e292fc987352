#pragma once
/// Seed 000's scene: one body attracted to a fixed centre with a = G (c - x)/|c - x|^3, G = 1500 (mass folded
/// into G), the body at (70, 60) relative to the centre with velocity (0, 1), one frame = dt 1.
/// A highly eccentric orbit (e ~ 0.96, period ~ 53 frames, pericentre ~ 1.7): the reason one RK4 step per
/// frame fares badly there.  Exact through Kepler's equation.
/// Source: seed 000_289fd1c3203b64c7.txt ("Integration by Example - Euler vs Verlet vs Runge-Kutta").

#include <array>
#include <string_view>

#include "study/problems/central.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class CentralForce : public CentralBody<Real> {
 public:
  static constexpr std::string_view id = "central-force";
  static constexpr std::string_view summary = "seed 000: body around a fixed centre, G = 1500, from (70, 60) at (0, 1) (exact)";
  static constexpr std::string_view source = "seed 000_289fd1c3203b64c7.txt";
  /// Units of time and of positions ("" dimensionless), for the report's axes: the seed's game units: one step per frame, positions in pixels.
  static constexpr std::string_view time_unit = "frames", length_unit = "px";
  static constexpr std::array<ParamInfo, 5> params{{{"G", "1500", "strength G of a = G r^ / r^2, > 0"},
                                                    {"x", "70", "initial x relative to the centre"},
                                                    {"y", "60", "initial y relative to the centre"},
                                                    {"vx", "0", "initial x velocity"},
                                                    {"vy", "1", "initial y velocity"}}};

  explicit CentralForce(const ParamValues& values = {}) : CentralForce(ParamReader<Real, 5>(id, params, values)) {}

 private:
  explicit CentralForce(const ParamReader<Real, 5>& p) : CentralForce(checked(p), p) {}
  CentralForce(Real g, const ParamReader<Real, 5>& p)
      : CentralBody<Real>(g, {p("x"), p("y")}, {p("vx"), p("vy")}) {}
  static Real checked(const ParamReader<Real, 5>& p) {
    const Real g = p("G"), x = p("x"), y = p("y"), vx = p("vx"), vy = p("vy");
    p.require(g > 0, "G", "G must be > 0 (an attracting centre)");
    p.require(x != 0 || y != 0, "x", "the body must not start at the centre");
    using std::sqrt;
    p.require((vx * vx + vy * vy) / 2 < g / sqrt(x * x + y * y), "vx",
              "the orbit must be bound: v^2/2 < G/r (otherwise it has no period)");
    return g;
  }
};

}  // namespace study
