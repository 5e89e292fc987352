#pragma once
/// A problem that counts its force evaluations: the measured cost the study reports, and the check that
/// every integrator costs what its metadata declares.

#include <cstdint>

#include "integrators/method.hpp"

namespace study {

/// P with a counter incremented on every call of accel.
template <class P>
class Counted : public P {
 public:
  using P::P;
  explicit Counted(const P& p) : P(p) {}

  void accel(const typename P::Vec& q, typename P::Vec& a) const
    requires ode::PositionForce<P>
  {
    ++evaluations_;
    P::accel(q, a);
  }
  void accel(const typename P::Vec& q, const typename P::Vec& v, typename P::Vec& a) const
    requires ode::VelocityForce<P>
  {
    ++evaluations_;
    P::accel(q, v, a);
  }

  std::uint64_t evaluations() const { return evaluations_; }
  void reset_count() { evaluations_ = 0; }

 private:
  mutable std::uint64_t evaluations_ = 0;
};

}  // namespace study
