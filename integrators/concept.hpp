#pragma once
/// What an integrator must give, in one place (docs/integrators-and-problems.md): check_integrator<M, P>() states each
/// missing member in a sentence at compile time; the Integrator concept is the same list for `requires` clauses.
/// Every built-in integrator passes it (tests/integrators/test_identities.cpp).
///
/// Required of a method type M (an aggregate of its options: `ode::Substeps<M>{.k = 4}`, `StormerVerlet{.start}`):
///   default-constructible and copyable;
///   constexpr ode::Info info() const;        id, summary, order, evals_per_step, symplectic, symmetric, implicit,
///                                            position_force_only, source (integrators/method.hpp): what the
///                                            tests and the study hold it to;
/// and one of:
///   void step(State& s, Real h, const P& p) const;   a method with no memory between steps (x, v and t of s
///                                                    advanced by h; t too), or
///   template <class P> class Stepper {                a method with memory (a cached force, a previous position):
///     explicit Stepper(const M&);
///     void step(typename P::State& s, typename P::real_type h, const P& p);
///     void reset();                                   forget the memory (a new start)
///   };
/// Optional: a Stepper's `advance(s, h, p, n)` (n steps at once, the same bits), `set_history(...)` for a
/// two-step method started from given positions.

#include <concepts>
#include <type_traits>

#include "integrators/method.hpp"

namespace ode {

/// The required members (see above), for method M on problem P.
template <class M, class P>
concept Integrator =
    Problem<P> && std::default_initializable<M> && std::copy_constructible<M> &&
    requires(const M& m) { { m.info() } -> std::convertible_to<Info>; } &&
    ((HasStepper<M, P> && std::constructible_from<typename M::template Stepper<P>, const M&> &&
      requires(typename M::template Stepper<P>& st, typename P::State& s, typename P::real_type h, const P& p) {
        st.step(s, h, p);
        st.reset();
      }) ||
     (!HasStepper<M, P> && requires(const M& m, typename P::State& s, typename P::real_type h, const P& p) { m.step(s, h, p); }));

/// Compile-time check of method M on problem P, one sentence per missing member (the concept's own failure names
/// a clause; these name the member and what it is for).  Use: static_assert(ode::check_integrator<M, P>()).
template <class M, class P>
consteval bool check_integrator() {
  static_assert(Problem<P>, "the problem needs a force: accel(q, a) or accel(q, v, a) (study/problems/concept.hpp)");
  static_assert(std::default_initializable<M> && std::copy_constructible<M>,
                "an integrator is a default-constructible, copyable type (its options are its members, with defaults)");
  static_assert(requires(const M& m) { { m.info() } -> std::convertible_to<Info>; },
                "an integrator needs `constexpr ode::Info info() const` (its id, order, evaluations per step, "
                "symplectic, symmetric, implicit, source: what the tests and the study hold it to)");
  if constexpr (HasStepper<M, P>) {
    static_assert(std::constructible_from<typename M::template Stepper<P>, const M&>,
                  "an integrator's Stepper<P> needs a constructor `explicit Stepper(const M&)`");
    static_assert(requires(typename M::template Stepper<P>& st, typename P::State& s, typename P::real_type h, const P& p) {
                    st.step(s, h, p);
                  },
                  "an integrator's Stepper<P> needs `void step(typename P::State& s, typename P::real_type h, const P& p)`: "
                  "one step of h from s (t included)");
    static_assert(requires(typename M::template Stepper<P>& st) { st.reset(); },
                  "an integrator's Stepper<P> needs `void reset()`: it forgets what it kept between steps");
  } else {
    static_assert(requires(const M& m, typename P::State& s, typename P::real_type h, const P& p) { m.step(s, h, p); },
                  "an integrator needs `template <class P> void step(typename P::State& s, typename P::real_type h, "
                  "const P& p) const` (no memory between steps), or a `template <class P> class Stepper` (with memory)");
  }
  return Integrator<M, P>;
}

}  // namespace ode
