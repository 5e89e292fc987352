#include "reports/series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace report {
namespace {

const IntegratorRow* declared_of(const Study& s, const std::string& label) {
  for (const auto& d : s.declared)
    if (d.label == label) return &d;
  return nullptr;
}

/// What the renderer knows of a method when the results do not declare it (results before `study check`).
std::string family_of(const Study& s, const std::string& label) {
  const IntegratorRow* d = declared_of(s, label);
  return d && !d->family.empty() ? d->family : "explicit-rk";
}

/// Whether the method's sweep stopped short of its smallest step for a reason of its own: at the noise floor (a range
/// with dt.past_floor) or as dt = "auto" chose.
bool stopped_early(const Study& s, const std::string& label) {
  const SweepRow* w = find_sweep(s, label);
  return w && (w->automatic || w->stop_cause == "noise-floor");
}

/// Two methods' curves coincide: at every step both ran, the same outcome, and (when both ended well) global errors
/// within the round-off of the two runs; at least two steps where both ended well; and the same steps down to the
/// larger of their smallest steps, below which only the other ran when the one that stopped there stopped on its own
/// (ranges that dt.past_floor, or dt = "auto", stopped apart at the noise floor); and the same verdicts and expected
/// orders.  The line drawn has every member's steps (series_points).
bool coincide(const Study& s, const std::string& a, const std::string& b, bool same_cost) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double smallest_a = INFINITY, smallest_b = INFINITY;
  for (const auto& r : s.runs) {
    if (r.integrator == a) smallest_a = std::min(smallest_a, r.dt);
    if (r.integrator == b) smallest_b = std::min(smallest_b, r.dt);
  }
  const double shared = std::max(smallest_a, smallest_b);
  if (smallest_a != smallest_b && !stopped_early(s, smallest_a > smallest_b ? a : b)) return false;
  std::size_t common = 0;
  for (const auto& r : s.runs) {
    if ((r.integrator != a && r.integrator != b) || r.dt < shared) continue;
    const RunRow* o = run_at(s, r.integrator == a ? b : a, r.dt);
    if (!o) return false;  // a step only one of them ran
    if (r.integrator == b) continue;  // each pair once
    if ((r.status == "ok") != (o->status == "ok")) return false;
    if (same_cost && r.force_evals != o->force_evals) return false;
    if (r.status != "ok") continue;  // two runs that failed alike say nothing of two curves being one
    auto roundoff = [&](const RunRow& x) {
      return std::isfinite(x.roundoff) ? x.roundoff : 100 * eps * static_cast<double>(std::max(1L, x.steps));
    };
    if (!(std::isfinite(r.global) && std::isfinite(o->global))) return false;
    if (std::abs(r.global - o->global) > 10 * (roundoff(r) + roundoff(*o))) return false;
    ++common;  // runs that ended well and agree
  }
  if (common < 2) return false;
  // One curve, one label: methods whose verdicts or expected orders differ are drawn apart (a FAIL under another's name,
  // or a pass under the failing one's, would be a wrong answer on the plot).
  for (const auto& o : s.orders)
    if (o.integrator == a || o.integrator == b) {
      const OrderRow* other = find_order(s, o.integrator == a ? b : a, o.metric);
      if (!other || other->verdict != o.verdict || other->expected != o.expected) return false;
    }
  return true;
}


const std::vector<std::string> family_order{"explicit-rk", "splitting", "implicit", "own"};

}  // namespace

std::string Series::label() const {
  std::string out;
  for (const auto& m : members) out += (out.empty() ? "" : " = ") + m;
  return out;
}

std::string family_name(const std::string& family) {
  if (family == "explicit-rk") return "explicit Runge–Kutta";
  if (family == "splitting") return "splitting and composition";
  if (family == "implicit") return "implicit";
  if (family == "own") return "this program's own";
  if (family == "adaptive") return "adaptive: embedded pairs under step-size control";
  return family;
}

std::vector<Series> series_of(const Study& s, bool merge, bool same_cost) {
  std::vector<Series> out;
  for (std::size_t i = 0; i < s.integrators.size(); ++i) {
    const std::string& label = s.integrators[i];
    if (merge) {
      const auto joined = std::find_if(out.begin(), out.end(), [&](const Series& x) { return coincide(s, x.members.front(), label, same_cost); });
      if (joined != out.end()) {
        joined->members.push_back(label);
        continue;
      }
    }
    const IntegratorRow* d = declared_of(s, label);
    out.push_back({{label}, family_of(s, label), d ? d->expected_global : 0, i});
  }
  return out;
}

std::vector<Series> work_series_of(const Study& s, bool merge, bool same_cost) {
  auto lines = series_of(s, merge, same_cost);
  for (std::size_t k = 0; k < s.adaptive.size(); ++k)
    lines.push_back({{s.adaptive[k].label}, "adaptive", s.adaptive[k].order, s.integrators.size() + k});
  return lines;
}

std::vector<Panel> panels_of(const std::vector<Series>& series, std::size_t max) {
  std::vector<Panel> panels;
  std::vector<std::string> families = family_order;
  for (const auto& x : series)  // a family this renderer does not know goes last, under its own name
    if (std::find(families.begin(), families.end(), x.family) == families.end()) families.push_back(x.family);
  for (const auto& family : families) {
    std::vector<Series> members;
    for (const auto& x : series)
      if (x.family == family) members.push_back(x);
    if (members.empty()) continue;
    if (members.size() <= max) {
      panels.push_back({family_name(family), members});
      continue;
    }
    std::stable_sort(members.begin(), members.end(), [](const Series& a, const Series& b) { return a.order < b.order; });
    const std::size_t parts = (members.size() + max - 1) / max, size = (members.size() + parts - 1) / parts;
    for (std::size_t k = 0; k < members.size(); k += size) {
      Panel p;
      p.series.assign(members.begin() + static_cast<long>(k), members.begin() + static_cast<long>(std::min(members.size(), k + size)));
      const int lo = p.series.front().order, hi = p.series.back().order;
      p.title = family_name(family) + (lo == hi ? fmt::format(", order {}", lo) : fmt::format(", orders {}–{}", lo, hi));
      panels.push_back(std::move(p));
    }
  }
  return panels;
}

}  // namespace report
