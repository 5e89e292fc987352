#pragma once
/// Integrators by id at run time: the choice a spec makes (id, substeps, start) turned into a method object.

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "integrators/all.hpp"
#include "integrators/table.hpp"
#include "study/registry/choice.hpp"
#include "study/registry/extensions.hpp"
#include "study/common/suggest.hpp"

namespace study {

/// Every integrator id: the hand-written ones, then a user program's (study/extend.hpp).
inline std::vector<std::string> integrator_ids() {
  std::vector<std::string> ids;
  ode::for_each_method([&](auto m) { ids.emplace_back(m.info().id); });
  for (const auto& user : extensions().integrators) ids.push_back(user.id);
  return ids;
}

/// Calls f(method) with the method object for `c` (always wrapped in Substeps, k = 1 by default): its table's
/// ode::TableMethod, else the built-in looked up in Methods (tests swap in deliberately broken methods); throws
/// std::invalid_argument for an unknown id or option.
template <class Methods = ode::AllMethods, class F>
void with_method(const IntegratorChoice& c, F&& f) {
  if (c.substeps < 1) throw std::invalid_argument("substeps must be >= 1, got " + std::to_string(c.substeps));
  // Tables run with the hand-written methods only: the tests' lists of broken methods do not compile them in.
  constexpr bool tables = std::is_same_v<Methods, ode::AllMethods>;
  if (c.table && !tables) throw std::invalid_argument(c.id + " is a method table, which this list of methods does not run");
  if constexpr (tables) {
    if (c.table) {
      if (!c.start.empty() || !c.variant.empty())
        throw std::invalid_argument((c.start.empty() ? "variant = \"" + c.variant : "start = \"" + c.start) +
                                    "\" applies to stormer-verlet only, not to " + c.id);
      f(ode::Substeps<ode::TableMethod>{.base = ode::TableMethod{c.table}, .k = c.substeps});
      return;
    }
  }
  bool found = false;
  ode::for_each_method<Methods>([&](auto m) {
    using M = decltype(m);
    if (found || m.info().id != c.id) return;
    found = true;
    if constexpr (std::is_same_v<M, ode::StormerVerlet>) {
      if (c.start == "backward-euler") m.start = ode::StormerVerlet::Start::backward_euler;
      else if (!c.start.empty() && c.start != "taylor")
        throw std::invalid_argument("start = \"" + c.start + "\" is not a starting procedure: use \"taylor\" or \"backward-euler\"");
      if (c.variant == "unadjusted") m.adjust = false;
      else if (!c.variant.empty())
        throw std::invalid_argument("variant = \"" + c.variant + "\" is not a variant: use \"unadjusted\" (or leave it out)");
    } else if (!c.start.empty() || !c.variant.empty()) {
      throw std::invalid_argument((c.start.empty() ? "variant = \"" + c.variant : "start = \"" + c.start) +
                                  "\" applies to stormer-verlet only, not to " + c.id);
    }
    f(ode::Substeps<M>{.base = m, .k = c.substeps});
  });
  if (!found)
    throw std::invalid_argument("unknown integrator '" + c.id + "'" + did_you_mean(c.id, integrator_ids()) +
                                "; integrators: " + join(integrator_ids()));
}

}  // namespace study
