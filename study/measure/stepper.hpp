#pragma once
/// The one interface through which the engine steps any method, built-in or table: a method bound to a problem
/// type P.  Only bind() (study/measure/binding.hpp) knows the method's C++ type; the measurements (study/measure/measure.cpp)
/// are compiled once per problem, not once per method and problem.

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include <boost/multiprecision/float128.hpp>

#include "integrators/concept.hpp"
#include "integrators/method.hpp"
#include "study/problems/counted.hpp"

namespace study {

/// P<Real> for another Real: every problem is a class template on its scalar type.
template <class P, class R>
struct Rebind;
template <template <class> class T, class A, class R>
struct Rebind<T<A>, R> {
  using type = T<R>;
};

/// A stepper on problem type Q (P, Counted<P>, or P in long double), its type erased.
template <class Q>
class AnyStepper {
 public:
  using Real = typename Q::real_type;
  virtual ~AnyStepper() = default;
  virtual void step(typename Q::State& x, Real h, const Q& q) = 0;
  /// Two-step methods (Störmer–Verlet) are restarted from the position one step back.
  virtual bool has_history() const = 0;
  virtual void set_history(const typename Q::Vec& previous, const typename Q::State& x, Real h, const Q& q) = 0;
};

/// One method on problem type P (in double): fresh steppers on P counting its force evaluations (every
/// accuracy measurement), on P in long double (the round-off shadow, and the first wider arithmetic an order may be
/// decided in) and in float128 (the second: study/fit/wide.hpp), the timed stepping loop on P itself (free of
/// virtual calls and counters: its time is what the study reports), and what cache keys say of the method.
template <class P>
class MethodOn {
 public:
  using Long = typename Rebind<P, long double>::type;
  using Quad = typename Rebind<P, boost::multiprecision::float128>::type;
  virtual ~MethodOn() = default;
  virtual std::unique_ptr<AnyStepper<Counted<P>>> counted_stepper() const = 0;
  /// Null where the method's step is written for double only (not templated on the problem's real type).
  virtual std::unique_ptr<AnyStepper<Long>> long_stepper() const = 0;
  virtual std::unique_ptr<AnyStepper<Quad>> quad_stepper() const = 0;
  /// Nanoseconds per step of `steps` steps of h from p's initial state, with a fresh stepper.
  virtual double time_steps(const P& p, double h, long steps) const = 0;
  /// The method's C++ type, and for a coefficient table its coefficients.
  virtual std::string identity() const = 0;
};

namespace engine {

template <class S, class State, class Q>
concept HasHistory = requires(S s, const typename Q::Vec& q, const State& st, typename Q::real_type h, const Q& p) {
  s.set_history(q, st, h, p);
};

/// Problem Q seen through calls of its force (and Jacobian) that are not inlined: what the float128 steppers step.  They
/// decide orders where long double could not, and are not timed; with the force's software arithmetic inlined into
/// every stage of every method on every problem they were a third of the methods' build (Kepler, the 14 built-ins:
/// 27 s, 19 s without), and a call costs nothing beside that arithmetic.  The long double steppers keep the force
/// inlined: they measure every double run's round-off, and out of line they made the default study 13 % slower
/// (55 CPU-s against 48) for a second of build.  A call changes no bit: the values cross it in memory at full width.
template <class Q>
class OutOfLine {
 public:
  using real_type = typename Q::real_type;
  using Vec = typename Q::Vec;
  using State = typename Q::State;
  static constexpr std::size_t dim = Q::dim;
  explicit OutOfLine(const Q& q) : q_(&q) {}
  [[gnu::noinline]] void accel(const Vec& q, Vec& a) const
    requires ode::PositionForce<Q>
  {
    q_->accel(q, a);
  }
  [[gnu::noinline]] void accel(const Vec& q, const Vec& v, Vec& a) const
    requires ode::VelocityForce<Q>
  {
    q_->accel(q, v, a);
  }
  [[gnu::noinline]] void jacobian(const Vec& q, const Vec& v, ode::Jacobian<real_type, dim>& dadq, ode::Jacobian<real_type, dim>& dadv) const
    requires ode::HasJacobian<Q>
  {
    q_->jacobian(q, v, dadq, dadv);
  }

 private:
  const Q* q_;
};

/// Method M's stepper on Q behind AnyStepper<Q>, stepping Q itself (V = Q) or a view of it (V = OutOfLine<Q>).
template <class M, class Q, class V = Q>
class ErasedStepper final : public AnyStepper<Q> {
 public:
  using Real = typename Q::real_type;
  explicit ErasedStepper(const M& m) : s_(ode::make_stepper<V>(m)) {}
  void step(typename Q::State& x, Real h, const Q& q) override { s_.step(x, h, view(q)); }
  bool has_history() const override { return HasHistory<decltype(s_), typename Q::State, V>; }
  void set_history(const typename Q::Vec& previous, const typename Q::State& x, Real h, const Q& q) override {
    if constexpr (HasHistory<decltype(s_), typename Q::State, V>) s_.set_history(previous, x, h, view(q));
  }

 private:
  static decltype(auto) view(const Q& q) {
    if constexpr (std::is_same_v<V, Q>) return (q);
    else return V(q);
  }
  decltype(ode::make_stepper<V>(std::declval<const M&>())) s_;
};

/// What a cache key says of a method: its C++ type, and for a coefficient table its coefficients.
template <class M>
std::string method_identity(const M& m) {
  std::string id = typeid(M).name();
  if constexpr (requires { m.identity(); }) {
    id += ' ';  // not " " + ...: GCC 12 warns falsely (-Wrestrict) on that
    id += m.identity();
  }
  return id;
}

/// Whether method M steps problem Q (its step templated on Q's real type, or given for it).
template <class M, class Q>
concept StepsOn = ode::RuntimeInfo<M> || ode::Integrator<M, Q>;

template <class M, class P>
class BoundMethod final : public MethodOn<P> {
 public:
  using Long = typename MethodOn<P>::Long;
  using Quad = typename MethodOn<P>::Quad;
  explicit BoundMethod(const M& m) : m_(m) {}
  std::unique_ptr<AnyStepper<Counted<P>>> counted_stepper() const override {
    return std::make_unique<ErasedStepper<M, Counted<P>>>(m_);
  }
  std::unique_ptr<AnyStepper<Long>> long_stepper() const override {
    if constexpr (StepsOn<M, Long>) return std::make_unique<ErasedStepper<M, Long>>(m_);
    else return nullptr;
  }
  std::unique_ptr<AnyStepper<Quad>> quad_stepper() const override {
    if constexpr (StepsOn<M, Quad>) return std::make_unique<ErasedStepper<M, Quad, OutOfLine<Quad>>>(m_);
    else return nullptr;
  }
  double time_steps(const P& p, double h, long steps) const override {
#if defined(__SANITIZE_ADDRESS__)
    // Under the sanitizers nothing is timed for its value: the loop steps the counted problem the accuracy runs
    // already compile, one stepper type less per method and problem (a third of those files' build).
    const Counted<P> q(p);
#else
    const P& q = p;
#endif
    auto stepper = ode::make_stepper<std::decay_t<decltype(q)>>(m_);
    typename P::State x = q.initial();
    const auto t0 = std::chrono::steady_clock::now();
    ode::advance(stepper, x, h, q, steps);
    const auto t1 = std::chrono::steady_clock::now();
    volatile double sink = x.q[0];  // the loop's result is used: it cannot be optimised away
    static_cast<void>(sink);
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(steps);
  }
  std::string identity() const override { return method_identity(m_); }

 private:
  M m_;
};

}  // namespace engine

/// Method m bound to problem type P.
template <class P, class M>
std::unique_ptr<MethodOn<P>> bind(const M& m) {
  return std::make_unique<engine::BoundMethod<M, P>>(m);
}

}  // namespace study
