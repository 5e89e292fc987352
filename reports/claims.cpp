#include "reports/claims.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

namespace report {
namespace {




/// Global error of a run, infinite when it diverged or is missing (a diverged run is as inaccurate as it gets).
double error_of(const RunRow* r) { return r && r->status == "ok" && std::isfinite(r->global) ? r->global : INFINITY; }
std::string error_text(const RunRow* r) {
  if (!r) return "no run";
  if (r->status != "ok") return "diverged";
  return sci(r->global);
}
double observed(const Study& s, const std::string& integrator, const std::string& metric) {
  const OrderRow* o = find_order(s, integrator, metric);
  return o ? o->observed : std::nan("");
}
bool near(double observed_order, double expected) { return std::isfinite(observed_order) && std::abs(observed_order - expected) <= order_tolerance; }

}  // namespace

std::vector<Claim> evaluate_claims(const Results& res) {
  std::vector<Claim> claims;
  if (const Study* s = study_named(res, "seed000-central-force")) {
    const RunRow *rk4 = run_at(*s, "rk4", 1), *e8 = run_at(*s, "symplectic-euler x8", 1), *rk4x4 = run_at(*s, "rk4 x4", 1),
                 *rk4x2 = run_at(*s, "rk4 x2", 1);
    const double ratio = error_of(rk4) / error_of(e8);
    claims.push_back({"000", "RK4 at one step per frame is \"way more inaccurate than Euler integration\" run 8 times per frame",
                      "`seed000-central-force` at dt = 1 frame: rk4 against symplectic-euler x8 (the seed's \"Euler\")",
                      "global error at t_end: rk4 " + error_text(rk4) + ", symplectic-euler x8 " + error_text(e8),
                      "holds if RK4's error is at least 10 times Euler x8's",
                      ratio >= 10 ? "holds" : "does not hold",
                      "seed000-central-force-trajectory"});
    claims.push_back({"000", "\"if you loop RK4 four times it is more accurate than running Euler 8 times\"",
                      "same runs: rk4 x4 (16 evaluations per frame) against symplectic-euler x8 (8); at equal cost, rk4 x2",
                      "rk4 x4 " + error_text(rk4x4) + ", rk4 x2 " + error_text(rk4x2) + ", symplectic-euler x8 " + error_text(e8),
                      "holds if rk4 x4's error is smaller than Euler x8's",
                      error_of(rk4x4) < error_of(e8) ? "holds" : "does not hold",
                      "seed000-central-force-global"});
    // Identity: the seed's Verlet (previous = x0 - h v0) against its Euler, at every dt where both ended well.
    double worst = 0, largest_share = 0;
    int compared = 0;
    for (const auto& r : s->runs) {
      if (r.integrator != "stormer-verlet (backward-euler)" || r.status != "ok") continue;
      const RunRow* e = run_at(*s, "symplectic-euler", r.dt);
      // Only where the runs mean something (error < 0.1): at dt = 1 near-collisions amplify round-off chaotically.
      if (!e || e->status != "ok" || e->final_q.size() != r.final_q.size() || !(e->global > 0) || !(e->global < 0.1)) continue;
      double d = 0, scale = 0;
      for (std::size_t i = 0; i < r.final_q.size(); ++i) d = std::max(d, std::abs(r.final_q[i] - e->final_q[i])), scale = std::max(scale, std::abs(e->final_q[i]));
      // The gap against the most round-off can do (100 ulps per step, accumulated linearly) ...
      const double roundoff = 100 * std::numeric_limits<double>::epsilon() * static_cast<double>(r.steps);
      worst = std::max(worst, d / scale / roundoff);
      // ... and against their own error: an identity must sit far below it (an O(h) difference would not).
      largest_share = std::max(largest_share, d / scale / e->global);
      ++compared;
    }
    claims.push_back({"000", "\"For one body however, it [Verlet] is identical to Euler Integration\"",
                      "`seed000-central-force`: the seed's Verlet (stormer-verlet started from x_-1 = x0 - h v0) against symplectic Euler, final positions at every dt",
                      compared ? fmt::format("at the {} step sizes where both are accurate to 0.1, the positions differ by at most {:.2f} of the round-off "
                                             "allowance and {:.1e} of their own error", compared, worst, largest_share)
                               : "no comparable runs",
                      "holds if, wherever the error is below 0.1, the two differ by no more than round-off can (100 eps per step) and by under 1% of their error",
                      compared && worst <= 1 && largest_share < 1e-2 ? "holds — for any force, not only for one body: the x_-1 = x0 - h v0 start turns the two-step recurrence into symplectic Euler"
                                               : (compared ? "does not hold" : "not measured"),
                      "seed000-central-force-global"});
  }
  auto better = [&](const Study& s, double dt) {
    const RunRow *e = run_at(s, "euler", dt), *se = run_at(s, "symplectic-euler", dt);
    return std::pair{error_of(se) / error_of(e), fmt::format("dt = {}: explicit Euler {}, symplectic Euler {}", g(dt), error_text(e), error_text(se))};
  };
  if (const Study* s = study_named(res, "seed001-projectile")) {
    const auto [ratio, text] = better(*s, 0.0125);
    claims.push_back({"001", "symplectic Euler \"yields better results than the explicit Euler since it is a symplectic method\"",
                      "`seed001-projectile` (constant gravity) at dt = 0.0125", text,
                      "holds if symplectic Euler's error is less than half explicit Euler's; 0.5-2: equal",
                      ratio < 0.5 ? "holds" : ratio <= 2 ? "does not hold: equal errors (they are exactly -/+ a t h / 2)" : "does not hold",
                      "seed001-projectile-global"});
  }
  if (const Study* s = study_named(res, "seed002-earth-moon")) {
    const auto [ratio, text] = better(*s, 3600);
    claims.push_back({"001", "symplectic Euler yields better results than explicit Euler — on an orbit",
                      "`seed002-earth-moon`, one year at dt = 3600 s", text, "holds if symplectic Euler's error is less than half explicit Euler's",
                      ratio < 0.5 ? "holds" : "does not hold",
                      "seed002-earth-moon-global"});
    // Distances Earth-Moon over the year; the most accurate run of the study stands for the true orbit.
    const RunRow* best = most_accurate(*s);
    // samples.csv is read once per step size: the seed's 3600 s and the most accurate run's.
    const auto at_seed_dt = samples_at(res, *s, 3600);
    const auto at_best_dt = best ? samples_at(res, *s, best->dt) : std::map<std::string, std::vector<Sample>>{};
    const std::vector<Sample> none;
    auto samples_of = [&](const std::map<std::string, std::vector<Sample>>& at, const std::string& integrator) -> const std::vector<Sample>& {
      const auto it = at.find(integrator);
      return it == at.end() ? none : it->second;
    };
    auto distances = [&](const std::vector<Sample>& samples) {
      std::vector<double> d;
      for (const auto& x : samples)
        if (x.q.size() == 4) d.push_back(std::hypot(x.q[2] - x.q[0], x.q[3] - x.q[1]));
      return d;
    };
    const auto truth = best ? distances(samples_of(at_best_dt, best->integrator)) : std::vector<double>{};
    const auto naive = distances(samples_of(at_seed_dt, "euler")), symplectic = distances(samples_of(at_seed_dt, "symplectic-euler"));
    if (!truth.empty() && !naive.empty() && !symplectic.empty()) {
      const auto [lo, hi] = std::minmax_element(truth.begin(), truth.end());
      const auto [slo, shi] = std::minmax_element(symplectic.begin(), symplectic.end());
      const bool spirals = naive.back() > 1.05 * *hi, stays = *slo >= 0.99 * *lo && *shi <= 1.01 * *hi;
      claims.push_back({"002", "\"with the naive Euler approach the distance is increasing over time\"; with symplectic Euler \"the Moon is orbiting in a consistent circle\"",
                        "`seed002-earth-moon` at dt = 3600 s: Earth-Moon distance over the year against the most accurate run (" + best->integrator + ", dt = " + g(best->dt) + ")",
                        fmt::format("true distance {:.4g}-{:.4g} km; explicit Euler ends at {:.4g} km; symplectic Euler stays in {:.4g}-{:.4g} km",
                                    *lo / 1e3, *hi / 1e3, naive.back() / 1e3, *slo / 1e3, *shi / 1e3),
                        "holds if Euler ends more than 5% beyond the true largest distance and symplectic Euler stays within 1% of the true range",
                        spirals && stays ? "holds" : spirals || stays ? "partly" : "does not hold",
                      "seed002-earth-moon-trajectory"});
      // Revolutions: the unwrapped angle of the Moon seen from the Earth, on the most accurate run.
      double angle = 0, previous = 0;
      bool first = true;
      for (const auto& x : samples_of(at_best_dt, best->integrator)) {
        const auto& q = x.q;
        const double a = std::atan2(q[3] - q[1], q[2] - q[0]);
        if (!first) angle += std::remainder(a - previous, 2 * std::numbers::pi);
        previous = a, first = false;
      }
      const double revolutions = angle / (2 * std::numbers::pi);
      claims.push_back({"002", "\"the moon is orbiting for a total of about 13 periods in one year\" (checked as 365 / 29.5 = 12.4)",
                        "`seed002-earth-moon`: the angle swept by the Earth-Moon line in 365 days, most accurate run",
                        fmt::format("{:.2f} revolutions", revolutions),
                        "holds if within 0.5 of 13",
                        std::abs(revolutions - 13) < 0.5 ? "holds — but 29.5 days is the synodic month; this two-body orbit's sidereal period gives the 13"
                                                          : "does not hold",
                      "seed002-earth-moon-trajectory"});
    }
  }
  if (const Study* s = study_named(res, "seed003-004-verlet")) {
    const double sv_local = observed(*s, "stormer-verlet", "local"), sv_global = observed(*s, "stormer-verlet", "global");
    const double vv_global = observed(*s, "velocity-verlet", "global");
    claims.push_back({"003", "position Verlet: \"this drops the error to O(dt^4)\"",
                      "`seed003-004-verlet` (Kepler e = 0.6): orders of stormer-verlet, one step from two reference positions and over the run",
                      "one-step position error order " + fixed(sv_local) + ", global order " + fixed(sv_global),
                      "holds if the global order is 4 (within 0.2); partly if only the one-step error is O(dt^4)",
                      near(sv_global, 4) ? "holds" : near(sv_local, 4) ? "partly: the one-step error is O(dt^4), the error after many steps is O(dt^2)" : "does not hold",
                      "seed003-004-verlet-local"});
    claims.push_back({"003", "velocity Verlet \"has an error term of O(dt^2), which is two orders of magnitude worse\"",
                      "`seed003-004-verlet`: global orders of velocity-verlet and stormer-verlet",
                      "velocity Verlet " + fixed(vv_global) + ", Störmer-Verlet " + fixed(sv_global),
                      "holds if velocity Verlet's global order is 2 lower than position Verlet's",
                      std::isfinite(vv_global) && std::isfinite(sv_global) && sv_global - vv_global >= 2 - order_tolerance
                          ? "holds"
                          : "does not hold: both are second order (and give the same positions)",
                      "seed003-004-verlet-global"});
    const double el = observed(*s, "euler", "local"), eg = observed(*s, "euler", "global");
    claims.push_back({"004", "Euler: \"The error per timestep (local error) is proportional to dt^2. The cumulative (global) error is proportional to dt.\"",
                      "`seed003-004-verlet`: orders of explicit Euler", "local order " + fixed(el) + ", global order " + fixed(eg),
                      "holds if local is 2 and global is 1 (within 0.2)", near(el, 2) && near(eg, 1) ? "holds" : "does not hold",
                      "seed003-004-verlet-local"});
    // Reversal: n steps of h, then n of -h, back to the start?  Round-off allowance: 100 ulps per step.
    double worst_share = 0, euler_least = INFINITY;
    int reversed = 0;
    for (const auto& r : s->runs) {
      if (r.integrator != "stormer-verlet" || r.status != "ok" || !std::isfinite(r.reversal)) continue;
      const double allowance = 100 * std::numeric_limits<double>::epsilon() * 2 * static_cast<double>(r.steps);
      worst_share = std::max(worst_share, r.reversal / allowance);
      if (const RunRow* e = run_at(*s, "euler", r.dt); e && e->status == "ok" && std::isfinite(e->reversal))
        euler_least = std::min(euler_least, e->reversal / allowance);
      ++reversed;
    }
    const bool reversible = reversed > 0 && worst_share <= 1 && euler_least > 1;
    claims.push_back({"004", "Störmer-Verlet is \"time-reversible, symplectic, local O(t^4) and global O(t^2)\"",
                      "`seed003-004-verlet`: orders of stormer-verlet; reversal: n steps of dt, then n of -dt, distance from the start "
                      "(explicit Euler as the control)",
                      fmt::format("local (positions) {}, global {}; reversal gap at most {:.2g} of the round-off allowance over {} step sizes "
                                  "(explicit Euler: at least {:.3g} times it)",
                                  fixed(sv_local), fixed(sv_global), worst_share, reversed, euler_least),
                      "holds if local is 4 and global 2 (within 0.2) and the reversal gap stays within round-off (100 eps per step) "
                      "at every dt while Euler's does not",
                      reversed == 0                                    ? "not measured (no reversal runs)"
                      : near(sv_local, 4) && near(sv_global, 2) && reversible ? "holds"
                      : reversible                                     ? "partly: reversible, but the orders differ"
                                                                       : "does not hold",
                      "seed003-004-verlet-reversal"});
  }
  if (const Study* s = study_named(res, "seed004-variable-step")) {
    const double adjusted = observed(*s, "stormer-verlet", "global"), vv = observed(*s, "velocity-verlet", "global");
    const auto [coarse, fine] = sweep_ends(*s, "stormer-verlet (unadjusted)", [](const RunRow& r) { return r.status == "ok"; });
    const bool stuck = coarse && fine && coarse != fine && fine->global > 0.5 * coarse->global;
    claims.push_back({"004", "Störmer-Verlet \"needs adjustment for non-constant dt\": `x_{i+1} = x_i + (x_i - x_{i-1}) dt_i/dt_{i-1} + a_i (dt_i + dt_{i-1})/2 dt_i`",
                      "`seed004-variable-step` (Kepler e = 0.6, steps alternating dt (1 ± " + g(s->dt_amplitude) +
                          ")): the seed's formula, the unadjusted constant-step formula, and velocity Verlet",
                      fmt::format("global order with the seed's formula {} (velocity Verlet {}); unadjusted: error {} at dt = {} and {} at dt = {}",
                                  fixed(adjusted), fixed(vv), coarse ? sci(coarse->global) : "—", coarse ? g(coarse->dt) : "—",
                                  fine ? sci(fine->global) : "—", fine ? g(fine->dt) : "—"),
                      "holds if the seed's formula keeps global order 2 (within 0.2) and the unadjusted formula does not converge "
                      "(its error at the smallest dt is over half of that at the largest)",
                      near(adjusted, 2) && stuck ? "holds: without the adjustment the method converges to a wrong orbit"
                      : near(adjusted, 2)         ? "partly: the formula works, but the unadjusted one converges too"
                                                  : "does not hold",
                      "seed004-variable-step-global"});
  }
  return claims;
}
}  // namespace report
