// The stability searches of the hand-written methods and tables: once per method, whatever the problem (binding.hpp).
#include "study/measure/binding.hpp"

namespace study::engine {

Stability hand_written_stability(const IntegratorChoice& c) {
  Stability s;
  with_method<ode::AllMethods>(c, [&](const auto& m) { s = stability(m, c); });
  return s;
}

}  // namespace study::engine
