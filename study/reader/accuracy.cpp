#include "study/reader/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace report {
namespace {

double run_seconds(const RunRow& r) { return r.ns_min * 1e-9 * static_cast<double>(r.steps); }
double run_cost(const RunRow& r, bool by_time) { return by_time ? run_seconds(r) : r.force_evals; }
/// The spread of a run's timed repeats: median / minimum - 1 (NaN when not measured).
double run_noise(const RunRow& r) {
  return r.ns_min > 0 && std::isfinite(r.ns_median) && std::isfinite(r.ns_min) ? r.ns_median / r.ns_min - 1 : NAN;
}
double worst(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }

/// Every run the work-precision answers weigh: the fixed-step runs and the adaptive ones (Study::adaptive_work).
std::vector<const RunRow*> work_runs(const Study& s) {
  std::vector<const RunRow*> runs;
  for (const auto& r : s.runs) runs.push_back(&r);
  for (const auto& r : s.adaptive_work) runs.push_back(&r);
  return runs;
}

/// The runs of one integrator, largest step first (the order of its sweep: cost grows along it; an adaptive one's
/// mean step, so its tolerances from the largest).
std::vector<const RunRow*> sweep_of(const Study& s, const std::string& integrator) {
  std::vector<const RunRow*> runs;
  for (const RunRow* r : work_runs(s))
    if (r->integrator == integrator) runs.push_back(r);
  std::stable_sort(runs.begin(), runs.end(), [](const RunRow* a, const RunRow* b) { return a->dt > b->dt; });
  return runs;
}

bool ended_well(const RunRow& r) { return r.status == "ok" && std::isfinite(r.global) && r.global >= 0; }

/// The fitted global order a method may be extrapolated with: determined over >= 3 points, and judged (pass or
/// fail: its window was asymptotic) or asymptotic; NaN otherwise.
double extrapolation_order(const Study& s, const std::string& integrator) {
  const OrderRow* o = find_order(s, integrator, "global");
  if (!o || !std::isfinite(o->observed) || o->points < 3 || !(o->observed > 0.2)) return NAN;
  if (o->verdict.empty() || o->verdict == "pass" || o->verdict == "fail" || o->asymptotic) return o->observed;
  return NAN;
}

std::string e3(double x) { return fmt::format("{:.3g}", x); }

/// How far the slope of log cost against log error, -1/p, may lie from -1/p_fit within the global order's 99 %
/// interval [lo, hi]: max |1/q - 1/p| over q in it (NaN without an interval, infinite when it reaches 0).
double order_slope_spread(const Study& s, const std::string& integrator, double p) {
  const OrderRow* o = find_order(s, integrator, "global");
  if (!o || !std::isfinite(o->lo) || !std::isfinite(o->hi)) return NAN;
  if (!(o->lo > 0)) return INFINITY;
  return std::max(std::abs(1 / o->lo - 1 / p), std::abs(1 / o->hi - 1 / p));
}

}  // namespace

double noise_floor(const Study& s, const RunRow& r) {
  if (const OrderRow* o = find_order(s, r.integrator, "global"))
    for (const auto& p : o->sweep)
      if (std::abs(p[0] - r.dt) <= 1e-12 * r.dt && std::isfinite(p[2])) return p[2];
  const double eps = std::numeric_limits<double>::epsilon();
  const double roundoff = std::isfinite(r.roundoff) ? r.roundoff : eps * std::sqrt(static_cast<double>(std::max(1L, r.steps)));
  return std::max(s.ref_bound, roundoff);
}

bool usable(const Study& s, const RunRow& r) {
  return ended_well(r) && r.global > 0 && r.global <= pre_asymptotic_error && r.global > floor_factor * noise_floor(s, r) &&
         std::isfinite(r.force_evals) && r.force_evals > 0;
}

CostToAccuracy cost_to_reach(const Study& s, const std::string& integrator, double target) {
  CostToAccuracy c;
  c.integrator = integrator, c.target = target;
  const auto runs = sweep_of(s, integrator);
  auto take = [&](const RunRow& r) {  // the cost of one run as it is
    c.evals = r.force_evals, c.seconds = run_seconds(r), c.dt = r.dt, c.noise = run_noise(r);
  };
  // From run a to the step a.dt * dt_factor: the cost grows as 1/dt (N steps of exactly t_end/N).
  auto along = [&](const RunRow& a, double dt_factor, double noise) {
    c.evals = a.force_evals / dt_factor, c.seconds = run_seconds(a) / dt_factor, c.dt = a.dt * dt_factor;
    c.noise = noise;
  };
  const double p = extrapolation_order(s, integrator);
  const std::string order_text = std::isfinite(p) ? fmt::format("order {:.2f}", p) : "";
  // From usable run `a` to the target along the fitted order, to a step strictly between dt_lo and dt_hi: "" when
  // done, else why not.
  auto extrapolate = [&](const RunRow& a, double dt_lo, double dt_hi, double floor) -> std::string {
    if (!std::isfinite(p) && std::isfinite(a.tol)) {  // a pair's cost follows its controller, not a fitted order
      // Runs at the tolerances beyond it that ran and stopped before t_end: their stop is the limit, not the spec's range.
      for (const auto& r : s.adaptive_runs)
        if (r.integrator == integrator && r.status != "ok" && (target < a.global ? r.tol < a.tol : r.tol > a.tol))
          return fmt::format("a run under step-size control is not extrapolated: its most accurate usable run, at tol {}, gave error "
                             "{}, and its run at tol {} stopped before t_end ({}: {})", e3(a.tol), e3(a.global), e3(r.tol), r.status,
                             r.reason);
      return fmt::format("a run under step-size control is not extrapolated: its {} usable run, at tol {}, gave error {} (a {} "
                         "tolerance in the spec's tol would reach it)", target < a.global ? "most accurate" : "least accurate", e3(a.tol),
                         e3(a.global), target < a.global ? "tighter" : "looser");
    }
    if (!std::isfinite(p)) return "its order is undetermined, so nothing is extrapolated";
    const double ratio = target / a.global;
    if (ratio > extrapolation_up || ratio < 1 / extrapolation_down || target > pre_asymptotic_error)
      return fmt::format("the target is {} from its nearest usable run (error {} at dt {})",
                         ratio > 1 ? "more than a decade above it: steps larger than any run" : "more than three decades", e3(a.global),
                         e3(a.dt));
    const double dt = a.dt * std::pow(ratio, 1 / p);
    if (!(dt > dt_lo && dt < dt_hi))
      return fmt::format("the step that would reach it, dt {}, lies beyond the {} step dt {}, which {}", e3(dt), dt >= dt_hi ? "larger" : "smaller",
                         e3(dt >= dt_hi ? dt_hi : dt_lo), dt >= dt_hi ? "did not reach it or failed" : "was run");
    // Round-off grows as the steps shrink (at most like their number): the target must stay clear of it.
    if (target <= floor_factor * floor * std::max(1.0, a.dt / dt))
      return fmt::format("round-off and the reference's bound ({} at dt {}, growing as the steps shrink) are within 10 times the target",
                         e3(floor), e3(a.dt));
    along(a, dt / a.dt, run_noise(a));
    c.how = Reach::extrapolated, c.order = p, c.lower = c.evals;
    c.spread = std::exp(std::abs(std::log(ratio)) * order_slope_spread(s, integrator, p)) - 1;
    c.why = fmt::format("extrapolated at {} from dt {} (error {})", order_text, e3(a.dt), e3(a.global));
    return "";
  };

  // The cheapest run from which on every smaller step that ended well stays at or below the target, or at its noise
  // floor: the curve has settled there (an error that falls below the target at one step and rises above it at a
  // smaller one is a curve not in its asymptotic range, and a cost read off it would be an accident; round-off
  // above the target at the smallest steps is noise, not the curve).
  auto at_floor = [&](const RunRow& r) { return r.global <= floor_factor * noise_floor(s, r); };
  std::size_t first = runs.size();
  for (std::size_t k = runs.size(); k-- > 0;) {
    if (!ended_well(*runs[k])) continue;
    if (runs[k]->global > target) {
      if (at_floor(*runs[k])) continue;
      break;
    }
    first = k;
  }
  bool reached_once = false;
  for (const auto* r : runs) reached_once = reached_once || (ended_well(*r) && r->global <= target);
  if (first == runs.size() && reached_once) {
    const RunRow* again = nullptr;  // the smallest step above the target (not at its floor)
    for (const auto* r : runs)
      if (ended_well(*r) && r->global > target && !at_floor(*r)) again = r;
    c.why = fmt::format("not reached for good: a run reached it, but at the smaller step dt {} the error is {} again (the errors do not "
                        "fall steadily: not in the asymptotic range)", e3(again->dt), e3(again->global));
    return c;
  }
  if (first < runs.size()) {
    const RunRow& b = *runs[first];
    const RunRow* a = first > 0 ? runs[first - 1] : nullptr;  // the next larger step: above the target, or it failed
    if (a && usable(s, *a) && usable(s, b)) {
      const double f = a->global == b.global ? 0 : std::log(target / a->global) / std::log(b.global / a->global);
      const double cost_a = a->force_evals, cost_b = b.force_evals;
      c.evals = cost_a * std::pow(cost_b / cost_a, f);
      c.seconds = run_seconds(*a) * std::pow(run_seconds(b) / run_seconds(*a), f);
      c.dt = a->dt * std::pow(b.dt / a->dt, f);
      c.noise = worst(run_noise(*a), run_noise(b));
      c.how = Reach::interpolated, c.lower = c.evals;
      // The local slopes' spread: each usable neighbouring segment's slope against the bracket's, over the distance
      // from its end of the bracket to the target (a straight log-log curve: 0); no neighbour: the order's interval.
      auto slope = [](const RunRow& x, const RunRow& y) { return std::log(y.force_evals / x.force_evals) / std::log(y.global / x.global); };
      const double here = a->global == b.global ? 0 : slope(*a, b);
      const double to_a = std::abs(std::log(a->global / target)), to_b = std::abs(std::log(target / b.global));
      double spread_log = 0;
      bool known = false;
      if (first >= 2 && usable(s, *runs[first - 2]) && runs[first - 2]->global != a->global)
        spread_log = std::max(spread_log, std::abs(slope(*runs[first - 2], *a) - here) * to_a), known = true;
      if (first + 1 < runs.size() && usable(s, *runs[first + 1]) && runs[first + 1]->global != b.global)
        spread_log = std::max(spread_log, std::abs(slope(b, *runs[first + 1]) - here) * to_b), known = true;
      if (const double o = std::isfinite(p) ? order_slope_spread(s, integrator, p) : NAN; !known && !std::isnan(o))
        spread_log = std::min(to_a, to_b) == 0 ? 0 : o * std::min(to_a, to_b), known = true;
      if (known) c.spread = std::exp(spread_log) - 1;
      return c;
    }
    std::string why;
    if (usable(s, b)) {  // no usable larger step: up from b along its order, never to a step that failed
      why = extrapolate(b, b.dt, a ? a->dt : INFINITY, noise_floor(s, b));
      if (why.empty()) return c;
    } else if (a && usable(s, *a)) {  // b is at its noise floor: down from a, staying above b's floor
      why = extrapolate(*a, b.dt, a->dt, noise_floor(s, b));
      if (why.empty()) return c;
    }
    take(b);
    c.how = Reach::at_most;
    // The cost lies between the larger step's (whose error was above the target) and b's.
    c.lower = a && ended_well(*a) ? a->force_evals : 0;
    c.why = !usable(s, b) ? fmt::format("reached at dt {} (error {}), a run at its noise floor or out of the asymptotic range",
                                        e3(b.dt), e3(b.global))
            : !a          ? fmt::format("reached already at its largest step, dt {} (error {}); {}", e3(b.dt), e3(b.global), why)
                          : fmt::format("reached at dt {} (error {}); the next larger step {} {}", e3(b.dt), e3(b.global), e3(a->dt),
                                        a->status != "ok" ? "diverged" : "is out of the asymptotic range");
    return c;
  }
  // Not reached by any run: beyond the last usable one, if anything.
  const RunRow* last = nullptr;
  std::size_t last_k = 0;
  for (std::size_t k = 0; k < runs.size(); ++k)
    if (usable(s, *runs[k]) && (!last || runs[k]->global < last->global)) last = runs[k], last_k = k;
  if (!last) {
    std::size_t diverged = 0, large = 0, at_floor = 0;
    for (const auto* r : runs)
      (!ended_well(*r) ? diverged : r->global > pre_asymptotic_error ? large : at_floor)++;
    const std::string cause = runs.empty() ? "no run"
                              : diverged == runs.size() ? "every run diverged"
                              : large + diverged == runs.size() ? "every error is above 0.5 (pre-asymptotic) or diverged"
                              : at_floor == runs.size() ? "every error is within 10 times its noise floor (round-off: the method is exact here, or nearly)"
                                                        : fmt::format("no run in the asymptotic range ({} diverged, {} above 0.5, {} at the noise floor)",
                                                                      diverged, large, at_floor);
    c.why = "not reached: " + cause;
    return c;
  }
  // Smaller steps than the last usable run must all be at their noise floor (or failed): an error that grows again
  // below it is a curve out of its asymptotic range, not one to extrapolate.
  double floor = noise_floor(s, *last);
  for (std::size_t k = last_k + 1; k < runs.size(); ++k) {
    const RunRow& r = *runs[k];
    if (!ended_well(r)) {
      c.why = fmt::format("not reached: the smallest error was {} at dt {}, and the smaller step {} diverged", e3(last->global), e3(last->dt),
                          e3(r.dt));
      return c;
    }
    if (usable(s, r) || r.global > pre_asymptotic_error) {
      c.why = fmt::format("not reached: the smallest error was {} at dt {}, and at the smaller step {} it is {} (the errors do not fall "
                          "steadily)", e3(last->global), e3(last->dt), e3(r.dt), e3(r.global));
      return c;
    }
    floor = std::max(floor, noise_floor(s, r));
  }
  const RunRow* next = last_k + 1 < runs.size() ? runs[last_k + 1] : nullptr;
  const std::string why = extrapolate(*last, next ? next->dt : 0, last->dt, floor);
  if (why.empty()) return c;
  c.why = "not reached: " + why;
  return c;
}

Ranking rank(const Study& s, double target, bool by_time) {
  Ranking r;
  r.target = target, r.by_time = by_time;
  for (const auto& i : s.work_methods()) {
    CostToAccuracy c = cost_to_reach(s, i, target);
    if (c.estimated() && std::isfinite(by_time ? c.seconds : c.evals)) r.order.push_back(std::move(c));
    else r.none.push_back(std::move(c));
  }
  std::stable_sort(r.order.begin(), r.order.end(), [&](const CostToAccuracy& a, const CostToAccuracy& b) {
    return (by_time ? a.seconds : a.evals) < (by_time ? b.seconds : b.evals);
  });
  if (r.order.size() >= 2) {
    const auto& w = r.order[0];
    const auto& u = r.order[1];
    r.margin = by_time ? u.seconds / w.seconds - 1 : u.evals / w.evals - 1;
    if (by_time && std::isfinite(w.noise) && std::isfinite(u.noise)) r.noise = w.noise + u.noise;
    r.uncertainty = combined_spread(w.spread, u.spread);  // NaN unless both are known
    if (r.tie()) {
      r.tied.push_back(w.integrator), r.tied_within = 0;
      for (std::size_t k = 1; k < r.order.size(); ++k) {
        const auto& x = r.order[k];
        const double margin = by_time ? x.seconds / w.seconds - 1 : x.evals / w.evals - 1;
        const double noise = by_time && std::isfinite(w.noise) && std::isfinite(x.noise) ? w.noise + x.noise : 0;
        const double spread = std::isnan(w.spread) || std::isnan(x.spread) ? 0 : combined_spread(w.spread, x.spread);
        if (x.how != Reach::at_most && margin <= combined_spread(noise, spread))
          r.tied.push_back(x.integrator), r.tied_within = std::max(r.tied_within, margin);
      }
    }
  }
  // The winner is known when its cost (an estimate, or the upper bound of a run that reached the target) lies at or
  // below every rival's least possible cost; an upper bound's least is its larger step's cost, or nothing.
  auto cost = [&](const CostToAccuracy& c) { return by_time ? c.seconds : c.evals; };
  auto least = [&](const CostToAccuracy& c) {
    if (c.how != Reach::at_most) return cost(c);
    return by_time ? (c.lower > 0 && c.evals > 0 ? c.seconds * c.lower / c.evals : 0.0) : c.lower;
  };
  for (std::size_t k = 1; k < r.order.size(); ++k)
    if (least(r.order[k]) < cost(r.order[0])) r.undecided.push_back(r.order[k].integrator);
  // A method that did not reach the target may still be cheaper when its sweep simply ended (an automatic sweep stops
  // once its orders are decided): projected along its fitted order from its most accurate usable run, or, with no
  // order, at least what its runs already cost.  Round-off or divergence rule it out.
  if (!r.order.empty())
    for (const auto& c : r.none) {
      if (c.why.find("round-off") != std::string::npos || c.why.find("diverged") != std::string::npos) continue;
      const RunRow* best = nullptr;
      for (const RunRow* run : work_runs(s))
        if (run->integrator == c.integrator && usable(s, *run) && (!best || run->global < best->global)) best = run;
      if (!best || !(best->global > target)) continue;
      const double p = extrapolation_order(s, c.integrator);
      const double least_cost = std::isfinite(p) ? run_cost(*best, by_time) * std::pow(best->global / target, 1 / p) : run_cost(*best, by_time);
      if (least_cost < cost(r.order[0])) r.undecided.push_back(c.integrator);
    }
  return r;
}

HeadToHead head_to_head(const Study& s, const std::string& integrator, const std::string& against, double target, bool by_time) {
  HeadToHead h;
  h.integrator = integrator, h.against = against, h.target = target, h.by_time = by_time;
  h.mine = cost_to_reach(s, integrator, target), h.theirs = cost_to_reach(s, against, target);
  for (const CostToAccuracy* c : {&h.mine, &h.theirs})
    if (!c->estimated()) {
      h.why = c->integrator + ": " + c->why;
      return h;
    }
  auto cost = [&](const CostToAccuracy& c) { return by_time ? c.seconds : c.evals; };
  // Each cost's interval, timing noise aside: an estimate within a factor 1 + spread, an upper bound down to the cost
  // of the larger step that did not reach the target.
  struct Interval {
    double lo, hi;
  };
  auto interval = [&](const CostToAccuracy& c) -> std::optional<Interval> {
    if (c.how == Reach::at_most)
      return Interval{by_time ? (c.lower > 0 && c.evals > 0 ? c.seconds * c.lower / c.evals : 0.0) : std::max(0.0, c.lower), cost(c)};
    if (std::isnan(c.spread)) return std::nullopt;
    return Interval{cost(c) / (1 + c.spread), cost(c) * (1 + c.spread)};
  };
  h.ratio = cost(h.mine) / cost(h.theirs);
  const auto m = interval(h.mine), t = interval(h.theirs);
  if (!m || !t) {
    h.verdict = Versus::cannot_tell;
    h.why = fmt::format("the uncertainty of {}'s cost is not known (only the two runs that bracket the target, and no order "
                        "interval: a run more on either side would give it)", (!m ? h.mine : h.theirs).integrator);
    return h;
  }
  // By wall time the two's timing noise too, as rank() weighs a margin.
  const double noise = by_time && std::isfinite(h.mine.noise) && std::isfinite(h.theirs.noise) ? h.mine.noise + h.theirs.noise : 0;
  h.lo = m->lo / t->hi / (1 + noise);
  h.hi = t->lo > 0 ? m->hi / t->lo * (1 + noise) : INFINITY;
  const bool bounded = h.mine.how == Reach::at_most || h.theirs.how == Reach::at_most;
  // By wall time a cost's timing noise must be measured: one repeat (its median is its minimum) says nothing of how
  // much the next would differ, and two identical runs then read 0.85× cheaper and 5× dearer.
  if (by_time)
    for (const CostToAccuracy* c : {&h.mine, &h.theirs})
      if (!(c->noise > 0)) {
        h.verdict = Versus::cannot_tell;
        h.why = c->integrator + "'s wall time is one measurement, its noise not known (spec key repeats: 3 or more measure it)";
        return h;
      }
  if (h.hi < 1) h.verdict = Versus::cheaper;
  else if (h.lo > 1) h.verdict = Versus::dearer;
  else if (!bounded && std::isfinite(h.hi)) h.verdict = Versus::tie;
  else {
    h.verdict = Versus::cannot_tell;
    const CostToAccuracy& b = h.mine.how == Reach::at_most ? h.mine : h.theirs;
    h.why = bounded ? fmt::format("{}'s cost is only bounded ({}: {})", b.integrator, cost_cell(b, by_time), b.why)
                    : "an interval of orders that reaches 0 bounds nothing";
  }
  return h;
}

std::string versus_cell(const HeadToHead& h) {
  auto x = [](double v) { return std::isinf(v) ? std::string("∞") : fmt::format("{:.3g}", v); };
  // An upper bound of mine bounds the ratio from above, one of theirs from below.
  const bool mine_bound = h.mine.how == Reach::at_most, their_bound = h.theirs.how == Reach::at_most;
  const std::string ratio = (mine_bound && !their_bound ? "≤" : their_bound && !mine_bound ? "≥" : "") + x(h.ratio) + "×";
  const std::string range = std::isfinite(h.lo) ? " (" + x(h.lo) + "–" + x(h.hi) + ")" : "";
  switch (h.verdict) {
    case Versus::cheaper: return ratio + range + " cheaper";
    case Versus::dearer: return ratio + range + " dearer";
    case Versus::tie: return ratio + range + " tie";
    case Versus::cannot_tell: return ratio + range + " cannot tell";
    case Versus::not_reached: break;
  }
  return h.mine.estimated() ? h.against + " did not reach it" : "not reached";
}

std::string versus_label(const Study& s, const std::string& name) {
  if (name.empty()) return {};
  const auto methods = s.work_methods();
  if (std::find(methods.begin(), methods.end(), name) != methods.end()) return name;
  std::string found;
  int count = 0;
  for (const auto& d : s.declared)
    if (d.id == name) found = d.label, ++count;
  for (const auto& a : s.adaptive)
    if (a.id == name) found = a.label, ++count;
  return count == 1 ? found : std::string();
}

std::vector<double> default_targets(const Study& s) {
  double smallest = INFINITY;
  for (const RunRow* r : work_runs(s))
    if (ended_well(*r) && r->global > 0) smallest = std::min(smallest, r->global);
  std::vector<double> out{1e-3};
  for (int k = 4; k <= 300; ++k) {
    const double x = std::pow(10.0, -k);
    if (x < smallest) break;
    out.push_back(x);
  }
  return out;
}

std::vector<double> default_targets(const Results& r) {
  std::vector<double> out{1e-3};
  for (const auto& s : r.studies)
    for (double x : default_targets(s))
      if (x < out.back()) out.push_back(x);
  return out;
}

std::vector<FrontPoint> pareto_front(const Study& s, bool by_time) {
  std::vector<FrontPoint> all;
  for (const RunRow* p : work_runs(s))
    if (const RunRow& r = *p; ended_well(r) && r.global <= pre_asymptotic_error && r.global > floor_factor * noise_floor(s, r) &&
                              std::isfinite(run_cost(r, by_time)) && run_cost(r, by_time) > 0)
      all.push_back({r.integrator, r.dt, r.global, run_cost(r, by_time)});
  // Cheapest first (at equal cost the smaller error first): a run is on the front when its error is below every
  // cheaper run's.
  std::stable_sort(all.begin(), all.end(), [](const FrontPoint& a, const FrontPoint& b) {
    return a.cost < b.cost || (a.cost == b.cost && a.error < b.error);
  });
  std::vector<FrontPoint> front;
  for (const auto& x : all)
    if (front.empty() || x.error < front.back().error) front.push_back(x);
  return front;
}

std::string describe_front(const std::vector<FrontPoint>& front) {
  std::string out;
  for (std::size_t k = 0; k < front.size();) {
    std::size_t end = k;
    while (end + 1 < front.size() && front[end + 1].integrator == front[k].integrator) ++end;
    out += (out.empty() ? "" : ", then ") + front[k].integrator +
           (end == k ? fmt::format(" at error {:.2e}", front[k].error) : fmt::format(" from error {:.2e} to {:.2e}", front[k].error, front[end].error));
    k = end + 1;
  }
  return out.empty() ? "no run above its noise floor" : out;
}

double error_constant(const Study& s, const std::string& integrator) {
  const OrderRow* o = find_order(s, integrator, "global");
  if (!o || o->expected <= 0 || !(o->dt_min > 0)) return NAN;
  std::vector<double> c;
  for (const auto& p : o->sweep)
    if (p[0] >= o->dt_min * (1 - 1e-9) && p[0] <= o->dt_max * (1 + 1e-9) && p[1] > 0 && std::isfinite(p[1]))
      c.push_back(p[1] / std::pow(p[0], o->expected));
  return median(std::move(c));
}

double time_per_step(const Study& s, const std::string& integrator) {
  std::vector<double> ns;
  for (const auto& r : s.runs)
    if (r.integrator == integrator && r.status == "ok" && r.ns_min > 0 && std::isfinite(r.ns_min)) ns.push_back(r.ns_min);
  return median(std::move(ns));
}

double median(std::vector<double> x) {
  if (x.empty()) return NAN;
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

std::vector<double> every_third(const std::vector<double>& decades) {
  std::vector<double> out;
  for (std::size_t k = 0; k < decades.size(); k += 3) out.push_back(decades[k]);
  return out;
}

std::vector<double> sorted_targets(std::vector<double> targets) {
  std::sort(targets.begin(), targets.end(), std::greater<>());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  return targets;
}

std::string cost_cell(const CostToAccuracy& c, bool by_time) {
  const double x = by_time ? c.seconds : c.evals;
  const std::string v = by_time ? fmt::format("{:.3g} s", x) : fmt::format("{:.3g}", x);
  switch (c.how) {
    case Reach::interpolated: return v;
    case Reach::extrapolated: return "≈" + v;
    case Reach::at_most: return "≤" + v;
    case Reach::not_reached: break;
  }
  return "not reached";
}

std::string tie_list(const Ranking& r, const std::function<std::string(const std::string&)>& name) {
  std::string out;
  for (std::size_t k = 0; k < r.tied.size(); ++k)
    for (const auto& c : r.order)
      if (c.integrator == r.tied[k])
        out += (k == 0 ? "" : k + 1 == r.tied.size() ? " or " : ", ") + name(c.integrator) + " " + cost_cell(c, r.by_time) + spread_text(c);
  return out;
}

std::string percent(double x) { return x < 0.095 ? fmt::format("{:.1f} %", 100 * x) : fmt::format("{:.0f} %", 100 * x); }

std::string spread_text(const CostToAccuracy& c) {
  if (!std::isfinite(c.spread) && !std::isinf(c.spread)) return "";
  if (c.spread < 5e-4) return "";
  if (c.spread > 10) return " ±>1000 %";
  return " ±" + percent(c.spread);
}

std::string target_text(double target) {
  // "1e-08", "2.5e-07": scientific always, without trailing zeros in the mantissa.
  std::string s = fmt::format("{:.6e}", target);
  const auto e = s.find('e');
  std::string mantissa = s.substr(0, e);
  while (mantissa.back() == '0') mantissa.pop_back();
  if (mantissa.back() == '.') mantissa.pop_back();
  return mantissa + s.substr(e);
}

double long_run_largest(const LongRow& e) { return std::isfinite(e.max_rel) ? e.max_rel : std::abs(e.final_rel); }

LongBehaviour long_run_behaviour(const LongRow& e) {
  if (e.status != "ok") return LongBehaviour::stopped;
  if (long_run_largest(e) > 0.1) return LongBehaviour::too_large;
  if (std::isfinite(e.max_rel) && e.max_rel <= 100 * std::numeric_limits<double>::epsilon() * std::sqrt(static_cast<double>(e.steps)))
    return LongBehaviour::roundoff;
  if (!std::isfinite(e.growth_lo) || !std::isfinite(e.growth_hi)) return LongBehaviour::no_exponent;
  if (e.growth_hi < drift_exponent) return LongBehaviour::bounded;
  if (e.growth_lo > drift_exponent) return LongBehaviour::drifting;
  return LongBehaviour::straddles;
}

std::string behaviour_word(LongBehaviour b) {
  switch (b) {
    case LongBehaviour::stopped: return "stopped";
    case LongBehaviour::too_large: return "too large";
    case LongBehaviour::roundoff: return "round-off";
    case LongBehaviour::bounded: return "bounded";
    case LongBehaviour::drifting: return "drift";
    case LongBehaviour::no_exponent:
    case LongBehaviour::straddles: return "cannot tell";
  }
  return "cannot tell";
}

}  // namespace report
