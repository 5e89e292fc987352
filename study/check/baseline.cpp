#include "study/check/baseline.hpp"

#include <fmt/format.h>

#include <toml++/toml.h>

#include "study/common/input_file.hpp"
#include "study/common/toml_error.hpp"

namespace check {
namespace {

std::string quoted(const std::string& key) {
  std::string q = "\"";
  for (char c : key) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return q + "\"";
}

}  // namespace

const BaselineEntry* Baseline::find(const std::string& study, const std::string& integrator) const {
  for (const auto& e : entries)
    if (e.study == study && e.integrator == integrator) return &e;
  return nullptr;
}

Baseline read_baseline(const std::filesystem::path& file) {
  toml::table root;
  const std::string text = study::read_input_file<BaselineError>(
      file, "baseline file (TOML)", "no such baseline file (write one with `study baseline RESULTS_DIR --out " + file.string() + "`)");
  try {
    root = toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    throw BaselineError(study::toml_error(e, text, file.string()));
  }
  auto fail = [&](const toml::node& n, const std::string& key, const std::string& what) {
    throw BaselineError(fmt::format("{}:{}: {}: {}", file.string(), n.source().begin.line, key, what));
  };
  Baseline b;
  for (auto&& [k, v] : root) {
    const std::string study(k.str());
    if (study == "tolerance") {
      const auto t = v.value<double>();
      if (!t || !(*t > 0 && *t < 1)) fail(v, "tolerance", "must be a relative tolerance in (0, 1), e.g. 0.01");
      b.tolerance = *t;
      continue;
    }
    const toml::table* integrators = v.as_table();
    if (!integrators)
      fail(v, study, "must be a table of integrators, e.g. [\"" + study + "\".rk4] with lines \"0.05\" = 1.234e-06");
    for (auto&& [ik, iv] : *integrators) {
      const std::string integrator(ik.str()), where = quoted(study) + "." + quoted(integrator);
      const toml::table* points = iv.as_table();
      if (!points) fail(iv, where, "must be a table of step sizes: \"<dt>\" = <relative global error>");
      BaselineEntry e{study, integrator, {}};
      for (auto&& [dk, dv] : *points) {
        const std::string key(dk.str());
        double dt = 0;
        try {
          std::size_t used = 0;
          dt = std::stod(key, &used);
          if (used != key.size()) dt = 0;
        } catch (const std::exception&) {
          dt = 0;
        }
        if (!(dt > 0) || !std::isfinite(dt))
          fail(dv, where + "." + quoted(key), "the key must be a step size (a positive number, e.g. \"0.05\")");
        const auto err = dv.value<double>();
        if (!err || !(*err > 0) || !std::isfinite(*err))
          fail(dv, where + "." + quoted(key), "must be a positive relative global error, e.g. 1.234e-06");
        e.points.push_back({dt, *err});
      }
      std::sort(e.points.begin(), e.points.end(), [](const auto& x, const auto& y) { return x.dt > y.dt; });
      b.entries.push_back(std::move(e));
    }
  }
  return b;
}

Baseline baseline_of(const report::Results& results) {
  Baseline b;
  for (const auto& s : results.studies) {
    if (!s.wants("global")) continue;
    for (const auto& label : s.integrators) {
      std::vector<const report::RunRow*> usable;
      for (const auto& r : s.runs)
        if (r.integrator == label && r.status == "ok" && std::isfinite(r.global) && r.global <= 0.1 &&
            r.global >= baseline_floor_factor * noise_floor(s, r))
          usable.push_back(&r);
      // An integrator with no such error (exact, or at round-off throughout) gets an empty entry: it is
      // baselined, with nothing to compare.
      BaselineEntry e{s.name, label, {}};
      std::sort(usable.begin(), usable.end(), [](const auto* x, const auto* y) { return x->dt > y->dt; });
      if (!usable.empty())
        for (std::size_t i : {std::size_t{0}, (usable.size() - 1) / 2, usable.size() - 1})
          if (e.points.empty() || !same_dt(e.points.back().dt, usable[i]->dt))
          // Four significant digits: ample for a 1e-2 tolerance, and round-off below 1e-3 rarely changes them.
          e.points.push_back({usable[i]->dt, std::stod(fmt::format("{:.3e}", usable[i]->global))});
      b.entries.push_back(std::move(e));
    }
    // Adaptive integrators: their error at t_end at up to three tolerances (the keys), as above.
    for (const auto& a : s.adaptive) {
      std::vector<const report::AdaptiveRow*> usable;
      for (const auto& r : s.adaptive_runs)
        if (r.integrator == a.label && r.status == "ok" && std::isfinite(r.global) && r.global <= 0.1 &&
            r.global >= baseline_floor_factor * std::max(s.ref_bound, std::isfinite(r.roundoff) ? r.roundoff : 0.0))
          usable.push_back(&r);
      BaselineEntry e{s.name, a.label, {}};
      std::sort(usable.begin(), usable.end(), [](const auto* x, const auto* y) { return x->tol > y->tol; });
      if (!usable.empty())
        for (std::size_t i : {std::size_t{0}, (usable.size() - 1) / 2, usable.size() - 1})
          if (e.points.empty() || !same_dt(e.points.back().dt, usable[i]->tol))
            e.points.push_back({usable[i]->tol, std::stod(fmt::format("{:.3e}", usable[i]->global))});
      b.entries.push_back(std::move(e));
    }
  }
  return b;
}

Baseline merge(const Baseline& previous, const Baseline& fresh) {
  Baseline out;
  out.tolerance = previous.tolerance;
  auto fresh_has = [&](const std::string& study) {
    return std::any_of(fresh.entries.begin(), fresh.entries.end(), [&](const auto& e) { return e.study == study; });
  };
  for (const auto& e : previous.entries)
    if (!fresh_has(e.study)) out.entries.push_back(e);
  for (const auto& e : fresh.entries) out.entries.push_back(e);
  return out;
}

std::string to_toml(const Baseline& b) {
  std::string out =
      "# Error constants for `study check --baseline`: each integrator's relative global error at t_end at a few\n"
      "# fixed step sizes (\"dt\" = error; an adaptive integrator's: tolerances), each at least 1e3 times its noise floor (round-off,\n"
      "# the reference's bound).\n"
      "# A check fails when an error moves by more than `tolerance` (relative), even if its order is unchanged.\n"
      "# Written by `study baseline RESULTS_DIR --out FILE`; when a change of an error constant is intended,\n"
      "# regenerate it and review the diff.\n";
  out += fmt::format("tolerance = {}\n", b.tolerance);
  for (const auto& e : b.entries) {
    out += "\n[" + quoted(e.study) + "." + quoted(e.integrator) + "]\n";
    if (e.points.empty()) out += "# no error between 1e3 x its noise floor and 0.1: nothing to compare\n";
    for (const auto& p : e.points) out += fmt::format("{} = {:.3e}\n", quoted(dt_key(p.dt)), p.global);
  }
  return out;
}

std::vector<std::string> differences(const Baseline& before, const Baseline& after) {
  std::vector<std::string> lines;
  for (const auto& e : after.entries) {
    const BaselineEntry* old = before.find(e.study, e.integrator);
    if (!old) {
      lines.push_back(fmt::format("new      {} | {} ({} step sizes)", e.study, e.integrator, e.points.size()));
      continue;
    }
    for (const auto& p : e.points) {
      const auto it = std::find_if(old->points.begin(), old->points.end(), [&](const auto& q) { return same_baseline_dt(q.dt, p.dt); });
      if (it == old->points.end())
        lines.push_back(fmt::format("new      {} | {} | dt {} = {:.3e}", e.study, e.integrator, dt_key(p.dt), p.global));
      else if (std::abs(p.global - it->global) > before.tolerance * it->global)
        lines.push_back(fmt::format("changed  {} | {} | dt {}: {:.3e} -> {:.3e} ({:+.1f}%)", e.study, e.integrator, dt_key(p.dt),
                                    it->global, p.global, 100 * (p.global / it->global - 1)));
    }
    for (const auto& q : old->points)
      if (std::none_of(e.points.begin(), e.points.end(), [&](const auto& p) { return same_baseline_dt(q.dt, p.dt); }))
        lines.push_back(fmt::format("removed  {} | {} | dt {}", e.study, e.integrator, dt_key(q.dt)));
  }
  for (const auto& e : before.entries)
    if (!after.find(e.study, e.integrator)) lines.push_back(fmt::format("removed  {} | {}", e.study, e.integrator));
  return lines;
}

}  // namespace check
