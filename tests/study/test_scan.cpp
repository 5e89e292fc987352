// Scans (`scan` in a spec): the grid of points, their names and values, and the errors that name the point.
// Every expected value is written out by hand from the spec's text.
#include <catch2/catch.hpp>

#include <cmath>

#include <string>
#include <vector>

#include "study/spec/spec.hpp"
#include "tests/support.hpp"

namespace scan_test {

const std::string head = "name = \"fam\"\nproblem = \"kepler\"\nintegrators = [\"rk4\"]\ndt = [0.1, 0.05]\n";

std::vector<study::Spec> specs(const std::string& text) { return study::parse_specs(text, "fam.toml"); }

/// The SpecError's message, or "no error".
std::string error(const std::string& text) {
  try {
    specs(text);
  } catch (const study::SpecError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::string> names(const std::vector<study::Spec>& s) {
  std::vector<std::string> n;
  for (const auto& x : s) n.push_back(x.name);
  return n;
}

}  // namespace scan_test

using namespace scan_test;

TEST_CASE("a scan is one study per point, named after its values, the first axis varying slowest", "[spec][scan]") {
  SECTION("a list of values") {
    const auto s = specs(head + "t_end = 1.0\nscan = { e = [0.0, 0.3, 0.6, 0.9] }\n");
    CHECK(names(s) == std::vector<std::string>{"fam_e-0", "fam_e-0p3", "fam_e-0p6", "fam_e-0p9"});
    REQUIRE(s.size() == 4);
    CHECK(s[1].params.at("e") == "0.3");
    CHECK(s[1].t_end == 1.0);
    CHECK(s[1].scan == study::ScanPoint{.scan = "fam", .axes = {"e"}, .values = {0.3}, .index = 1, .count = 4});
    CHECK(s[0].scan.scan == "fam");
    CHECK(s[3].scan.index == 3);
  }
  SECTION("a linear range: its values to 12 digits, the ends exact") {
    const auto s = specs(head + "t_end = 1.0\nscan = { e = { from = 0.05, to = 0.95, count = 10 } }\n");
    REQUIRE(s.size() == 10);
    const std::vector<double> want{0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95};
    for (std::size_t i = 0; i < 10; ++i) CHECK(s[i].scan.values[0] == want[i]);
    CHECK(s[3].name == "fam_e-0p35");
    CHECK(s[3].params.at("e") == "0.35");
  }
  SECTION("a logarithmic range") {
    const auto s = specs(head + "t_end = 1.0\nscan = { e = { from = 0.001, to = 0.1, count = 3, log = true } }\n");
    REQUIRE(s.size() == 3);
    CHECK(s[0].scan.values[0] == 0.001);
    CHECK(s[1].scan.values[0] == 0.01);
    CHECK(s[2].scan.values[0] == 0.1);
    CHECK(s[1].name == "fam_e-0p01");
  }
  SECTION("a grid of t_end and a parameter, in the order the spec writes them") {
    const auto s = specs(head + "scan = { t_end = [1.0, 2.0], e = [0.1, 0.5] }\n");
    CHECK(names(s) == std::vector<std::string>{"fam_t_end-1_e-0p1", "fam_t_end-1_e-0p5", "fam_t_end-2_e-0p1", "fam_t_end-2_e-0p5"});
    REQUIRE(s.size() == 4);
    CHECK(s[2].t_end == 2.0);
    CHECK(s[2].params.at("e") == "0.1");
    CHECK(s[2].steps == std::vector<long>{20, 40});  // dt 0.1 and 0.05 of t_end 2
    CHECK(s[2].scan.axes == std::vector<std::string>{"t_end", "e"});
    CHECK(s[2].scan.values == std::vector<double>{2.0, 0.1});
  }
  SECTION("a range through zero gives 0 there, not rounding noise; a descending range keeps its order") {
    const std::string h = "name = \"fam\"\nproblem = \"harmonic\"\nintegrators = [\"rk4\"]\ndt = [0.1, 0.05]\nt_end = 1.0\n";
    const auto s = specs(h + "scan = { v0 = { from = -0.3, to = 0.6, count = 10 } }\n");
    REQUIRE(s.size() == 10);
    const std::vector<double> want{-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
    for (std::size_t i = 0; i < 10; ++i) CHECK(s[i].scan.values[0] == want[i]);
    CHECK(s[3].name == "fam_v0-0");
    CHECK(s[0].name == "fam_v0-m0p3");
    const auto d = specs(h + "scan = { x0 = { from = 2.0, to = 1.0, count = 3 } }\n");
    CHECK(names(d) == std::vector<std::string>{"fam_x0-2", "fam_x0-1p5", "fam_x0-1"});
  }
  SECTION("a logarithmic range far below its larger end keeps every value as defined: no snap to 0 (issue 53)") {
    const std::string h = "name = \"fam\"\nproblem = \"harmonic\"\nintegrators = [\"rk4\"]\ndt = [0.1, 0.05]\nt_end = 1.0\n";
    const auto s = specs(h + "scan = { x0 = { from = 1e-13, to = 1.0, count = 3, log = true } }\n");
    REQUIRE(s.size() == 3);
    CHECK(s[0].scan.values[0] == 1e-13);  // was 0: below 1e-12 of the range's larger end
    CHECK_THAT(s[1].scan.values[0], Catch::WithinRel(std::sqrt(1e-13), 1e-11));  // the geometric mean, 3.16227766017e-7
    CHECK(s[2].scan.values[0] == 1.0);
    // A linear range that does not cross 0 keeps its small end as written too, every digit of it.
    const auto l = specs(h + "scan = { x0 = { from = 1.234567890123456e-13, to = 1.0, count = 2 } }\n");
    CHECK(l[0].scan.values[0] == 1.234567890123456e-13);
  }
  SECTION("a spec without a scan is one study, as parse_spec reads it") {
    const auto s = specs(head + "t_end = 1.0\n");
    REQUIRE(s.size() == 1);
    CHECK(s[0].name == "fam");
    CHECK(s[0].scan.scan.empty());
  }
}

TEST_CASE("a point's name: the axis lower case, a dash, the shortest decimal with '.' as p and '-' as m", "[spec][scan]") {
  CHECK(study::scan_point_name("s", {"x0"}, {-1e-05}) == "s_x0-m1em05");
  CHECK(study::scan_point_name("s", {"G"}, {1500.0}) == "s_g-1500");
  CHECK(study::scan_point_name("s", {"a", "b"}, {0.5, -2.25}) == "s_a-0p5_b-m2p25");
  CHECK(study::scan_point_name("s", {"e"}, {1e+20}) == "s_e-1e20");
  // An axis without its value, or a value without its axis, names nothing more.
  CHECK(study::scan_point_name("s", {"a", "b"}, {0.5}) == "s_a-0p5");
  CHECK(study::scan_point_name("s", {"a"}, {0.5, -2.25}) == "s_a-0p5");
}

TEST_CASE("a bad scan is refused before any work, naming the key, the line or the point", "[spec][scan]") {
  using Catch::Contains;
  const std::string with_t = head + "t_end = 1.0\n";
  CHECK_THAT(error(with_t + "scan = { ecc = [0.1] }\n"),
             Contains("fam.toml:6: scan.ecc: not t_end or a parameter of kepler (did you mean 'e'?); axes: t_end, e"));
  CHECK_THAT(error(with_t + "params = { e = 0.5 }\nscan = { e = [0.1] }\n"),
             Contains("fam.toml:6: params.e: is scanned (scan.e)"));
  CHECK_THAT(error(with_t + "scan = { t_end = [1.0, 2.0] }\n"), Contains("fam.toml:5: t_end: is scanned (scan.t_end)"));
  CHECK_THAT(error(with_t + "scan = { e = [] }\n"), Contains("scan.e: has 0 values: give from 1 to 1000"));
  CHECK_THAT(error(with_t + "scan = { e = [0.1, 0.1] }\n"), Contains("scan.e: the value 0.1 is given twice"));
  CHECK_THAT(error(with_t + "scan = { e = [0.1, \"x\"] }\n"), Contains("scan.e: every value must be a finite number"));
  CHECK_THAT(error(with_t + "scan = { e = 0.5 }\n"), Contains("scan.e: must be an array of values"));
  CHECK_THAT(error(with_t + "scan = { e = { from = 0.1, to = 0.5, count = 1 } }\n"),
             Contains("scan.e.count: must be a whole number from 2 to 1000"));
  CHECK_THAT(error(with_t + "scan = { e = { from = 0.1, to = 0.5, count = 1001 } }\n"),
             Contains("scan.e.count: must be a whole number from 2 to 1000"));
  CHECK_THAT(error(with_t + "scan = { e = { from = 0.1, to = 0.5 } }\n"), Contains("scan.e: a range needs from and to"));
  CHECK_THAT(error(with_t + "scan = { e = { from = 0.1, to = 0.1, count = 3 } }\n"), Contains("scan.e: from and to must be finite and differ"));
  CHECK_THAT(error(with_t + "scan = { e = { from = 0.0, to = 0.5, count = 3, log = true } }\n"),
             Contains("log = true spaces the values evenly in the logarithm: from and to must be > 0"));
  CHECK_THAT(error(with_t + "scan = { e = { from = 0.1, to = 0.5, count = 3, step = 1 } }\n"),
             Contains("scan.e.step: unknown key of a scan range"));
  CHECK_THAT(error(with_t + "scan = { e = { from = 0.1, to = 0.5, count = 3, log = 1 } }\n"), Contains("scan.e.log: must be true or false"));
  CHECK_THAT(error(with_t + "scan = {}\n"), Contains("fam.toml:6: scan: must be a table of axes"));
  CHECK_THAT(error(with_t + "scan = [1, 2]\n"), Contains("fam.toml:6: scan: must be a table of axes"));
  // 1000 x 11 points: more than 10000, refused before any point is read.
  CHECK_THAT(error(head + "scan = { e = { from = 0.0, to = 0.5, count = 1000 }, t_end = { from = 1, to = 2, count = 11 } }\n"),
             Contains("scan: makes more than 10000 points (1000 x 11)"));
  // A value the problem refuses: the point is named, after the usual file, line and key.
  CHECK_THAT(error(with_t + "scan = { e = [0.5, 1.2] }\n"),
             Contains("fam.toml:6: scan.e: kepler: parameter 'e' = 1.2 is out of range") && Contains("[scan point 2 of 2: e = 1.2]"));
  // The spec's own name is checked before any point, and its error names none.
  const std::string upper = error("name = \"Fam\"\nproblem = \"kepler\"\nintegrators = [\"rk4\"]\ndt = [0.1]\nt_end = 1.0\nscan = { e = [0.1] }\n");
  CHECK_THAT(upper, Contains("fam.toml:1: name: 'Fam' must be lowercase letters"));
  CHECK_THAT(upper, !Contains("scan point"));
  // A value that merely appears in a parameter's message is not blamed: the typo is in params.
  CHECK_THAT(error(with_t + "params = { ee = 0.5 }\nscan = { e = [0.1] }\n"), Contains("fam.toml:6: params: kepler: unknown parameter 'ee'"));
  // A scanned t_end the problem's time scale refuses is named at scan.t_end.
  CHECK_THAT(error(head + "scan = { t_end = [1.0, 1e12] }\n"), Contains("fam.toml:5: scan.t_end: t_end = 1e+12 is"));
  // A range too wide for a double.
  CHECK_THAT(error(with_t + "scan = { e = { from = -1e308, to = 1e308, count = 3 } }\n"), Contains("scan.e: from and to are too far apart"));
  // A t_end that the step sizes do not divide, at the third point of a grid.
  CHECK_THAT(error(head + "scan = { t_end = [1.0, 1.05], e = [0.1, 0.2] }\n"),
             Contains("dt = 0.1 does not divide t_end = 1.05") && Contains("[scan point 3 of 4: t_end = 1.05, e = 0.1]"));
  // A name that the point's values make too long.
  CHECK_THAT(error("name = \"a-very-long-name-for-a-family-of-studies-of-kepler-orbits\"\nproblem = \"kepler\"\n"
                   "integrators = [\"rk4\"]\ndt = [0.1]\nt_end = 1.0\nscan = { e = [0.123456789] }\n"),
             Contains("is 71 characters long (at most 64): give the spec a shorter name") && Contains("[scan point 1 of 1: e = 0.123456789]"));
  // parse_spec reads one study: a scan is refused there, saying what reads it.
  try {
    study::parse_spec(with_t + "scan = { e = [0.1] }\n", "fam.toml");
    FAIL("a scan read as one study");
  } catch (const study::SpecError& e) {
    CHECK_THAT(std::string(e.what()), Contains("fam.toml:6: scan: this spec is a scan of many studies"));
  }
}
