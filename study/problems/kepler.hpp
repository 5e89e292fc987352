#pragma once
/// Kepler problem in the normalisation of Hairer, Lubich, Wanner, GNI §I.2.3: mu = 1,
/// q0 = (1 - e, 0), p0 = (0, sqrt((1 + e)/(1 - e))), period 2 pi, eccentricity e.  Exact.

#include <array>
#include <cmath>
#include <string_view>

#include "study/problems/central.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class Kepler : public CentralBody<Real> {
 public:
  static constexpr std::string_view id = "kepler";
  static constexpr std::string_view summary = "Kepler orbit, mu = 1, eccentricity e, period 2 pi (exact)";
  static constexpr std::string_view source = "Hairer, Lubich, Wanner, Geometric Numerical Integration, §I.2.3";
  /// Units of time and of positions ("" dimensionless), for the report's axes: dimensionless (G M = 1).
  static constexpr std::string_view time_unit = "", length_unit = "";
  static constexpr std::array<ParamInfo, 1> params{{{"e", "0.6", "eccentricity, 0 <= e < 1"}}};

  explicit Kepler(const ParamValues& values = {}) : Kepler(read(values)) {}

 private:
  explicit Kepler(Real e) : CentralBody<Real>(Real(1), {1 - e, Real(0)}, {Real(0), velocity(e)}) {}
  static Real velocity(Real e) { using std::sqrt; return sqrt((1 + e) / (1 - e)); }
  static Real read(const ParamValues& values) {
    ParamReader<Real, 1> p(id, params, values);
    const Real e = p("e");
    p.require(e >= 0 && e < 1, "e", "the eccentricity must satisfy 0 <= e < 1 (e >= 1 is not a closed orbit)");
    return e;
  }
};

}  // namespace study
