// Must not compile: a problem without period() is refused with a sentence naming the member and what it is for
// (tests/CMakeLists.txt checks the message).
#include <array>
#include <string_view>

#include "study/problems/concept.hpp"

template <class Real>
struct NoPeriod {
  using real_type = Real;
  static constexpr std::size_t dim = 1;
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::string_view id = "no-period", summary = "x'' = -x without a time scale", source = "none";
  static constexpr bool has_exact = false, has_angular_momentum = false, conservative = true, bounded = true, periodic = true;
  static constexpr std::array<study::ParamInfo, 0> params{};
  explicit NoPeriod(const study::ParamValues& = {}) {}
  State initial() const { return {{Real(1)}, {Real(0)}, Real(0)}; }
  void accel(const Vec& q, Vec& a) const { a[0] = -q[0]; }
  Real energy(const State& s) const { return (s.v[0] * s.v[0] + s.q[0] * s.q[0]) / 2; }
};

static_assert(study::check_problem<NoPeriod<double>>());
