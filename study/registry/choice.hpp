#pragma once
/// An integrator as a spec chooses it; light, so that the spec and the results need not include the integrators
/// (integrators.hpp turns a choice into a method object).

#include <memory>
#include <string>

namespace ode {
struct MethodTable;
}

namespace study {

/// One integrator as a spec chooses it.
struct IntegratorChoice {
  std::string id;
  int substeps = 1;
  std::string start;    ///< stormer-verlet only: "taylor" (default) or "backward-euler"
  std::string variant;  ///< stormer-verlet only: "" or "unadjusted" (constant-step formula when h changes)
  std::shared_ptr<const ode::MethodTable> table;  ///< a method given by its coefficients (study/methods/); else built-in
  /// How results name it: "rk4", "rk4 x4", "stormer-verlet (backward-euler)", "stormer-verlet (unadjusted)".
  std::string label() const {
    std::string l = id;
    if (!start.empty() && !variant.empty()) l += " (" + start + ", " + variant + ")";
    else if (!start.empty() || !variant.empty()) l += " (" + start + variant + ")";
    if (substeps > 1) l += " x" + std::to_string(substeps);
    return l;
  }
};

}  // namespace study
