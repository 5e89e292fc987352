#pragma once
/// What `study bench` needs of a user program's integrator (study/extend/integrator.hpp registers it): its
/// stepping loop on each of the benchmark's three problems, plain (timed) and counted (its evaluations per step),
/// compiled in the user's program.  The rows then sit beside the built-ins' in bench.json, with no Odeint
/// counterpart.  Time them in an optimised build of that program (CMAKE_BUILD_TYPE=Release).

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "integrators/method.hpp"
#include "study/registry/extensions.hpp"
#include "study/problems/counted.hpp"
#include "study/problems/harmonic.hpp"
#include "study/problems/kepler.hpp"
#include "study/problems/outer_solar_system.hpp"

namespace study {

/// n steps of h from state s, with one stepper kept across calls (as the benchmark's other rows).
template <class P>
using BenchBlock = std::function<void(typename P::State& s, double h, long n)>;

/// A method's block on problem type P, and on P counting its force evaluations.
template <class P>
struct BenchOn {
  std::function<BenchBlock<P>(const P&)> plain;
  std::function<BenchBlock<Counted<P>>(const Counted<P>&)> counted;
};

struct UserBench {
  std::string id;
  ode::Info info;
  BenchOn<Kepler<double>> kepler;
  BenchOn<Harmonic<double>> harmonic;
  BenchOn<OuterSolarSystem<double>> outer_solar_system;

  template <class P>
  const BenchOn<P>& on() const {
    if constexpr (std::is_same_v<P, Kepler<double>>) return kepler;
    else if constexpr (std::is_same_v<P, Harmonic<double>>) return harmonic;
    else return outer_solar_system;
  }
};

namespace extend_detail {
template <class M, class P>
BenchOn<P> bench_on() {
  auto make = []<class Q>(const Q& p) -> BenchBlock<Q> {
    return [stepper = ode::make_stepper<Q>(M{}), &p](typename Q::State& s, double h, long n) mutable {
      ode::advance(stepper, s, h, p, n);
    };
  };
  return {make, make};
}
}  // namespace extend_detail

/// Integrator M's rows of `study bench`.
template <class M>
std::shared_ptr<const UserBench> make_user_bench() {
  auto b = std::make_shared<UserBench>();
  b->id = std::string(M{}.info().id), b->info = M{}.info();
  b->kepler = extend_detail::bench_on<M, Kepler<double>>();
  b->harmonic = extend_detail::bench_on<M, Harmonic<double>>();
  b->outer_solar_system = extend_detail::bench_on<M, OuterSolarSystem<double>>();
  return b;
}

/// The benchmark rows a user's program registered (study/extend/integrator.hpp), beside the built-ins' in
/// `study bench`.  Filled before any study starts and read-only after: no lock.
inline std::vector<std::shared_ptr<const UserBench>>& user_benches() {
  static std::vector<std::shared_ptr<const UserBench>> rows;
  return rows;
}

}  // namespace study
