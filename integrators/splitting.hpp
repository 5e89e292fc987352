#pragma once
/// Drift–kick compositions given by a coefficient table: the idea of Boost.Odeint's
/// symplectic_nystrom_stepper_base (a splitting method is just its coefficients), without its template
/// parameters.  One step is  drift(a0 h) kick(b0 h) drift(a1 h) ... kick(b_{m-1} h) drift(a_m h):
/// m force evaluations, symplectic for any coefficients, symmetric when both tables are palindromes.

#include <array>
#include <cstddef>
#include <string_view>

#include "integrators/method.hpp"

namespace ode {

/// Drift coefficients a_0..a_m and kick coefficients b_0..b_{m-1} of a DKD composition, as decimal text.
template <std::size_t M>
struct DkdCoefficients {
  std::array<std::string_view, M + 1> drift;
  std::array<std::string_view, M> kick;
};

/// Stepper for a method whose static `coefficients` is a DkdCoefficients table.
template <class Method>
struct Splitting {
  template <PositionForce P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    static constexpr auto table = Method::coefficients;
    static constexpr std::size_t kicks = table.kick.size();

    explicit Stepper(const Method&) {
      // Parsed once per stepper, in Real's own precision.
      for (std::size_t i = 0; i <= kicks; ++i) a_[i] = from_decimal<Real>(table.drift[i]);
      for (std::size_t i = 0; i < kicks; ++i) b_[i] = from_decimal<Real>(table.kick[i]);
    }

    void step(typename P::State& s, Real h, const P& p) {
      typename P::Vec acc;
      for (std::size_t i = 0; i < kicks; ++i) {
        drift(s.q, s.v, a_[i] * h);
        p.accel(s.q, acc);
        kick(s.v, acc, b_[i] * h);
      }
      drift(s.q, s.v, a_[kicks] * h);
      s.t += h;
    }
    void reset() {}

   private:
    std::array<Real, kicks + 1> a_{};
    std::array<Real, kicks> b_{};
  };
};

}  // namespace ode
