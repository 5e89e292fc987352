#pragma once
/// register_integrator<M>(): an integrator of your own beside the built-in ones, on every shipped problem, in
/// your own program (docs/extend.md).  Light on purpose: the measurements of
/// the shipped problems are compiled in the library (study/measure/measure.cpp), so a file registering an integrator
/// compiles only its steppers (on each shipped problem, in double, counted, and long double) and its
/// stability search: seconds, not minutes, after an edit.

#include <string>
#include <tuple>

#include "integrators/concept.hpp"
#include "study/bench/user.hpp"
#include "study/extend/registration.hpp"
#include "study/measure/binding.hpp"

namespace study {

/// Registers integrator M (default-constructible, satisfying ode::Integrator: integrators/concept.hpp) under
/// M{}.info().id.  Call before study::cli_main; an id that is taken or malformed is reported there (exit 2).
template <class M>
void register_integrator() {
  static_assert(ode::check_integrator<M, Harmonic<double>>());
  extend_detail::guarded("an integrator", [] {
    const std::string id(M{}.info().id);
    if (!extend_detail::claim_id(id, "integrator")) return;
    extensions().integrators.push_back({id, [](const IntegratorChoice& c) {
                                          ode::Info info;
                                          with_method<std::tuple<M>>(c, [&](const auto& m) { info = m.info(); });
                                          return info;
                                        }});
    register_runner({id, std::string()}, [](TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps,
                                                   const engine::Context& ctx, StudyResult& res, std::size_t slot) {
      engine::run_task<std::tuple<M>>(kind, spec, si, steps, ctx, res, slot);
    });
    user_benches().push_back(make_user_bench<M>());
  });
}

}  // namespace study
