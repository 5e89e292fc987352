// `study compare` (study/check/compare.hpp): every rule on made-up results either side of its threshold, so that a
// rule that slips (a tolerance ignored, a comparison inverted) fails a case here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "study/check/compare.hpp"
#include "tests/study/compare_fixture.hpp"

namespace {

using check::Outcome;
using testing::results;

/// The outcome of `metric` for method m, or nullptr.
const Outcome* outcome(const check::Comparison& c, const std::string& metric) {
  for (const auto& x : c.verdict.outcomes)
    if (x.integrator == "m" && x.metric == metric) return &x;
  return nullptr;
}
Outcome::Status status(const check::Comparison& c, const std::string& metric) {
  const Outcome* x = outcome(c, metric);
  REQUIRE(x);
  return x->status;
}

}  // namespace

TEST_CASE("compare: identical results are not worse in any respect", "[compare]") {
  const auto old = results();
  const auto c = check::compare(old, old);
  CHECK(c.verdict.passed());
  CHECK(c.verdict.count(Outcome::fail) == 0);
  CHECK(status(c, "global order") == Outcome::pass);
  CHECK(status(c, "error constant") == Outcome::pass);
  CHECK(status(c, "divergence") == Outcome::pass);
  CHECK(outcome(c, "time per step") == nullptr);  // timing is not judged without a tolerance
  REQUIRE(c.methods.size() == 1);
  CHECK(c.methods[0].error_ratios.size() == 3);
  CHECK(c.methods[0].time_ratio == 1);
  CHECK(c.methods[0].time_noise == Approx(0.10).epsilon(1e-12));  // 5 % each side
}

TEST_CASE("compare: a time per step slower by exactly the tolerance passes, by more fails", "[compare][known]") {
  const auto old = testing::results();
  auto now = old;
  check::CompareOptions o;
  o.time_tolerance = 0.25;
  auto set = [&](double ns, double median_old, double median_new) {
    auto before = old;
    for (auto& r : before.studies[0].runs) r.ns_median = median_old;
    for (auto& r : now.studies[0].runs) r.ns_min = ns, r.ns_median = median_new;
    return status(check::compare(before, now, o), "time per step");
  };
  // No timing noise (median = min): 125 / 100 is slower by exactly 25 %: not more than the tolerance.
  CHECK(set(125, 100, 125) == Outcome::pass);
  CHECK(set(126, 100, 126) == Outcome::fail);
  // With noise: 10 % each side (20 % in all) is below the 26 % slowdown: fails; 30 % (15 % + 15 %) above it: passes.
  CHECK(set(126, 110, 138.6) == Outcome::fail);
  CHECK(set(126, 115, 144.9) == Outcome::pass);
}

TEST_CASE("compare: an error constant worse by more than the tolerance fails, within it passes", "[compare]") {
  const auto old = results();
  auto now = old;
  now.studies[0].runs[1].global *= 1.0099;
  CHECK(status(check::compare(old, now), "error constant") == Outcome::pass);
  // The expectation says the tolerance, passed or failed: errors within +1.0 % (the default 0.01).
  CHECK(outcome(check::compare(old, now), "error constant")->expected == "errors within +1.0 %");
  now.studies[0].runs[1].global = old.studies[0].runs[1].global * 1.0101;
  const auto c = check::compare(old, now);
  CHECK(status(c, "error constant") == Outcome::fail);
  CHECK(outcome(c, "error constant")->expected == "errors within +1.0 %");
  CHECK_THAT(outcome(c, "error constant")->off, Catch::Contains("+1.0 % at dt 0.05"));
  check::CompareOptions loose;
  loose.error_tolerance = 0.02;
  CHECK(status(check::compare(old, now, loose), "error constant") == Outcome::pass);
  // Smaller errors are never worse.
  now.studies[0].runs[1].global = old.studies[0].runs[1].global / 3;
  CHECK(status(check::compare(old, now), "error constant") == Outcome::pass);
  // An old error within 1000 x its noise floor is not compared: round-off could move it by more than the tolerance.
  auto floor = old;
  for (auto& r : floor.studies[0].runs) r.roundoff = r.global / 999;
  auto moved = floor;
  for (auto& r : moved.studies[0].runs) r.global *= 1.5;
  CHECK(status(check::compare(floor, moved), "error constant") == Outcome::undetermined);
}

TEST_CASE("compare: an order lower by more than the tolerance with the intervals apart fails", "[compare]") {
  const auto old = results();
  auto now = old;
  auto& o = now.studies[0].orders[0];
  o.observed = 3.81, o.lo = 3.76, o.hi = 3.86;  // 0.19 lower
  CHECK(status(check::compare(old, now), "global order") == Outcome::pass);
  o.observed = 3.79, o.lo = 3.74, o.hi = 3.84;  // 0.21 lower, intervals apart
  const auto c = check::compare(old, now);
  CHECK(status(c, "global order") == Outcome::fail);
  CHECK_THAT(outcome(c, "global order")->off, Catch::Contains("lower by 0.21"));
  o.lo = 3.0, o.hi = 4.5;  // 0.21 lower, but the interval reaches the old one: noise can explain it
  CHECK(status(check::compare(old, now), "global order") == Outcome::pass);
  o.verdict = "fail";  // a pass that fails now is worse whatever the tolerance
  CHECK(status(check::compare(old, now), "global order") == Outcome::fail);
  o.observed = NAN;  // no fit now: nothing to compare
  CHECK(status(check::compare(old, now), "global order") == Outcome::undetermined);
  check::CompareOptions strict;
  strict.order_tolerance = 0.1;
  o = old.studies[0].orders[0], o.observed = 3.85, o.lo = 3.8, o.hi = 3.9;  // 0.15 lower, apart
  CHECK(status(check::compare(old, now), "global order") == Outcome::pass);
  CHECK(status(check::compare(old, now, strict), "global order") == Outcome::fail);
}

TEST_CASE("compare: worse needs the new order's interval wholly below the old one, at both of its edges", "[compare]") {
  auto old = results();
  auto& before = old.studies[0].orders[0];
  before.observed = 4.00, before.lo = 3.80, before.hi = 4.20;
  auto now = old;
  auto& o = now.studies[0].orders[0];
  // 0.30 lower (beyond the tolerance 0.2), the new interval [3.45, 3.95] reaching into the old [3.80, 4.20]: noise
  // can explain it, not worse.  Any comparison of the wrong ends (new hi against old hi, new lo against old lo)
  // calls it apart.
  o.observed = 3.70, o.lo = 3.45, o.hi = 3.95;
  CHECK(status(check::compare(old, now), "global order") == Outcome::pass);
  o.hi = 3.80;  // touching the old interval's lower end: not apart
  CHECK(status(check::compare(old, now), "global order") == Outcome::pass);
  o.hi = 3.79;  // just below it: apart, and 0.30 lower
  CHECK(status(check::compare(old, now), "global order") == Outcome::fail);
  // Apart but only 0.19 lower: within the tolerance (the drop must exceed it).
  o.observed = 3.81, o.lo = 3.70, o.hi = 3.79;
  CHECK(status(check::compare(old, now), "global order") == Outcome::pass);
  o.observed = 3.79;  // 0.21 lower and apart
  CHECK(status(check::compare(old, now), "global order") == Outcome::fail);
  // Higher is never worse, however far apart.
  o.observed = 4.70, o.lo = 4.45, o.hi = 4.95;
  CHECK(status(check::compare(old, now), "global order") == Outcome::pass);
}

TEST_CASE("compare: a run that ended well and diverges now is worse, the other way round is not", "[compare]") {
  const auto old = results();
  auto now = old;
  now.studies[0].runs[0].status = "diverged", now.studies[0].runs[0].global = NAN;
  const auto c = check::compare(old, now);
  CHECK(status(c, "divergence") == Outcome::fail);
  CHECK(c.methods[0].newly_diverged == std::vector<double>{0.1});
  const auto back = check::compare(now, old);
  CHECK(status(back, "divergence") == Outcome::pass);
  CHECK(back.methods[0].no_longer_diverged == std::vector<double>{0.1});
}

TEST_CASE("compare: a bounded energy error that drifts now and grew is worse, a relabelled one that did not grow is not",
          "[compare]") {
  const auto old = results();
  auto now = old;
  now.studies[0].runs[2].behaviour = "drifting", now.studies[0].runs[2].energy_max *= 1.02;
  CHECK(status(check::compare(old, now), "energy") == Outcome::fail);
  now.studies[0].runs[2].energy_max = old.studies[0].runs[2].energy_max * 1.005;
  CHECK(status(check::compare(old, now), "energy") == Outcome::pass);
  now.studies[0].runs[2].behaviour = "bounded";
  CHECK(outcome(check::compare(old, now), "energy") == nullptr);  // nothing changed: no comparison to report
}

TEST_CASE("compare: a long energy run bounded before and drifting now fails, at the same step or tolerance only", "[compare]") {
  auto old = results();
  report::LongRow e;
  e.integrator = "m", e.status = "ok", e.dt = 0.01, e.steps = 100000, e.max_rel = 1e-6, e.final_rel = 1e-7;
  e.growth = 0.02, e.growth_lo = -0.1, e.growth_hi = 0.14;  // bounded: wholly below 1/2
  old.studies[0].energy_long = {e};
  auto now = old;
  CHECK(outcome(check::compare(old, now), "energy") == nullptr);  // nothing changed
  // Wholly above 1/2 now: a drift, named with both growth exponents; worse once its largest error grew beyond the
  // error tolerance (1 %), as a run's energy class.
  now.studies[0].energy_long[0].growth = 0.98, now.studies[0].energy_long[0].growth_lo = 0.51, now.studies[0].energy_long[0].growth_hi = 1.2;
  CHECK(status(check::compare(old, now), "energy") == Outcome::pass);
  now.studies[0].energy_long[0].max_rel = 1.009e-6;
  CHECK(status(check::compare(old, now), "energy") == Outcome::pass);
  now.studies[0].energy_long[0].max_rel = 1.011e-6;
  CHECK(status(check::compare(old, now), "energy") == Outcome::fail);
  CHECK_THAT(outcome(check::compare(old, now), "energy")->observed,
             Catch::Contains("long run at dt 0.01: bounded -> drift (growth exponent 0.02 -> 0.98"));
  // Straddling 1/2 now: not told apart, not worse (a note).
  now.studies[0].energy_long[0].growth_lo = 0.5;
  CHECK(status(check::compare(old, now), "energy") == Outcome::pass);
  // Its error above 0.1 now: worse whatever its exponent.
  now.studies[0].energy_long[0].max_rel = 0.11;
  CHECK(status(check::compare(old, now), "energy") == Outcome::fail);
  // Another step, or a run not as long: not the same run, nothing compared, and said.
  now.studies[0].energy_long[0].steps = 200000;
  CHECK(outcome(check::compare(old, now), "energy") == nullptr);
  const auto notes = check::compare(old, now).methods.at(0).notes;
  CHECK(std::count(notes.begin(), notes.end(), "its long energy run not compared: dt 0.01 to t = 1000 before, dt 0.01 to t = 2000 now") == 1);
  now.studies[0].energy_long[0].steps = 100000, now.studies[0].energy_long[0].dt = 0.02;
  CHECK(outcome(check::compare(old, now), "energy") == nullptr);
  // A pair's long run at the same tolerance is compared the same way (its mean step is its own, not matched).
  old.studies[0].energy_long[0].tol = now.studies[0].energy_long[0].tol = 1e-8;
  now.studies[0].energy_long[0].dt = 0.01;
  CHECK(status(check::compare(old, now), "energy") == Outcome::fail);
  CHECK_THAT(outcome(check::compare(old, now), "energy")->observed, Catch::Contains("long run at tol 1e-08: bounded -> too large"));
}

TEST_CASE("compare: timing fails only with a tolerance, and only beyond it and beyond the noise", "[compare]") {
  const auto old = results();
  auto now = old;
  for (auto& r : now.studies[0].runs) r.ns_min = 160, r.ns_median = 168;  // 60 % slower, 5 % spread
  CHECK(outcome(check::compare(old, now), "time per step") == nullptr);
  check::CompareOptions o;
  o.time_tolerance = 0.5;
  CHECK(status(check::compare(old, now, o), "time per step") == Outcome::fail);
  o.time_tolerance = 0.7;
  CHECK(status(check::compare(old, now, o), "time per step") == Outcome::pass);
  o.time_tolerance = 0.5;
  for (auto& r : now.studies[0].runs) r.ns_median = 160 * 1.65;  // the repeats spread by 65 %: 60 % is noise
  CHECK(status(check::compare(old, now, o), "time per step") == Outcome::pass);
}

TEST_CASE("compare: more force evaluations to reach an accuracy, at the same errors, is worse", "[compare]") {
  const auto old = results();
  auto now = old;
  for (auto& r : now.studies[0].runs) r.force_evals *= 1.02;  // one evaluation in fifty more per step
  const auto c = check::compare(old, now);
  CHECK(status(c, "error constant") == Outcome::pass);
  CHECK(status(c, "cost to accuracy") == Outcome::fail);
  CHECK_THAT(outcome(c, "cost to accuracy")->off, Catch::Contains("+2.0 % force evaluations"));
  for (auto& r : now.studies[0].runs) r.force_evals = r.force_evals / 1.02 * 1.005;
  CHECK(status(check::compare(old, now), "cost to accuracy") == Outcome::pass);
}

TEST_CASE("compare: studies and methods added or removed are listed, not judged", "[compare]") {
  const auto old = results();
  auto now = old;
  now.studies[0].integrators.push_back("n");
  auto other = now.studies[0];
  other.name = "t";
  now.studies.push_back(other);
  const auto c = check::compare(old, now);
  CHECK(c.added == std::vector<std::string>{"s: n", "t"});
  CHECK(check::compare(now, old).removed == std::vector<std::string>{"t", "s: n"});
  CHECK(c.verdict.passed());
  // Nothing in common: nothing judged, which does not pass.
  auto renamed = old;
  renamed.studies[0].name = "u";
  CHECK_FALSE(check::compare(old, renamed).verdict.passed());
}

TEST_CASE("compare: a study of the same name but another experiment is not compared, and says why", "[compare]") {
  const auto old = results();
  auto now = old;
  now.studies[0].params = {{"e", "0.9"}};
  auto c = check::compare(old, now);
  CHECK(c.methods.empty());
  REQUIRE(c.changed.size() == 1);
  CHECK_THAT(c.changed[0], Catch::Contains("s: the problem's parameters changed"));
  CHECK_FALSE(c.verdict.passed());  // nothing judged
  CHECK(c.verdict.count(Outcome::fail) == 0);  // and nothing blamed on a method
  now = old, now.studies[0].problem = "harmonic";
  CHECK_THAT(check::compare(old, now).changed.at(0), Catch::Contains("the problem changed (kepler -> harmonic)"));
  now = old, now.studies[0].t_end = 2;
  CHECK_THAT(check::compare(old, now).changed.at(0), Catch::Contains("t_end changed"));
}

TEST_CASE("compare: two sweeps with no step size in common judge no divergence", "[compare]") {
  const auto old = results();
  auto now = old;
  for (auto& r : now.studies[0].runs) r.dt *= 1.5;
  const auto c = check::compare(old, now);
  CHECK(status(c, "divergence") == Outcome::undetermined);
  CHECK(status(c, "error constant") == Outcome::undetermined);
}

TEST_CASE("compare: what a method declares that changed is noted, not judged", "[compare]") {
  const auto old = results();
  auto now = old;
  now.studies[0].declared[0].expected_global = 3;
  now.studies[0].declared[0].predicted_order = 3, now.studies[0].declared[0].error_coefficient = 0.05;
  const auto c = check::compare(old, now);
  REQUIRE(c.methods.size() == 1);
  REQUIRE(c.methods[0].notes.size() == 2);
  CHECK(c.methods[0].notes[0] == "expected global order 4 -> 3 (its declaration or the spec's expect)");
  CHECK_THAT(c.methods[0].notes[1], Catch::Contains("its coefficients changed (predicted order 0 -> 3"));
  CHECK(c.verdict.passed());
  CHECK(check::compare(old, old).methods[0].notes.empty());
}

TEST_CASE("compare: a cost to an accuracy is judged where either figure is extrapolated, a change reads as a ratio", "[compare]") {
  const auto old = results();
  // New: eight times the evaluations, and the smallest step gone.  To 1e-6 the old cost is interpolated (800 at
  // 6.25e-6, 1600 at 3.90625e-7: 800 6.25^(1/4) = 1264.9), the new extrapolated at order 4 from 6.25e-6 (6400
  // 6.25^(1/4) = 10119): x8.  Judged only on interpolations, this change was shown and never counted.
  auto now = old;
  now.studies[0].runs.pop_back();
  for (auto& r : now.studies[0].runs) r.force_evals *= 8;
  check::CompareOptions o;
  o.targets = {1e-6};
  const auto c = check::compare(old, now, o);
  REQUIRE(c.methods.size() == 1);
  REQUIRE(c.methods[0].costs.size() == 1);
  CHECK(c.methods[0].costs[0].old_cost.how == report::Reach::interpolated);
  CHECK(c.methods[0].costs[0].new_cost.how == report::Reach::extrapolated);
  CHECK(c.methods[0].costs[0].new_cost.evals == Approx(6400 * std::pow(6.25, 0.25)).epsilon(1e-12));
  CHECK(status(c, "cost to accuracy") == Outcome::fail);
  CHECK_THAT(outcome(c, "cost to accuracy")->off, Catch::Contains("× 8 force evaluations to reach 1e-06"));
  CHECK_THAT(outcome(c, "cost to accuracy")->observed, Catch::Contains("1.26e+03 -> ≈1.01e+04"));
  o.cost_tolerance = 7.5;  // within 850 %: not worse
  CHECK(status(check::compare(old, now, o), "cost to accuracy") == Outcome::pass);
  o.cost_tolerance = 6.9;
  CHECK(status(check::compare(old, now, o), "cost to accuracy") == Outcome::fail);
  // An error 2676 times the old one reads as a ratio, not +267500 %.
  auto worse = old;
  for (auto& r : worse.studies[0].runs) r.global *= 2676;
  CHECK_THAT(outcome(check::compare(old, worse), "error constant")->off, Catch::Contains("error × 2.68e+03 at dt"));
}

TEST_CASE("compare: by default a cost is worse only beyond the two costs' uncertainties, at least the error tolerance", "[compare]") {
  // To 1e-7, both extrapolated at order 4 from 3.90625e-7 (ln 3.90625 = 1.362578) with the interval [3, 5]:
  // max |1/q - 1/4| = 1/3 - 1/4 = 0.083333; each spread exp(0.113548) - 1 = 0.120246, combined 1.120246^2 - 1 =
  // 0.254951.
  auto old = results();
  old.studies[0].orders[0].lo = 3, old.studies[0].orders[0].hi = 5;
  check::CompareOptions o;
  o.targets = {1e-7};
  auto now = old;
  for (auto& r : now.studies[0].runs) r.force_evals *= 1.254;  // within 25.50 %
  const auto c = check::compare(old, now, o);
  CHECK(c.methods[0].costs[0].old_cost.spread == Approx(0.120246).epsilon(1e-4));
  CHECK(status(c, "cost to accuracy") == Outcome::pass);
  for (auto& r : now.studies[0].runs) r.force_evals = r.force_evals / 1.254 * 1.256;  // beyond it
  CHECK(status(check::compare(old, now, o), "cost to accuracy") == Outcome::fail);
  // A tolerance given replaces it: 20 % against 10 % is worse.
  o.cost_tolerance = 0.1;
  for (auto& r : now.studies[0].runs) r.force_evals = r.force_evals / 1.256 * 1.2;
  CHECK(status(check::compare(old, now, o), "cost to accuracy") == Outcome::fail);
  // An order interval reaching 0: the cost bounds nothing, and is not compared (no outcome at all).
  o.cost_tolerance = NAN;
  old.studies[0].orders[0].lo = 0;
  now.studies[0].orders[0].lo = 0;
  CHECK(outcome(check::compare(old, now, o), "cost to accuracy") == nullptr);
}
