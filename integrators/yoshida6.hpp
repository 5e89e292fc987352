#pragma once
/// Yoshida 6th order ("solution A"): the symmetric composition of seven leapfrog steps with weights
/// W1 W2 W3 W4 W3 W2 W1.  6th order, symplectic, symmetric, 7 force evaluations per step.
/// Source: Yoshida, Phys. Lett. A 150 (1990) 262, Table 1, solution A (15 digits); the 20-digit weights
/// W1 = 0.78451361047755726382, W2 = 0.23557321335935813368, W3 = -1.17767998417887100695,
/// W4 = 1 - 2(W1+W2+W3) are from McLachlan & Quispel, "Splitting methods", Acta Numerica 11 (2002) 341,
/// table of symmetric compositions of a 2nd-order method.  The drifts are the merged half steps
/// (W_i + W_{i+1})/2.  With 20 digits the order conditions hold to ~1e-19: in float128 an error term of
/// that size remains.

#include "integrators/splitting.hpp"

namespace ode {

/// Yoshida 6 (solution A) as a DKD table.
struct Yoshida6 : Splitting<Yoshida6> {
  static constexpr DkdCoefficients<7> coefficients{
      .drift = {"0.39225680523877863191", "0.51004341191845769875", "-0.471053385409756436635",
                "0.068753168252520105975", "0.068753168252520105975", "-0.471053385409756436635",
                "0.51004341191845769875", "0.39225680523877863191"},
      .kick = {"0.78451361047755726382", "0.23557321335935813368", "-1.17767998417887100695",
               "1.31518632068391121890", "-1.17767998417887100695", "0.23557321335935813368",
               "0.78451361047755726382"}};

  constexpr Info info() const {
    return {.id = "yoshida6",
            .summary = "Yoshida 6th order (solution A), 7 leapfrog stages: symplectic, symmetric, 7 force evaluations per step",
            .order = 6, .evals_per_step = 7, .symplectic = true, .symmetric = true, .position_force_only = true,
            .source = "Yoshida, Phys. Lett. A 150 (1990) 262; digits: McLachlan & Quispel, Acta Numerica 11 (2002)"};
  }
};

}  // namespace ode
