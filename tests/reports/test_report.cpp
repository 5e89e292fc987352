// The renderer: from a results file (a committed fixture from a real run) to REPORT.md and plots;
// deterministic; clear errors for missing or malformed results; the Markdown survives a missing gnuplot.
#include <catch2/catch.hpp>

#include "tests/reports/results_folder.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/claims.hpp"
#include "reports/plots.hpp"
#include "reports/process.hpp"
#include "study/reader/model.hpp"
#include "reports/render.hpp"
#include "reports/series.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path fixture = fs::path(HARNESS_SOURCE_DIR) / "tests" / "reports" / "fixture";



report::Options options(const fs::path& results, const fs::path& out) {
  report::Options o;
  o.results = results;
  o.out = out;
  return o;
}

}  // namespace

TEST_CASE("a results file renders to a one-screen summary, a page per study opening with its verdicts, and readable plots",
          "[report]") {
  testing::TempDir dir("report-sections");
  const auto outcome = report::render(options(fixture, dir.path));
  const std::string md = testing::read_file(outcome.markdown);
  for (const char* section : {"# Integrator accuracy report", "## Verdicts", "## Which method for which accuracy"})
    CHECK_THAT(md, Catch::Contains(section));
  // The summary links each study's page and says what the gate says of it.
  CHECK_THAT(md, Catch::Contains("| [Fixture: pendulum](fixture/REPORT.md) | `pendulum` |"));
  CHECK_THAT(md, Catch::Contains("](fixture/REPORT.md#accuracy) |"));
  const std::string page = testing::read_file(dir.path / "fixture" / "REPORT.md");
  // Every table, on the summary and the study's page, has a delimiter row of as many cells as its header (else
  // Markdown shows it as text).
  for (const std::string* text : {&md, &page}) {
    std::istringstream lines(*text);
    std::string previous;
    int tables = 0;
    for (std::string line; std::getline(lines, line); previous = line)
      if (line.rfind("|---", 0) == 0) {
        INFO(previous << "\n" << line);
        CHECK(std::count(line.begin(), line.end(), '|') == std::count(previous.begin(), previous.end(), '|') - std::count(previous.begin(), previous.end(), '\\'));
        ++tables;
      }
    CHECK(tables >= 2);
  }
  // The page opens with its verdicts, then the answer, then the evidence.
  const auto verdicts = page.find("## Verdicts"), answer = page.find("## Which method for which accuracy"),
             orders = page.find("## Convergence: observed against expected orders");
  CHECK(verdicts != std::string::npos);
  CHECK(verdicts < answer);
  CHECK(answer < orders);
  for (const char* section : {"## Error, energy and cost at the finest step that ended well", "## Time reversal", "## Long energy run",
                              "[← summary](../REPORT.md)"})
    CHECK_THAT(page, Catch::Contains(section));
  // Numbers come from the results: rk4's fitted orders, the growth exponent, leapfrog's stability limit, the bound.
  CHECK_THAT(page, Catch::Contains("| rk4 | 3.92 (4) pass | 4.02 (4) pass | 4.99 (5) pass |"));
  // The growth exponent and its interval, and its behaviour by the gate's rule: max_rel is not in these results ("—"),
  // so euler's final error 2.55, above 0.1, makes it too large to judge (a lost orbit), whatever its exponent.
  CHECK_THAT(page, Catch::Contains("| euler | 0.2 | ok | 2.55e+00 | — | 1.22 [1.12, 1.33] | too large |"));
  CHECK_THAT(page, Catch::Contains("| velocity-verlet | 0.2 | ok | -5.34e-03 | — | 0.50 [-1.50, 2.50] | cannot tell |"));
  CHECK_THAT(page, Catch::Contains("certified error bound 6.38e-28"));
  CHECK_THAT(page, Catch::Contains("| rk4 | explicit Runge–Kutta | pass | pass |"));  // the gate's verdicts; family from schema 2
  // Whole rows: each cell is that method's own check; "—" where it is not judged (euler and rk4 are neither
  // symplectic nor symmetric), velocity-verlet's energy undetermined (t_end = 4 is under 6 periods of 8.35).
  CHECK_THAT(page, Catch::Contains("| euler | explicit Runge–Kutta | pass | pass | — | — | — |\n"));
  CHECK_THAT(page, Catch::Contains("| velocity-verlet | splitting and composition | pass | pass | undetermined | pass | — |\n"));
  CHECK_THAT(page, Catch::Contains("| rk4 | explicit Runge–Kutta | pass | pass | — | — | — |\n"));
  CHECK_THAT(page, Catch::Contains("| velocity-verlet | splitting and composition |"));
  const std::string stability = testing::read_file(dir.path / "fixture-stability" / "REPORT.md");
  CHECK_THAT(stability, Catch::Contains("## Linear stability on the harmonic oscillator"));
  CHECK_THAT(stability, Catch::Contains("| leapfrog | 2.0000 | 2.0000 |"));
  CHECK_THAT(stability, Catch::Contains("| implicit-midpoint | 10.0000 | unbounded |"));  // A-stable: Newton solves every step
  // A '|' inside a cell is escaped: the table keeps its columns.
  CHECK_THAT(stability, Catch::Contains("\\|1 + i omega h\\| > 1"));
  REQUIRE(outcome.missing.empty());
  // Convergence (global, max, local), reversal, work-precision (evaluations and time), energy (against dt and
  // against time, log axes), long energy (log-log), phase portrait, stability against theory.
  const std::vector<std::string> expected{"fixture-global", "fixture-max", "fixture-local", "fixture-reversal", "fixture-work",
                                          "fixture-work-time", "fixture-energy-dt", "fixture-energy", "fixture-energy-long",
                                          "fixture-trajectory", "fixture-stability-stability"};
  CHECK(std::set<std::string>(outcome.plots.begin(), outcome.plots.end()) == std::set<std::string>(expected.begin(), expected.end()));
  for (const auto& name : outcome.plots) {
    const std::string svg = testing::read_file(dir.path / "plots" / (name + ".svg"));
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "plots" / (name + ".png")));  // PNG only when asked (--png)
    CHECK(fs::exists(dir.path / "plots" / (name + ".gp")));   // kept for restyling
    CHECK(fs::exists(dir.path / "plots" / (name + ".dat")));
    const std::string& where = name == "fixture-stability-stability" ? stability : page;
    CHECK_THAT(where, Catch::Contains("(../plots/" + name + ".svg)"));
  }
  for (const auto& e : fs::recursive_directory_iterator(dir.path)) CHECK(e.path().filename().string()[0] != '.');
  // The phase portrait draws the most accurate run (the fixture's rk4 at its smallest step) under the others, grey.
  CHECK_THAT(testing::read_file(dir.path / "plots" / "fixture-trajectory.gp"),
             Catch::Contains("index 0 using 1:2 with lines lw 5 lc rgb '#cccccc' title 'most accurate: "));
}

TEST_CASE("the summary's checks in all are the sums of its verdict table's rows", "[report][known]") {
  testing::TempDir dir("report-in-all");
  auto o = options(fixture, dir.path);
  o.plots = false;
  report::render(o);
  const std::string md = testing::read_file(dir.path / "REPORT.md");
  // Each study's row: passed, failed, undetermined (a count, or a link on it).
  std::regex row(R"(\| `[a-z-]+` \| (\d+) \| (\d+) \| (?:\[(\d+)\]\([^)]*\)|(\d+)) \|)");
  long pass = 0, fail = 0, undetermined = 0, rows = 0;
  for (auto it = std::sregex_iterator(md.begin(), md.end(), row); it != std::sregex_iterator(); ++it, ++rows)
    pass += std::stol((*it)[1]), fail += std::stol((*it)[2]), undetermined += std::stol((*it)[3].matched ? (*it)[3] : (*it)[4]);
  CHECK(rows == 2);
  // The fixture's one undetermined check: velocity Verlet's energy (t_end = 4, under 6 periods); none failed.
  CHECK(undetermined == 1);
  CHECK(fail == 0);
  CHECK_THAT(md, Catch::Contains(fmt::format("In all, {} checks: {} passed, 0 failed, 1 undetermined", pass + fail + undetermined, pass)));
}

TEST_CASE("with png a PNG is drawn beside each SVG", "[report]") {
  testing::TempDir dir("report-png");
  auto o = options(fixture, dir.path);
  o.png = true;
  const auto outcome = report::render(o);
  REQUIRE(outcome.missing.empty());
  for (const auto& name : outcome.plots) CHECK(testing::read_file(dir.path / "plots" / (name + ".png")).substr(1, 3) == "PNG");
}

TEST_CASE("the same results give byte-identical reports", "[report]") {
  testing::TempDir a("report-same-a"), b("report-same-b");
  report::render(options(fixture, a.path));
  report::render(options(fixture, b.path));
  for (const char* page : {"REPORT.md", "fixture/REPORT.md", "fixture-stability/REPORT.md"})
    CHECK(testing::read_file(a.path / page) == testing::read_file(b.path / page));
  for (const auto& e : fs::directory_iterator(a.path / "plots")) CHECK(testing::read_file(e.path()) == testing::read_file(b.path / "plots" / e.path().filename()));
}

TEST_CASE("without gnuplot the Markdown is still written and says which plots are missing", "[report]") {
  testing::TempDir dir("report-no-gnuplot");
  auto o = options(fixture, dir.path);
  o.gnuplot = "/nonexistent/gnuplot";
  const auto outcome = report::render(o);
  CHECK(outcome.plots.empty());
  CHECK(outcome.missing.size() == 11);
  CHECK_THAT(outcome.problem, Catch::Contains("cannot run gnuplot ('/nonexistent/gnuplot': cannot start") &&
                                  Catch::Contains("apt-get install gnuplot-nox"));
  const std::string md = testing::read_file(outcome.markdown);
  CHECK_THAT(md, Catch::Contains("11 plot(s) missing"));
  for (const auto& page : outcome.pages) CHECK_THAT(testing::read_file(page), !Catch::Contains("![", Catch::CaseSensitive::Yes));  // no links to pictures that are not there
  CHECK_THAT(testing::read_file(dir.path / "fixture" / "REPORT.md"), Catch::Contains("## Convergence"));
  CHECK(fs::exists(dir.path / "plots" / "fixture-global.gp"));
}

TEST_CASE("order cells show the verdict of results.json and undetermined ones say what would decide them", "[report]") {
  testing::TempDir dir("report-verdicts");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  for (auto& o : doc["studies"][0]["orders"]) {
    if (o["integrator"] != "rk4") continue;
    if (o["metric"] == "global") o["verdict"] = "undetermined", o["reason"] = "slopes still move", o["action"] = "extend the sweep below dt 0.006";
    if (o["metric"] == "local") o["verdict"] = "fail";
  }
  fs::copy(fixture / "fixture", dir.path / "fixture");
  testing::write_results(dir.path, doc);
  auto o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  const std::string md = testing::read_file(dir.path / "fixture" / "REPORT.md");
  CHECK_THAT(md, Catch::Contains("| rk4 | 3.92 (4) undetermined | 4.02 (4) pass | 4.99 (5) **FAIL** |"));
  CHECK_THAT(md, Catch::Contains("- rk4, global: slopes still move; to decide: extend the sweep below dt 0.006\n"));
  CHECK_THAT(md, !Catch::Contains("- rk4, max:"));
}

TEST_CASE("the largest stable step per force evaluation: each limit over the evaluations a step of its method takes",
          "[report][known]") {
  // The fixture's stability study has no runs, and its schema-2 integrators do not record their evaluations: no
  // cost per evaluation is known, so the summary claims none (it once divided by 1 and crowned rk4's 2.828).
  testing::TempDir dir("report-stability-cost");
  auto o = options(fixture, dir.path);
  o.plots = false;
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "REPORT.md"), !Catch::Contains("Large steps on stiff oscillations"));
  // With the evaluations recorded (1, 1, 4 and 1 a step): limits 0, 2, 2 sqrt 2 and A-stable give 0, 2, 0.707 per
  // evaluation (the A-stable implicit midpoint is left out): leapfrog's 2.000 is the largest; euler is never stable.
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  for (auto& i : doc["studies"][1]["integrators"]) i["evals_per_step"] = i["id"] == "rk4" ? 4 : 1;
  fs::copy(fixture / "fixture", dir.path / "fixture");
  testing::write_results(dir.path, doc);
  o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "REPORT.md"),
             Catch::Contains("the largest stable ωh per force evaluation among explicit methods is 2.000, reached by leapfrog; "
                             "unstable for every step: euler.\n"));
  // rk4 taken 4 times a step (16 evaluations, limit 4 x 2 sqrt 2 = 11.31): still 0.707 per evaluation.
  doc["studies"][1]["stability"][2]["limit"] = 4 * 2 * std::sqrt(2.0);
  doc["studies"][1]["integrators"][2]["evals_per_step"] = 16;
  doc["studies"][1]["stability"][1]["limit"] = 0.5;  // and leapfrog made worse than rk4: 0.5 per evaluation
  testing::write_results(dir.path, doc);
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "REPORT.md"),
             Catch::Contains("among explicit methods is 0.707, reached by rk4; unstable for every step: euler.\n"));
}

TEST_CASE("the stability plot's axis: a quarter above the largest limit or theory, 1 when none is above 0", "[report][known]") {
  testing::TempDir dir("report-stability-axis");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  fs::copy(fixture / "fixture", dir.path / "fixture");
  auto o = options(dir.path, dir.path);
  auto script = [&] { return testing::read_file(dir.path / "plots" / "fixture-stability-stability.gp"); };
  // The fixture: limits 0, 2, 2 sqrt 2 and 10 (implicit midpoint, the search's end; its theory unbounded, marked at
  // 0.96 of the top): the axis ends at 1.25 x 10.
  testing::write_results(dir.path, doc);
  report::render(o);
  CHECK_THAT(script(), Catch::Contains("set yrange [0:12.5]"));
  CHECK_THAT(testing::read_file(dir.path / "plots" / "fixture-stability-stability.dat"), Catch::Contains("\"implicit-midpoint\" 10 NaN 12\n"));
  // Euler alone, unstable for every step (limit and theory 0): an axis from 0 to 1, not an empty one.
  doc["studies"][1]["stability"] = nlohmann::json::array({doc["studies"][1]["stability"][0]});
  testing::write_results(dir.path, doc);
  report::render(o);
  CHECK_THAT(script(), Catch::Contains("set yrange [0:1]"));
}

TEST_CASE("samples.csv's columns are found by their names, in any order", "[report][known]") {
  testing::TempDir dir("report-sample-columns");
  fs::copy_file(fixture / "results.json", dir.path / "results.json");
  fs::create_directories(dir.path / "fixture");
  for (const char* table : {"runs.csv", "energy_long.csv"}) fs::copy_file(fixture / "fixture" / table, dir.path / "fixture" / table);
  // A coordinate first, the integrator in the middle, two positions and a velocity.
  std::ofstream(dir.path / "fixture" / "samples.csv") << "q1,dt,integrator,t,v0,error,q0,energy_rel\n"
                                                        "7,0.2,rk4,0.4,-1.5,1e-5,3,2e-6\n"
                                                        "8,0.2,rk4,0.6,-2.5,3e-5,4,4e-6\n";
  const report::Results res = report::load(dir.path);
  const auto samples = report::samples_at(res, res.studies.front(), 0.2);
  REQUIRE(samples.count("rk4"));
  const auto& rk4 = samples.at("rk4");
  REQUIRE(rk4.size() == 2);
  CHECK(rk4[0].t == 0.4);
  CHECK(rk4[0].error == 1e-5);
  CHECK(rk4[0].energy == 2e-6);
  CHECK(rk4[0].q == std::vector<double>{7, 3});  // in the order of their columns
  CHECK(rk4[0].v == std::vector<double>{-1.5});
  CHECK(rk4[1].q == std::vector<double>{8, 4});
  CHECK(report::samples_at(res, res.studies.front(), 0.1).empty());
}

TEST_CASE("a long trajectory is thinned to 400 points evenly spread, its first and last kept", "[report][known]") {
  testing::TempDir dir("report-thin");
  fs::copy_file(fixture / "results.json", dir.path / "results.json");
  fs::create_directories(dir.path / "fixture");
  for (const char* table : {"runs.csv", "energy_long.csv"}) fs::copy_file(fixture / "fixture" / table, dir.path / "fixture" / table);
  // 1001 samples of rk4 at the plot step 0.2: t = 0.004 k, relative energy error 1e-9 (k + 1).
  std::ostringstream csv;
  csv << "integrator,dt,t,error,energy_rel,q0,v0\n";
  for (int k = 0; k <= 1000; ++k) csv << "rk4,0.2," << fmt::format("{}", 0.004 * k) << ",1e-6," << fmt::format("{}", 1e-9 * (k + 1)) << ",1,0\n";
  std::ofstream(dir.path / "fixture" / "samples.csv") << csv.str();
  auto o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  std::vector<std::pair<double, double>> rows;
  std::istringstream dat(testing::read_file(dir.path / "plots" / "fixture-energy.dat"));
  for (std::string line; std::getline(dat, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    double t = 0, e = 0;
    row >> t >> e;
    rows.emplace_back(t, e);
  }
  // Row i is sample i 1000 / 399 (integer division): 0, 2, ..., 501 at i = 200, ..., 1000 at i = 399.
  REQUIRE(rows.size() == 400);
  CHECK(rows[0].first == 0);
  CHECK(rows[0].second == Approx(1e-9));
  CHECK(rows[1].first == Approx(0.008));
  CHECK(rows[200].first == Approx(0.004 * 501));
  CHECK(rows[200].second == Approx(1e-9 * 502));
  CHECK(rows[399].first == Approx(4));
  CHECK(rows[399].second == Approx(1e-9 * 1001));
}

TEST_CASE("the summary's answer for a dissipative problem is given at the second accuracy asked for, else the only one", "[report][known]") {
  testing::TempDir dir("report-dissipative");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  doc["studies"][0]["problem_info"]["conservative"] = false;
  fs::copy(fixture / "fixture", dir.path / "fixture");
  testing::write_results(dir.path, doc);
  auto o = options(dir.path, dir.path);
  o.plots = false;
  o.accuracy = {1e-4, 1e-6};
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "REPORT.md"), Catch::Contains("the splitting methods do not apply; to 1e-06, "));
  o.accuracy = {1e-4};
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "REPORT.md"), Catch::Contains("the splitting methods do not apply; to 1e-04, "));
}

TEST_CASE("plot lines merge where two methods' errors coincide within round-off at every step, at equal cost unless told", "[report][known]") {
  auto run = [](const std::string& m, double dt, double global, double roundoff, double evals, const char* status = "ok") {
    report::RunRow r;
    r.integrator = m, r.status = status, r.dt = dt, r.global = global, r.roundoff = roundoff, r.force_evals = evals, r.steps = 1000;
    return r;
  };
  report::Study s;
  s.integrators = {"a", "b"};
  // Round-off 1e-12 in each run: they coincide while the errors differ by at most 10 x (1e-12 + 1e-12) = 2e-11.
  s.runs = {run("a", 0.1, 1e-4, 1e-12, 100), run("a", 0.05, 6.25e-6, 1e-12, 200), run("b", 0.1, 1e-4 + 1.9e-11, 1e-12, 100),
            run("b", 0.05, 6.25e-6, 1e-12, 200)};
  auto lines = [&](bool merge, std::optional<bool> same_cost = std::nullopt) {
    std::vector<std::string> out;
    for (const auto& x : same_cost ? report::series_of(s, merge, *same_cost) : report::series_of(s, merge)) out.push_back(x.label());
    return out;
  };
  using L = std::vector<std::string>;
  CHECK(lines(true) == L{"a = b"});
  CHECK(lines(false) == L{"a", "b"});
  s.runs[2].global = 1e-4 + 2.1e-11;
  CHECK(lines(true) == L{"a", "b"});
  // Round-off not measured: 100 eps per step, 1000 steps each: 10 x 2 x 100 eps x 1000 = 4.44e-10.
  for (auto& r : s.runs) r.roundoff = NAN;
  s.runs[2].global = 1e-4 + 4.3e-10;
  CHECK(lines(true) == L{"a = b"});
  s.runs[2].global = 1e-4 + 4.6e-10;
  CHECK(lines(true) == L{"a", "b"});
  s.runs[2].global = 1e-4;
  // The same errors at a different cost: one line only when cost does not matter (the error against dt).
  s.runs[3].force_evals = 400;
  CHECK(lines(true) == L{"a", "b"});
  CHECK(lines(true, true) == L{"a", "b"});
  CHECK(lines(true, false) == L{"a = b"});
  s.runs[3].force_evals = 200;
  // A step only one of them ran, or fewer than two steps where both ended well: two lines.
  s.runs.push_back(run("b", 0.075, 1e-5, 1e-12, 150));
  CHECK(lines(true) == L{"a", "b"});
  s.runs.pop_back();
  // ... unless it lies below the other's smallest step and the other's sweep stopped there on its own (a range that
  // dt.past_floor stopped at its noise floor, or dt = "auto"): one line, with both methods' steps.
  s.runs.push_back(run("b", 0.025, 3.9e-7, 1e-12, 400));
  s.sweeps = {{"a", false, {0.1, 0.05}, "the global error ...", "noise-floor", ""}, {"b", false, {0.1, 0.05, 0.025}, "the spec's step sizes", "", ""}};
  CHECK(lines(true) == L{"a = b"});
  s.sweeps[0].stop_cause = "";  // a stopped for no reason the results give: its missing step is a difference
  CHECK(lines(true) == L{"a", "b"});
  s.sweeps[0].automatic = true;
  CHECK(lines(true) == L{"a = b"});
  s.runs.back().dt = 0.075;  // inside a's range: a step a did not run
  CHECK(lines(true) == L{"a", "b"});
  s.runs.pop_back();
  s.sweeps.clear();
  // Verdicts apart, lines apart: a FAIL under a merged label would name the method that passes, or the reverse.
  report::OrderRow fa, fb;
  fa.integrator = "a", fb.integrator = "b", fa.metric = fb.metric = "local", fa.verdict = "fail", fb.verdict = "pass";
  fa.expected = 6, fb.expected = 5;
  s.orders = {fa, fb};
  CHECK(lines(true) == L{"a", "b"});
  s.orders[1].verdict = "fail";  // the same verdict, but another expected order
  CHECK(lines(true) == L{"a", "b"});
  s.orders[1].expected = 6;
  CHECK(lines(true) == L{"a = b"});
  s.orders.pop_back();  // a verdict only one of them has, either one
  CHECK(lines(true) == L{"a", "b"});
  s.orders = {fb};
  CHECK(lines(true) == L{"a", "b"});
  s.orders.clear();
  s.runs[1].status = s.runs[3].status = "diverged";
  CHECK(lines(true) == L{"a", "b"});
}

TEST_CASE("text for a gnuplot script: control characters become spaces, quotes typographic ones", "[report][known]") {
  // A line break would start a new gnuplot command; a quote would end the string; a backquote substitutes a command.
  CHECK(report::script_text("a\nb\tc\x7f" "d\x1f" "e") == "a b c d e");
  CHECK(report::script_text("it's \"x\" `id`") == "it’s ”x” ‘id‘");
  CHECK(report::script_text("ωh ≤ 2") == "ωh ≤ 2");  // UTF-8 bytes (above 0x7f) kept
  CHECK(report::quoted("it's") == "'it’s'");
}

TEST_CASE("a line needs two points: a method with one sample is left out of the long energy and trajectory plots", "[report][known]") {
  testing::TempDir dir("report-two-points");
  fs::copy_file(fixture / "results.json", dir.path / "results.json");
  fs::copy(fixture / "fixture", dir.path / "fixture");
  // The long energy run: euler with two samples (drawn), rk4 with one (not), velocity Verlet's as they are; each run's
  // last samples, which end on results.json's final error (the loader holds the two copies to each other).
  std::istringstream energy(testing::read_file(fixture / "fixture" / "energy_long.csv"));
  std::string kept, line;
  std::vector<std::string> euler, rk4;
  for (std::getline(energy, line), kept = line + "\n"; std::getline(energy, line);) {
    if (line.rfind("euler,", 0) == 0) euler.push_back(line);
    else if (line.rfind("rk4,", 0) == 0) rk4.push_back(line);
    else if (line.rfind("velocity-verlet,", 0) == 0) kept += line + "\n";
  }
  REQUIRE(euler.size() > 2);
  REQUIRE(rk4.size() > 1);
  kept += euler[euler.size() - 2] + "\n" + euler.back() + "\n" + rk4.back() + "\n";
  std::ofstream(dir.path / "fixture" / "energy_long.csv") << kept;
  // The trajectory at the plot step 0.2: rk4 with one sample there (not drawn), euler with its 17.
  std::istringstream samples(testing::read_file(fixture / "fixture" / "samples.csv"));
  int rk4_at_plot_dt = 0;
  for (std::getline(samples, line), kept = line + "\n"; std::getline(samples, line);)
    if (line.rfind("rk4,0.20000000000000001,", 0) != 0 || rk4_at_plot_dt++ < 1) kept += line + "\n";
  std::ofstream(dir.path / "fixture" / "samples.csv") << kept;
  auto o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  // The rows of each block of a data file, by its title line ("# title").
  auto blocks = [&](const std::string& file) {
    std::map<std::string, int> rows;
    std::istringstream in(testing::read_file(dir.path / "plots" / file));
    std::string title;
    for (std::string l; std::getline(in, l);)
      if (l.rfind("# ", 0) == 0) title = l.substr(2), rows[title] = 0;
      else if (!l.empty() && !title.empty()) ++rows[title];
    return rows;
  };
  const auto energy_rows = blocks("fixture-energy-long.dat");
  REQUIRE(energy_rows.count("euler"));
  CHECK(energy_rows.at("euler") == 2);
  CHECK_FALSE(energy_rows.count("rk4"));
  CHECK(energy_rows.count("velocity-verlet"));
  const auto trajectory_rows = blocks("fixture-trajectory.dat");
  CHECK(trajectory_rows.count("euler, dt = 0.2"));
  CHECK_FALSE(trajectory_rows.count("rk4, dt = 0.2"));
}

TEST_CASE("a program's standard error is kept to its last 4 KiB, up to the last line it wrote before it exited", "[report][known]") {
  // 60 000 bytes (less than a pipe holds: all written before it exits), then a last line and exit status 3.
  const auto r = report::run_process({"sh", "-c", "head -c 60000 /dev/zero | tr '\\0' A >&2; echo THE-END >&2; exit 3"}, {},
                                     std::chrono::seconds(30));
  CHECK(r.started);
  CHECK(r.exit_code == 3);
  CHECK(r.error.size() == 4096);
  CHECK(r.error.ends_with("AAATHE-END\n"));
  CHECK(r.error.find_first_not_of('A') == 4096 - 8);
}

TEST_CASE("a program started by the report reads nothing: its standard input is /dev/null, never ours", "[report][known]") {
  // Our standard input made a pipe holding 5 bytes: a child that inherited it would count them.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(::write(fds[1], "ours\n", 5) == 5);
  ::close(fds[1]);
  const int saved = ::dup(0);
  REQUIRE(saved >= 0);
  ::dup2(fds[0], 0), ::close(fds[0]);
  const auto r = report::run_process({"sh", "-c", "wc -c >&2"}, {}, std::chrono::seconds(30));
  ::dup2(saved, 0), ::close(saved);
  CHECK(r.exit_code == 0);
  CHECK(r.error.find_first_not_of(" ") == r.error.find('0'));  // wc's count, padded or not: 0
  CHECK(r.error.ends_with("0\n"));
  CHECK(r.error.find_first_of("123456789") == std::string::npos);
}

TEST_CASE("the summary counts the runs and the diverged ones, and the work-precision plots need global errors, by time also timings", "[report][known]") {
  testing::TempDir dir("report-counts");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  auto& last = doc["studies"][0]["runs"].back();  // one run diverged
  last["status"] = "diverged", last["diverged"] = {{"step", 3}, {"t", 0.3}, {"reason", "the state left every bound"}};
  std::size_t runs = 0, diverged = 0;
  for (const auto& st : doc["studies"])
    for (const auto& r : st["runs"]) ++runs, diverged += r["status"] != "ok";
  REQUIRE(diverged > 0);
  REQUIRE(diverged < runs);
  fs::copy(fixture / "fixture", dir.path / "fixture");
  testing::write_results(dir.path, doc);
  auto o = options(dir.path, dir.path / "all");
  o.plots = false;  // the plots' scripts are written all the same: a plot made is its .gp file
  report::render(o);
  CHECK_THAT(testing::read_file(o.out / "REPORT.md"), Catch::Contains(fmt::format("{} runs ({} diverged)", runs, diverged)));
  auto drawn = [&](const std::string& name) { return fs::exists(o.out / "plots" / (name + ".gp")); };
  CHECK(drawn("fixture-work"));
  CHECK(drawn("fixture-work-time"));
  // Without timings: by evaluations only.  Without global errors: neither, timings or not.
  auto metrics_without = [&](const std::string& metric) {
    auto& m = doc["studies"][0]["metrics"];
    m.erase(std::remove(m.begin(), m.end(), metric), m.end());
    testing::write_results(dir.path, doc);
    o.out = dir.path / ("without-" + metric);
    report::render(o);
  };
  metrics_without("walltime");
  CHECK(drawn("fixture-work"));
  CHECK_FALSE(drawn("fixture-work-time"));
  doc["studies"][0]["metrics"].push_back("walltime");
  metrics_without("global");
  CHECK_FALSE(drawn("fixture-work"));
  CHECK_FALSE(drawn("fixture-work-time"));
}

TEST_CASE("compare and history count every results folder held at once against --max-memory", "[report][hardening]") {
  testing::TempDir dir("report-memory-together");
  std::vector<fs::path> dirs;
  for (const char* name : {"a", "b", "c"}) {  // results.json of 50 000 bytes each: 4e5 once parsed (8 x)
    fs::create_directories(dir.path / name);
    std::ofstream(dir.path / name / "results.json") << std::string(50000, ' ');
    dirs.push_back(dir.path / name);
  }
  fs::create_directories(dir.path / "a" / "s");
  std::ofstream(dir.path / "a" / "s" / "samples.csv") << std::string(10000, 'x');  // the largest table: 8e4 more
  CHECK_NOTHROW(report::check_memory_together({dirs[0]}, 1e6));  // 4.8e5
  CHECK_NOTHROW(report::check_memory_together({dirs[0], dirs[1]}, 1e6));  // 8.8e5
  CHECK_THROWS_WITH(report::check_memory_together(dirs, 1e6),  // 1.28e6: each alone fits, the three together do not
                    Catch::Contains("these 3 results folders together would take about 1.28 MB"));
}

TEST_CASE("a program's end in one line: its last line of standard error, the time limit, the signal", "[report][known]") {
  report::ProcessResult r;
  r.error = "cannot start 'x': No such file or directory";
  CHECK(r.describe(std::chrono::seconds(60)) == r.error);  // not started: the reason as it is
  r.started = true, r.exit_code = 1, r.error = "line 1: warning\nline 2: the error\n \n";
  CHECK(r.describe(std::chrono::seconds(60)) == "exit status 1: line 2: the error");
  r.error = "one line only";
  CHECK(r.describe(std::chrono::seconds(60)) == "exit status 1: one line only");
  r.error.clear();
  CHECK(r.describe(std::chrono::seconds(60)) == "exit status 1");
  r.signal = 9, r.error = "a\nb";
  CHECK(r.describe(std::chrono::seconds(60)) == "killed by signal 9 (SIGKILL): b");
  r.signal = 25;  // SIGXFSZ on Linux x86-64 (signal(7)): gnuplot over `ulimit -f`, its default disposition restored
  CHECK(r.describe(std::chrono::seconds(60)) == "killed by signal 25 (SIGXFSZ: a file-size limit, ulimit -f): b");
  r.signal = 9;
  r.timed_out = true;
  CHECK(r.describe(std::chrono::milliseconds(2500)) == "timed out after 2.500 s and was stopped");
  r.timed_out = false, r.cancelled = true;
  CHECK(r.describe(std::chrono::seconds(60)) == "stopped (interrupted)");
}

TEST_CASE("the long energy plot's guides t^1/2 and t^1 pass through the geometric middle of its data", "[report][known]") {
  testing::TempDir dir("report-energy-guides");
  auto o = options(fixture, dir.path);
  o.plots = false;  // the scripts and data are written all the same
  report::render(o);
  // The middle from the data file itself: every row "t |error|" of every line drawn.
  double t_lo = INFINITY, t_hi = 0, e_lo = INFINITY, e_hi = 0;
  std::istringstream dat(testing::read_file(dir.path / "plots" / "fixture-energy-long.dat"));
  int rows = 0;
  for (std::string line; std::getline(dat, line);) {
    double t = 0, e = 0;
    if (line.empty() || line[0] == '#' || std::sscanf(line.c_str(), "%lf %lf", &t, &e) != 2) continue;
    t_lo = std::min(t_lo, t), t_hi = std::max(t_hi, t), e_lo = std::min(e_lo, e), e_hi = std::max(e_hi, e), ++rows;
  }
  REQUIRE(rows > 10);
  // Every sample of the long runs with a nonzero error is drawn, the small ones too (energy_long.csv, read here).
  std::istringstream csv(testing::read_file(fixture / "fixture" / "energy_long.csv"));
  int samples = 0;
  double smallest = INFINITY;
  std::string row;
  std::getline(csv, row);  // the header
  while (std::getline(csv, row)) {
    const auto last = row.rfind(','), before = row.rfind(',', last - 1);
    const double t = std::stod(row.substr(before + 1, last - before - 1)), e = std::abs(std::stod(row.substr(last + 1)));
    if (t > 0 && e > 0 && std::isfinite(e)) ++samples, smallest = std::min(smallest, e);
  }
  CHECK(rows == samples);
  CHECK(e_lo == smallest);
  const double tm = std::sqrt(t_lo * t_hi), em = std::sqrt(e_lo * e_hi);
  const std::string gp = testing::read_file(dir.path / "plots" / "fixture-energy-long.gp");
  for (const char* slope : {"0.5", "1"})
    CHECK_THAT(gp, Catch::Contains(fmt::format("{:.9e} * (x / {:.9e})**{} with lines dt 2", em, tm, slope)));
}

TEST_CASE("the summary sorts long energy runs by the gate's rule: bounded below t^1/2, drifting above, or above 0.1", "[report][known]") {
  testing::TempDir dir("report-energy-long");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  auto& runs = doc["studies"][0]["energy_long"];
  REQUIRE(runs.size() == 3);  // euler, velocity-verlet, rk4
  // velocity-verlet bounded (t^0.1), rk4 straddling 1/2 (t^0.5 +- 0.01: neither), euler drifting (t^1.2).
  const std::map<std::string, double> growth{{"euler", 1.2}, {"velocity-verlet", 0.1}, {"rk4", 0.5}};
  for (auto& e : runs) {
    const double a = growth.at(e["integrator"].get<std::string>());
    e["status"] = "ok", e["final_rel"] = 1e-4, e["max_rel"] = 1e-4, e["growth_exponent"] = a, e["growth_interval"] = {a - 0.01, a + 0.01};
  }
  // An expected order of 0 is within the schema (0 to 100): read as it is.
  doc["studies"][0]["orders"][0]["expected"] = 0;
  fs::copy(fixture / "fixture", dir.path / "fixture");
  testing::write_results(dir.path, doc);
  CHECK(report::load(dir.path).studies[0].orders[0].expected == 0);
  doc["studies"][0]["orders"][0]["expected"] = 1;
  testing::write_results(dir.path, doc);
  auto o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "REPORT.md"),
             Catch::Contains("energy error bounded for velocity-verlet; growing for euler (t^1.20).\n"));
  // At the edges: an interval reaching 1/2 is not bounded, one just above it is a drift; an error above 0.1 is growth
  // whatever the slope.
  runs[1]["growth_interval"] = {0.3, 0.5}, runs[0]["growth_exponent"] = 0.6, runs[0]["growth_interval"] = {0.5001, 0.7};
  runs[2]["max_rel"] = 0.11;
  testing::write_results(dir.path, doc);
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "REPORT.md"),
             Catch::Contains("energy error bounded for none; growing for euler (t^0.60), rk4 (error 0.11).\n"));
}

TEST_CASE("each sweep says where it ended: its runs, step sizes, smallest error and why it stopped", "[report][auto]") {
  testing::TempDir dir("report-sweeps");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  doc["studies"][0]["sweeps"] = nlohmann::json::array(
      {{{"integrator", "rk4"}, {"automatic", true}, {"dts", {0.5, 0.25, 0.125, 0.0625}}, {"stop", "every order is decided (global pass)"}},
       {{"integrator", "euler"}, {"automatic", false}, {"dts", {0.2, 0.1}}, {"stop", "the spec's step sizes"}}});
  fs::copy(fixture / "fixture", dir.path / "fixture");
  testing::write_results(dir.path, doc);
  auto o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  const std::string md = testing::read_file(dir.path / "fixture" / "REPORT.md");
  // The smallest error of each one's runs in the fixture (read off results.json: rk4 1.1645e-11, euler 8.985e-03).
  CHECK_THAT(md, Catch::Contains("| rk4 | 4 | 0.5–0.0625 | 1.16e-11 | every order is decided (global pass) |"));
  CHECK_THAT(md, Catch::Contains("| euler | 2 | 0.2–0.1 | 8.99e-03 | the spec's step sizes |"));
}

TEST_CASE("a path inside a results folder is answered with the folder to give, and a study's folder with --study", "[report]") {
  using Catch::Contains;
  testing::TempDir dir("report-inside");
  fs::copy(fixture, dir.path / "res", fs::copy_options::recursive);  // results.json and the study folder "fixture"
  const fs::path res = dir.path / "res";
  const std::string folder = "lies inside the results folder " + res.string() + ", which holds results.json: give that folder";
  const std::string study = "(study check " + res.string() + " --study fixture judges that study alone)";
  CHECK_THROWS_WITH(report::load(res / "fixture"), Contains(folder) && Contains(study));
  CHECK_THROWS_WITH(report::load(res.string() + "/fixture/"), Contains(folder) && Contains(study));
  CHECK_THROWS_WITH(report::load(res / "fixture" / "samples.csv"), Contains(folder) && Contains(study));
  CHECK_THROWS_WITH(report::load(res / "results.json"), Contains("is the results file itself: give the folder that holds it, " + res.string()));
  // The enclosing results.json is read for its study names only within the memory limit: below 8 x its size, the
  // folder is still named, without the --study hint.
  const double json_size = static_cast<double>(fs::file_size(res / "results.json"));
  CHECK_THROWS_WITH(report::load(res / "fixture", 8 * json_size + 1), Contains(folder) && Contains(study));
  CHECK_THROWS_WITH(report::load(res / "fixture", 8 * json_size - 1), Contains(folder) && !Contains("--study"));
  std::ofstream(res / "notes.txt") << "mine\n";  // a file of the user's beside the results: no study to name
  CHECK_THROWS_WITH(report::load(res / "notes.txt"), Contains(folder) && !Contains("--study"));
  // A folder inside that is no study's (the report's plots/, results of their own not yet written): as elsewhere.
  fs::create_directories(res / "plots");
  CHECK_THROWS_WITH(report::load(res / "plots"), Contains("plots/results.json: no results file") && !Contains("--study"));
  // Not inside results: the messages as before.
  CHECK_THROWS_WITH(report::load(res / "missing"), Contains("missing/results.json: no results file"));
  std::ofstream(dir.path / "spec.toml") << "name = \"x\"\n";
  CHECK_THROWS_WITH(report::load(dir.path / "spec.toml"), Contains("is a file, not a results folder"));
  CHECK_NOTHROW(report::load(res));
}

TEST_CASE("a results folder missing a table or with a table row results.json lacks or too large to read is refused", "[report][hardening]") {
  using Catch::Contains;
  testing::TempDir dir("report-tables");
  const fs::path res = dir.path / "res";
  auto fresh = [&] {
    fs::remove_all(res);
    fs::copy(fixture, res, fs::copy_options::recursive);
  };
  fresh();
  CHECK_NOTHROW(report::load(res));
  // Each table study run writes for this study (18 runs, 3 long energy runs), taken away in turn.
  for (const auto& [table, says] : std::vector<std::pair<std::string, std::string>>{
           {"runs.csv", "has 18 runs for study 'fixture'"},
           {"samples.csv", "has 18 runs (their samples) for study 'fixture'"},
           {"energy_long.csv", "has 3 long energy runs for study 'fixture'"}}) {
    fresh();
    fs::remove(res / "fixture" / table);
    CHECK_THROWS_WITH(report::load(res), Contains((res / "fixture" / table).string() + ": missing, but results.json " + says) &&
                                             Contains("run the study again"));
  }
  // A dangling link in a table's place is missing too.
  fresh();
  fs::remove(res / "fixture" / "samples.csv");
  fs::create_symlink(res / "nowhere.csv", res / "fixture" / "samples.csv");
  CHECK_THROWS_WITH(report::load(res), Contains((res / "fixture" / "samples.csv").string() + ": missing"));
  // A long energy run's sample whose (integrator, dt) results.json does not have: refused as the report reads it.
  fresh();
  std::ofstream(res / "fixture" / "energy_long.csv", std::ios::app) << "rk4,0.123,1,1e-9\n";
  const report::Results loaded = report::load(res);
  CHECK_THROWS_WITH(report::energy_long_samples(loaded, loaded.studies.front()),
                    Contains("energy_long.csv:") && Contains("a sample of 'rk4' at dt 0.123, a long energy run results.json does not have"));
  // Memory: 8 bytes held per byte of results.json and of the largest table, checked before parsing.
  fresh();
  const double json = static_cast<double>(fs::file_size(res / "results.json"));
  double table = 0;
  for (const char* t : {"runs.csv", "samples.csv", "energy_long.csv"})
    table = std::max(table, static_cast<double>(fs::file_size(res / "fixture" / t)));
  const double need = 8 * (json + table);
  CHECK_NOTHROW(report::load(res, need * 1.001));
  CHECK_THROWS_WITH(report::load(res, need * 0.999), Contains("reading these results would take about") &&
                                                         Contains("above the limit of") && Contains("--max-memory"));
  // A title longer than a spec allows (300 bytes), any other string longer than 4096: edited by hand.
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  doc["studies"][0]["title"] = std::string(301, 't');
  CHECK_THROWS_WITH(report::load_document(doc, "results.json", "."), Contains("title: is 301 bytes long; at most 300"));
  doc["studies"][0]["title"] = std::string(300, 't');
  doc["studies"][0]["orders"][0]["reason"] = std::string(4097, 'r');
  CHECK_THROWS_WITH(report::load_document(doc, "results.json", "."), Contains("reason: is 4097 bytes long; at most 4096"));
  doc["studies"][0]["orders"][0]["reason"] = std::string(4096, 'r');
  CHECK_NOTHROW(report::load_document(doc, "results.json", "."));
}

TEST_CASE("missing or malformed results get clear errors", "[report]") {
  testing::TempDir dir("report-bad");
  using Catch::Contains;
  CHECK_THROWS_WITH(report::render(options(dir.path, dir.path)), Contains("results.json: no results file") && Contains("study run"));
  std::ofstream(dir.path / "results.json") << "{ \"meta\": ";
  CHECK_THROWS_WITH(report::render(options(dir.path, dir.path)), Contains("not valid JSON"));
  std::string text = testing::read_file(fixture / "results.json");
  const auto at = text.find("\"dt\":");
  REQUIRE(at != std::string::npos);
  text.replace(at, 5, "\"dx\":");
  std::ofstream(dir.path / "results.json", std::ios::trunc) << text;
  CHECK_THROWS_WITH(report::render(options(dir.path, dir.path)), Contains("results.studies[0].runs[0]: missing 'dt'"));
  CHECK_FALSE(fs::exists(dir.path / "REPORT.md"));  // nothing half-written
}

TEST_CASE("impossible values in results are refused, naming the field: the gate would judge them", "[report][hardening]") {
  const nlohmann::json good = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  auto error_after = [&](const std::function<void(nlohmann::json&)>& edit) -> std::string {
    nlohmann::json doc = good;
    edit(doc);
    try {
      report::load_document(doc, "results.json", ".");
    } catch (const report::ReportError& e) {
      return e.what();
    }
    return "accepted";
  };
  using Catch::Contains;
  CHECK(error_after([](nlohmann::json&) {}) == "accepted");
  // A period <= 0 would turn the undetermined "energy bounded" into a pass.
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["problem_info"]["period"] = 0.0; }),
             Contains("studies[0].problem_info.period: must be a number > 0"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["t_end"] = -1.0; }), Contains("studies[0].t_end: must be a number > 0"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["dt"] = 0.0; }), Contains("runs[0].dt: must be a number > 0"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["error"]["global"] = -1e-3; }),
             Contains("runs[0].error.global: must be a number >= 0"));
  // Not measured: null in the run, and in the fits' copy of it (the first point of each of its global fits).
  auto first_global_points = [](nlohmann::json& d, const std::function<void(nlohmann::json&)>& f) {
    for (auto& o : d["studies"][0]["orders"])
      if (o["integrator"] == d["studies"][0]["runs"][0]["integrator"] && o["metric"] == "global") f(o["points"]);
  };
  CHECK(error_after([&](auto& d) {
          d["studies"][0]["runs"][0]["error"]["global"] = nullptr;
          first_global_points(d, [](nlohmann::json& p) { p[0][1] = nullptr; });
        }) == "accepted");
  // A scan point's values are copies of its t_end and parameters (issue 53): one edited alone is refused.
  auto scanned = [](double factor, const char* axis = "t_end") {
    return [=](nlohmann::json& d) {
      auto& st = d["studies"][0];
      st["scan"] = {{"name", "fam"}, {"axes", {axis}}, {"values", {st["t_end"].get<double>() * factor}}, {"count", 1}, {"index", 0}};
    };
  };
  CHECK(error_after(scanned(1)) == "accepted");
  CHECK_THAT(error_after(scanned(2)), Contains("scan.values[0]: ") && Contains("disagrees with t_end = ") &&
                                          Contains("each is a copy of one value"));
  CHECK(error_after(scanned(2, "nope")) == "accepted");  // no copy of it to disagree with
  // One copy of each error (issue 31): a run or a fit edited alone is refused, naming both fields.
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["error"]["global"] = nullptr; }),
             Contains("orders[0].points[0]: (dt ") && Contains("disagrees with runs[0] (dt ") && Contains("error.global nan)"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["error"]["global"] = 1e-3; }),
             Contains("disagrees with runs[0]") && Contains("error.global 0.001)"));
  CHECK_THAT(error_after([&](auto& d) { first_global_points(d, [](nlohmann::json& p) { p[0][0] = 0.3; }); }),
             Contains("points[0]: (dt 0.29999999999999999") && Contains("disagrees with runs[0]"));
  CHECK_THAT(error_after([&](auto& d) { first_global_points(d, [](nlohmann::json& p) { p.erase(p.begin()); }); }),
             Contains(".points: holds ") && Contains("each point is a copy of one run's error"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["orders"][0]["metric"] = "energy"; }),
             Contains("orders[0].points: belong to metric 'energy', which is not a run's error"));
  // A repeated run, order or an empty file (issue 34): one reader would take the first, another the last.
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"].push_back(d["studies"][0]["runs"][0]); }),
             Contains(".dt: repeats runs[0] ('") && Contains("each integrator runs each step size once"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["orders"].push_back(d["studies"][0]["orders"][0]); }),
             Contains(".metric: repeats orders[0] ('") && Contains("one order per integrator and metric"));
  CHECK_THAT(error_after([](auto& d) { d["studies"] = nlohmann::json::array(); }),
             Contains("studies: is empty: a results file holds at least one study"));
  // Checks the study measured cannot disappear: every order of an integrator run at two step sizes or more.
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["orders"] = nlohmann::json::array(); }),
             Contains("studies[0].orders: has no global order of '") && Contains("a measured order's check cannot be left out"));
  CHECK_THAT(error_after([](auto& d) {
               auto& o = d["studies"][0]["orders"];
               for (auto it = o.begin(); it != o.end(); ++it)
                 if ((*it)["metric"] == "max") {
                   o.erase(it);
                   break;
                 }
             }),
             Contains("studies[0].orders: has no max order of '"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["status"] = "great"; }),
             Contains("runs[0].status: 'great' is not one of ok, diverged"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["orders"][0]["verdict"] = "maybe"; }),
             Contains("orders[0].verdict: 'maybe' is not one of pass, fail, undetermined"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["integrators"].push_back(d["studies"][0]["integrators"][0]); }),
             Contains("integrators[3].label: 'euler' is the label of an earlier integrator too"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["integrator"] = "ghost"; }),
             Contains("runs[0].integrator: 'ghost' is not one of the study's integrators"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["orders"][0]["integrator"] = "ghost"; }),
             Contains("orders[0].integrator: 'ghost' is not one of the study's integrators"));
  CHECK_THAT(error_after([](auto& d) { d["schema_version"] = 7; }), Contains("schema_version: 7: this study reads versions 2 to 6"));
  // Runs in wider arithmetic (schema 5): an arithmetic of their own, and orders' wide points copies of them.
  auto wide_run = [](double error) {
    return nlohmann::json{{"integrator", "euler"}, {"arithmetic", "float128"}, {"dt", 0.1}, {"steps", 10}, {"status", "ok"},
                          {"error", {{"global", error}, {"max", error}, {"local", error}}},
                          {"floor", {{"global", 1e-20}, {"max", 1e-20}, {"local", 1e-20}}}, {"force_evals", 10}};
  };
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["orders"][0]["arithmetic"] = "quad"; }),
             Contains("orders[0].arithmetic: 'quad' is not one of double, long double, float128"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["orders"][0]["arithmetic"] = "float128"; }),
             Contains("orders[0].arithmetic: is 'float128', but the order holds no points in it"));
  CHECK_THAT(error_after([&](auto& d) {
               d["studies"][0]["wide_runs"] = {wide_run(1e-10)};
               d["studies"][0]["wide_runs"][0]["arithmetic"] = "double";
             }),
             Contains("wide_runs[0].arithmetic: 'double' is not one of long double, float128"));
  CHECK_THAT(error_after([&](auto& d) { d["studies"][0]["wide_runs"] = {wide_run(-1)}; }),
             Contains("wide_runs[0].error.global: must be a number >= 0"));
  CHECK(error_after([&](auto& d) {
          d["studies"][0]["wide_runs"] = {wide_run(1e-10)};
          d["studies"][0]["orders"][0]["wide_points"] = {{"float128", {{0.1, 1e-10, 1e-20}}}};
        }) == "accepted");
  CHECK_THAT(error_after([&](auto& d) {
               d["studies"][0]["wide_runs"] = {wide_run(1e-10)};
               d["studies"][0]["orders"][0]["wide_points"] = {{"float128", {{0.1, 2e-10, 1e-20}}}};
             }),
             Contains("wide_points.float128[0]: (dt 0.10000000000000001, error 2.0000000000000001e-10") && Contains("disagrees with wide_runs[0]"));
  CHECK_THAT(error_after([&](auto& d) {
               d["studies"][0]["wide_runs"] = {wide_run(1e-10)};
               d["studies"][0]["orders"][0]["wide_points"] = {{"float128", nlohmann::json::array()}};
             }),
             Contains("holds 0 point(s), but the study has 1 float128 run(s) of 'euler'"));
  CHECK_THAT(error_after([&](auto& d) { d["studies"][0]["orders"][0]["wide_points"] = {{"double", nlohmann::json::array()}}; }),
             Contains("wide_points: holds 'double'"));
  // A scan's point: one value per axis, its index within the grid, a name a folder may have.
  auto scan = [](nlohmann::json axes, nlohmann::json values, int index, int count, std::string name = "fam") {
    return [=](auto& d) { d["studies"][0]["scan"] = {{"name", name}, {"axes", axes}, {"values", values}, {"index", index}, {"count", count}}; };
  };
  CHECK(error_after(scan({"e"}, {0.5}, 1, 2)) == "accepted");
  CHECK_THAT(error_after(scan({"e"}, {0.1, 0.2}, 0, 2)), Contains("scan.axes: has 1 axes and 2 values: one value per axis"));
  CHECK_THAT(error_after(scan({"e"}, {0.1}, 2, 2)), Contains("scan.index: must be a whole number from 0 to 1"));
  CHECK_THAT(error_after(scan({"e"}, {0.1}, 0, 0)), Contains("scan.count: must be a whole number from 1 to 10000"));
  CHECK_THAT(error_after(scan({"e"}, {0.1}, 0, 1, "../x")), Contains("scan.name: '../x' must be lowercase letters"));
  CHECK_THAT(error_after(scan({"e"}, {nullptr}, 0, 1)), Contains("scan.values[0]: must be a finite number"));
  CHECK_THAT(error_after(scan({"x y"}, {0.1}, 0, 1)), Contains("scan.axes[0]: 'x y' is not a parameter's name"));
  CHECK_THAT(error_after(scan({"e", "e"}, {0.1, 0.2}, 0, 1)), Contains("scan.axes[1]: 'e' is an axis twice"));
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["substeps"] = 0; }),  // unsigned in nlohmann: the lower bound too
             Contains("runs[0].substeps: must be a whole number from 1 to 1000000"));
  // 2^53 + 1 is no double: compared as the integer written, it is out of range (as a double it passed as 2^53).
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["steps"] = 9007199254740993ULL; }),
             Contains("runs[0].steps: must be a whole number from 0 to 9007199254740992"));
  CHECK(error_after([](auto& d) { d["studies"][0]["runs"][0]["steps"] = 9007199254740992ULL; }) == "accepted");
  CHECK_THAT(error_after([](auto& d) { d["studies"][0]["runs"][0]["steps"] = -1; }), Contains("runs[0].steps: must be a whole number"));
}

namespace {
/// Renders the claims fixture after `edit` changed its numbers, and returns the verdict cell of the claim row
/// whose text contains `claim`.
template <class Edit>
std::string verdict_after(const std::string& claim, Edit edit) {
  testing::TempDir dir("report-claims");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture.parent_path() / "claims-fixture" / "results.json"));
  edit(doc);
  testing::write_results(dir.path, doc);
  auto o = options(dir.path, dir.path);
  o.plots = false;
  const std::string md = testing::read_file(report::render(o).markdown);
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("| 0", 0) == 0 && line.find(claim) != std::string::npos) return line.substr(line.rfind("| **") + 4);
  return "claim not found";
}
nlohmann::json& order(nlohmann::json& doc, const std::string& study, const std::string& integrator, const std::string& metric) {
  for (auto& s : doc["studies"])
    if (s["name"] == study)
      for (auto& o : s["orders"])
        if (o["integrator"] == integrator && o["metric"] == metric) return o;
  throw std::logic_error("no such order in the fixture");
}
}  // namespace

TEST_CASE("the seeds' claims get verdicts computed from the numbers, and flip when the numbers do", "[report][claims]") {
  using Catch::StartsWith;
  auto unchanged = [](nlohmann::json&) {};
  // Seed 004: Euler local O(dt^2), global O(dt): the measured orders say so ...
  CHECK_THAT(verdict_after("local error) is proportional to dt^2", unchanged), StartsWith("holds"));
  // ... and a local order of 3 would contradict it.
  CHECK_THAT(verdict_after("local error) is proportional to dt^2",
                           [](nlohmann::json& d) { order(d, "seed003-004-verlet", "euler", "local")["observed"] = 3.0; }),
             StartsWith("does not hold"));
  // Seed 003: velocity Verlet two orders worse than position Verlet: not with both at 2 ...
  CHECK_THAT(verdict_after("two orders of magnitude worse", unchanged), StartsWith("does not hold"));
  // ... but yes if position Verlet were globally fourth order.
  CHECK_THAT(verdict_after("two orders of magnitude worse",
                           [](nlohmann::json& d) { order(d, "seed003-004-verlet", "stormer-verlet", "global")["observed"] = 4.0; }),
             StartsWith("holds"));
  // Seed 001: on the projectile the two Eulers err equally ...
  CHECK_THAT(verdict_after("since it is a symplectic method", unchanged), StartsWith("does not hold: equal errors"));
  // ... unless symplectic Euler's error were a hundred times smaller.
  CHECK_THAT(verdict_after("since it is a symplectic method",
                           [](nlohmann::json& d) {
                             for (auto& s : d["studies"])
                               for (auto& r : s["runs"])
                                 if (r["integrator"] == "symplectic-euler") r["error"]["global"] = r["error"]["global"].get<double>() / 100;
                           }),
             StartsWith("holds"));
  // Seed 004: Störmer-Verlet returns to its start when run back (reversal gap within round-off) ...
  CHECK_THAT(verdict_after("time-reversible", unchanged), StartsWith("holds"));
  // ... and one step size where it missed the start by 1e-6 would refute it.
  CHECK_THAT(verdict_after("time-reversible",
                           [](nlohmann::json& d) {
                             for (auto& s : d["studies"])
                               for (auto& r : s["runs"])
                                 if (r["integrator"] == "stormer-verlet" && r["steps"] == 2812) r["error"]["reversal"] = 1e-6;
                           }),
             StartsWith("does not hold"));
  // Seed 004: the variable-step formula keeps order 2 while the unadjusted one does not converge ...
  CHECK_THAT(verdict_after("needs adjustment", unchanged), StartsWith("holds"));
  // ... if the unadjusted formula converged after all, the adjustment would not be needed ...
  CHECK_THAT(verdict_after("needs adjustment",
                           [](nlohmann::json& d) {
                             for (auto& s : d["studies"])
                               for (auto& r : s["runs"])
                                 if (r["integrator"] == "stormer-verlet (unadjusted)") r["error"]["global"] = r["dt"].get<double>();
                           }),
             StartsWith("partly"));
  // ... and if the seed's formula lost its order, the claim fails.
  CHECK_THAT(verdict_after("needs adjustment",
                           [](nlohmann::json& d) { order(d, "seed004-variable-step", "stormer-verlet", "global")["observed"] = 1.0; }),
             StartsWith("does not hold"));
}

/// A bench.json as `study bench` writes it: kepler with rk4 (counterpart runge_kutta4) and yoshida4, whose
/// time per step is `rk4_ns` and 49.5 ns; the floor 14 ns; every spread 0.5 %.  Also the seed of test_fuzz.cpp.
nlohmann::json bench_doc(double rk4_ns) {
  using nlohmann::json;
  auto row = [](const std::string& id, double ns, double evals, const std::string& odeint, double odeint_ns) {
    return json{{"integrator", id}, {"ns_per_step", ns}, {"spread", 0.005}, {"evals_per_step", evals}, {"implicit", false},
                {"floor_ratio", ns / (14.0 * evals)}, {"odeint", "odeint " + odeint}, {"odeint_ns_per_step", odeint_ns},
                {"odeint_ratio", ns / odeint_ns}};
  };
  json kepler{{"problem", "kepler"}, {"dt", 0.01}, {"floor_ns_per_step", 14.0}, {"floor_spread", 0.002},
              {"throughput_floor_ns_per_step", 3.5},
              {"integrators", {row("rk4", rk4_ns, 4, "runge_kutta4", 36.0), row("yoshida4", 49.5, 3, "symplectic_rkn_sb3a_mclachlan", 99.0)}},
              {"odeint", {{{"stepper", "odeint runge_kutta4"}, {"ns_per_step", 36.0}, {"spread", 0.005}, {"evals_per_step", 4}},
                          {{"stepper", "odeint symplectic_rkn_sb3a_mclachlan"}, {"ns_per_step", 99.0}, {"spread", 0.005}, {"evals_per_step", 6}}}}};
  json check{{"integrator", "rk4"}, {"odeint", "odeint runge_kutta4"}, {"criterion", "same method: within 1e3 eps n"},
             {"distance", 1e-15}, {"allowance", 2.2e-10}, {"ok", true}};
  return {{"meta", {{"compiler", "g++ 12"}, {"flags", "-O3"}, {"cpu", "test CPU"}, {"revision", "abc123"}, {"date", "2026-11-21T00:00:00Z"},
                    {"cpus", 2}, {"mhz", 3000}, {"frequency_scaling", false}}},
          {"method", {{"steps_per_iteration", 1000}, {"min_time_seconds", 0.1}, {"repetitions", 3}, {"statistic", "fastest repetition"},
                      {"interleaved", true}}},
          {"checks", {{"kepler", {check}}}},
          {"problems", {kepler}}};
}

namespace {
/// The report of the claims fixture with `bench` beside it (none when null).
std::string report_with_bench(const nlohmann::json& bench) {
  testing::TempDir dir("report-bench");
  fs::copy(fixture.parent_path() / "claims-fixture", dir.path, fs::copy_options::recursive);  // results.json and its tables
  if (!bench.is_null()) std::ofstream(dir.path / "bench.json") << bench.dump(2);
  auto o = options(dir.path, dir.path);
  o.plots = false;
  const auto outcome = report::render(o);
  // The summary links the bench page, which holds the tables: both returned, summary first.
  return testing::read_file(outcome.markdown) + testing::read_file(dir.path / "BENCH.md");
}
}  // namespace

TEST_CASE("bench.json renders as the time-per-step section, its goals computed from the numbers", "[report][bench]") {
  using Catch::Contains;
  SECTION("absent: the report says how to add it") {
    const std::string md = report_with_bench(nullptr);
    CHECK_THAT(md, !Contains("BENCH.md"));
    CHECK_THAT(md, Contains("Time per step against Boost.Odeint: not measured (`study bench --out"));
  }
  SECTION("ours faster on both pairs") {
    const std::string md = report_with_bench(bench_doc(35.0));
    CHECK_THAT(md, Contains("# Time per step against Boost.Odeint"));
    CHECK_THAT(md, Contains("1 pair, all agreeing"));
    CHECK_THAT(md, Contains("| rk4 | 35.00 | 0.5 % | 4.000 | 0.62 | `runge_kutta4` | 36.00 | **0.97** |"));
    CHECK_THAT(md, Contains("| yoshida4 | 49.50 | 0.5 % | 3.000 | 1.18 | `symplectic_rkn_sb3a_mclachlan` | 99.00 | **0.50** |"));
    CHECK_THAT(md, Contains("| independent floor | 3.50 |  | 1 | 0.25 |"));
    CHECK_THAT(md, Contains("| ours / Odeint ≤ 1.0 | 2 of 2 pairs | — |"));
    CHECK_THAT(md, Contains("| ours / Odeint ≤ 0.8 (aim) | 1 of 2 pairs | 1 pair |"));
    CHECK_THAT(md, Contains("| / (floor × evals) ≤ 1.3 on kepler and outer-solar-system | 2 of 2 integrators | — |"));
  }
  SECTION("slower than Odeint by more than the spread, and beyond 1.3 x the floor: both goals name it") {
    const std::string md = report_with_bench(bench_doc(80.0));  // 80 / 36 = 2.22; 80 / (14 x 4) = 1.43
    CHECK_THAT(md, Contains("| ours / Odeint ≤ 1.0 | 1 of 2 pairs | rk4 on kepler (2.22) |"));
    CHECK_THAT(md, Contains("| / (floor × evals) ≤ 1.3 on kepler and outer-solar-system | 1 of 2 integrators | rk4 on kepler (1.43) |"));
  }
  auto with_spread = [](nlohmann::json doc, double spread) {  // rk4's and runge_kutta4's spread
    doc["problems"][0]["integrators"][0]["spread"] = spread;
    doc["problems"][0]["odeint"][0]["spread"] = spread;
    return doc;
  };
  SECTION("slower by less than 0.005 and less than the spread: a tie, met, and said to be one") {
    const std::string md = report_with_bench(bench_doc(36.1));  // 1.0028 > 1, spread 0.5 %
    CHECK_THAT(md, Contains("| ours / Odeint ≤ 1.0 | 2 of 2 pairs (1 a tie: above 1 by less than 0.005 and less than the spread) | — |"));
  }
  SECTION("slower by less than 0.005 but more than the spread: not met") {
    const std::string md = report_with_bench(with_spread(bench_doc(36.1), 0.001));  // 1.0028, spread 0.1 %
    CHECK_THAT(md, Contains("| ours / Odeint ≤ 1.0 | 1 of 2 pairs | rk4 on kepler (1.00) |"));
  }
  SECTION("slower by 0.005 or more, within the spread: not met, and said to be within the spread") {
    const std::string md = report_with_bench(with_spread(bench_doc(36.2), 0.03));  // 1.0056, spread 3 %
    CHECK_THAT(md, Contains("| ours / Odeint ≤ 1.0 | 1 of 2 pairs | rk4 on kepler (1.01, within the spread 3.0 %) |"));
  }
  // Embedded pairs under step-size control: one rule with the fixed steppers' (ratio = ns / Odeint's ns, worked here).
  auto with_pairs = [](std::vector<std::array<double, 3>> pairs) {  // {ns, Odeint's ns, both spreads}
    auto doc = bench_doc(35.0);
    const char* ids[] = {"dopri5", "cash-karp5", "fehlberg78"};
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto [ns, theirs, spread] = pairs[k];
      doc["problems"][0]["pairs"].push_back({{"integrator", ids[k]}, {"odeint", ids[k]}, {"tol", 1e-8}, {"span", 10.0}, {"tries", 143},
                                             {"ns_per_try", ns}, {"spread", spread}, {"odeint_ns_per_try", theirs},
                                             {"odeint_spread", spread}, {"ratio", ns / theirs}});
    }
    return report_with_bench(doc);
  };
  SECTION("adaptive pairs: faster, a tie (1.003 within a 1 % spread) and slower within the spread (1.02, 3 %)") {
    const std::string md = with_pairs({{{76.0, 84.0, 0.01}}, {{541.6, 540.0, 0.01}}, {{153.0, 150.0, 0.03}}});
    CHECK_THAT(md, Contains("| an embedded pair under step-size control, ours / Odeint's per try ≤ 1.0 | 2 of 3 pairs (1 a tie: above 1 by less than "
                            "0.005 and less than the spread) | fehlberg78 on kepler (1.02, within the spread 3.0 %) |"));
  }
  SECTION("adaptive pairs: 1.003 beyond a 0.1 % spread is not a tie, nor 1.006 within a 1 % one") {
    const std::string md = with_pairs({{{541.6, 540.0, 0.001}}, {{543.24, 540.0, 0.01}}});
    CHECK_THAT(md, Contains("| an embedded pair under step-size control, ours / Odeint's per try ≤ 1.0 | 0 of 2 pairs | dopri5 on kepler (1.00), "
                            "cash-karp5 on kepler (1.01, within the spread 1.0 %) |"));
  }
  SECTION("a disagreeing pair is flagged") {
    auto doc = bench_doc(35.0);
    doc["checks"]["kepler"][0]["ok"] = false;
    CHECK_THAT(report_with_bench(doc), Contains("1 pair, **1 disagreeing**"));
  }
  SECTION("a malformed bench.json is an error naming the field") {
    auto doc = bench_doc(35.0);
    doc["problems"][0]["integrators"][1].erase("ns_per_step");
    CHECK_THROWS_WITH(report_with_bench(doc), Contains("bench.json: bench.problems[0].integrators[1]: missing 'ns_per_step'"));
  }
}

namespace {
report::RunRow claim_run(const std::string& integrator, double dt, double global, std::vector<double> final_q = {1.0, 0.0}) {
  report::RunRow r;
  r.integrator = integrator, r.status = "ok", r.dt = dt, r.global = global, r.steps = 1000, r.final_q = std::move(final_q);
  return r;
}
/// The verdict of the claim whose quote contains `quote`.
std::string claim_verdict(const report::Results& res, const std::string& quote) {
  for (const auto& c : report::evaluate_claims(res))
    if (c.quote.find(quote) != std::string::npos) return c.verdict;
  return "claim not found";
}
}  // namespace

TEST_CASE("the seed 004 reversal claim's evidence: the largest share of the round-off allowance, Euler's least multiple", "[report][claims][known]") {
  // The allowance is 100 eps per step there and back: 100 eps x 2 x 1000 steps (claim_run's runs take 1000).
  const double allowance = 100 * std::numeric_limits<double>::epsilon() * 2 * 1000;
  auto reversed = [](report::RunRow r, double gap) {
    r.reversal = gap;
    return r;
  };
  report::Results res;
  report::Study s;
  s.name = "seed003-004-verlet";
  s.runs = {reversed(claim_run("stormer-verlet", 0.1, 1e-3), 0.25 * allowance), reversed(claim_run("stormer-verlet", 0.05, 2.5e-4), 0.125 * allowance),
            reversed(claim_run("euler", 0.1, 1e-1), 3000 * allowance), reversed(claim_run("euler", 0.05, 5e-2), 2000 * allowance)};
  res.studies = {s};
  auto evidence = [&] {
    for (const auto& c : report::evaluate_claims(res))
      if (c.quote.find("time-reversible") != std::string::npos) return c.evidence;
    return std::string("claim not found");
  };
  CHECK_THAT(evidence(), Catch::Contains("reversal gap at most 0.25 of the round-off allowance over 2 step sizes "
                                         "(explicit Euler: at least 2e+03 times it)"));
  // Returned exactly to the start: a share of 0, not of anything larger.
  res.studies[0].runs[0].reversal = res.studies[0].runs[1].reversal = 0;
  CHECK_THAT(evidence(), Catch::Contains("reversal gap at most 0 of the round-off allowance over 2 step sizes"));
}

TEST_CASE("the seed 000, 001 and 002 claims, on made-up runs either side of each criterion", "[report][claims]") {
  using Catch::StartsWith;
  testing::TempDir dir("report-claims-synthetic");
  report::Results res;
  res.dir = dir.path;
  report::Study s;
  s.name = "seed000-central-force";
  // RK4 at one step against Euler x8: holds from 10 times Euler's error on.
  s.runs = {claim_run("rk4", 1, 10.5e-3), claim_run("symplectic-euler x8", 1, 1e-3), claim_run("rk4 x4", 1, 0.9e-3),
            claim_run("rk4 x2", 1, 2e-3)};
  // The seed's Verlet against symplectic Euler: identical up to round-off (100 eps per step of 1000 steps).
  const double roundoff = 100 * std::numeric_limits<double>::epsilon() * 1000;
  s.runs.push_back(claim_run("stormer-verlet (backward-euler)", 0.1, 1e-3, {1.0 + 0.9 * roundoff, 0.0}));
  s.runs.push_back(claim_run("symplectic-euler", 0.1, 1e-3));
  res.studies = {s};
  CHECK_THAT(claim_verdict(res, "way more inaccurate"), StartsWith("holds"));
  CHECK_THAT(claim_verdict(res, "loop RK4 four times"), StartsWith("holds"));
  CHECK_THAT(claim_verdict(res, "identical to Euler"), StartsWith("holds"));
  res.studies[0].runs[0].global = 9.5e-3;  // only 9.5 times
  res.studies[0].runs[2].global = 1.1e-3;  // rk4 x4 worse than Euler x8
  res.studies[0].runs[4].final_q = {1.0 + 1.1 * roundoff, 0.0};
  CHECK_THAT(claim_verdict(res, "way more inaccurate"), StartsWith("does not hold"));
  CHECK_THAT(claim_verdict(res, "loop RK4 four times"), StartsWith("does not hold"));
  CHECK_THAT(claim_verdict(res, "identical to Euler"), StartsWith("does not hold"));

  // Seed 001 on constant gravity: symplectic Euler better below half of Euler's error, equal from there to 2 x.
  report::Study p;
  p.name = "seed001-projectile";
  p.runs = {claim_run("euler", 0.0125, 1e-2), claim_run("symplectic-euler", 0.0125, 0.49e-2)};
  res.studies = {p};
  CHECK_THAT(claim_verdict(res, "since it is a symplectic method"), StartsWith("holds"));
  res.studies[0].runs[1].global = 0.51e-2;
  CHECK_THAT(claim_verdict(res, "since it is a symplectic method"), StartsWith("does not hold: equal errors"));
  res.studies[0].runs[1].global = 1.99e-2;
  CHECK_THAT(claim_verdict(res, "since it is a symplectic method"), StartsWith("does not hold: equal errors"));
  res.studies[0].runs[1].global = 2.01e-2;
  CHECK(claim_verdict(res, "since it is a symplectic method") == "does not hold");

  // Seed 002 on the Earth-Moon orbit: symplectic Euler better than half of Euler's error at dt = 3600 s; the
  // distance and the revolutions from samples.csv (Earth at the origin, the Moon on a circle of radius 1, 13
  // turns in the most accurate run; Euler's spirals out, symplectic Euler's stays).
  report::Study e;
  e.name = "seed002-earth-moon";
  e.runs = {claim_run("euler", 3600, 1e-1), claim_run("symplectic-euler", 3600, 0.49e-1), claim_run("rk4", 60, 1e-9)};
  res.studies = {e};
  fs::create_directories(dir.path / e.name);
  auto write_samples = [&](double turns, double euler_growth, double symplectic_wobble) {
    std::ofstream f(dir.path / e.name / "samples.csv");
    f << "integrator,dt,t,error,energy_rel,q0,q1,q2,q3,v0,v1,v2,v3\n";
    for (int k = 0; k <= 400; ++k) {
      const double a = 2 * std::numbers::pi * turns * k / 400;
      auto row = [&](const char* who, double dt, double radius) {
        f << who << ',' << dt << ',' << k << ",0,0,0,0," << radius * std::cos(a) << ',' << radius * std::sin(a) << ",0,0,0,0\n";
      };
      row("rk4", 60, 1.0);
      row("euler", 3600, 1.0 + euler_growth * k / 400);
      row("symplectic-euler", 3600, 1.0 + symplectic_wobble * std::sin(7.0 * a));
    }
  };
  write_samples(13.2, 0.06, 0.009);
  CHECK_THAT(claim_verdict(res, "on an orbit"), StartsWith("holds"));
  CHECK_THAT(claim_verdict(res, "distance is increasing"), StartsWith("holds"));
  CHECK_THAT(claim_verdict(res, "about 13 periods"), StartsWith("holds"));
  // The evidence is the angle swept, unwrapped at each of the 13 passes through -pi: 13.2 turns exactly (400
  // samples, 0.207 rad apart), not 13.2 less a share of each pass.
  auto evidence = [&](const std::string& quote) {
    for (const auto& c : report::evaluate_claims(res))
      if (c.quote.find(quote) != std::string::npos) return c.evidence;
    return std::string("claim not found");
  };
  CHECK(evidence("about 13 periods") == "13.20 revolutions");
  res.studies[0].runs[1].global = 0.51e-1;
  write_samples(12.4, 0.04, 0.011);  // Euler ends within 5 %, symplectic Euler leaves the 1 % band, 12.4 turns
  CHECK_THAT(claim_verdict(res, "on an orbit"), StartsWith("does not hold"));
  CHECK_THAT(claim_verdict(res, "distance is increasing"), StartsWith("does not hold"));
  CHECK_THAT(claim_verdict(res, "about 13 periods"), StartsWith("does not hold"));
}

TEST_CASE("a study with the longest valid name renders every plot, and wall time not measured is said to be so", "[report]") {
  testing::TempDir dir("report-long-name");
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  const std::string name(64, 'n');  // study names are at most 64 characters; plot names add up to 20
  doc["studies"][0]["name"] = name;
  auto& metrics = doc["studies"][0]["metrics"];
  metrics.erase(std::remove(metrics.begin(), metrics.end(), "walltime"), metrics.end());
  fs::copy(fixture / "fixture", dir.path / name);
  testing::write_results(dir.path, doc);
  const auto outcome = report::render(options(dir.path, dir.path));
  CHECK(outcome.missing.empty());
  CHECK(std::count(outcome.plots.begin(), outcome.plots.end(), name + "-energy-dt") == 1);
  const std::string page = testing::read_file(dir.path / name / "REPORT.md");
  CHECK_THAT(page, Catch::Contains("| not measured (the spec's metrics leave out walltime) |"));
  CHECK_THAT(page, !Catch::Contains("none reached it |\n"));  // by force evaluations rk4 reaches 1e-3
}

TEST_CASE("CSV: blank lines are no records, CRLF reads as LF, the very first line included", "[report][known]") {
  for (const std::string& text : {std::string("\r\na,b\r\n1,2\r\n"), std::string("\na,b\n1,2\n"), std::string("a,b\r\n\r\n1,2")}) {
    std::istringstream in(text);
    const auto t = report::parse_table(in, "t.csv");
    INFO(nlohmann::json(text).dump());
    CHECK(t.header == std::vector<std::string>{"a", "b"});
    REQUIRE(t.rows.size() == 1);
    CHECK(t.rows[0] == std::vector<std::string>{"1", "2"});
  }
}

namespace {
/// The fixture's study as the points of a scan of e (and, with `t_ends`, of t_end too), in the results file in
/// reverse grid order; rk4's observed global order and interval, and euler's energy growth exponent, set at each
/// point to values of its own: order 4 - e, interval +-0.1; growth 1 + e.
void write_scan(const fs::path& dir, const std::vector<double>& es, const std::vector<double>& t_ends) {
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(fixture / "results.json"));
  const nlohmann::json base = doc["studies"][0];
  doc["studies"] = nlohmann::json::array();
  const std::size_t count = es.size() * std::max<std::size_t>(1, t_ends.size());
  for (std::size_t index = count; index-- > 0;) {
    const double e = es[t_ends.empty() ? index : index / t_ends.size()];
    nlohmann::json s = base;
    std::vector<std::string> axes{"e"};
    std::vector<double> values{e};
    if (!t_ends.empty()) axes.push_back("t_end"), values.push_back(t_ends[index % t_ends.size()]);
    std::string name = "fam";  // as study::scan_point_name makes it
    for (std::size_t k = 0; k < axes.size(); ++k) {
      std::string v = fmt::format("{}", values[k]);
      std::replace(v.begin(), v.end(), '.', 'p');
      name += "_" + axes[k] + "-" + v;
    }
    s["name"] = name;
    s["title"] = "A family";
    s["scan"] = {{"name", "fam"}, {"axes", axes}, {"values", values}, {"index", index}, {"count", count}};
    if (!t_ends.empty()) s["t_end"] = values[1];  // the scan's values are copies of the study's own (the loader holds them to it)
    for (auto& o : s["orders"])
      if (o["integrator"] == "rk4" && o["metric"] == "global")  // undetermined at e = 0.5, failed at 0.9, passed at 0
        o["observed"] = 4 - e, o["interval"] = {3.9 - e, 4.1 - e}, o["verdict"] = e == 0.5 ? "undetermined" : e == 0.9 ? "fail" : "pass";
    for (auto& x : s["energy_long"])
      if (x["integrator"] == "euler")  // at e = 0.9 an error of 0.5 at the end: a lost orbit, whose exponent is left out
        x["growth_exponent"] = 1 + e, x["growth_interval"] = {0.95 + e, 1.05 + e}, x["final_rel"] = e == 0.9 ? 0.5 : 1e-3;
    fs::copy(fixture / "fixture", dir / s["name"].get<std::string>());
    doc["studies"].push_back(s);
  }
  testing::write_results(dir, doc);
}

/// The rows "x y lo hi mark" of the line titled `line` in a plot's data file.
std::vector<std::array<double, 5>> plot_rows(const fs::path& dat, const std::string& line) {
  std::vector<std::array<double, 5>> rows;
  std::istringstream in(testing::read_file(dat));
  bool mine = false;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("# ", 0) == 0) mine = l == "# " + line;
    std::array<double, 5> r{};
    if (mine && std::sscanf(l.c_str(), "%lf %lf %lf %lf %lf", &r[0], &r[1], &r[2], &r[3], &r[4]) == 5) rows.push_back(r);
  }
  return rows;
}
}  // namespace

TEST_CASE("a scan has a page of its own: each method against the scanned parameter, the points in grid order", "[report][scan]") {
  using Catch::Contains;
  testing::TempDir dir("report-scan");
  write_scan(dir.path, {0.0, 0.5, 0.9}, {});
  auto o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  // The summary has one row for the scan, linking its page, and none for its points.
  const std::string summary = testing::read_file(dir.path / "REPORT.md");
  CHECK_THAT(summary, Contains("| [A family](SCAN-fam.md) (a scan of 3 studies over e) |"));
  CHECK_THAT(summary, !Contains("(fam_e-0p5/REPORT.md)"));
  // The page: the points in grid order, each linking its study's page.
  const std::string page = testing::read_file(dir.path / "SCAN-fam.md");
  CHECK_THAT(page, Contains("`pendulum`, 3 of 3 points over `e` (3 values from 0 to 0.9)"));
  const auto first = page.find("| [e = 0](fam_e-0/REPORT.md) |"), second = page.find("| [e = 0.5](fam_e-0p5/REPORT.md) |"),
             third = page.find("| [e = 0.9](fam_e-0p9/REPORT.md) |");
  CHECK(first < second);
  CHECK(second < third);
  CHECK(third != std::string::npos);
  // rk4's order against e, with its interval; euler's energy growth exponent with its.
  const auto order = plot_rows(dir.path / "plots" / "fam-scan-order-e.dat", "rk4");
  REQUIRE(order.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const double e = std::array{0.0, 0.5, 0.9}[i];
    CHECK(order[i][0] == e);
    CHECK(order[i][1] == 4 - e);
    CHECK(order[i][2] == 3.9 - e);
    CHECK(order[i][3] == 4.1 - e);
    CHECK(order[i][4] == std::array{0.0, 1.0, 2.0}[i]);  // pass, undetermined (an open circle), fail (a cross)
  }
  CHECK_THAT(testing::read_file(dir.path / "plots" / "fam-scan-order-e.gp"),
             Contains("using 1:($5 == 1 ? $2 : 1/0) with points pt 6") && Contains("using 1:($5 == 2 ? $2 : 1/0) with points pt 2"));
  const auto growth = plot_rows(dir.path / "plots" / "fam-scan-energy-growth-e.dat", "euler");
  REQUIRE(growth.size() == 2);
  CHECK(growth[1][0] == 0.5);
  CHECK(growth[1][1] == 1 + 0.5);
  CHECK(growth[1][2] == 0.95 + 0.5);
  // The error constant at the plot step (0.2): rk4's global error there over 0.2^4, the same at every point.
  const auto results = report::load(dir.path);
  double at_plot_dt = NAN;
  for (const auto& r : results.studies[0].runs)
    if (r.integrator == "rk4" && r.dt == 0.2) at_plot_dt = r.global;
  const auto constant = plot_rows(dir.path / "plots" / "fam-scan-constant-e.dat", "rk4");
  REQUIRE(constant.size() == 3);
  CHECK(constant[1][1] == at_plot_dt / std::pow(0.2, 4));
  CHECK_THAT(testing::read_file(dir.path / "SCAN-fam.md"), Contains("| 0.2 |"));  // the plot step of each point
  // The points of one scan must agree: another count, or an index twice, is refused naming both.
  {
    nlohmann::json doc = nlohmann::json::parse(testing::read_file(dir.path / "results.json"));
    const nlohmann::json good = doc;
    doc["studies"][1]["scan"]["count"] = 4;
    testing::write_results(dir.path, doc);
    CHECK_THROWS_WITH(report::load(dir.path), Contains("its axes or count differ from those of 'fam_e-0p9'"));
    doc = good;
    doc["studies"][1]["scan"]["index"] = 2;
    testing::write_results(dir.path, doc);
    CHECK_THROWS_WITH(report::load(dir.path), Contains("scan.index: 2 is the index of 'fam_e-0p9' in the same scan too"));
    testing::write_results(dir.path, good);
  }
  // The tightest accuracy asked for is the page's.
  {
    auto two = o;
    two.accuracy = {1e-3, 1e-8};
    report::render(two);
    CHECK_THAT(testing::read_file(dir.path / "SCAN-fam.md"), Contains("## Verdicts and the cheapest method to 1e-08"));
    report::render(o);
  }
  // No stability metric: no stability plot.
  CHECK(!fs::exists(dir.path / "plots" / "fam-scan-stability-e.dat"));
  // A point's own page links the scan's, and has no plots unless asked for.
  CHECK_THAT(testing::read_file(dir.path / "fam_e-0p5" / "REPORT.md"),
             Contains("A point of a scan (e = 0.5, 2 of 3): [its page](../SCAN-fam.md) draws every point. This page's plots are not "
                      "drawn (`study report --point-plots`"));
  CHECK(!fs::exists(dir.path / "plots" / "fam_e-0p5-global.gp"));
  o.point_plots = true;
  report::render(o);
  CHECK(fs::exists(dir.path / "plots" / "fam_e-0p5-global.gp"));
  CHECK_THAT(testing::read_file(dir.path / "fam_e-0p5" / "REPORT.md"), !Contains("plots are not drawn"));
}

TEST_CASE("a scan's cost plot spans every point, the ones where no method reached the accuracy too", "[report][scan]") {
  testing::TempDir dir("report-scan-cost");
  write_scan(dir.path, {0.0, 0.5, 0.9}, {});
  nlohmann::json doc = nlohmann::json::parse(testing::read_file(dir.path / "results.json"));
  for (auto& s : doc["studies"])  // at e = 0.9 every run's error is 0.5: no method reaches 1e-3 there
    if (s["name"] == "fam_e-0p9")
      for (auto& r : s["runs"]) r["error"]["global"] = 0.5;
  for (auto& s : doc["studies"])  // the orders' points are copies of the runs' errors
    if (s["name"] == "fam_e-0p9")
      for (auto& o : s["orders"])
        if (o["metric"] == "global")
          for (auto& point : o["points"]) point[1] = 0.5;  // [dt, error, round-off]
  testing::write_results(dir.path, doc);
  auto o = options(dir.path, dir.path);
  o.plots = false;
  o.accuracy = {1e-3};
  report::render(o);
  const fs::path dat = dir.path / "plots" / "fam-scan-cost-e.dat";
  REQUIRE(fs::exists(dat));
  const auto vv = plot_rows(dat, "velocity-verlet");
  INFO(testing::read_file(dat));
  REQUIRE(vv.size() == 2);  // drawn at 0 and 0.5 only
  CHECK(vv[1][0] == 0.5);
  // The x axis still reaches 0.9, where the missing costs are marked: [0 - 5 %, 0.9 + 5 %] of the span.
  const std::string gp = testing::read_file(dir.path / "plots" / "fam-scan-cost-e.gp");
  std::smatch m;
  REQUIRE(std::regex_search(gp, m, std::regex(R"(set xrange \[([^:]+):([^\]]+)\])")));
  CHECK(std::stod(m[1]) == Approx(-0.045).epsilon(1e-12));
  CHECK(std::stod(m[2]) == Approx(0.945).epsilon(1e-12));
  CHECK_THAT(gp, Catch::Contains("set label '' at first 0.9"));
  // rk4's errors lie below 1e-3 at every step it ran (a bound, no cost): a key entry says so; euler has costs.
  CHECK_THAT(gp, Catch::Contains("title 'rk4: no cost at any point'"));
  CHECK_THAT(gp, !Catch::Contains("title 'euler: no cost at any point'"));
  // Euler reaching 1e-3 nowhere (its errors 0.5 at every point): a key entry says so.  And rk4's order without its
  // interval at the last point: still drawn with error bars, from the points that have one.
  for (auto& s : doc["studies"]) {
    for (auto& r : s["runs"])
      if (r["integrator"] == "euler") r["error"]["global"] = 0.5;
    for (auto& ord : s["orders"]) {
      if (ord["integrator"] == "euler" && ord["metric"] == "global")
        for (auto& point : ord["points"]) point[1] = 0.5;
      if (s["name"] == "fam_e-0p9" && ord["integrator"] == "rk4" && ord["metric"] == "global") ord["interval"] = nullptr;
    }
  }
  testing::write_results(dir.path, doc);
  report::render(o);
  CHECK_THAT(testing::read_file(dir.path / "plots" / "fam-scan-cost-e.gp"), Catch::Contains("title 'euler: no cost at any point'"));
  const std::string order_gp = testing::read_file(dir.path / "plots" / "fam-scan-order-e.gp");
  CHECK(std::regex_search(order_gp, std::regex("using 1:2:3:4 with yerrorlines [^\\n]*title 'rk4'")));
  const auto rk4 = plot_rows(dir.path / "plots" / "fam-scan-order-e.dat", "rk4");
  REQUIRE(rk4.size() == 3);
  CHECK(rk4[2][2] == rk4[2][1]);  // no interval at e = 0.9: lo = hi = the order
}

TEST_CASE("a scan of two parameters: a plot against each with the other held, and a map of the cheapest method", "[report][scan]") {
  testing::TempDir dir("report-scan2");
  write_scan(dir.path, {0.1, 0.5}, {10.0, 20.0, 40.0});
  auto o = options(dir.path, dir.path);
  o.plots = false;
  report::render(o);
  // Against e: one plot per t_end; against t_end: one per e.
  for (const char* name : {"fam-scan-order-e-at-t_end-10", "fam-scan-order-e-at-t_end-20", "fam-scan-order-e-at-t_end-40",
                           "fam-scan-order-t_end-at-e-0p1", "fam-scan-order-t_end-at-e-0p5", "fam-scan-cheapest"}) {
    INFO(name);
    CHECK(fs::exists(dir.path / "plots" / (std::string(name) + ".gp")));
  }
  CHECK_THAT(testing::read_file(dir.path / "plots" / "fam-scan-order-e-at-t_end-20.gp"), Catch::Contains("— pendulum (t_end = 20)'"));
  const auto at = plot_rows(dir.path / "plots" / "fam-scan-order-t_end-at-e-0p5.dat", "rk4");
  REQUIRE(at.size() == 3);
  CHECK(at[0][0] == 10.0);
  CHECK(at[2][0] == 40.0);
  CHECK(at[2][1] == 4 - 0.5);
  // The map: a tile per point at its place in the grid of values (e = 0.5 is column 1, t_end = 40 row 2).
  const std::string gp = testing::read_file(dir.path / "plots" / "fam-scan-cheapest.gp");
  CHECK_THAT(gp, Catch::Contains("set xtics ('0.1' 0, '0.5' 1)"));
  CHECK_THAT(gp, Catch::Contains("set ytics ('10' 0, '20' 1, '40' 2)"));
  const std::string dat = testing::read_file(dir.path / "plots" / "fam-scan-cheapest.dat");
  std::size_t tiles = 0;
  std::istringstream in(dat);
  for (std::string l; std::getline(in, l);) tiles += !l.empty() && l[0] != '#';
  CHECK(tiles == 6);
  CHECK_THAT(dat, Catch::Contains("\n1 2\n"));
}

TEST_CASE("the tolerance plot draws every adaptive method at most 7 a panel, in order", "[report][known]") {
  testing::TempDir dir("report-tolerance");
  // Nine pairs (two panels: 7 and 2), pair k with errors k x tol at tolerances 1e-4, 1e-6, 1e-8.
  report::Study s;
  s.name = "x", s.title = "x", s.problem = "kepler", s.t_end = 1;
  for (int k = 1; k <= 9; ++k) {
    report::ProportionalityRow p;
    p.integrator = fmt::format("pair{} (adaptive)", k), p.expected = 1, p.verdict = "pass", p.observed = 1, p.lo = 0.99, p.hi = 1.01;
    s.adaptive.push_back({p.integrator, fmt::format("pair{}", k), "odeint", "", 5, 4, 6, 1.0});
    for (const double tol : {1e-4, 1e-6, 1e-8}) p.points.push_back({tol, k * tol, 1e-15});
    s.proportionality.push_back(p);
  }
  const auto plot = report::tolerance_plot(s, dir.path);
  REQUIRE(plot);
  const std::string gp = testing::read_file(dir.path / "x-tolerance.gp"), dat = testing::read_file(dir.path / "x-tolerance.dat");
  CHECK_THAT(gp, Catch::Contains("adaptive methods 1–7 of 9"));
  CHECK_THAT(gp, Catch::Contains("adaptive methods 8–9 of 9"));
  for (int k = 1; k <= 9; ++k) {
    INFO("pair " << k);
    CHECK_THAT(gp, Catch::Contains(fmt::format("title 'pair{} (adaptive): slope 1.00 (expected 1)'", k)));
    // Its block: the three points in increasing tolerance, error k x tol.
    const std::string head = fmt::format("pair{} (adaptive)", k);
    const auto at = dat.find(head);
    REQUIRE(at != std::string::npos);
    std::istringstream rows(dat.substr(dat.find('\n', at) + 1));
    for (const double tol : {1e-8, 1e-6, 1e-4}) {
      double x = 0, y = 0;
      rows >> x >> y;
      CHECK(x == Approx(tol).epsilon(1e-15));
      CHECK(y == Approx(k * tol).epsilon(1e-15));
    }
  }
}
