// Stage 3, measure: the measurements of one method (type-erased, study/measure/stepper.hpp) on one problem, compiled
// once per problem type.
#include "study/measure/measure_impl.hpp"
#include "study/problems/all.hpp"

namespace study::engine {

// One instantiation per problem (the only ones: measure.hpp declares these templates without defining them).
#define STUDY_MEASURE_PROBLEM(Problem)                                                                                \
  template Run reuse_or_measure(const MethodOn<Problem<double>>&, const Problem<double>&, const Spec&,              \
                                const IntegratorChoice&, long, const Context&);                                       \
  template EnergyLong energy_run(const MethodOn<Problem<double>>&, const Problem<double>&, const Spec&,             \
                                 const IntegratorChoice&);                                                            \
  template WideRun reuse_or_measure_wide(const MethodOn<Problem<double>>&, const Problem<double>&, const Spec&,     \
                                         const IntegratorChoice&, long, const Context&, const std::string&);
STUDY_MEASURE_PROBLEM(Projectile)
STUDY_MEASURE_PROBLEM(CentralForce)
STUDY_MEASURE_PROBLEM(EarthMoon)
STUDY_MEASURE_PROBLEM(Kepler)
STUDY_MEASURE_PROBLEM(Harmonic)
STUDY_MEASURE_PROBLEM(Pendulum)
STUDY_MEASURE_PROBLEM(HenonHeiles)
STUDY_MEASURE_PROBLEM(OuterSolarSystem)
STUDY_MEASURE_PROBLEM(DampedOscillator)
STUDY_MEASURE_PROBLEM(Plummer)
STUDY_MEASURE_PROBLEM(Arenstorf)
static_assert(std::tuple_size_v<AllProblems<double>> == 11, "a problem was added to AllProblems: instantiate it above");

}  // namespace study::engine
