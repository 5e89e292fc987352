#pragma once
/// Yoshida / Forest–Ruth 4th order: the "triple jump" composition of three leapfrog steps with weights
/// w1, w0, w1, where w1 = 1/(2 - 2^(1/3)) and w0 = -2^(1/3)/(2 - 2^(1/3)).  4th order, symplectic,
/// symmetric, 3 force evaluations per step.  Sources: Forest & Ruth, Physica D 43 (1990) 105;
/// Yoshida, Phys. Lett. A 150 (1990) 262, eq. (4.4); Hairer, Lubich, Wanner, GNI §II.4 (II.4.4).
/// The digits below are the closed forms evaluated to 36 digits.

#include "integrators/splitting.hpp"

namespace ode {

/// Yoshida 4 as a DKD table: drifts w1/2, (w1+w0)/2, (w0+w1)/2, w1/2; kicks w1, w0, w1.
struct Yoshida4 : Splitting<Yoshida4> {
  // w1 = 1.351207191959657634047687808971460827, w0 = -1.702414383919315268095375617942921654
  static constexpr DkdCoefficients<3> coefficients{
      .drift = {"0.675603595979828817023843904485730413", "-0.175603595979828817023843904485730413",
                "-0.175603595979828817023843904485730413", "0.675603595979828817023843904485730413"},
      .kick = {"1.351207191959657634047687808971460827", "-1.702414383919315268095375617942921654",
               "1.351207191959657634047687808971460827"}};

  constexpr Info info() const {
    return {.id = "yoshida4",
            .summary = "Yoshida/Forest-Ruth triple jump: 4th order, symplectic, symmetric, 3 force evaluations per step",
            .order = 4, .evals_per_step = 3, .symplectic = true, .symmetric = true, .position_force_only = true,
            .source = "Yoshida, Phys. Lett. A 150 (1990) 262; Forest & Ruth, Physica D 43 (1990) 105"};
  }
};

}  // namespace ode
