#pragma once
/// 2-stage Gauss–Legendre collocation: 4th order, symplectic, symmetric, A-stable; 2 force evaluations
/// per iteration.  c = 1/2 -+ sqrt(3)/6, b = (1/2, 1/2),
/// A = [[1/4, 1/4 - sqrt(3)/6], [1/4 + sqrt(3)/6, 1/4]]  (computed in the working precision).
/// Source: Butcher, Math. Comp. 18 (1964) 50; Hairer, Nørsett, Wanner, Solving ODEs I, Table II.7.3;
/// Hairer, Lubich, Wanner, GNI Table II.1.1.

#include <cmath>

#include "integrators/implicit_rk.hpp"

namespace ode {

/// Gauss–Legendre order 4, iterated to round-off.
struct GaussLegendre4 : ImplicitRk<GaussLegendre4, 2> {
  template <class Real>
  static Tableau<Real, 2> tableau() {
    using std::sqrt;
    const Real r = sqrt(Real(3)) / 6, q = Real(1) / 4, h = Real(1) / 2;
    return {.a = {{{q, q - r}, {q + r, q}}}, .b = {h, h}, .c = {h - r, h + r}};
  }
  constexpr Info info() const {
    return {.id = "gauss-legendre4",
            .summary = "2-stage Gauss-Legendre: 4th order, symplectic, symmetric, 2 force evaluations per iteration",
            .order = 4, .evals_per_step = 2, .symplectic = true, .symmetric = true, .implicit = true,
            .source = "Butcher, Math. Comp. 18 (1964) 50; Hairer, Norsett, Wanner, Solving ODEs I, Table II.7.3"};
  }
};

}  // namespace ode
