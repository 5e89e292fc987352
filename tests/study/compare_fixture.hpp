#pragma once
// The made-up results `study compare`'s tests start from (tests/study/test_compare.cpp, tests/reports/
// test_compare_page.cpp).

#include <cmath>

#include "study/reader/model.hpp"
#include "study/common/schema.hpp"

namespace testing {

/// A study "s" on kepler with method "m" of order 4: errors 1e-4 / 16^k at dt 0.1 / 2^k (far above the floor of
/// 1e-16), 400 force evaluations at dt 0.1, 100 ns a step with a 5 % spread.
inline report::Results results() {
  report::Results r;
  r.schema_version = study::results_schema_version;
  report::Study s;
  s.name = "s", s.problem = "kepler", s.title = "made up", s.ref_bound = 1e-20;
  s.metrics = {"global", "energy", "walltime"};
  s.integrators = {"m"};
  report::IntegratorRow d;
  d.label = d.id = "m", d.expected_global = 4, d.family = "explicit-rk";
  s.declared = {d};
  for (int k = 0; k < 3; ++k) {
    report::RunRow x;
    x.integrator = "m", x.status = "ok", x.dt = 0.1 / std::pow(2, k), x.global = 1e-4 / std::pow(16, k);
    x.steps = 100L << k, x.force_evals = 400.0 * std::pow(2, k), x.roundoff = 1e-16;
    x.ns_min = 100, x.ns_median = 105, x.behaviour = "bounded", x.energy_max = 1e-6 / std::pow(16, k);
    s.runs.push_back(x);
  }
  report::OrderRow o;
  o.integrator = "m", o.metric = "global", o.expected = 4, o.observed = 4.0, o.lo = 3.95, o.hi = 4.05, o.verdict = "pass", o.points = 3;
  o.asymptotic = true;
  s.orders = {o};
  r.studies = {s};
  return r;
}

}  // namespace testing
