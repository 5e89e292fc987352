// Plots a person can read, checked on the pictures themselves: every SVG of the committed example report (and of a
// fresh render of the fixture) parsed as XML by expat, with at most 8 legend entries per panel, a non-empty title,
// a non-empty title per panel, and an x and a y label on every panel, each naming its unit in parentheses.  The
// renderer draws titles at 13 points, panel titles at 12 and axis labels at 11 (reports/plots.hpp), which is how the
// parts are told apart in gnuplot's SVG.
#include <catch2/catch.hpp>

#include <expat.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "reports/plots.hpp"
#include "reports/process.hpp"
#include "reports/render.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;

namespace {

struct Text {
  double size = 0;
  bool rotated = false;
  std::string text;
};

/// What a gnuplot SVG holds: its texts with their font size, and per panel (the letter gnuplot appends to its plot
/// groups' ids) the plot elements with a legend entry.
struct SvgFacts {
  bool well_formed = false;
  std::string error;
  std::vector<Text> texts;
  std::map<std::string, int> titled;  ///< panel letter -> plot elements with a legend title
  std::map<std::string, int> elements;
};

struct Parser {
  struct Frame {
    std::string name, id;
    double size = 0;
    bool rotated = false;
  };
  std::vector<Frame> stack;
  std::string chars;  ///< text inside the current <text> or <title>
  bool in_text = false, in_title = false;
  SvgFacts facts;
  const std::regex plot_id{"gnuplot_plot_([0-9]+)([a-z]*)"};

  void start(const char* name, const char** attrs) {
    Frame f{name, "", stack.empty() ? 0 : stack.back().size, !stack.empty() && stack.back().rotated};
    for (int i = 0; attrs[i]; i += 2) {
      const std::string key = attrs[i], value = attrs[i + 1];
      if (key == "id") f.id = value;
      if (key == "font-size") f.size = std::stod(value);
      if (key == "transform" && value.find("rotate(") != std::string::npos) f.rotated = true;
    }
    if (f.name == "text") in_text = true, chars.clear();
    if (f.name == "title") in_title = true, chars.clear();
    stack.push_back(f);
  }
  void end() {
    const Frame f = stack.back();
    stack.pop_back();
    if (f.name == "text") {
      in_text = false;
      facts.texts.push_back({f.size, f.rotated, chars});
    } else if (f.name == "title") {
      in_title = false;
      // A plot group's <title> is its legend text, or its own id when it has none (notitle).
      if (!stack.empty()) {
        std::smatch m;
        if (std::regex_match(stack.back().id, m, plot_id)) {
          ++facts.elements[m[2]];
          if (chars != stack.back().id) ++facts.titled[m[2]];
        }
      }
    }
  }
};

SvgFacts read_svg(const fs::path& file) {
  const std::string text = testing::read_file(file);
  Parser p;
  XML_Parser x = XML_ParserCreate("UTF-8");
  XML_SetUserData(x, &p);
  XML_SetElementHandler(
      x, [](void* d, const XML_Char* n, const XML_Char** a) { static_cast<Parser*>(d)->start(n, a); },
      [](void* d, const XML_Char*) { static_cast<Parser*>(d)->end(); });
  XML_SetCharacterDataHandler(x, [](void* d, const XML_Char* s, int len) {
    auto* p = static_cast<Parser*>(d);
    if (p->in_text || p->in_title) p->chars.append(s, static_cast<std::size_t>(len));
  });
  p.facts.well_formed = XML_Parse(x, text.data(), static_cast<int>(text.size()), 1) == XML_STATUS_OK;
  if (!p.facts.well_formed) p.facts.error = XML_ErrorString(XML_GetErrorCode(x));
  XML_ParserFree(x);
  return p.facts;
}

std::vector<std::string> texts_of(const SvgFacts& f, double size, int rotated = -1) {
  std::vector<std::string> out;
  for (const auto& t : f.texts)
    if (std::abs(t.size - size) < 0.01 && (rotated < 0 || t.rotated == (rotated == 1))) out.push_back(t.text);
  return out;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; }

/// Every rule of a readable plot, on one SVG.
void check_svg(const fs::path& file) {
  INFO(file.string());
  const SvgFacts f = read_svg(file);
  REQUIRE(f.well_formed);
  const auto titles = texts_of(f, 13);
  REQUIRE(titles.size() == 1);
  CHECK_FALSE(blank(titles[0]));
  const std::size_t panels = f.elements.size();
  REQUIRE(panels >= 1);
  for (const auto& [panel, n] : f.titled) {
    INFO("panel " << panel);
    CHECK(n <= 8);
  }
  const auto panel_titles = texts_of(f, 12), y = texts_of(f, 11, 1), x = texts_of(f, 11, 0);
  CHECK(panel_titles.size() == panels);
  CHECK(y.size() == panels);
  CHECK(x.size() == panels);
  for (const auto& t : panel_titles) CHECK_FALSE(blank(t));
  for (const auto& label : y) {  // a unit, or "dimensionless", in parentheses
    INFO("y label: " << label);
    CHECK(std::regex_search(label, std::regex("\\([^()]+\\)")));
  }
  for (const auto& label : x) {
    INFO("x label: " << label);
    CHECK(std::regex_search(label, std::regex("\\([^()]+\\)")));
  }
}

}  // namespace

TEST_CASE("every SVG of the example report is well-formed XML with at most 8 series per panel, titles and labelled axes",
          "[report][svg]") {
  const fs::path plots = fs::path(HARNESS_SOURCE_DIR) / "reports" / "example" / "plots";
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(plots))
    if (e.path().extension() == ".svg") check_svg(e.path()), ++n;
  CHECK(n >= 60);  // the default study's plots, not an empty folder
}

TEST_CASE("a fresh report's SVGs follow the same rules, and the rules can fail", "[report][svg]") {
  testing::TempDir dir("report-svg");
  report::Options o;
  o.results = fs::path(HARNESS_SOURCE_DIR) / "tests" / "reports" / "fixture";
  o.out = dir.path;
  const auto outcome = report::render(o);
  REQUIRE(outcome.missing.empty());
  for (const auto& name : outcome.plots) check_svg(dir.path / "plots" / (name + ".svg"));
  // The work-precision plot opens with the best of each family on one panel: of euler and rk4 (explicit Runge-Kutta)
  // the one that reaches the smaller errors, rk4 (euler's smallest is 9.0e-3, rk4's 1.2e-11); of the splittings,
  // velocity Verlet, their only member.
  const std::string work = testing::read_file(dir.path / "plots" / "fixture-work.gp");
  const auto first = work.find("set title 'the best of each family'"), second = work.find("set title 'explicit Runge");
  REQUIRE(first != std::string::npos);
  REQUIRE(second > first);
  const std::string panel = work.substr(first, second - first);
  CHECK(panel.find("title 'rk4'") != std::string::npos);
  CHECK(panel.find("title 'velocity-verlet'") != std::string::npos);
  CHECK(panel.find("title 'euler'") == std::string::npos);
  // The checks see what they check: a plot of 9 titled lines in one panel, an x label without a unit, and a panel
  // without a title, drawn by gnuplot as the renderer draws (fonts 13 / 12 / 11).
  std::string bad = "set terminal svg size 600,400 dynamic font 'Sans,10'\nset output 'bad.svg'\n"
                    "set multiplot layout 1,1 title 'nine lines' font ',13'\nset xlabel 'x' font ',11'\nset ylabel 'y (m)' font ',11'\nplot ";
  for (int k = 1; k <= 9; ++k) bad += (k > 1 ? ", " : "") + std::to_string(k) + "*x title 'line " + std::to_string(k) + "'";
  bad += "\nunset multiplot\n";
  testing::TempDir scratch("report-svg-bad");
  scratch.file("bad.gp", bad);
  REQUIRE(report::run_process({"gnuplot", "bad.gp"}, scratch.path, std::chrono::seconds(30)).ok());
  const SvgFacts f = read_svg(scratch.path / "bad.svg");
  REQUIRE(f.well_formed);
  CHECK(f.titled.at("a") == 9);                                       // more than 8: the rule above fails it
  CHECK(texts_of(f, 12).empty());                                     // no panel title
  CHECK(texts_of(f, 11, 0) == std::vector<std::string>{"x"});         // an x label without a unit
  CHECK_FALSE(std::regex_search(texts_of(f, 11, 0)[0], std::regex("\\([^()]+\\)")));
  CHECK(texts_of(f, 11, 1) == std::vector<std::string>{"y (m)"});
  // A file that is not XML is not well-formed.
  CHECK_FALSE(read_svg(scratch.file("broken.svg", "<svg><g></svg>")).well_formed);
}

TEST_CASE("every SVG of a report holding every plot state follows the rules (run by plot_states.sh)", "[.states]") {
  // PLOT_STATES: folders of SVGs, separated by ':' (tests/reports/plot_states.sh renders them first).
  const char* env = std::getenv("PLOT_STATES");
  REQUIRE(env != nullptr);
  std::size_t n = 0;
  std::string dirs = env;
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    for (const auto& e : fs::directory_iterator(dirs.substr(start, end - start)))
      if (e.path().extension() == ".svg") check_svg(e.path()), ++n;
    start = end + 1;
  }
  CHECK(n >= 20);
}

TEST_CASE("a log axis holds two powers of ten at least, the labels gnuplot writes on it", "[report][plots]") {
  // Costs from 200 to 1000, padded by 3: 66.7 to 3000 holds 100 and 1000: as it is.
  report::Extent narrow;
  narrow.add(0.1, 200), narrow.add(0.8, 1000);
  CHECK_THAT(narrow.ranges(false, true, 3), Catch::Contains("set yrange [66.666666666666671:3000]"));
  // One value: 500 padded by 3 is 166.7 to 1500, holding 1000 only: out to 100 and 10^4.
  report::Extent one;
  one.add(1, 500);
  CHECK_THAT(one.ranges(false, true, 3), Catch::Contains("set yrange [100:10000]"));
  // 20 to 80 unpadded holds none: 10 to 100.  A single power of ten unpadded: a decade above it.
  report::Extent tight;
  tight.add(1, 20), tight.add(2, 80);
  CHECK_THAT(tight.ranges(false, true, 1), Catch::Contains("set yrange [10:100]"));
  report::Extent point;
  point.add(1, 1000);
  CHECK_THAT(point.ranges(false, true, 1), Catch::Contains("set yrange [1000:10000]"));
  // Wide ranges keep their padding: 1e-8 to 1e-2 padded by 10.
  report::Extent wide;
  wide.add(1, 1e-8), wide.add(2, 1e-2);
  CHECK_THAT(wide.ranges(true, true), Catch::Contains("set yrange [1.0000000000000001e-09:0.10000000000000001]"));
}
