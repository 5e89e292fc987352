// A scan's page: its studies drawn against the scanned parameters (reports/scan.hpp).
#include "reports/scan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>

#include "study/reader/accuracy.hpp"
#include "reports/series.hpp"
#include "study/common/names.hpp"

namespace report {
namespace {

namespace fs = std::filesystem;


/// One quantity drawn against a scanned parameter, for one method at one point (NaN where it was not measured).
struct ScanValue {
  double y = NAN, lo = NAN, hi = NAN;  ///< lo, hi: its interval where it has one (NaN: none)
  int mark = 0;  ///< 1: an undetermined order, or a cost extrapolated along the fitted order; 2: a failed order
};
struct ScanQuantity {
  std::string key, what, y_label;
  bool log_y = false;
  std::function<ScanValue(const Study&, const std::string&)> of;
};

const OrderRow* global_order(const Study& s, const std::string& m) {
  for (const auto& o : s.orders)
    if (o.integrator == m && o.metric == "global") return &o;
  return nullptr;
}

/// The quantities of a scan, each where some point measured it.
std::vector<ScanQuantity> scan_quantities(double target) {
  std::vector<ScanQuantity> q;
  q.push_back({"order", "observed global order (99 % interval)", "observed global order (dimensionless)", false, [](const Study& s, const std::string& m) {
                 const OrderRow* o = global_order(s, m);
                 // Only a fitted order (a verdict, or any fit in results before verdicts): a method run at one step size has none.
                 if (!o || o->points < 2 || !std::isfinite(o->observed)) return ScanValue{};
                 return ScanValue{o->observed, o->lo, o->hi, o->verdict == "fail" ? 2 : o->verdict == "undetermined" ? 1 : 0};
               }});
  // The error over dt^p at the plot step: the points may step differently (dt = "auto" follows each one's time scale),
  // and in the asymptotic range the constant does not depend on the step.
  q.push_back({"constant", "error constant: global error / dt^p at the plot step (p the expected order)",
               "relative global error / dt^p (per time unit^p)", true, [](const Study& s, const std::string& m) {
                 const OrderRow* o = global_order(s, m);
                 if (!o || o->expected <= 0) return ScanValue{};
                 for (const auto& r : s.runs)
                   if (r.integrator == m && r.status == "ok" && std::abs(r.dt - s.plot_dt) <= 1e-9 * s.plot_dt && r.global > 0)
                     return ScanValue{r.global / std::pow(r.dt, o->expected), NAN, NAN};
                 return ScanValue{};
               }});
  q.push_back({"cost", "force evaluations to a relative global error of " + target_text(target),
               "force evaluations to " + target_text(target) + " (count)", true, [target](const Study& s, const std::string& m) {
                 if (!s.wants("global")) return ScanValue{};
                 const CostToAccuracy c = cost_to_reach(s, m, target);
                 if (c.how == Reach::interpolated) return ScanValue{c.evals, NAN, NAN};
                 return c.how == Reach::extrapolated ? ScanValue{c.evals, NAN, NAN, 1} : ScanValue{};
               }});
  q.push_back({"energy-growth", "growth exponent of the long run's energy error (99 % interval)",
               "energy error growth exponent k, as t^k (dimensionless)", false, [](const Study& s, const std::string& m) {
                 // Not where the run stopped or its error passed 0.1 (report::long_run_behaviour): a lost orbit, whose error
                 // no longer grows.
                 for (const auto& e : s.energy_long)
                   if (e.integrator == m && std::isfinite(e.growth) && long_run_behaviour(e) != LongBehaviour::stopped &&
                       long_run_behaviour(e) != LongBehaviour::too_large)
                     return ScanValue{e.growth, e.growth_lo, e.growth_hi};
                 return ScanValue{};
               }});
  q.push_back({"stability", "largest stable omega h", "largest stable omega h (dimensionless)", false, [](const Study& s, const std::string& m) {
                 for (const auto& x : s.stability)
                   if (x.integrator == m && std::isfinite(x.limit)) return ScanValue{x.limit, NAN, NAN};
                 return ScanValue{};
               }});
  return q;
}

/// "e = 0.3, t_end = 20": a point's values on the given axes.
std::string values_text(const ScanGroup& sg, const Study& s, const std::vector<std::size_t>& axes) {
  std::string out;
  for (std::size_t k : axes) out += (out.empty() ? "" : ", ") + sg.axes[k] + " = " + study::shortest_decimal(s.scan.values[k]);
  return out;
}

/// A scanned parameter as an axis: t_end in the problem's time unit; a parameter as the problem declares it.
std::string axis_label(const ScanGroup& sg, std::size_t axis) {
  if (sg.axes[axis] == "t_end") return time_axis(*sg.points.front(), "t_end");
  return sg.axes[axis] + " (a parameter of " + sg.problem + ")";
}


/// The points of the scan at each combination of the values of every axis but `axis` (at most `keep` of them, evenly
/// spread): the lines of one plot against `axis` each.
std::vector<std::vector<const Study*>> scan_slices(const ScanGroup& sg, std::size_t axis, std::size_t keep) {
  std::map<std::vector<double>, std::vector<const Study*>> by_rest;
  std::vector<std::vector<double>> order;
  for (const Study* s : sg.points) {
    std::vector<double> rest;
    for (std::size_t k = 0; k < sg.axes.size(); ++k)
      if (k != axis) rest.push_back(s->scan.values[k]);
    if (!by_rest.count(rest)) order.push_back(rest);
    by_rest[rest].push_back(s);
  }
  std::vector<std::vector<const Study*>> out;
  const std::size_t n = order.size();
  for (std::size_t i = 0; i < std::min(n, keep); ++i) out.push_back(by_rest[order[keep >= n ? i : i * (n - 1) / (keep - 1)]]);
  for (auto& v : out)
    std::sort(v.begin(), v.end(), [&](const Study* a, const Study* b) { return a->scan.values[axis] < b->scan.values[axis]; });
  return out;
}

/// The plot of quantity q against axis `axis` over the points of `slice`; nothing when no point measured it.
std::optional<Plot> quantity_plot(const ScanGroup& sg, const ScanQuantity& q, std::size_t axis, const std::vector<const Study*>& slice,
                                  const std::string& at, const std::string& at_text, const fs::path& dir) {
  if (slice.empty()) return std::nullopt;
  const Study& first = *slice.front();
  std::string name = sg.name + "-scan-" + q.key + "-" + sg.axes[axis];
  if (!at.empty()) name += "-at-" + at;
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Blocks data;
  Extent all;
  std::vector<PanelText> panels;
  // Costs and the long run's energy growth are every method's, the pairs' too (their long run at energy_tol); the other
  // quantities (orders, constants, stability) fixed steps'.
  for (const auto& panel : panels_of(q.key == "cost" || q.key == "energy-growth" ? work_series_of(first, false) : series_of(first, false))) {
    PanelText p{panel.title, "", {}};
    for (const auto& line : panel.series) {
      const std::string& m = line.members.front();
      std::string rows;
      int n = 0;
      bool interval = false, marks = false;
      for (const Study* s : slice) {
        const ScanValue v = q.of(*s, m);
        if (!std::isfinite(v.y) || (q.log_y && !(v.y > 0))) continue;
        const bool has = std::isfinite(v.lo) && std::isfinite(v.hi);
        interval = interval || has;
        rows += num17(s->scan.values[axis]) + ' ' + num17(v.y) + ' ' + num17(has ? v.lo : v.y) + ' ' + num17(has ? v.hi : v.y) + ' ' +
                std::to_string(v.mark) + '\n';
        marks = marks || v.mark;
        all.add(s->scan.values[axis], v.y), ++n;
        if (has) all.add(s->scan.values[axis], v.lo), all.add(s->scan.values[axis], v.hi);
      }
      // The cost plot marks where a method has no cost to draw (the target not reached, or only bounded): an open
      // triangle at the panel's foot, at that point (and a key entry for a method that has one nowhere).
      if (q.key == "cost") {
        bool anywhere = false;
        for (const Study* s : slice)
          if (s->wants("global") && !std::isfinite(q.of(*s, m).y)) {
            // Stacked by the method's place in its panel: two methods missing at one point are both seen.
            p.labels += fmt::format("  set label '' at first {}, graph {:.3f} point pt 10 ps 1.4 lc rgb '{}' front\n",
                                    num17(s->scan.values[axis]), 0.03 + 0.04 * static_cast<double>(&line - panel.series.data()),
                                    colour(line.colour));
            anywhere = true;
          }
        if (anywhere && n == 0)
          p.elements.push_back(fmt::format("1/0 with points pt 10 ps 1.4 lc rgb '{}' title {}", colour(line.colour),
                                           quoted(line.label() + ": no cost at any point")));
      }
      if (n == 0) continue;
      const int index = data.add(line.label(), rows);
      p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2{} with {} lw 1.5 {} ps 0.8 title {}", name, index,
                                       interval ? ":3:4" : "", interval ? "yerrorlines" : "linespoints", style(line.colour),
                                       quoted(line.label())));
      // Open circles: an undetermined order, an extrapolated cost; crosses: a failed order.
      if (marks)
        for (const auto& [mark, pt] : {std::pair{1, 6}, std::pair{2, 2}})
          p.elements.push_back(fmt::format("'{}.dat' index {} using 1:($5 == {} ? $2 : 1/0) with points pt {} ps 1.8 lw 1.5 lc rgb '{}' notitle",
                                           name, index, mark, pt, colour(line.colour)));
    }
    if (!p.elements.empty() || q.key != "energy-growth") panels.push_back(std::move(p));  // no pair's long run: no panel
  }
  if (all.empty()) {
    if (q.key != "cost" || !first.wants("global")) return std::nullopt;
    panels.clear();  // the page names this plot: drawn, saying no method has a value (write_plot's empty panel)
  } else if (q.key == "cost") {
    for (const Study* s : slice)  // every point on the axis: a point no method reached carries its marks
      all.x_lo = std::min(all.x_lo, s->scan.values[axis]), all.x_hi = std::max(all.x_hi, s->scan.values[axis]);
  }
  const bool log_x = [&] {  // a logarithmic axis where the values span more than a decade and are all positive
    double lo = INFINITY, hi = 0;
    for (const Study* s : sg.points) lo = std::min(lo, s->scan.values[axis]), hi = std::max(hi, s->scan.values[axis]);
    return lo > 0 && hi / lo > 10;
  }();
  std::string axes = std::string(q.log_y ? "  set logscale y\n  set format y '10^{%L}'\n" : "") + (log_x ? "  set logscale x\n" : "") +
                     "  set key outside right top\n" + all.ranges(log_x, q.log_y, q.log_y ? 3 : 1) + axis_title("x", axis_label(sg, axis)) +
                     axis_title("y", q.y_label);
  const std::string title = q.what + " against " + sg.axes[axis] + " — " + sg.problem + (at_text.empty() ? "" : " (" + at_text + ")");
  write_plot(dir, name, title, axes, panels, data.data.str());
  return Plot{name, sg.title + ": " + q.what + " against " + sg.axes[axis] + (at.empty() ? "" : " at " + at)};
}

/// For two axes: which method is cheapest to `target` at each point, as tiles on the grid of their values.
std::optional<Plot> cheapest_map(const ScanGroup& sg, double target, const fs::path& dir) {
  if (sg.axes.size() != 2 || sg.points.empty() || !sg.points.front()->wants("global")) return std::nullopt;
  const std::vector<double> xs = sg.values(0), ys = sg.values(1);
  auto index = [](const std::vector<double>& v, double x) { return static_cast<double>(std::find(v.begin(), v.end(), x) - v.begin()); };
  const auto lines = series_of(*sg.points.front(), false);
  std::map<std::string, std::size_t> colour_of;
  for (const auto& l : lines) colour_of[l.members.front()] = l.colour;
  std::string name = sg.name + "-scan-cheapest";
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Blocks data;
  std::map<std::string, std::string> rows;  // by winner ("" none)
  for (const Study* s : sg.points) {
    const Ranking r = rank(*s, target, false);
    const std::string winner = r.order.empty() ? "" : r.order.front().integrator + (r.undecided.empty() ? "" : " (?)");
    rows[winner] += num17(index(xs, s->scan.values[0])) + ' ' + num17(index(ys, s->scan.values[1])) + '\n';
  }
  PanelText p{"cheapest method to " + target_text(target) + " by force evaluations", "", {}};
  for (const auto& [winner, text] : rows) {
    const std::string base = winner.substr(0, winner.find(" (?)"));
    const std::string rgb = winner.empty() ? "#dddddd" : colour(colour_of.count(base) ? colour_of[base] : 0);
    p.elements.push_back(fmt::format("'{}.dat' index {} using 1:2:(0.5):(0.5) with boxxyerror fs solid 0.85 lc rgb '{}' title {}", name,
                                     data.add(winner.empty() ? "none reached it" : winner, text), rgb,
                                     quoted(winner.empty() ? "none reached it" : winner)));
  }
  auto tics = [](const std::vector<double>& v) {
    std::string t;
    for (std::size_t i = 0; i < v.size(); ++i) t += (i ? ", " : "") + quoted(study::shortest_decimal(v[i])) + " " + std::to_string(i);
    return t;
  };
  const std::string axes = fmt::format("  set key outside right top\n  unset grid\n  set xrange [-0.5:{}]\n  set yrange [-0.5:{}]\n"
                                       "  set xtics ({})\n  set ytics ({})\n",
                                       num17(static_cast<double>(xs.size()) - 0.5), num17(static_cast<double>(ys.size()) - 0.5), tics(xs),
                                       tics(ys)) +
                           axis_title("x", axis_label(sg, 0)) + axis_title("y", axis_label(sg, 1));
  write_plot(dir, name, "cheapest method to " + target_text(target) + " — " + sg.problem, axes, {p}, data.data.str());
  return Plot{name, sg.title + ": the cheapest method to " + target_text(target) + " at each point"};
}

}  // namespace

std::vector<double> ScanGroup::values(std::size_t k) const {
  std::vector<double> v;
  for (const Study* s : points)
    if (k < s->scan.values.size() && std::find(v.begin(), v.end(), s->scan.values[k]) == v.end()) v.push_back(s->scan.values[k]);
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<ScanGroup> scans_of(const Results& r) {
  std::vector<ScanGroup> out;
  for (const auto& s : r.studies) {
    if (s.scan.name.empty()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const ScanGroup& sg) { return sg.name == s.scan.name; });
    if (it == out.end()) {
      out.push_back({s.scan.name, s.title, s.problem, s.scan.axes, s.scan.count, {}});
      it = out.end() - 1;
    }
    // Only points on the first point's axes: a results file that mixes two scans of one name keeps the first.
    if (s.scan.axes == it->axes) it->points.push_back(&s);
  }
  for (auto& sg : out)
    std::sort(sg.points.begin(), sg.points.end(), [](const Study* a, const Study* b) { return a->scan.index < b->scan.index; });
  return out;
}

std::string point_text(const ScanInfo& p) {
  std::string out;
  for (std::size_t k = 0; k < p.axes.size() && k < p.values.size(); ++k)
    out += (k ? ", " : "") + p.axes[k] + " = " + study::shortest_decimal(p.values[k]);
  return out;
}

std::string scan_page_file(const std::string& scan) { return "SCAN-" + scan + ".md"; }

double scan_target(const PageContext& c) { return c.targets.empty() ? 1e-6 : *std::min_element(c.targets.begin(), c.targets.end()); }

std::vector<Plot> scan_plots(const ScanGroup& sg, double target, const fs::path& dir) {
  std::vector<Plot> out;
  for (const auto& q : scan_quantities(target))
    for (std::size_t axis = 0; axis < sg.axes.size(); ++axis)
      for (const auto& slice : scan_slices(sg, axis, 4)) {
        std::vector<std::size_t> others;
        for (std::size_t k = 0; k < sg.axes.size(); ++k)
          if (k != axis) others.push_back(k);
        const std::string at = others.empty() ? "" : values_text(sg, *slice.front(), others);
        std::string tag;  // the other axes' values in the plot's file name, as a point's name writes them
        for (std::size_t k : others) tag += (tag.empty() ? "" : "_") + sg.axes[k] + "-" + study::value_name(slice.front()->scan.values[k]);
        if (auto p = quantity_plot(sg, q, axis, slice, tag, at, dir)) {
          if (!at.empty()) p->title = sg.title + ": " + q.what + " against " + sg.axes[axis] + " at " + at;
          out.push_back(*p);
        }
      }
  if (auto p = cheapest_map(sg, target, dir)) out.push_back(*p);
  return out;
}

std::string scan_page(const Results& r, const ScanGroup& sg, const PageContext& c) {
  std::ostringstream md;
  const double target = scan_target(c);
  md << "# Scan: " << cell(sg.title) << "\n\n[← summary](REPORT.md)\n\n";
  md << "`" << sg.problem << "`, " << sg.points.size() << " of " << sg.count << " points over ";
  for (std::size_t k = 0; k < sg.axes.size(); ++k) {
    const auto v = sg.values(k);
    md << (k ? " × " : "") << "`" << sg.axes[k] << "` (" << v.size() << " value" << (v.size() == 1 ? "" : "s") << " from " << g(v.front())
       << " to " << g(v.back()) << ")";
  }
  md << ". Each point is a study of its own, with its page; `study check` judges every point. The plots draw each method "
        "against the scanned parameter"
     << (sg.axes.size() > 1 ? "s, the other axes held at up to four of their values" : "") << ".\n\n";

  md << "## Verdicts and the cheapest method to " << target_text(target) << "\n\n| point | checks passed | failed | undetermined | "
     << "diverged runs | plot step | cheapest to " << target_text(target) << " (force evaluations) |\n|---|---:|---:|---:|---:|---:|---|\n";
  for (const Study* s : sg.points) {
    const VerdictCounts v = verdict_counts(r, *s);
    md << "| [" << cell(point_text(s->scan)) << "](" << s->name << "/REPORT.md) | " << v.pass << " | "
       << (v.fail ? fmt::format("**{}**", v.fail) : "0") << " | " << v.undetermined << " | " << v.diverged << " | "
       << (s->plot_dt > 0 ? g(s->plot_dt) : "—") << " | "  // none: no fixed-step method
       << (s->wants("global") ? winner_cell(*s, target, false) : "—") << " |\n";
  }
  md << "\n`study report --accuracy X` asks for another accuracy.\n\n";
  // The head-to-head across the scan: a line per point, each other method's cost to the target over the chosen one's.
  if (!sg.points.empty() && sg.points.front()->wants("global")) {
    const Study& first = *sg.points.front();
    const std::string vs = versus_label(first, c.vs.empty() ? first.vs : c.vs);
    if (!vs.empty()) {
      md << "**Head to head against " << cell(vs) << "** at " << target_text(target) << ": each method's force evaluations over "
         << cell(vs) << "'s, with the ratio's interval and its verdict ([the rule](" << first.name << "/REPORT.md#versus)).\n\n| point | "
         << cell(vs) << "'s own |";
      for (const auto& m : first.work_methods())
        if (m != vs) md << " " << cell(m) << " |";
      md << "\n|---|---:|";
      for (std::size_t k = 1; k < first.work_methods().size(); ++k) md << "---:|";
      md << "\n";
      for (const Study* s : sg.points) {
        const CostToAccuracy own = cost_to_reach(*s, vs, target);
        md << "| " << cell(point_text(s->scan)) << " | " << cost_cell(own, false) << spread_text(own) << " |";
        for (const auto& m : first.work_methods()) {
          if (m == vs) continue;
          md << " " << (own.estimated() ? versus_markdown(head_to_head(*s, m, vs, target, false)) : "—") << " |";
        }
        md << "\n";
      }
      md << "\n";
    }
  }
  // Where a method's cost to the target is not drawn: not reached, or only bounded.
  if (!sg.points.empty() && sg.points.front()->wants("global")) {
    std::vector<std::string> missing;
    for (const auto& m : sg.points.front()->work_methods()) {
      std::vector<std::string> at;
      for (const Study* s : sg.points) {
        const CostToAccuracy cost = cost_to_reach(*s, m, target);
        if (cost.how != Reach::interpolated && cost.how != Reach::extrapolated) at.push_back(point_text(s->scan));
      }
      if (at.size() == sg.points.size()) missing.push_back(m + " (at every point)");
      else if (!at.empty()) missing.push_back(m + " (" + fmt::format("{}", fmt::join(at, "; ")) + ")");
    }
    if (!missing.empty())
      md << "Left out of the cost plot, where the method did not reach " << target_text(target)
         << " or only an upper bound is known (its study's page says why): " << cell(join_names(missing)) << ".\n\n";
  }

  const auto it = c.scan_plots.find(sg.name);
  if (it != c.scan_plots.end()) {
    std::size_t shown = 0;
    for (const auto& p : it->second)
      if (c.drawn.count(p.name)) {
        if (!shown++)
          md << "## Against the scanned parameters\n\nA line per method, panels by family. Open circles mark an undetermined "
                "order, or a cost extrapolated along the fitted order; crosses a failed order; on the cost plot, an open "
                "triangle at the foot marks a point where the method has no cost (see the list above). The error constant is the "
                "global error over dt^p at each point's plot step (the points may step differently), p the expected order.\n\n";
        md << "**" << cell(p.title) << "**\n\n![" << cell(p.title) << "](plots/" << p.name << ".svg)\n\n";
      }
    if (!shown) md << "Plots: not drawn (" << cell(c.missing.empty() ? "none" : c.missing) << "); their data and gnuplot scripts are in `plots/`.\n\n";
  }
  return md.str();
}

}  // namespace report
