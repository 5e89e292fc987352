#pragma once
/// A problem that counts its force evaluations: the measured cost the study reports, and the check that
/// every integrator costs what its metadata declares.

#include <cstdint>

#include "integrators/method.hpp"

namespace study {

/// P with counters of its force evaluations, analytic Jacobians and implicit iterations.
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

  /// The force's Jacobian, where the problem gives one analytically (else implicit methods difference accel,
  /// and those evaluations are counted above).
  void jacobian(const typename P::Vec& q, const typename P::Vec& v, ode::Jacobian<typename P::real_type, P::dim>& dadq,
                ode::Jacobian<typename P::real_type, P::dim>& dadv) const
    requires ode::HasJacobian<P>
  {
    ++jacobians_;
    P::jacobian(q, v, dadq, dadv);
  }
  /// Called by implicit methods once per iteration of their stage equations.
  void count_iteration() const { ++iterations_; }

  std::uint64_t evaluations() const { return evaluations_; }
  std::uint64_t jacobians() const { return jacobians_; }
  std::uint64_t iterations() const { return iterations_; }
  void reset_count() { evaluations_ = jacobians_ = iterations_ = 0; }

 private:
  mutable std::uint64_t evaluations_ = 0, jacobians_ = 0, iterations_ = 0;
};

}  // namespace study
