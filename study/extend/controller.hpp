#pragma once
/// register_controller<C>(name, parameters): a step-size controller of your own for the adaptive integrators, chosen
/// in a spec by controller = "name" or { kind = "name", parameter = value, ... } (docs/extend.md).
///
/// C derives from ode::StepController (integrators/adaptive.hpp: error() scales a tried step's error estimate,
/// next() proposes the next step, max_dt() caps it) and is constructible as C(double tol, const std::map<std::string,
/// double>& params): a fresh one for every run, at the tolerance of the sweep, with the parameters the spec gives
/// (only those named at registration are accepted, each a number >= 0).

#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "integrators/adaptive.hpp"
#include "study/extend/registration.hpp"

namespace study {

template <class C>
void register_controller(const std::string& name, std::vector<std::string> parameters = {}) {
  static_assert(std::is_base_of_v<ode::StepController, C>, "a controller derives from ode::StepController (integrators/adaptive.hpp)");
  static_assert(std::is_constructible_v<C, double, const std::map<std::string, double>&>,
                "a controller is constructible as C(double tol, const std::map<std::string, double>& params)");
  extend_detail::guarded("a controller", [&] {
    const bool valid = !name.empty() && name.size() <= max_name_length && name[0] >= 'a' && name[0] <= 'z' &&
                       name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
    if (!valid) {
      extensions().errors.push_back("controller '" + name + "': a name is 1 to 64 lowercase letters, digits, '-' or '_', starting with a letter");
      return;
    }
    if (name == "odeint" || name == "pi" || find_user_controller(name)) {
      extensions().errors.push_back("controller '" + name + "': a controller of that name exists already (odeint, pi, or registered twice)");
      return;
    }
    for (const auto& p : parameters)
      if (p == "kind" || p.empty()) {
        extensions().errors.push_back("controller '" + name + "': '" + p + "' cannot be a parameter's name");
        return;
      }
    extensions().controllers.push_back({name, std::move(parameters), [](double tol, const std::map<std::string, double>& params) {
                                          return std::unique_ptr<ode::StepController>(std::make_unique<C>(tol, params));
                                        }});
  });
}

}  // namespace study
