#pragma once
/// What a problem must give to be studied, in one place (docs/integrators-and-problems.md): check_problem<P>() states
/// each missing member in a sentence at compile time, and the StudyProblem concept is the same list for
/// `requires` clauses.  Every shipped problem passes it (tests/problems/test_problems.cpp).
///
/// Required (P's scalar type is a template parameter Real: double, long double, float128):
///   using real_type = Real;
///   using Vec = std::array<Real, dim>;  using State = ode::State<Real, dim>;
///   static constexpr std::size_t dim;                 degrees of freedom (bodies x space dimensions, flattened)
///   static constexpr std::string_view id, summary, source;   id: lowercase, digits, '-' (the spec's problem =)
///   static constexpr bool has_exact, has_angular_momentum, conservative, bounded, periodic;
///   static constexpr std::array<ParamInfo, N> params;  name, default value (decimal text), help with the range
///   explicit P(const ParamValues&);                   reads params with ParamReader, refusing invalid values
///   State initial() const;                            the state at t = 0
///   void accel(const Vec& q, Vec& a) const;           a position-only force (every integrator), or
///   void accel(const Vec& q, const Vec& v, Vec& a) const;   a velocity-dependent one (no splitting method)
///   Real energy(const State&) const;                  the energy error's reference (any first integral of the
///                                                     conservative flow; for a dissipative one, its energy)
///   Real period() const;                              the problem's time scale: its period when periodic, else
///                                                     a typical time.  Everything is measured in it: t_end's
///                                                     limits (1e-12 to 1e7 time scales), the reference's cost
///                                                     estimate and resolution, and the "energy bounded" check's
///                                                     count of periods (t_end / period()); a wrong one makes that
///                                                     check undetermined or too eager, never the orders wrong.
/// Optional:
///   State exact(Real t) const;                        when has_exact: the reference is checked against it
///   std::array<Real, 3> angular_momentum(const State&) const;   when has_angular_momentum: its drift is reported
///   void jacobian(const Vec& q, const Vec& v, ode::Jacobian<Real, dim>& dadq, ode::Jacobian<Real, dim>& dadv) const;
///                                                     the implicit methods' Newton matrix (else finite differences)
///   static constexpr std::string_view time_unit, length_unit;   the units of t and q for the report's axes ("s",
///                                                     "m", "days", "AU", "rad"; "" or absent: dimensionless)
///   static constexpr bool linear;                     true when the force is linear in q and v with constant
///                                                     coefficients: a Runge–Kutta table's order there is the
///                                                     order of its stability function (it may exceed the order)
///   double evaluation_cost() const;                   one force evaluation's cost in two-body evaluations, for the
///                                                     estimates that bound a study's work (default: B(B - 1)/2 for
///                                                     `static constexpr std::size_t bodies` = B, else 1)

#include <array>
#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "integrators/method.hpp"
#include "integrators/state.hpp"
#include "study/problems/params.hpp"

namespace study {

namespace problem_detail {
template <class T>
inline constexpr bool is_param_array = false;
template <std::size_t N>
inline constexpr bool is_param_array<std::array<ParamInfo, N>> = true;
}  // namespace problem_detail

/// The required members (see above), as one concept.
template <class P>
concept StudyProblem = requires(const P& p, const typename P::State& s, typename P::real_type t) {
  typename P::real_type;
  typename P::Vec;
  typename P::State;
  { P::dim } -> std::convertible_to<std::size_t>;
  { P::id } -> std::convertible_to<std::string_view>;
  { P::summary } -> std::convertible_to<std::string_view>;
  { P::source } -> std::convertible_to<std::string_view>;
  { P::has_exact } -> std::convertible_to<bool>;
  { P::has_angular_momentum } -> std::convertible_to<bool>;
  { P::conservative } -> std::convertible_to<bool>;
  { P::bounded } -> std::convertible_to<bool>;
  { P::periodic } -> std::convertible_to<bool>;
  requires problem_detail::is_param_array<std::remove_cv_t<decltype(P::params)>>;
  requires std::constructible_from<P, const ParamValues&>;
  { p.initial() } -> std::same_as<typename P::State>;
  { p.energy(s) } -> std::convertible_to<typename P::real_type>;
  { p.period() } -> std::convertible_to<typename P::real_type>;
  requires ode::Problem<P>;
  requires !P::has_exact || requires { { p.exact(t) } -> std::same_as<typename P::State>; };
  requires !P::has_angular_momentum || requires { p.angular_momentum(s); };
};

/// Compile-time check of a problem type, one sentence per missing member (the concept's own failure names a
/// clause of a requires-expression; these name the member and what it is for).  Use: static_assert(check_problem<P>()).
template <class P>
consteval bool check_problem() {
  static_assert(requires { typename P::real_type; }, "a problem needs `using real_type = Real;` (its scalar type)");
  static_assert(requires { typename P::Vec; typename P::State; },
                "a problem needs `using Vec = std::array<Real, dim>;` and `using State = ode::State<Real, dim>;`");
  static_assert(requires { { P::dim } -> std::convertible_to<std::size_t>; },
                "a problem needs `static constexpr std::size_t dim` (its degrees of freedom)");
  static_assert(requires { { P::id } -> std::convertible_to<std::string_view>; },
                "a problem needs `static constexpr std::string_view id` (the name a spec's problem = gives)");
  static_assert(requires { { P::summary } -> std::convertible_to<std::string_view>; { P::source } -> std::convertible_to<std::string_view>; },
                "a problem needs `static constexpr std::string_view summary` (one line for study list) and `source` "
                "(where its formula comes from)");
  static_assert(requires { { P::has_exact } -> std::convertible_to<bool>; { P::has_angular_momentum } -> std::convertible_to<bool>; },
                "a problem needs `static constexpr bool has_exact` and `has_angular_momentum` (false when it has no "
                "exact(t) or angular_momentum(State))");
  static_assert(requires { { P::conservative } -> std::convertible_to<bool>; { P::bounded } -> std::convertible_to<bool>;
                           { P::periodic } -> std::convertible_to<bool>; },
                "a problem needs `static constexpr bool conservative, bounded, periodic`: which energy checks apply "
                "(conservative: energy is a first integral; bounded: its motion stays in a compact set; periodic: "
                "its orbit repeats after period())");
  static_assert(requires { requires problem_detail::is_param_array<std::remove_cv_t<decltype(P::params)>>; },
                "a problem needs `static constexpr std::array<ParamInfo, N> params` (name, default, help), N = 0 "
                "for none");
  static_assert(std::constructible_from<P, const ParamValues&>,
                "a problem needs a constructor `explicit P(const ParamValues& values = {})` reading its params");
  static_assert(requires(const P& p) { { p.initial() } -> std::same_as<typename P::State>; },
                "a problem needs `State initial() const` (its state at t = 0)");
  static_assert(ode::Problem<P>,
                "a problem needs a force: `void accel(const Vec& q, Vec& a) const` (position-only) or "
                "`void accel(const Vec& q, const Vec& v, Vec& a) const` (velocity-dependent)");
  static_assert(requires(const P& p, const typename P::State& s) { { p.energy(s) } -> std::convertible_to<typename P::real_type>; },
                "a problem needs `Real energy(const State&) const` (the energy error is measured against it)");
  static_assert(requires(const P& p) { { p.period() } -> std::convertible_to<typename P::real_type>; },
                "a problem needs `Real period() const`: its time scale (the period when periodic, else a typical "
                "time), in which t_end's limits, the reference's cost and the energy check's periods are counted");
  if constexpr (requires { { P::has_exact } -> std::convertible_to<bool>; })
    static_assert(!P::has_exact || requires(const P& p, typename P::real_type t) { { p.exact(t) } -> std::same_as<typename P::State>; },
                  "has_exact is true: the problem needs `State exact(Real t) const` (or set has_exact = false)");
  if constexpr (requires { { P::has_angular_momentum } -> std::convertible_to<bool>; })
    static_assert(!P::has_angular_momentum || requires(const P& p, const typename P::State& s) { p.angular_momentum(s); },
                  "has_angular_momentum is true: the problem needs `angular_momentum(const State&) const` (or set it "
                  "false)");
  return StudyProblem<P>;
}

}  // namespace study
