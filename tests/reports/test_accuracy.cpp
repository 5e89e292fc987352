// Cost to an accuracy, the cheapest method and the Pareto front (study/reader/accuracy.hpp), on made-up sweeps whose
// answers are worked out by hand in closed form: a method of order p has error e = C dt^p and cost N = c / dt, so
// between two of its runs the cost to reach X is N_a (e_a / X)^(1/p) -- what log-log interpolation must give.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>

#include "study/reader/accuracy.hpp"
#include "tests/support.hpp"

namespace {

using report::Reach;

/// A run: step, global error, force evaluations, steps, ns per step (minimum and median of the repeats).
report::RunRow run(const std::string& integrator, double dt, double error, double evals, long steps, double ns = 100,
                   double ns_median = 100, const std::string& status = "ok") {
  report::RunRow r;
  r.integrator = integrator, r.dt = dt, r.global = error, r.force_evals = evals, r.steps = steps;
  r.ns_min = ns, r.ns_median = ns_median, r.status = status, r.roundoff = 1e-16;
  return r;
}

/// A global order fit that passed over three points (the order extrapolation may use).
report::OrderRow fit(const std::string& integrator, double order, const std::string& verdict = "pass") {
  report::OrderRow o;
  o.integrator = integrator, o.metric = "global", o.observed = order, o.points = 3, o.verdict = verdict;
  o.asymptotic = verdict != "undetermined";
  return o;
}

/// a: order 4 (errors 1e-4 / 16^k at dt 0.1 / 2^k, 400 evaluations at dt 0.1); b: order 2, four times cheaper per
/// step.
report::Study two_methods() {
  report::Study s;
  s.name = "made-up", s.ref_bound = 1e-20;
  s.integrators = {"a", "b"};
  s.runs = {run("a", 0.1, 1e-4, 400, 100, 100, 110), run("a", 0.05, 6.25e-6, 800, 200), run("a", 0.025, 3.90625e-7, 1600, 400),
            run("b", 0.1, 1e-2, 100, 100, 50, 50), run("b", 0.05, 2.5e-3, 200, 200, 50, 50), run("b", 0.025, 6.25e-4, 400, 400, 50, 50),
            run("b", 0.0125, 1.5625e-4, 800, 800, 50, 50)};
  s.orders = {fit("a", 4), fit("b", 2)};
  return s;
}

}  // namespace

TEST_CASE("the cost to an accuracy is interpolated on the method's own log-log curve between the runs that bracket it",
          "[report][accuracy]") {
  const report::Study s = two_methods();
  // a to 1e-5: between dt 0.1 (1e-4, 400 evaluations) and 0.05 (6.25e-6, 800): 400 (1e-4 / 1e-5)^(1/4) = 400 * 10^(1/4).
  const auto a = report::cost_to_reach(s, "a", 1e-5);
  REQUIRE(a.how == Reach::interpolated);
  CHECK(a.evals == Approx(400 * std::pow(10.0, 0.25)).epsilon(1e-12));  // 711.3
  CHECK(a.dt == Approx(0.1 * std::pow(10.0, -0.25)).epsilon(1e-12));    // 0.0562
  // Wall time: 100 steps of 100 ns at dt 0.1 is 1e-5 s, twice that at dt 0.05: the same fraction of the way.
  CHECK(a.seconds == Approx(1e-5 * std::pow(10.0, 0.25)).epsilon(1e-12));
  CHECK(a.noise == Approx(0.1).epsilon(1e-12));  // the dt 0.1 run's median is 10 % above its minimum
  // b to 1e-3: between dt 0.05 (2.5e-3, 200) and 0.025 (6.25e-4, 400): 200 (2.5)^(1/2).
  const auto b = report::cost_to_reach(s, "b", 1e-3);
  REQUIRE(b.how == Reach::interpolated);
  CHECK(b.evals == Approx(200 * std::sqrt(2.5)).epsilon(1e-12));  // 316.2
  // A target that a run hits exactly costs that run.
  CHECK(report::cost_to_reach(s, "b", 2.5e-3).evals == Approx(200).epsilon(1e-12));
}

TEST_CASE("beyond the last run the cost is extrapolated from the fitted order, a decade at most, and says so",
          "[report][accuracy]") {
  report::Study s = two_methods();
  // a to 1e-7, below its smallest error 3.90625e-7 (dt 0.025, 1600): 1600 (3.90625)^(1/4) = 2249.4.
  const auto down = report::cost_to_reach(s, "a", 1e-7);
  REQUIRE(down.how == Reach::extrapolated);
  CHECK(down.evals == Approx(1600 * std::pow(3.90625, 0.25)).epsilon(1e-12));
  CHECK(down.order == 4);
  CHECK_THAT(down.why, Catch::Contains("extrapolated at order 4.00 from dt 0.025"));
  // Down to three decades below its smallest error (smaller steps: deeper into the asymptotic range): 4e-10 is
  // 977 times below 3.90625e-7: 1600 * 976.6^(1/4) = 8944; 3e-10 is 1302 times below: not reached, and why.
  const auto deep = report::cost_to_reach(s, "a", 4e-10);
  REQUIRE(deep.how == Reach::extrapolated);
  CHECK(deep.evals == Approx(1600 * std::pow(3.90625e-7 / 4e-10, 0.25)).epsilon(1e-12));
  const auto far = report::cost_to_reach(s, "a", 3e-10);
  CHECK(far.how == Reach::not_reached);
  CHECK_THAT(far.why, Catch::Contains("more than three decades from its nearest usable run (error 3.91e-07 at dt 0.025)"));
  // Above every error: up from the largest step, 400 / 10^(1/4) at exactly a decade; beyond it, at most the run's cost.
  const auto up = report::cost_to_reach(s, "a", 1e-3);
  REQUIRE(up.how == Reach::extrapolated);
  CHECK(up.evals == Approx(400 / std::pow(10.0, 0.25)).epsilon(1e-12));
  const auto bound = report::cost_to_reach(s, "a", 2e-3);
  CHECK(bound.how == Reach::at_most);
  CHECK(bound.evals == 400);
  CHECK_THAT(bound.why, Catch::Contains("reached already at its largest step"));
  // An undetermined order extrapolates nothing.
  s.orders[0] = fit("a", 4, "undetermined");
  CHECK(report::cost_to_reach(s, "a", 1e-7).how == Reach::not_reached);
  CHECK_THAT(report::cost_to_reach(s, "a", 1e-7).why, Catch::Contains("order is undetermined"));
  CHECK(report::cost_to_reach(s, "a", 1e-5).how == Reach::interpolated);  // inside the runs, the order is not needed
  // An order of 0.2 or less extrapolates nothing either (a decade of error would cost 10^5 times the work): 0.2
  // itself is refused, just above it is used.
  s.orders[0] = fit("a", 0.2);
  CHECK(report::cost_to_reach(s, "a", 1e-7).how == Reach::not_reached);
  s.orders[0] = fit("a", 0.2 + 1e-9);
  CHECK(report::cost_to_reach(s, "a", 1e-7).how == Reach::extrapolated);
}

TEST_CASE("a cost is never interpolated across a diverged run or a run at its noise floor", "[report][accuracy]") {
  report::Study s;
  s.ref_bound = 1e-20;
  s.integrators = {"c", "d"};
  // c: order log2(10) (a factor 10 per halving); its largest step, 0.07, diverged.
  s.runs = {run("c", 0.07, NAN, 0, 10, 100, 100, "diverged"), run("c", 0.05, 1e-4, 200, 20), run("c", 0.025, 1e-5, 400, 40),
            run("c", 0.0125, 1e-6, 800, 80)};
  // d: order 8; its second run is at round-off (2e-14, within 10 x its floor 1e-14).
  s.runs.push_back(run("d", 0.1, 1e-10, 1000, 100));
  s.runs.push_back(run("d", 0.05, 2e-14, 2000, 200));
  s.runs.back().roundoff = 1e-14;
  s.runs.push_back(run("d", 0.025, 3e-14, 4000, 400));
  s.runs.back().roundoff = 1e-14;
  s.orders = {fit("c", std::log2(10.0)), fit("d", 8)};
  // c to 2e-4: reached first at dt 0.05 (1e-4); the step above diverged, so up along the order from there, to a step
  // below the diverged one: dt = 0.05 * 2^(1/log2 10) = 0.05 * 2^0.30103 = 0.0616, cost 200 / 2^0.30103.
  const auto c = report::cost_to_reach(s, "c", 2e-4);
  REQUIRE(c.how == Reach::extrapolated);
  CHECK(c.dt == Approx(0.05 * std::pow(2.0, 1 / std::log2(10.0))).epsilon(1e-12));
  CHECK(c.evals == Approx(200 / std::pow(2.0, 1 / std::log2(10.0))).epsilon(1e-12));
  // To 5e-4 the step would be 0.05 * 5^0.30103 = 0.081, beyond the diverged 0.07: at most the run's cost, saying why.
  const auto c_far = report::cost_to_reach(s, "c", 5e-4);
  CHECK(c_far.how == Reach::at_most);
  CHECK(c_far.evals == 200);
  CHECK_THAT(c_far.why, Catch::Contains("diverged"));
  // d to 1.2e-11: the bracket's lower run is at its floor; down from dt 0.1 along order 8: dt 0.1 * 0.12^(1/8).
  const auto d = report::cost_to_reach(s, "d", 1.2e-11);
  REQUIRE(d.how == Reach::extrapolated);
  CHECK(d.evals == Approx(1000 / std::pow(0.12, 0.125)).epsilon(1e-12));  // 1303.8
  // d to 5e-14: only the run at round-off reached it: at most its cost.
  const auto d_floor = report::cost_to_reach(s, "d", 5e-14);
  CHECK(d_floor.how == Reach::at_most);
  CHECK(d_floor.evals == 2000);
  CHECK_THAT(d_floor.why, Catch::Contains("noise floor"));
  // d to 1e-14: no run reached it, and round-off forbids an estimate.
  CHECK(report::cost_to_reach(s, "d", 1e-15).how == Reach::not_reached);
  // Down from dt 0.1 to a step strictly above the run at dt 0.05: to 1e-10 / 255 the step is 0.1 255^(-1/8) =
  // 0.0501, extrapolated; to 1e-10 / 256 it is 0.1 256^(-1/8) = 0.05 exactly, the step that was run (and reached
  // it, at its floor): at most that run's cost, no estimate.
  const auto inside = report::cost_to_reach(s, "d", 1e-10 / 255);
  REQUIRE(inside.how == Reach::extrapolated);
  CHECK(inside.dt == Approx(0.1 * std::pow(255.0, -0.125)).epsilon(1e-12));
  const auto edge = report::cost_to_reach(s, "d", 1e-10 / 256);
  CHECK(edge.how == Reach::at_most);
  CHECK(edge.evals == 2000);
  CHECK_THAT(edge.why, Catch::StartsWith("reached at dt 0.05 (error 2e-14)"));
}

TEST_CASE("the cheapest method, its margin, and a tie within the timing noise", "[report][accuracy]") {
  report::Study s = two_methods();
  // At 1e-3: a extrapolated up, 400 / 10^(1/4) = 224.9; b interpolated, 200 sqrt(2.5) = 316.2: a by 40.6 %.
  const auto by_evals = report::rank(s, 1e-3, false);
  REQUIRE(by_evals.order.size() == 2);
  CHECK(by_evals.order[0].integrator == "a");
  CHECK(by_evals.margin == Approx(200 * std::sqrt(2.5) / (400 / std::pow(10.0, 0.25)) - 1).epsilon(1e-12));
  CHECK_FALSE(by_evals.tie());  // counts have no noise
  CHECK(std::isnan(by_evals.noise));  // though both methods' timings have one (a's 10 %, b's 0)
  // By time: a 1e-5 s / 10^(1/4) (noise 10 %), b 1e-5 s * sqrt(2.5) (noise 0): a by 181 %, well beyond 10 %.
  const auto by_time = report::rank(s, 1e-3, true);
  CHECK(by_time.order[0].integrator == "a");
  CHECK(by_time.margin == Approx(1e-5 * std::sqrt(2.5) / (1e-5 / std::pow(10.0, 0.25)) - 1).epsilon(1e-12));
  CHECK(by_time.noise == Approx(0.1).epsilon(1e-12));
  CHECK_FALSE(by_time.tie());
  // The same margin of 181 % with b's repeats spread by 200 % (median 3 x minimum): within the noise, a tie.
  for (auto& r : s.runs)
    if (r.integrator == "b") r.ns_median = 3 * r.ns_min;
  const auto noisy = report::rank(s, 1e-3, true);
  CHECK(noisy.noise == Approx(2.1).epsilon(1e-12));
  CHECK(noisy.tie());
  // A target nobody reaches: everyone in `none`, with a reason.
  const auto nobody = report::rank(s, 1e-12, false);
  CHECK(nobody.order.empty());
  CHECK(nobody.none.size() == 2);
  CHECK(std::isnan(nobody.margin));
}

TEST_CASE("the Pareto front holds the runs no other run beats on both error and cost, and is named", "[report][accuracy]") {
  const report::Study s = two_methods();
  // By evaluations: b 100 (1e-2), b 200 (2.5e-3), then a 400 (1e-4, beating b's 6.25e-4 at the same cost), a 800, a 1600.
  const auto front = report::pareto_front(s, false);
  REQUIRE(front.size() == 5);
  const std::vector<std::pair<std::string, double>> expected{{"b", 100}, {"b", 200}, {"a", 400}, {"a", 800}, {"a", 1600}};
  for (std::size_t k = 0; k < front.size(); ++k) {
    CHECK(front[k].integrator == expected[k].first);
    CHECK(front[k].cost == expected[k].second);
  }
  CHECK(report::describe_front(front) == "b from error 1.00e-02 to 2.50e-03, then a from error 1.00e-04 to 3.91e-07");
  // A run that only ties another on error at a higher cost is beaten, and one cheaper at that error joins the front.
  report::Study more = s;
  more.integrators.push_back("e");
  more.runs.push_back(run("e", 0.1, 2.5e-3, 300, 100));
  CHECK(report::pareto_front(more, false).size() == 5);
  more.runs.back().force_evals = 150;
  const auto joined = report::pareto_front(more, false);
  REQUIRE(joined.size() == 5);  // e at 150 replaces b at 200 (same error, dearer)
  CHECK(joined[1].integrator == "e");
}

TEST_CASE("the default targets are the decades from 1e-3 down to the smallest error reached", "[report][accuracy]") {
  const report::Study s = two_methods();  // smallest error 3.90625e-7
  CHECK(report::default_targets(s) == std::vector<double>{1e-3, 1e-4, 1e-5, 1e-6});
  report::Study coarse = s;
  for (auto& r : coarse.runs) r.global = std::max(r.global, 0.01);  // nothing below 1e-2: 1e-3 alone, not reached
  CHECK(report::default_targets(coarse) == std::vector<double>{1e-3});
  CHECK(report::target_text(1e-8) == "1e-08");
  CHECK(report::target_text(2.5e-7) == "2.5e-07");
}

TEST_CASE("the error constant is the median of error / dt^p over the global fit window, the time per step the median run time",
          "[report][accuracy]") {
  report::Study s = two_methods();
  // a: errors 1e-4 / 16^k at 0.1 / 2^k: C = 1e-4 / 0.1^4 = 1 at every point of its window.
  s.orders[0].expected = 4, s.orders[0].dt_min = 0.025, s.orders[0].dt_max = 0.1;
  s.orders[0].sweep = {{0.1, 1e-4, 1e-16}, {0.05, 6.25e-6, 1e-16}, {0.025, 3.90625e-7, 1e-16}};
  CHECK(report::error_constant(s, "a") == Approx(1.0).epsilon(1e-12));
  // A point outside the window does not count; of three inside, the middle one: 2, 3, 7 (C of each) -> 3.
  s.orders[0].sweep = {{0.2, 1e-1, 1e-16}, {0.1, 2e-4, 1e-16}, {0.05, 3 * 6.25e-6, 1e-16}, {0.025, 7 * 3.90625e-7, 1e-16}};
  CHECK(report::error_constant(s, "a") == Approx(3.0).epsilon(1e-12));
  s.orders[0].expected = 0;  // no expected order: no constant
  CHECK(std::isnan(report::error_constant(s, "a")));
  CHECK(std::isnan(report::error_constant(s, "nobody")));
  // Time per step: a's three runs at 100 ns -> 100; b's at 50.
  CHECK(report::time_per_step(s, "a") == 100);
  s.runs[1].ns_min = 300, s.runs[2].ns_min = 200;  // 100, 300, 200 -> 200
  CHECK(report::time_per_step(s, "a") == 200);
  CHECK(report::time_per_step(s, "b") == 50);
}

TEST_CASE("a median of an even count is the mean of the middle two", "[report][accuracy]") {
  CHECK(report::median({4, 1, 3, 2}) == 2.5);  // sorted 1 2 3 4
  CHECK(report::median({10, 20}) == 15);
  CHECK(report::median({5, 9, 1}) == 5);
  CHECK(report::median({7}) == 7);
  CHECK(std::isnan(report::median({})));
}

TEST_CASE("a run's noise floor: its sweep point's, else its round-off, else eps sqrt(steps), never below the reference's bound",
          "[report][accuracy]") {
  report::Study s;
  s.ref_bound = 1e-20;
  report::RunRow r;
  r.integrator = "m", r.dt = 0.01, r.steps = 100;
  r.roundoff = 3e-16;
  CHECK(report::noise_floor(s, r) == 3e-16);
  r.roundoff = NAN;  // not measured: eps sqrt(100) = 10 eps
  CHECK(report::noise_floor(s, r) == 10 * std::numeric_limits<double>::epsilon());
  s.ref_bound = 1e-12;  // a reference worse than round-off
  CHECK(report::noise_floor(s, r) == 1e-12);
  // The order fit's point at this step holds the floor the fit used.
  report::OrderRow o;
  o.integrator = "m", o.metric = "global";
  o.sweep = {{0.02, 1e-6, 5e-15}, {0.01, 1e-7, 7e-13}};
  s.orders.push_back(o);
  CHECK(report::noise_floor(s, r) == 7e-13);
}

TEST_CASE("on the committed fixture, rk4's cost to 1e-8 is the one worked out by hand from its two runs around it",
          "[report][accuracy]") {
  const auto res = report::load(std::filesystem::path(HARNESS_SOURCE_DIR) / "tests" / "reports" / "fixture");
  const report::Study& s = res.studies.at(0);
  // From results.json: rk4 at dt 0.05 has error 4.33405262790525e-08 with 320 force evaluations (80 steps of
  // 41.4625 ns), at dt 0.025 2.865174953688051e-09 with 640 (160 steps of 42.20625 ns); 1e-8 lies between.
  // log-log: f = ln(1e-8 / e1) / ln(e2 / e1) = 0.53986; evaluations 320 * 2^f = 465.23; time 3.317e-6 s *
  // (6.753e-6 / 3.317e-6)^f = 4.869e-6 s.
  const double f = std::log(1e-8 / 4.33405262790525e-08) / std::log(2.865174953688051e-09 / 4.33405262790525e-08);
  const auto c = report::cost_to_reach(s, "rk4", 1e-8);
  REQUIRE(c.how == report::Reach::interpolated);
  CHECK(c.evals == Approx(320 * std::pow(2.0, f)).epsilon(1e-12));
  CHECK(c.evals == Approx(465.2255).epsilon(1e-6));
  CHECK(c.seconds == Approx(41.4625e-9 * 80 * std::pow(42.20625 * 160 / (41.4625 * 80), f)).epsilon(1e-12));
  CHECK(c.seconds == Approx(4.86886e-6).epsilon(1e-5));
  CHECK(c.dt == Approx(0.05 * std::pow(0.5, f)).epsilon(1e-12));
}

TEST_CASE("an upper bound leaves the cheapest open unless it is below every rival's least cost", "[report][accuracy]") {
  report::Study s = two_methods();
  // b's runs from dt 0.05 on at round-off (their floor is their error): b reaches 1e-3 first at dt 0.025 (6.25e-4),
  // a run at its floor: no estimate, an upper bound of its 400 evaluations; its least is the larger step's 200.
  for (auto& r : s.runs)
    if (r.integrator == "b" && r.dt < 0.1) r.roundoff = r.global;
  const auto b = report::cost_to_reach(s, "b", 1e-3);
  REQUIRE(b.how == Reach::at_most);
  CHECK(b.evals == 400);
  CHECK(b.lower == 200);
  // a to 1e-3: extrapolated up from its largest step, 400 / 10^(1/4) = 224.9, first; but b may cost as little as
  // 200: the cheapest is open.
  const auto open = report::rank(s, 1e-3, false);
  REQUIRE(open.order.size() == 2);
  CHECK(open.order[0].integrator == "a");
  CHECK(open.undecided == std::vector<std::string>{"b"});
  // b's larger step at 300 evaluations: b cannot be cheaper than 300 > 224.9: a for sure.
  s.runs[4].force_evals = 300;
  CHECK(report::rank(s, 1e-3, false).undecided.empty());
  // b's bound 220 below a's 224.9 and its least 210: b first, and a cannot be below its estimate: decided.
  s.runs[4].force_evals = 210, s.runs[5].force_evals = 220;
  const auto bound_first = report::rank(s, 1e-3, false);
  CHECK(bound_first.order[0].integrator == "b");
  CHECK(bound_first.undecided.empty());
}

TEST_CASE("errors that fall below the target and rise above it again give no cost, and say why", "[report][accuracy]") {
  report::Study s;
  s.ref_bound = 1e-20;
  s.integrators = {"e"};
  // Kepler-like explicit Euler: 0.2 at dt 0.1 by chance, then 0.9 and 0.95 at smaller steps, then it falls.
  s.runs = {run("e", 0.1, 0.4, 100, 100), run("e", 0.05, 0.2, 200, 200), run("e", 0.025, 0.9, 400, 400), run("e", 0.0125, 0.95, 800, 800),
            run("e", 0.00625, 0.1, 1600, 1600)};
  s.orders = {fit("e", 1)};
  // To 0.3: reached at dt 0.05, but not for good (0.9 at dt 0.025): only from dt 0.00625 on. Its larger step's error
  // 0.95 is above 0.5 (not usable): no interpolation; up from dt 0.00625 along order 1 to a step below 0.0125:
  // dt 0.00625 * 3 = 0.01875 is beyond it: an upper bound, 1600.
  const auto c = report::cost_to_reach(s, "e", 0.3);
  CHECK(c.how == Reach::at_most);
  CHECK(c.evals == 1600);
  CHECK(c.lower == 800);
  CHECK_THAT(c.why, Catch::Contains("the next larger step 0.0125 is out of the asymptotic range"));
  // To 0.15: from dt 0.00625 (0.1) up along order 1 to dt 0.009375, short of 0.0125: 1600 / 1.5.
  const auto up = report::cost_to_reach(s, "e", 0.15);
  CHECK(up.how == Reach::extrapolated);
  CHECK(up.evals == Approx(1600 / 1.5).epsilon(1e-12));
  // If the smallest step rose again, nothing is reached for good.
  s.runs.push_back(run("e", 0.003125, 0.6, 3200, 3200));
  const auto again = report::cost_to_reach(s, "e", 0.3);
  CHECK(again.how == Reach::not_reached);
  CHECK_THAT(again.why, Catch::Contains("not reached for good") && Catch::Contains("at the smaller step dt 0.0031"));
  // And below every error, a smaller step above the smallest usable error forbids extrapolating past it.
  const auto below = report::cost_to_reach(s, "e", 0.05);
  CHECK(below.how == Reach::not_reached);
  CHECK_THAT(below.why, Catch::Contains("do not fall steadily"));
}

TEST_CASE("a method whose every run is at round-off is said to be so, and is no part of a Pareto front", "[report][accuracy]") {
  report::Study s;
  s.ref_bound = 1e-20;
  s.integrators = {"x"};
  s.runs = {run("x", 0.1, 1e-16, 10, 10), run("x", 0.05, 2e-16, 20, 20)};  // floor 1e-16 each: within 10 times it
  CHECK_THAT(report::cost_to_reach(s, "x", 1e-18).why, Catch::Contains("every error is within 10 times its noise floor"));
  CHECK(report::pareto_front(s, false).empty());
  CHECK(report::describe_front(report::pareto_front(s, false)) == "no run above its noise floor");
}

TEST_CASE("a method whose sweep ended before the target leaves the cheapest open when it may be cheaper", "[report][accuracy]") {
  report::Study s = two_methods();
  // b's order undetermined: nothing projects it; its runs reach 1.5625e-4 for 800 evaluations. To 1e-5, a needs
  // 711 (interpolated) -- less than b has spent already: a for sure.
  s.orders[1] = fit("b", 2, "undetermined");
  CHECK(report::rank(s, 1e-5, false).undecided.empty());
  // b's runs made cheap (a tenth): b has spent 80 at its smallest error, less than a's 711, and cannot be projected:
  // it may be cheaper, so the cheapest is open.
  for (auto& r : s.runs)
    if (r.integrator == "b") r.force_evals /= 10;
  CHECK(report::rank(s, 1e-5, false).undecided == std::vector<std::string>{"b"});
  // With its order known (2), b is projected: 80 * (1.5625e-4 / 1e-5)^(1/2) = 316 < 711: then b is reached by
  // extrapolation (within three decades) and ranked as an estimate, first.
  s.orders[1] = fit("b", 2);
  const auto r = report::rank(s, 1e-5, false);
  CHECK(r.order.at(0).integrator == "b");
  CHECK(r.order[0].evals == Approx(80 * std::sqrt(15.625)).epsilon(1e-12));
  CHECK(r.undecided.empty());
}

TEST_CASE("an interpolated cost carries the spread of the curve's local slopes around its bracket", "[report][accuracy]") {
  report::Study s;
  s.ref_bound = 1e-20;
  s.integrators = {"k"};
  // A curving log-log line: errors 1e-2, 1e-3, 2e-4, 5e-5 at 100, 200, 400, 800 evaluations.  To 5e-4, between
  // 1e-3 (200) and 2e-4 (400): the bracket's slope ln 2 / ln 0.2 = -0.43068; the segment before it ln 2 / ln 0.1 =
  // -0.30103, 0.12965 apart, over ln(1e-3 / 5e-4) = 0.69315 from that end: 0.089864; the segment after it ln 2 /
  // ln 0.25 = -0.5, 0.069323 apart, over ln(5e-4 / 2e-4) = 0.91629: 0.063521.  The larger: exp(0.089864) - 1 = 0.094026.
  s.runs = {run("k", 0.1, 1e-2, 100, 100), run("k", 0.05, 1e-3, 200, 200), run("k", 0.025, 2e-4, 400, 400), run("k", 0.0125, 5e-5, 800, 800)};
  const auto c = report::cost_to_reach(s, "k", 5e-4);
  REQUIRE(c.how == Reach::interpolated);
  CHECK(c.spread == Approx(0.094026).epsilon(1e-4));
  CHECK(report::spread_text(c) == " ±9.4 %");
  // Without its neighbours and without an order's interval, nothing says how far the curve bends: not known.
  s.runs = {s.runs[1], s.runs[2]};
  CHECK(std::isnan(report::cost_to_reach(s, "k", 5e-4).spread));
  CHECK(report::spread_text(report::cost_to_reach(s, "k", 5e-4)).empty());
  // With the global order's 99 % interval, [1.9, 2.1] about 2 (slope -1/2): max |1/q - 1/2| = 1/1.9 - 1/2 = 0.026316,
  // over the nearer end's distance, ln 2 (to 1e-3): exp(0.018241) - 1 = 0.018408.
  auto o = fit("k", 2);
  o.lo = 1.9, o.hi = 2.1;
  s.orders = {o};
  CHECK(report::cost_to_reach(s, "k", 5e-4).spread == Approx(0.018408).epsilon(1e-4));
  // A straight line (a's runs: exactly order 4): no spread.
  const report::Study straight = two_methods();
  CHECK(report::cost_to_reach(straight, "a", 1e-5).spread == Approx(0).margin(1e-12));
}

TEST_CASE("an extrapolated cost carries the fitted order's interval over the distance extrapolated", "[report][accuracy]") {
  report::Study s = two_methods();
  // a to 1e-7 from 3.90625e-7 (a factor 3.90625: ln = 1.362578) at order 4 in [3.8, 4.2]: max |1/q - 1/4| = 1/3.8 -
  // 1/4 = 0.0131579; exp(1.362578 * 0.0131579) - 1 = 0.0180904.
  s.orders[0].lo = 3.8, s.orders[0].hi = 4.2;
  const auto c = report::cost_to_reach(s, "a", 1e-7);
  REQUIRE(c.how == Reach::extrapolated);
  CHECK(c.spread == Approx(0.0180904).epsilon(1e-4));
  // An interval reaching 0: any cost.
  s.orders[0].lo = 0;
  CHECK(std::isinf(report::cost_to_reach(s, "a", 1e-7).spread));
  CHECK(report::spread_text(report::cost_to_reach(s, "a", 1e-7)) == " ±>1000 %");
}

TEST_CASE("a winner is named only when its margin exceeds the two costs' uncertainties, else a tie names each", "[report][accuracy]") {
  report::Study s = two_methods();
  // At 1e-3: a extrapolated up a decade, 400 / 10^(1/4) = 224.94; b interpolated on its straight line, 200 sqrt(2.5) =
  // 316.23 (spread 0): margin 316.228 / 224.936 - 1 = 0.405853.  a's order 4 in [2.5, 4.5]: max |1/q - 1/4| = 1/2.5 -
  // 1/4 = 0.15 over ln 10 = 2.302585: exp(0.345388) - 1 = 0.412570 >= the margin: a tie.
  s.orders[0].lo = 2.5, s.orders[0].hi = 4.5;
  s.orders[1].lo = 1.9, s.orders[1].hi = 2.1;
  const auto tie = report::rank(s, 1e-3, false);
  CHECK(tie.margin == Approx(0.405853).epsilon(1e-5));
  CHECK(tie.uncertainty == Approx(0.412570).epsilon(1e-4));
  CHECK(tie.tie());
  CHECK(tie.tied == std::vector<std::string>{"a", "b"});
  CHECK(tie.tied_within == Approx(0.405853).epsilon(1e-5));
  // In [2.55, 4.5]: 1/2.55 - 1/4 = 0.142157, exp(0.327329) - 1 = 0.387268 < the margin: a is named.
  s.orders[0].lo = 2.55;
  const auto named = report::rank(s, 1e-3, false);
  CHECK(named.uncertainty == Approx(0.387268).epsilon(1e-4));
  CHECK_FALSE(named.tie());
  CHECK(named.tied.empty());
  CHECK(named.order[0].integrator == "a");
  // An order interval reaching 0: a's cost bounds nothing, so nothing can be named: a tie.
  s.orders[0].lo = 0;
  const auto unbounded = report::rank(s, 1e-3, false);
  CHECK(std::isinf(unbounded.uncertainty));
  CHECK(unbounded.tie());
  CHECK(unbounded.tied == std::vector<std::string>{"a", "b"});
  // Unknown uncertainties: no tie is claimed, and no bound (the page says the uncertainty is not known).
  s.orders[0].lo = s.orders[0].hi = NAN;
  const auto unknown = report::rank(s, 1e-3, false);
  CHECK(std::isnan(unknown.bound()));
  CHECK_FALSE(unknown.tie());
}

namespace {

/// A head-to-head worked by hand.  "mine", a pair under step-size control (Study::adaptive_work, its tolerances set):
/// errors 1e-4, 1e-6, 1e-8 at m / 2, m and 2 m force evaluations, a straight log-log line: m sqrt(2) at 1e-7, exactly.
/// "theirs", a fixed-step method: errors 1e-4, 1e-6, 1e-8 at 1000, 2500, 5000.  At 1e-7 theirs lies between its
/// second and third runs: 2500 sqrt(2) = 3535.5; its other segment's slope, ln 2.5 / ln 100 against ln 2 / ln 100,
/// differs by ln 1.25 / ln 100, over ln 10 from the bracket's end to the target: a spread of exp(ln 1.25 / 2) - 1 =
/// sqrt(1.25) - 1 = 11.8 %.  Each run takes 100 ns an evaluation (the median of mine's repeats 2 % above its minimum,
/// of theirs' 3 %).
report::Study versus_fixture(double m) {
  report::Study s;
  s.name = "versus", s.ref_bound = 1e-20, s.t_end = 1;
  s.integrators = {"theirs"};
  s.runs = {run("theirs", 0.1, 1e-4, 1000, 1000, 100, 103), run("theirs", 0.04, 1e-6, 2500, 2500, 100, 103),
            run("theirs", 0.02, 1e-8, 5000, 5000, 100, 103)};
  report::AdaptiveIntegratorRow pair;
  pair.label = "mine (adaptive)", pair.id = "mine", pair.controller = "odeint";
  s.adaptive = {pair};
  const double evals[] = {m / 2, m, 2 * m}, errors[] = {1e-4, 1e-6, 1e-8}, tols[] = {1e-4, 1e-6, 1e-8};
  for (int k = 0; k < 3; ++k) {
    report::RunRow r = run("mine (adaptive)", 1 / evals[k], errors[k], evals[k], static_cast<long>(evals[k]), 100, 102);
    r.tol = tols[k];
    s.adaptive_work.push_back(r);
  }
  return s;
}

}  // namespace

TEST_CASE("head to head: a method's cost over another's, with the interval of the two costs' uncertainties, and a verdict",
          "[report][accuracy]") {
  const double spread = std::sqrt(1.25) - 1;  // theirs at 1e-7 (versus_fixture); mine's line is straight: 0
  // m = 2000: 2000 sqrt(2) at 1e-7, 0.8 of theirs, within 0.8 / sqrt(1.25) to 0.8 sqrt(1.25): cheaper.
  const report::Study cheap = versus_fixture(2000);
  const auto h = report::head_to_head(cheap, "mine (adaptive)", "theirs", 1e-7, false);
  REQUIRE(h.mine.how == Reach::interpolated);
  CHECK(h.mine.evals == Approx(2000 * std::sqrt(2.0)).epsilon(1e-12));
  CHECK(h.mine.spread == Approx(0).margin(1e-12));
  CHECK(h.theirs.evals == Approx(2500 * std::sqrt(2.0)).epsilon(1e-12));
  CHECK(h.theirs.spread == Approx(spread).epsilon(1e-9));
  CHECK(h.ratio == Approx(0.8).epsilon(1e-12));
  CHECK(h.lo == Approx(0.8 / (1 + spread)).epsilon(1e-9));  // 0.7155
  CHECK(h.hi == Approx(0.8 * (1 + spread)).epsilon(1e-9));  // 0.8944
  CHECK(h.verdict == report::Versus::cheaper);
  CHECK(report::versus_cell(h) == "0.8× (0.716–0.894) cheaper");
  // By wall time the two's timing noise too, 2 % and 3 % added: 0.8 within a factor sqrt(1.25) * 1.05 either way,
  // 0.6815 to 0.9391: still cheaper.
  const auto t = report::head_to_head(cheap, "mine (adaptive)", "theirs", 1e-7, true);
  CHECK(t.ratio == Approx(0.8).epsilon(1e-12));
  CHECK(t.lo == Approx(0.8 / (1 + spread) / 1.05).epsilon(1e-9));
  CHECK(t.hi == Approx(0.8 * (1 + spread) * 1.05).epsilon(1e-9));
  CHECK(t.verdict == report::Versus::cheaper);
  // One repeat (theirs' median its minimum): the noise is not known, and by wall time nothing is decided.
  report::Study once = cheap;
  for (auto& r : once.runs) r.ns_median = r.ns_min;
  const auto single = report::head_to_head(once, "mine (adaptive)", "theirs", 1e-7, true);
  CHECK(single.verdict == report::Versus::cannot_tell);
  CHECK_THAT(single.why, Catch::StartsWith("theirs's wall time is one measurement"));
  CHECK(report::head_to_head(once, "mine (adaptive)", "theirs", 1e-7, false).verdict == report::Versus::cheaper);  // counts: no noise
  // Reversed, the same figures inverted: dearer by 1.25, within 1.118 to 1.398.
  const auto back = report::head_to_head(cheap, "theirs", "mine (adaptive)", 1e-7, false);
  CHECK(back.ratio == Approx(1.25).epsilon(1e-12));
  CHECK(back.lo == Approx(1.25 / (1 + spread)).epsilon(1e-9));
  CHECK(back.verdict == report::Versus::dearer);
  // m = 2400: 0.96, within 0.8587 to 1.0733: a tie; by wall time too.
  const report::Study close = versus_fixture(2400);
  const auto tie = report::head_to_head(close, "mine (adaptive)", "theirs", 1e-7, false);
  CHECK(tie.ratio == Approx(0.96).epsilon(1e-12));
  CHECK(tie.hi == Approx(0.96 * (1 + spread)).epsilon(1e-9));
  CHECK(tie.verdict == report::Versus::tie);
  CHECK(report::head_to_head(close, "mine (adaptive)", "theirs", 1e-7, true).verdict == report::Versus::tie);
  // m = 3000: 1.2, within 1.0733 to 1.3416: dearer.
  CHECK(report::head_to_head(versus_fixture(3000), "mine (adaptive)", "theirs", 1e-7, false).verdict == report::Versus::dearer);
  // Beyond mine's most accurate run a pair is not extrapolated: not reached, and the cell and the reason say whose.
  const auto deep = report::head_to_head(cheap, "theirs", "mine (adaptive)", 1e-9, false);
  CHECK(deep.verdict == report::Versus::not_reached);
  CHECK_THAT(deep.why, Catch::StartsWith("theirs: not reached"));
  const auto past = report::head_to_head(cheap, "mine (adaptive)", "theirs", 1e-9, false);
  CHECK(past.verdict == report::Versus::not_reached);
  CHECK_THAT(past.why, Catch::Contains("at tol 1e-08, gave error 1e-08 (a tighter tolerance in the spec's tol would reach it)"));
  CHECK(report::versus_cell(past) == "not reached");
}

TEST_CASE("head to head with an upper bound: decided only when the bound's whole range lies on one side", "[report][accuracy]") {
  // Mine's third run at its noise floor (round-off 1e-9 of an error of 1e-9): mine reaches 1e-7 there, at most 4000
  // evaluations and at least the 2000 of its larger step.  Theirs 3535.5 within a factor sqrt(1.25): 3162.3 to 3952.8.
  report::Study s = versus_fixture(2000);
  s.adaptive_work[2].global = 1e-9, s.adaptive_work[2].roundoff = 1e-9;
  const auto open = report::head_to_head(s, "mine (adaptive)", "theirs", 1e-7, false);
  REQUIRE(open.mine.how == Reach::at_most);
  CHECK(open.lo == Approx(2000 / (2500 * std::sqrt(2.0) * std::sqrt(1.25))).epsilon(1e-9));  // 0.506
  CHECK(open.hi == Approx(4000 / (2500 * std::sqrt(2.0) / std::sqrt(1.25))).epsilon(1e-9));  // 1.265
  CHECK(open.verdict == report::Versus::cannot_tell);
  CHECK_THAT(open.why, Catch::StartsWith("mine (adaptive)'s cost is only bounded (≤4e+03"));
  CHECK_THAT(report::versus_cell(open), Catch::StartsWith("≤1.13× (0.506–1.26) cannot tell"));
  // Theirs twice as dear (5000 and 10000 at 1e-6 and 1e-8: 7071 at 1e-7, its spread sqrt(2.5) - 1 from the slopes
  // ln 5 and ln 2 over ln 100): mine's 4000 lies below theirs' least, 4472: cheaper, bound and all.
  s.runs[1].force_evals = 5000, s.runs[2].force_evals = 10000;
  const auto sure = report::head_to_head(s, "mine (adaptive)", "theirs", 1e-7, false);
  CHECK(sure.theirs.spread == Approx(std::sqrt(2.5) - 1).epsilon(1e-9));
  CHECK(sure.hi == Approx(4000 / (5000 * std::sqrt(2.0) / std::sqrt(2.5))).epsilon(1e-9));  // 0.894
  CHECK(sure.verdict == report::Versus::cheaper);
  // Two bracketing runs and nothing beside them: the uncertainty is not known, and the verdict says so.
  report::Study two = versus_fixture(2000);
  two.runs.erase(two.runs.begin());  // theirs: 1e-6 and 1e-8 only
  const auto unknown = report::head_to_head(two, "mine (adaptive)", "theirs", 1e-7, false);
  CHECK(unknown.verdict == report::Versus::cannot_tell);
  CHECK_THAT(unknown.why, Catch::Contains("the uncertainty of theirs's cost is not known"));
}

TEST_CASE("a head-to-head's method is named by its label, or by an id that names one method", "[report][accuracy]") {
  report::Study s = versus_fixture(2000);
  CHECK(report::versus_label(s, "theirs") == "theirs");
  CHECK(report::versus_label(s, "mine (adaptive)") == "mine (adaptive)");
  CHECK(report::versus_label(s, "mine") == "mine (adaptive)");  // the pair's id
  CHECK(report::versus_label(s, "nobody").empty());
  report::AdaptiveIntegratorRow pi = s.adaptive[0];
  pi.label = "mine (adaptive, pi)", pi.controller = "pi";
  s.adaptive.push_back(pi);
  CHECK(report::versus_label(s, "mine").empty());  // two methods have that id: the label must say which
  CHECK(report::versus_label(s, "mine (adaptive, pi)") == "mine (adaptive, pi)");
}
