#pragma once
/// Every test problem, templated on the scalar type.  Adding one: a new file plus one entry here.

#include <tuple>

#include "study/problems/central_force.hpp"
#include "study/problems/damped_oscillator.hpp"
#include "study/problems/earth_moon.hpp"
#include "study/problems/harmonic.hpp"
#include "study/problems/henon_heiles.hpp"
#include "study/problems/kepler.hpp"
#include "study/problems/outer_solar_system.hpp"
#include "study/problems/pendulum.hpp"
#include "study/problems/projectile.hpp"

namespace study {

template <class Real>
using AllProblems = std::tuple<Projectile<Real>, CentralForce<Real>, EarthMoon<Real>, Kepler<Real>, Harmonic<Real>,
                               Pendulum<Real>, HenonHeiles<Real>, OuterSolarSystem<Real>, DampedOscillator<Real>>;

/// Calls f(P{}) -- default parameters -- for every problem type in AllProblems<Real>.
template <class Real, class F>
void for_each_problem(F&& f) {
  std::apply([&](auto... p) { (f(p), ...); }, AllProblems<Real>{});
}

}  // namespace study
