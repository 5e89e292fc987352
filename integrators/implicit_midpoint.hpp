#pragma once
/// Implicit midpoint rule: s+ = s + h f((s + s+)/2).  2nd order, symplectic, symmetric; 1 force evaluation
/// per iteration.  The 1-stage Gauss–Legendre collocation method: A = [1/2], b = [1], c = [1/2].
/// Source: Hairer, Lubich, Wanner, GNI §I.1.3 and §II.1.3; Hairer, Nørsett, Wanner, Solving ODEs I, §II.7.

#include "integrators/implicit_rk.hpp"

namespace ode {

/// Implicit midpoint, iterated to round-off.
struct ImplicitMidpoint : ImplicitRk<ImplicitMidpoint, 1> {
  template <class Real>
  static Tableau<Real, 1> tableau() {
    return {.a = {{{Real(1) / 2}}}, .b = {Real(1)}, .c = {Real(1) / 2}};
  }
  constexpr Info info() const {
    return {.id = "implicit-midpoint",
            .summary = "implicit midpoint rule: 2nd order, symplectic, symmetric, 1 force evaluation per iteration",
            .order = 2, .evals_per_step = 1, .symplectic = true, .symmetric = true, .implicit = true,
            .source = "Hairer, Lubich, Wanner, Geometric Numerical Integration, §I.1.3, §II.1.3"};
  }
};

}  // namespace ode
