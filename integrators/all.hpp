#pragma once
/// Every hand-written integrator.  Adding one: a new file plus one entry here; the generic tests
/// (one step, evaluation count, order, reversibility, energy) pick it up from this list.

#include <tuple>

#include "integrators/blanes_moan4.hpp"
#include "integrators/euler.hpp"
#include "integrators/gauss_legendre4.hpp"
#include "integrators/implicit_midpoint.hpp"
#include "integrators/leapfrog.hpp"
#include "integrators/rk2_heun.hpp"
#include "integrators/rk2_midpoint.hpp"
#include "integrators/rk4.hpp"
#include "integrators/stormer_verlet.hpp"
#include "integrators/substeps.hpp"
#include "integrators/symplectic_euler.hpp"
#include "integrators/symplectic_euler_drift.hpp"
#include "integrators/velocity_verlet.hpp"
#include "integrators/yoshida4.hpp"
#include "integrators/yoshida6.hpp"

namespace ode {

using AllMethods = std::tuple<Euler, SymplecticEuler, SymplecticEulerDrift, StormerVerlet, VelocityVerlet,
                              Leapfrog, Rk2Midpoint, Rk2Heun, Rk4, Yoshida4, BlanesMoan4, Yoshida6,
                              ImplicitMidpoint, GaussLegendre4>;

/// Calls f(M{}) for every method type M in Methods (a std::tuple; default: every hand-written integrator).
template <class Methods = AllMethods, class F>
constexpr void for_each_method(F&& f) {
  std::apply([&](auto... m) { (f(m), ...); }, Methods{});
}

}  // namespace ode
