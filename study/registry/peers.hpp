#pragma once
/// Boost.Odeint's controlled steppers a spec may list among its adaptive integrators, beside ours at the same
/// tolerances (reference/odeint_controlled.hpp runs them): their ids, Odeint's names and what each declares.

#include <array>
#include <string_view>

namespace study {

struct ControlledPeer {
  std::string_view id, which, source;
  std::string_view table;  ///< our shipped table of the same coefficients (its fixed-step orders are the peer's)
  int order, order_hat, evals_per_step;  ///< evals_per_step: a try's force evaluations (dopri5: first same as last)
};

inline constexpr std::array<ControlledPeer, 3> controlled_peers{{
    {"odeint-dopri5", "dopri5", "Boost.Odeint runge_kutta_dopri5 under make_controlled(eps_abs, eps_rel, max_dt), integrate_times", "dopri5", 5, 4, 6},
    {"odeint-cash-karp54", "cash-karp54", "Boost.Odeint runge_kutta_cash_karp54 under make_controlled(eps_abs, eps_rel, max_dt), integrate_times",
     "cash-karp5", 5, 4, 6},
    {"odeint-fehlberg78", "fehlberg78", "Boost.Odeint runge_kutta_fehlberg78 under make_controlled(eps_abs, eps_rel, max_dt), integrate_times",
     "fehlberg78", 8, 7, 13}}};

inline const ControlledPeer* find_controlled_peer(std::string_view id) {
  for (const auto& p : controlled_peers)
    if (p.id == id) return &p;
  return nullptr;
}

}  // namespace study
