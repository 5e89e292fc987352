// What `study compare` and `study history` print and draw (reports/compare_page.cpp), on made-up results whose
// ratios, costs and medians are worked out by hand: the terminal table, COMPARE.md and HISTORY.md, and the numbers
// in the plots' data and scripts.
#include <catch2/catch.hpp>

#include "tests/support.hpp"

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include "reports/compare_page.hpp"
#include "tests/study/compare_fixture.hpp"

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Old: the fixture (errors 1e-4 / 16^k at dt 0.1 / 2^k, 400 2^k evaluations, 100 ns a step, median 105).  New: the
/// error at dt 0.05 doubled, every step 150 ns (median 165).
std::pair<report::Results, report::Results> old_and_new() {
  auto old = testing::results();
  auto now = old;
  now.studies[0].runs[1].global *= 2;
  for (auto& r : now.studies[0].runs) r.ns_min = 150, r.ns_median = 165;
  return {old, now};
}

/// The numbers of a data block of a .dat file (blocks separated by two blank lines), row by row.
std::vector<std::vector<double>> block(const std::string& dat, int index) {
  std::vector<std::vector<double>> rows;
  std::istringstream in(dat);
  std::string line;
  int at = 0, blank = 0;
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (++blank == 2) ++at, blank = 0;
      continue;
    }
    blank = 0;
    if (line[0] == '#' || at != index) continue;
    std::istringstream row(line);
    std::vector<double> x;
    std::string word;
    while (row >> word) x.push_back(word == "NaN" ? NAN : std::stod(word));
    rows.push_back(x);
  }
  return rows;
}

}  // namespace

TEST_CASE("compare's table: worst error ratio, cost to every target, time ratio and its noise", "[compare][known]") {
  const auto [old, now] = old_and_new();
  const auto c = check::compare(old, now);
  REQUIRE(c.methods.size() == 1);
  const std::string text = report::compare_text(c, {});
  INFO(text);
  // Ratios 1, 2, 1: the worst is ×2 (a doubling reads as a ratio).  Time: 150 / 100; noise 105/100 - 1 + 165/150 - 1 = 0.05 + 0.10 = 15 %.
  // Cost to 1e-5 (the first target below the largest error), on the log-log line through the runs that bracket it:
  // old 400 (1e-4) and 800 (6.25e-6): 400 (1e-5 / 1e-4)^(ln 2 / ln(1/16)) = 400 10^(1/4) = 711.3;
  // new 400 (1e-4) and 800 (1.25e-5): 400 10^(1/3) = 861.8 (1e-5 lies past 1.25e-5: between runs 1 and 2 instead:
  // 800 (1.25e-5) and 1600 (3.90625e-7): 800 (0.8)^(ln 2 / ln(1/32)) = 800 0.8^(-1/5) = 836.5).
  CHECK_THAT(text, Catch::Contains("s / m"));
  CHECK_THAT(text, Catch::Contains("4.00 -> 4.00"));
  CHECK_THAT(text, Catch::Contains("×2 "));
  // Every target on the method's cost line, the ratio where both are estimates (836.5 / 711.3 = 1.176), none for a
  // bound (1e-4: both runs at dt 0.1 reach it exactly, the largest step: at most their cost).
  CHECK_THAT(text, Catch::Contains("force evaluations to reach 1e-03: ≈225 -> ≈225 (×1.000); 1e-04: ≤400 -> ≤400; 1e-05: 711 -> 837 (×1.176)"));
  CHECK_THAT(text, Catch::Contains("×1.500 ±15 %"));
  CHECK_THAT(text, Catch::Contains("WORSE: error constant"));
  // Identical results: no ratio above 1, nothing worse.
  const std::string same = report::compare_text(check::compare(old, old), {});
  CHECK_THAT(same, Catch::Contains("×1.000"));
  CHECK_THAT(same, !Catch::Contains("WORSE"));
}

TEST_CASE("COMPARE.md and its plot's data hold the ratios, and a page without plots says why", "[compare][known]") {
  testing::TempDir dir("compare-page");
  const auto [old, now] = old_and_new();
  const check::CompareOptions o;
  const auto c = check::compare(old, now, o);
  const auto out = report::render_compare(old, now, "old-run", "new-run", c, o, dir.path, nullptr, 1);
  CHECK(out.missing == std::vector<std::string>{"compare-s"});
  CHECK(out.plots.empty());
  CHECK(out.problem == "plots were not drawn (--no-plots)");
  const std::string md = read(out.markdown);
  INFO(md);
  CHECK(out.markdown == dir.path / "COMPARE.md");
  CHECK_THAT(md, Catch::StartsWith("# new-run against old-run"));
  CHECK_THAT(md, Catch::Contains("> **1 plot(s) missing**: plots were not drawn (--no-plots)"));
  CHECK_THAT(md, Catch::Contains("| m | 4.00 [3.95, 4.05] → 4.00 [3.95, 4.05] | ×2 (3 steps) |"));
  CHECK_THAT(md, Catch::Contains("×1.500 ±15 %"));
  CHECK_THAT(md, Catch::Contains("larger by more than 1 %"));
  CHECK_THAT(md, Catch::Contains("timing is shown, never judged"));
  const std::size_t worse = c.verdict.count(check::Outcome::fail);
  CHECK(worse >= 1);
  CHECK_THAT(md, Catch::Contains(fmt::format("**{} worse** in {} comparisons of 1 methods", worse, c.verdict.outcomes.size())));
  CHECK_THAT(md, Catch::Contains("## Worse"));
  CHECK_THAT(md, !Catch::Contains("![new against old"));  // not drawn: no picture

  // The plot's data: ratios at x = -0.15 (errors), 0 (time, with its noise band), +0.15 (costs).
  const std::string dat = read(dir.path / "plots" / "compare-s.dat");
  const auto errors = block(dat, 0), times = block(dat, 1), costs = block(dat, 2);
  REQUIRE(errors.size() == 4);  // three ratios and the closing "0 NaN"
  CHECK(errors[0] == std::vector<double>{-0.15, 1});
  CHECK(errors[1] == std::vector<double>{-0.15, 2});
  CHECK(errors[2] == std::vector<double>{-0.15, 1});
  REQUIRE(times.size() == 2);
  REQUIRE(times[0].size() == 4);
  CHECK(times[0][0] == 0);
  CHECK(times[0][1] == Approx(1.5).epsilon(1e-15));
  CHECK(times[0][2] == Approx(1.5 / 1.15).epsilon(1e-15));
  CHECK(times[0][3] == Approx(1.5 * 1.15).epsilon(1e-15));
  REQUIRE(costs.size() >= 2);
  CHECK(costs[0][0] == Approx(0.15));
  CHECK(costs[0][1] == Approx(std::pow(10.0, -0.25) * std::pow(0.8, -0.2) * 2).epsilon(1e-9));  // 836.5 / 711.3
  // Its axis: ratios from 1 to 2, the time band to 1.725, and the tolerance lines 1/1.04 and 1.04: a linear axis
  // (2.4 / 0.8013 < 4) from 0.9615 / 1.2 - 0.05 to 2 x 1.2.
  const std::string gp = read(dir.path / "plots" / "compare-s.gp");
  std::smatch m;
  REQUIRE(std::regex_search(gp, m, std::regex(R"(set yrange \[([^:]+):([^\]]+)\])")));
  CHECK(std::stod(m[1]) == Approx(1 / 1.04 / 1.2 - 0.05).epsilon(1e-12));
  CHECK(std::stod(m[2]) == Approx(2.4).epsilon(1e-12));
  CHECK_THAT(gp, !Catch::Contains("set logscale y"));
  CHECK_THAT(gp, Catch::Contains("1.01 with lines dt 2"));  // the error tolerance line
}

TEST_CASE("history: error constants, orders and times per folder, by hand", "[compare][known]") {
  auto [old, now] = old_and_new();
  for (auto* r : {&old, &now}) {
    auto& o = r->studies[0].orders[0];
    o.dt_min = 0.025, o.dt_max = 0.1;
    o.sweep.clear();
    for (const auto& run : r->studies[0].runs) o.sweep.push_back({run.dt, run.global});
  }
  now.studies[0].orders[0].observed = 3.9;
  report::History h{{"first", "second"}, {old, now}, {}};
  // Error constants error / dt^4: old 1, 1, 1 (median 1); new 1, 2, 1 (median 1).  Time per step: 100, 150 ns.
  const std::string text = report::history_text(h);
  INFO(text);
  CHECK_THAT(text, Catch::Contains("s (kepler): error constant / observed order / ns per step"));
  CHECK_THAT(text, Catch::Contains("| 1 4.00 100.0 | 1 3.90 150.0"));
  testing::TempDir dir("history-page");
  const auto out = report::render_history(h, dir.path, nullptr, 1);
  const std::string md = read(out.markdown);
  INFO(md);
  CHECK_THAT(md, Catch::StartsWith("# History of 2 results folders"));
  CHECK_THAT(md, Catch::Contains("1. `first`"));
  CHECK_THAT(md, Catch::Contains("2. `second`"));
  CHECK_THAT(md, Catch::Contains("| m | 4.00 | 3.90 |"));
  CHECK_THAT(md, Catch::Contains("| m | 100.0 | 150.0 |"));
  CHECK_THAT(md, Catch::Contains("| m | 1 | 1 |"));
  CHECK_THAT(md, Catch::Contains("plot(s) missing**: plots were not drawn (--no-plots)"));
  CHECK(out.plots.empty());
  CHECK(out.missing.size() >= 3);  // constant, order, time, and one per cost target
  // The order plot's data: (folder, value) for each folder.
  const auto order = block(read(dir.path / "plots" / "history-s-order.dat"), 0);
  REQUIRE(order.size() == 2);
  CHECK(order[0] == std::vector<double>{1, 4});
  CHECK(order[1] == std::vector<double>{2, 3.9});
  const auto time = block(read(dir.path / "plots" / "history-s-time.dat"), 0);
  REQUIRE(time.size() == 2);
  CHECK(time[1] == std::vector<double>{2, 150});
}

TEST_CASE("compare's page marks a method worse only in the study where it is worse", "[compare][known]") {
  testing::TempDir dir("compare-two-studies");
  // Method m in two studies, s and t, alike; in t its error at dt 0.05 doubles (worse), in s nothing changes.
  auto old = testing::results();
  auto t = old.studies[0];
  t.name = "t";
  old.studies.push_back(t);
  auto now = old;
  now.studies[1].runs[1].global *= 2;
  const check::CompareOptions o;
  const auto c = check::compare(old, now, o);
  REQUIRE(c.methods.size() == 2);
  // The lines of a text that hold `key`.
  auto lines_with = [](const std::string& text, const std::string& key) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.find(key) != std::string::npos) out.push_back(line);
    return out;
  };
  const std::string text = report::compare_text(c, {});
  INFO(text);
  const auto s_lines = lines_with(text, "s / m"), t_lines = lines_with(text, "t / m");
  REQUIRE(s_lines.size() == 1);
  REQUIRE(t_lines.size() == 1);
  CHECK_THAT(s_lines[0], !Catch::Contains("WORSE"));
  CHECK_THAT(t_lines[0], Catch::Contains("WORSE: error constant"));
  // COMPARE.md: a section per study in their order, s then t, each with m's row; its last cell, the aspects worse,
  // empty in s's.
  const auto out = report::render_compare(old, now, "old-run", "new-run", c, o, dir.path, nullptr, 1);
  const std::string md = read(out.markdown);
  INFO(md);
  const auto rows = lines_with(md, "| m |");
  REQUIRE(rows.size() == 2);
  CHECK_THAT(rows[0], Catch::EndsWith("|  |"));
  CHECK_THAT(rows[1], Catch::EndsWith("| error constant, cost to accuracy |"));
}

TEST_CASE("COMPARE.md lists a study compared under the same name as another experiment, with nothing added or removed", "[compare][known]") {
  testing::TempDir dir("compare-changed");
  const auto old = testing::results();
  auto now = old;
  now.studies[0].params = {{"e", "0.9"}};  // the same name, another experiment: changed, not compared
  const check::CompareOptions o;
  const auto c = check::compare(old, now, o);
  REQUIRE(c.changed.size() == 1);
  REQUIRE(c.added.empty());
  REQUIRE(c.removed.empty());
  const auto out = report::render_compare(old, now, "old-run", "new-run", c, o, dir.path, nullptr, 1);
  const std::string md = read(out.markdown);
  INFO(md);
  CHECK_THAT(md, Catch::Contains("## Added, removed and changed"));
  CHECK_THAT(md, Catch::Contains("- changed: s: the problem's parameters changed"));
}
