// Must not compile: an integrator without info() is refused with a sentence naming the member and what it is
// for (tests/CMakeLists.txt checks the message).
#include <array>

#include "integrators/concept.hpp"

struct Spring {
  using real_type = double;
  static constexpr std::size_t dim = 1;
  using Vec = std::array<double, 1>;
  using State = ode::State<double, 1>;
  void accel(const Vec& q, Vec& a) const { a[0] = -q[0]; }
};

struct NoInfo {  // a game engine's Euler step, without the metadata the study holds it to
  template <class P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a{};
    p.accel(s.q, a);
    ode::drift(s.q, s.v, h);
    ode::kick(s.v, a, h);
    s.t += h;
  }
};

static_assert(ode::check_integrator<NoInfo, Spring>());
