// The registry of a user program's integrators and problems (study/registry/extensions.hpp, study/extend/): ids refused
// before anything runs, problems found by id beside the shipped ones, a pair that was never compiled refused at
// the spec, and cli_main reporting refused registrations with exit 2.  The registrations here are type-erased by
// hand (cheap to compile); examples/ and tests/install/examples.sh build the real templates against an install.
#include <catch2/catch.hpp>

#include "tests/support.hpp"

#include <cmath>
#include <iostream>
#include <set>

#include <unistd.h>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "study/cli.hpp"
#include "study/cli/options.hpp"
#include "study/cli/run.hpp"
#include "study/common/results_folder.hpp"
#include "study/engine.hpp"
#include "study/extend/controller.hpp"
#include "study/extend/registration.hpp"
#include "study/measure/runners.hpp"
#include "study/registry/extensions.hpp"
#include "study/measure/measure.hpp"
#include "study/problems/all.hpp"

namespace {

/// Leaves the process's registry as it found it (empty: the shipped `study` registers nothing).
struct CleanRegistry {
  CleanRegistry() { REQUIRE(study::extensions().empty()); }
  ~CleanRegistry() { study::extensions() = study::Extensions{}, study::user_runners().clear(); }
};

study::IntegratorChoice choice(const std::string& id) { return {.id = id, .substeps = 1, .start = {}, .variant = {}, .table = {}}; }

/// A problem "my-spring" (the harmonic oscillator's facts under another id) and an integrator "my-step".
void register_by_hand(bool together) {
  auto facts = [](const study::ParamValues& v) {
    study::ProblemFacts f = study::facts_of(study::Harmonic<double>(v));
    f.id = "my-spring";
    return f;
  };
  study::extensions().problems.push_back({facts({}), facts, {}});
  study::extensions().integrators.push_back({"my-step", [](const study::IntegratorChoice&) {
                                               return ode::Info{.id = "my-step", .summary = "", .order = 2, .evals_per_step = 1};
                                             }});
  const study::TaskRunner nothing = [](study::TaskKind, const study::Spec&, const study::SpecIntegrator&, long,
                                       const study::engine::Context&, study::StudyResult&, std::size_t) {};
  study::register_runner({"my-step", ""}, nothing);
  study::register_runner({"", "my-spring"}, nothing);
  if (together) study::register_runner({"my-step", "my-spring"}, nothing);
}

const std::string spec_text = R"(name = "mine"
problem = "my-spring"
t_end = 6.4
integrators = ["my-step"]
dt = [0.1, 0.05]
metrics = ["global"]
)";

}  // namespace

TEST_CASE("a registration under a taken or malformed id is refused, and cli_main reports it with exit 2", "[extend]") {
  const CleanRegistry clean;
  using study::extend_detail::claim_id;
  CHECK(claim_id("my-verlet", "integrator"));
  CHECK(claim_id("my-orbit", "problem"));
  CHECK(study::extensions().errors.empty());
  char name[] = "study", list[] = "list", only[] = "--specs";
  char* argv[] = {name, list, only};
  CHECK(study::cli_main(3, argv) == 0);  // nothing refused: the command runs
  CHECK_FALSE(claim_id("rk4", "integrator"));
  CHECK_FALSE(claim_id("kepler", "problem"));
  CHECK_FALSE(claim_id("My Verlet", "integrator"));
  CHECK_FALSE(claim_id("", "problem"));
  CHECK_FALSE(claim_id(std::string(65, 'a'), "problem"));
  CHECK(claim_id(std::string(64, 'a'), "problem"));
  REQUIRE(study::extensions().errors.size() == 5);
  CHECK_THAT(study::extensions().errors[0], Catch::Contains("integrator 'rk4': an integrator of that id exists already"));
  CHECK_THAT(study::extensions().errors[1], Catch::Contains("problem 'kepler': a problem of that id exists already"));
  CHECK_THAT(study::extensions().errors[2], Catch::Contains("lowercase letters, digits"));
  CHECK(study::cli_main(3, argv) == 2);  // before anything runs
}

TEST_CASE("a user's problem is found by id beside the shipped ones, with its facts and its parameters' rules", "[extend]") {
  const CleanRegistry clean;
  register_by_hand(true);
  const auto ids = study::all_problem_ids();
  CHECK(ids.size() == study::problem_ids().size() + 1);
  CHECK(ids.back() == "my-spring");
  const auto f = study::problem_facts("my-spring", {{"omega", "2"}});
  CHECK(f.period == Approx(3.141592653589793).epsilon(1e-15));
  CHECK(f.dim == 1);
  CHECK_FALSE(f.velocity_dependent);
  CHECK_THROWS_AS(study::problem_facts("my-spring", {{"omega", "-1"}}), study::ParamError);
  CHECK_THROWS_WITH(study::problem_facts("my-sprng", {}), Catch::Contains("did you mean 'my-spring'"));
  CHECK(study::problem_facts("kepler", {}).id == "kepler");  // the shipped ones as before
  CHECK_FALSE(study::extend_detail::claim_id("my-spring", "problem"));  // taken now
}

TEST_CASE("a user integrator on a user problem needs their pair registered, and the spec says so before anything runs", "[extend]") {
  const CleanRegistry clean;
  register_by_hand(false);
  CHECK(study::find_runner(choice("rk4"), "kepler") == nullptr);  // both shipped: the engine's own dispatch
  CHECK(study::find_runner(choice("my-step"), "kepler") != nullptr);
  CHECK(study::find_runner(choice("rk4"), "my-spring") != nullptr);
  CHECK_THROWS_WITH(study::find_runner(choice("my-step"), "my-spring"),
                    Catch::Contains("my-step and my-spring are both your program's, but were not registered together") &&
                        Catch::Contains("study::register_pair<"));
  CHECK_THROWS_WITH(study::parse_spec(spec_text, "mine.toml"), Catch::Contains("mine.toml") && Catch::Contains("register_pair"));
  study::register_runner({"my-step", "my-spring"}, study::user_runners().at({"my-step", ""}));
  const study::Spec s = study::parse_spec(spec_text, "mine.toml");
  REQUIRE(s.integrators.size() == 1);
  CHECK(s.integrators[0].expected_global == 2);
  CHECK(s.time_scale == Approx(6.283185307179586).epsilon(1e-15));  // my-spring's period
}

TEST_CASE("a user's problem registered with some built-in integrators only refuses the others at the spec", "[extend]") {
  const CleanRegistry clean;
  register_by_hand(true);
  study::extensions().problems.back().integrators = {"rk4", "euler"};
  CHECK(study::find_runner(choice("rk4"), "my-spring") != nullptr);
  CHECK(study::find_runner(choice("my-step"), "my-spring") != nullptr);  // its own pair, registered
  CHECK_THROWS_WITH(study::find_runner(choice("velocity-verlet"), "my-spring"),
                    Catch::Contains("velocity-verlet was not compiled on my-spring") && Catch::Contains("only rk4, euler"));
  std::string text = spec_text;
  text.replace(text.find("[\"my-step\"]"), 11, "[\"rk4\", \"yoshida4\"]");
  CHECK_THROWS_WITH(study::parse_spec(text, "mine.toml"), Catch::Contains("yoshida4 was not compiled on my-spring"));
}

TEST_CASE("all in a spec means the hand-written integrators that the problem was compiled with", "[extend]") {
  const CleanRegistry clean;
  register_by_hand(true);
  study::extensions().problems.back().integrators = {"rk4", "euler"};
  std::string text = spec_text;
  text.replace(text.find("[\"my-step\"]"), 11, "[\"all\"]");
  const study::Spec s = study::parse_spec(text, "mine.toml");
  REQUIRE(s.integrators.size() == 2);  // not my-step (listed by id only), not the built-ins my-spring lacks
  CHECK(s.integrators[0].choice.id == "euler");
  CHECK(s.integrators[1].choice.id == "rk4");
}

TEST_CASE("a program's own integrator cannot take a shipped method table's id, and a pair needs both registered", "[extend]") {
  const CleanRegistry clean;
  CHECK_FALSE(study::extend_detail::claim_id("suzuki4", "integrator"));
  CHECK_THAT(study::extensions().errors.at(0), Catch::Contains("a shipped method table has that id"));
  study::extensions().errors.clear();
  register_by_hand(true);
  CHECK(study::registration_errors().empty());
  study::register_runner({"their-step", "my-spring"}, study::user_runners().at({"my-step", ""}));
  const auto errors = study::registration_errors();
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("the pair (their-step, my-spring): register_integrator<their-step's type>() too"));
}

TEST_CASE("in a program with registrations the round-off shadows are keyed by its build", "[extend]") {
  const CleanRegistry clean;
  std::string text = spec_text;
  text.replace(text.find("my-spring"), 9, "harmonic");
  text.replace(text.find("[\"my-step\"]"), 11, "[\"rk4\"]");
  const study::Spec s = study::parse_spec(text, "mine.toml");
  const study::engine::Grid grid{s, 64};
  const study::engine::Context ctx;
  const std::string shipped = study::engine::shadow_key("type", "rk4", grid, ctx);
  CHECK(shipped.find("\nprogram ") == std::string::npos);
  register_by_hand(true);
  const std::string own = study::engine::shadow_key("type", "rk4", grid, ctx);
  // With a build ID (GNU ld's default) the key names it; without one nothing may be cached.
  CHECK((own.empty() || (own != shipped && own.find("\nprogram ") != std::string::npos)));
}

namespace {

/// cli_main's exit status, standard output and standard error.
struct CliRun {
  int rc;
  std::string out, err;
};
CliRun cli(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int rc = study::cli_main(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out), std::cerr.rdbuf(old_err);
  return {rc, out.str(), err.str()};
}

}  // namespace

TEST_CASE("cli_main: a misspelt option of a command is named with the command's own suggestion, exit 2", "[extend][known]") {
  const CleanRegistry clean;
  const auto [rc, out, err] = cli({"study", "report", "--acuracy", "1e-6"});
  CHECK(rc == 2);
  CHECK(err == "study report: unknown option '--acuracy' (did you mean '--accuracy'?) (see study report --help)\n");
  const auto [rc2, out2, err2] = cli({"study", "run", "--job=2"});
  CHECK(rc2 == 2);
  CHECK(err2 == "study run: unknown option '--job' (did you mean '--jobs'?) (see study run --help)\n");
  const auto [rc3, out3, err3] = cli({"study", "frobnicate"});
  CHECK(rc3 == 2);
  CHECK_THAT(err3, Catch::StartsWith("study: unknown command 'frobnicate'; commands: list, run, report"));
}

TEST_CASE("cli_main: --gnuplot-timeout takes 0.1 to 3600 seconds, and refuses what lies outside", "[extend][known]") {
  const CleanRegistry clean;
  const testing::TempDir dir("extend-gnuplot-timeout");
  const std::string results = std::string(HARNESS_SOURCE_DIR) + "/tests/reports/fixture";
  // study report's option, and the one study compare and study history share (options.cpp).
  for (const bool compare : {false, true}) {
  auto report = [&](const char* timeout) {
    std::vector<std::string> args{"study", compare ? "compare" : "report", results, "--out", (dir.path / (compare ? "compare" : "out")).string(),
                                  "--no-plots", "--gnuplot-timeout", timeout};
    if (compare) args.insert(args.begin() + 3, results);
    const auto r = cli(args);
    return std::pair{r.rc, r.err};
  };
  for (const char* bad : {"0.09", "3600.5", "0", "-1"}) {
    const auto [rc, err] = report(bad);
    INFO((compare ? "compare " : "report ") << bad << ": " << err);
    CHECK(rc == 2);
    CHECK_THAT(err, Catch::Contains("--gnuplot-timeout"));
  }
  for (const char* good : {"0.1", "3600"}) {  // accepted: the page is written
    const auto [rc, err] = report(good);
    INFO(good << ": " << err);
    CHECK(rc == 0);
    CHECK(std::filesystem::exists(compare ? dir.path / "compare" / "COMPARE.md" : dir.path / "out" / "REPORT.md"));
  }
  }
}


TEST_CASE("study method prints what the coefficients say: stages, cost, condition counts, the first failing one", "[extend][known]") {
  const CleanRegistry clean;
  const auto r = cli({"study", "method", "rk4", "yoshida4"});
  INFO(r.out << r.err);
  CHECK(r.rc == 0);
  // RK4: 4 stages, 4 evaluations; rooted trees of order <= 5: 1 + 1 + 2 + 4 + 9 = 17 (Butcher); b c^4 = 5/24 against
  // 1/5: off by 1/120 = 0.00833; principal error coefficient 0.0145 (Butcher, Numerical Methods for ODEs, §32).
  CHECK_THAT(r.out, Catch::Contains("kind         runge-kutta, 4 stages\n"));
  CHECK_THAT(r.out, Catch::Contains("cost         4 force evaluations per step\n"));
  CHECK_THAT(r.out, Catch::Contains("predicted 4 from 17 conditions of rooted trees"));
  CHECK_THAT(r.out, Catch::Contains("sum b_i c_i^4 = 1/5 (tree [t,t,t,t]) off by 0.00833; principal error coefficient 0.0145\n"));
  // Yoshida 4: drift, kick, drift, kick, drift, kick, drift (7 operations), 3 kicks; Nystrom trees through order 5:
  // velocity trees 1 + 1 + 2 + 3 + 6, position trees over those of order <= 4: 1 + 1 + 1 + 2 + 3 -- 21.
  CHECK_THAT(r.out, Catch::Contains("kind         splitting, 7 operations\n"));
  CHECK_THAT(r.out, Catch::Contains("cost         3 force evaluations per step; needs a position-only force a(q)\n"));
  CHECK_THAT(r.out, Catch::Contains("predicted 4 from 21 conditions of Nystrom trees"));
  CHECK_THAT(r.out, Catch::Contains("symplectic   yes\n  symmetric    yes\n"));
  CHECK_THAT(r.out, Catch::Contains("symplectic   no\n  symmetric    no\n"));
}

TEST_CASE("study reference prints the state at the times asked, with the tolerances and the bound", "[extend][known]") {
  const CleanRegistry clean;
  const auto r = cli({"study", "reference", "harmonic", "--param", "omega=2", "--at", "0.5,1", "--tol", "1e-20", "--no-cache"});
  INFO(r.out << r.err);
  REQUIRE(r.rc == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["problem"] == "harmonic");
  CHECK(j["tolerance"].get<double>() == 1e-20);
  CHECK(j["check_tolerance"].get<double>() == Approx(1e-22).epsilon(1e-12));  // a hundred times tighter
  REQUIRE(j["states"].size() == 2);
  // x = cos 2t, v = -2 sin 2t.
  for (std::size_t i = 0; i < 2; ++i) {
    const double t = i == 0 ? 0.5 : 1.0;
    CHECK(std::stod(j["states"][i]["t"].get<std::string>()) == t);
    CHECK(std::stod(j["states"][i]["q"][0].get<std::string>()) == Approx(std::cos(2 * t)).epsilon(1e-15));
    CHECK(std::stod(j["states"][i]["v"][0].get<std::string>()) == Approx(-2 * std::sin(2 * t)).epsilon(1e-15));
  }
  const double bound = std::stod(j["error_bound"]["relative"].get<std::string>());
  CHECK(bound > 0);
  CHECK(bound < 1e-18);
  CHECK(j["params"]["omega"].get<std::string>().rfind("2.000000000", 0) == 0);
}

TEST_CASE("study run from the command line: the integrators asked for, and one sweep line per automatic sweep", "[extend][known]") {
  const CleanRegistry clean;
  testing::TempDir dir("extend-cli-run");
  const std::string out = (dir.path / "auto").string();
  const auto r = cli({"study", "run", "--problem", "harmonic", "--integrators", "euler,rk4", "--t-end", "1", "--dt", "auto",
                      "--out", out, "--no-report", "--jobs", "1", "--no-cache"});
  INFO(r.out << r.err);
  REQUIRE(r.rc == 0);
  const auto j = nlohmann::json::parse(testing::read_file(dir.path / "auto" / "results.json"));
  std::vector<std::string> ids;
  for (const auto& i : j["studies"][0]["integrators"]) ids.push_back(i["id"].get<std::string>());
  CHECK(ids == std::vector<std::string>{"euler", "rk4"});  // those two, in that order, nothing else
  // The summary has one line per automatic sweep: "<integrator> sweep  <n> runs, dt <largest>..<smallest>: <why>".
  for (const char* id : {"euler", "rk4"})
    CHECK_THAT(r.out, Catch::Matches(fmt::format("(.|\\n)*\\n  {} +sweep  [0-9]+ runs, dt [0-9.e-]+\\.\\.[0-9.e-]+: (.|\\n)*", id)));
  // Step sizes of one's own: no sweep line.
  const auto fixed = cli({"study", "run", "--problem", "harmonic", "--integrators", "euler", "--t-end", "1", "--dt", "0.1,0.05,0.025",
                          "--out", (dir.path / "fixed").string(), "--no-report", "--jobs", "1", "--no-cache"});
  INFO(fixed.out << fixed.err);
  REQUIRE(fixed.rc == 0);
  CHECK_THAT(fixed.out, !Catch::Contains(" sweep  "));
}

TEST_CASE("study list: each flag lists its own table, several flags theirs, none all three", "[extend][known]") {
  const CleanRegistry clean;
  auto tables = [](std::vector<std::string> args) {
    args.insert(args.begin(), {"study", "list"});
    const auto r = cli(args);
    INFO(r.out << r.err);
    REQUIRE(r.rc == 0);
    std::string which;
    for (const char* t : {"Integrators (", "Problems (", "Specs ("})
      if (r.out.find(t) != std::string::npos) which += std::string(t).substr(0, 1);
    return which;
  };
  CHECK(tables({}) == "IPS");
  CHECK(tables({"--integrators"}) == "I");
  CHECK(tables({"--problems"}) == "P");
  CHECK(tables({"--specs"}) == "S");
  CHECK(tables({"--problems", "--specs"}) == "PS");
}

TEST_CASE("the registration's compile-time refusal is armed only when instantiated", "[extend][known]") {
  // always_false<T> is false for every T: a static_assert on it fires in the template that names it, and only there.
  CHECK_FALSE(study::extend_detail::always_false<int>);
  CHECK_FALSE(study::extend_detail::always_false<study::Spec>);
}

namespace {

/// An integral controller of the user's: the error is max |err_i| / tol; a rejected step is cut by `fraction`, an
/// accepted one grows by 1.5 when err < 0.1.  Counts its calls, so that a test sees it was the one used.
struct FixedFraction final : ode::StepController {
  static inline int calls = 0;
  double tol, fraction;
  FixedFraction(double t, const std::map<std::string, double>& p) : tol(t), fraction(p.count("fraction") ? p.at("fraction") : 0.5) {}
  std::unique_ptr<ode::StepController> clone() const override { return std::make_unique<FixedFraction>(*this); }
  double error(std::span<const double>, std::span<const double>, std::span<const double>, std::span<const double> err, double) override {
    double e = 0;
    for (double x : err) e = std::max(e, std::abs(x));
    return e / tol;
  }
  double next(double dt, double err, bool accepted, int, int) override {
    ++calls;
    return accepted ? (err < 0.1 ? 1.5 * dt : dt) : fraction * dt;
  }
};

}  // namespace

TEST_CASE("a user's step-size controller, registered by name, runs the adaptive integrators a spec gives it", "[extend][adaptive]") {
  const CleanRegistry clean;
  study::register_controller<FixedFraction>("fixed-fraction", {"fraction"});
  REQUIRE(study::extensions().errors.empty());
  study::register_controller<FixedFraction>("pi");  // taken: the shipped PI controller
  study::register_controller<FixedFraction>("Fixed");
  // A parameter named "kind" (the spec's key for the controller itself) or nothing cannot be given in a spec.
  study::register_controller<FixedFraction>("with-kind", {"fraction", "kind"});
  study::register_controller<FixedFraction>("with-empty", {""});
  REQUIRE(study::extensions().errors.size() == 4);
  CHECK_THAT(study::extensions().errors[0], Catch::Contains("controller 'pi': a controller of that name exists already"));
  CHECK_THAT(study::extensions().errors[1], Catch::Contains("lowercase letters"));
  CHECK(study::extensions().errors[2] == "controller 'with-kind': 'kind' cannot be a parameter's name");
  CHECK(study::extensions().errors[3] == "controller 'with-empty': '' cannot be a parameter's name");
  CHECK(study::find_user_controller("with-empty") == nullptr);
  study::extensions().errors.clear();
  testing::TempDir dir("extend-controller");
  const std::string head = "name = \"mine\"\nproblem = \"harmonic\"\nt_end = 5.0\nsamples = 8\nrepeats = 1\n"
                           "tol = { max = 1e-4, min = 1e-6, per_decade = 1 }\n";
  const auto spec = study::load_spec(dir.file("mine.toml", head + "adaptive = [{ id = \"dopri5\", controller = { kind = \"fixed-fraction\", "
                                                                   "fraction = 0.25 } }]\n"));
  REQUIRE(spec.adaptive.size() == 1);
  CHECK(spec.adaptive[0].label == "dopri5 (adaptive, fixed-fraction fraction=0.25)");
  FixedFraction::calls = 0;
  study::EngineOptions o;
  o.jobs = 1, o.use_cache = false;
  const auto res = study::run_studies({spec}, o);
  CHECK(FixedFraction::calls > 0);
  REQUIRE(res.at(0).adaptive_runs.size() == 3);
  for (const auto& r : res.at(0).adaptive_runs) {
    CHECK(r.status == "ok");
    CHECK(r.controller == "fixed-fraction");
    CHECK(r.global < 1e-2);
  }
  // Its parameters are the ones it registered; an unknown name lists the program's own.
  try {
    study::load_spec(dir.file("bad.toml", head + "adaptive = [{ id = \"dopri5\", controller = { kind = \"fixed-fraction\", beta = 1 } }]\n"));
    FAIL("no error");
  } catch (const study::SpecError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("'beta' is not a parameter of the fixed-fraction controller; its parameters: fraction"));
  }
  try {
    study::load_spec(dir.file("bad.toml", head + "adaptive = [{ id = \"dopri5\", controller = \"fixed-fractio\" }]\n"));
    FAIL("no error");
  } catch (const study::SpecError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("(did you mean 'fixed-fraction'?)"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("this program's: fixed-fraction"));
  }
  // On a problem of the program's own, adaptive runs are refused before any work (they run on the shipped problems).
  register_by_hand(true);
  try {
    study::load_spec(dir.file("own.toml", "name = \"own\"\nproblem = \"my-spring\"\nt_end = 5.0\nadaptive = [\"dopri5\"]\n"
                                          "tol = { max = 1e-4, min = 1e-6, per_decade = 1 }\n"));
    FAIL("no error");
  } catch (const study::SpecError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("adaptive integrators run on the shipped problems; my-spring is this program's own"));
  }
}

TEST_CASE("cli_main: a run into an earlier run's folder leaves exactly the files it writes and the user's own", "[extend][output]") {
  namespace fs = std::filesystem;
  const CleanRegistry clean;
  const testing::TempDir dir("extend-regenerate");
  auto run = [&](const fs::path& out, const std::string& name, const std::string& metrics) {
    const auto r = cli({"study", "run", "--problem", "harmonic", "--integrators", "rk4", "--t-end", "1", "--dt", "0.1,0.05,0.025", "--metrics",
                        metrics, "--name", name, "--no-report", "--no-cache", "--out", out.string()});
    REQUIRE(r.rc == 0);
  };
  auto files = [](const fs::path& root) {
    std::set<std::string> all;
    for (const auto& e : fs::recursive_directory_iterator(root)) all.insert(e.path().lexically_relative(root).string());
    return all;
  };
  // First a study "wide" that writes the stability table, then one "narrow" without it, into the same folder with
  // a note of the user's beside them.
  run(dir.path / "results", "wide", "global,stability");
  const auto first = files(dir.path / "results");
  REQUIRE(first.count("wide/stability.csv"));
  dir.file("results/notes.txt", "mine");
  run(dir.path / "results", "narrow", "global");
  // The same run into an empty folder: what the second run writes.  The regenerated folder holds that and the note,
  // nothing of the first run's study.
  run(dir.path / "fresh", "narrow", "global");
  auto expected = files(dir.path / "fresh");
  expected.insert("notes.txt");
  CHECK(files(dir.path / "results") == expected);
  CHECK(testing::read_file(dir.path / "results" / "notes.txt") == "mine");
  // And a study of the same name regenerated without its stability table loses it.
  run(dir.path / "results", "narrow", "global,stability");
  REQUIRE(fs::exists(dir.path / "results" / "narrow" / "stability.csv"));
  run(dir.path / "results", "narrow", "global");
  CHECK(files(dir.path / "results") == expected);
}

TEST_CASE("study list names the program's own problems under their own heading", "[extend][known]") {
  const CleanRegistry clean;
  const auto shipped = cli({"study", "list", "--problems"});
  REQUIRE(shipped.rc == 0);
  CHECK_THAT(shipped.out, !Catch::Contains("This program's own"));
  register_by_hand(true);
  const auto r = cli({"study", "list", "--problems"});
  INFO(r.out << r.err);
  REQUIRE(r.rc == 0);
  const auto heading = r.out.find("  This program's own (registered with study::register_problem):\n");
  REQUIRE(heading != std::string::npos);
  CHECK(r.out.find("  my-spring", heading) != std::string::npos);  // its row under the heading
}

TEST_CASE("cli_main refuses a size that is not finite and reference times that do not increase, exit 2", "[extend][known]") {
  const CleanRegistry clean;
  for (const char* size : {"inf", "nan", "1e400"}) {
    INFO(size);
    const auto r = cli({"study", "run", "--problem", "harmonic", "--integrators", "rk4", "--t-end", "1", "--dt", "0.1", "--max-memory", size,
                        "--no-report", "--out", "/nonexistent/never-written"});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Contains(std::string("'") + size + "' is not a size"));
  }
  for (const char* at : {"2,1", "1,1", "0.5,2,1"}) {
    INFO(at);
    const auto r = cli({"study", "reference", "harmonic", "--at", at});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Contains("--at: times must increase"));
  }
}

TEST_CASE("study run says what it runs on standard error unless quiet, and runs two specs of different names", "[extend][known]") {
  const CleanRegistry clean;
  const testing::TempDir dir("extend-run-two");
  for (const char* name : {"one", "two"})
    dir.file(std::string(name) + ".toml", fmt::format("name = \"{}\"\nproblem = \"harmonic\"\nt_end = 1\nintegrators = [\"rk4\"]\n"
                                                      "dt = [0.1, 0.05]\nmetrics = [\"global\"]\n", name));
  auto run = [&](bool quiet, const std::string& second) {
    std::vector<std::string> args{"study", "run", (dir.path / "one.toml").string(), (dir.path / second).string(), "--no-report", "--no-cache",
                                  "--out", (dir.path / "out").string()};
    if (quiet) args.push_back("--quiet");
    return cli(args);
  };
  const auto loud = run(false, "two.toml");
  INFO(loud.out << loud.err);
  REQUIRE(loud.rc == 0);
  CHECK_THAT(loud.err, Catch::Contains("study run: 2 spec(s), "));
  const auto quiet = run(true, "two.toml");
  REQUIRE(quiet.rc == 0);
  CHECK_THAT(quiet.err, !Catch::Contains("study run: 2 spec(s)"));
  // The same spec twice: one name for two studies, refused.
  const auto twice = run(false, "one.toml");
  CHECK(twice.rc == 2);
  CHECK_THAT(twice.err, Catch::Contains("name 'one' is also the name of"));
  // Another file of the same name: the message names the later file, then the earlier.
  dir.file("three.toml", "name = \"one\"\nproblem = \"harmonic\"\nt_end = 1\nintegrators = [\"rk4\"]\ndt = [0.1]\nmetrics = [\"global\"]\n");
  const auto same_name = run(false, "three.toml");
  CHECK(same_name.rc == 2);
  CHECK_THAT(same_name.err, Catch::Contains((dir.path / "three.toml").string() + ": name 'one' is also the name of " + (dir.path / "one.toml").string()));
}

TEST_CASE("study run reads a spec from standard input when given -", "[extend][known]") {
  const CleanRegistry clean;
  const testing::TempDir dir("extend-stdin");
  const std::string text = "name = \"piped\"\nproblem = \"harmonic\"\nt_end = 1\nintegrators = [\"rk4\"]\ndt = [0.1, 0.05]\nmetrics = [\"global\"]\n";
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  const int saved = ::dup(0);
  ::dup2(fds[0], 0);
  ::close(fds[0]);
  const auto r = cli({"study", "run", "-", "--no-report", "--no-cache", "--quiet", "--out", (dir.path / "out").string()});
  ::dup2(saved, 0);
  ::close(saved);
  INFO(r.out << r.err);
  REQUIRE(r.rc == 0);
  CHECK(std::filesystem::exists(dir.path / "out" / "piped" / "runs.csv"));
}

TEST_CASE("an output file is replaced when it is empty or an earlier output of the same option, and refused otherwise", "[cli][known]") {
  testing::TempDir dir("extend-output-file");
  const std::string junit = (dir.path / "junit.xml").string();
  auto problem = [&] {
    try {
      study::cli::check_junit_file(junit, {});
    } catch (const study::SpecError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(problem().empty());  // a new file
  std::ofstream(junit).flush();  // an empty file (a shell's `> junit.xml`): nothing of the user's to lose
  CHECK(problem().empty());
  std::ofstream(junit) << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"study check\">\n";
  CHECK(problem().empty());  // an earlier JUnit file of ours
  std::ofstream(junit) << "notes of mine\n";
  CHECK_THAT(problem(), Catch::Contains("--junit " + junit + ": exists and is not a JUnit file this command wrote"));
  std::ofstream(junit) << "<?xml";  // shorter than our header: not ours either
  CHECK_THAT(problem(), Catch::Contains("exists and is not a JUnit file"));
}

TEST_CASE("a terminal's progress bar fills done / total of its cells", "[cli][known]") {
  using study::cli::progress_bar;
  CHECK(progress_bar(0, 4) == "[------------------------]");
  CHECK(progress_bar(1, 4) == "[######------------------]");  // 24 / 4 = 6 cells
  CHECK(progress_bar(1, 3, 9) == "[###------]");
  CHECK(progress_bar(2, 3, 10) == "[######----]");              // 20 / 3 = 6.67: the cells wholly done
  CHECK(progress_bar(4, 4) == "[########################]");
  CHECK(progress_bar(0, 0, 5) == "[#####]");                    // nothing to do: done
}

TEST_CASE("cli_main: any one option of a study from the command line without --problem is refused, exit 2", "[extend][known]") {
  const CleanRegistry clean;
  const testing::TempDir dir("extend-no-problem");
  const std::string out = (dir.path / "out").string();
  // Each alone (a run that took it for the default study would be bounded to nothing by --max-work, and fail apart).
  for (const std::vector<std::string>& option : {std::vector<std::string>{"--integrators", "rk4"}, {"--t-end", "5"}, {"--dt", "0.1"},
                                               {"--param", "e=0.5"}, {"--metrics", "global"}, {"--name", "mine"}}) {
    std::vector<std::string> args{"study", "run", "--out", out, "--max-work", "1", "--quiet"};
    args.insert(args.end(), option.begin(), option.end());
    INFO(option[0]);
    const auto [rc, stdout_text, err] = cli(args);
    CHECK(rc == 2);
    CHECK_THAT(err, Catch::Contains("make a study from the command line, which needs --problem"));
  }
  CHECK_FALSE(std::filesystem::exists(dir.path / "out"));
}

TEST_CASE("a folder's lock holds its holder's pid, and a second writer is refused naming it", "[cli][known]") {
  testing::TempDir dir("extend-lock");
  const auto target = dir.path / "results";
  const study::FolderLock held(target, false);
  const std::string pid = std::to_string(::getpid());
  CHECK(testing::read_file(dir.path / ".results.lock") == pid);
  // Another lock on the same folder (another open file: flock refuses it, in this process too).
  try {
    const study::FolderLock second(target, false);
    FAIL("a second lock was granted");
  } catch (const study::WriteError& e) {
    CHECK_THAT(e.what(), Catch::Contains("another study process (pid " + pid + ") is writing " + target.string() + " now"));
  }
}

TEST_CASE("two scans of one name from two spec files are refused, and two of two names are not", "[cli][known]") {
  testing::TempDir dir("extend-two-scans");
  const std::string head = "problem = \"kepler\"\nintegrators = [\"rk4\"]\ndt = [0.1]\n";
  const std::string a = dir.file("a.toml", "name = \"fam\"\n" + head + "t_end = 1.0\nscan = { e = [0.1, 0.2] }\n").string();
  // Its points are named apart (fam_t_end-...), but its page would be SCAN-fam.md too.
  const std::string b = dir.file("b.toml", "name = \"fam\"\n" + head + "scan = { t_end = [1.0, 2.0] }\n").string();
  const std::string c = dir.file("c.toml", "name = \"other\"\n" + head + "t_end = 1.0\nscan = { e = [0.1, 0.2] }\n").string();
  study::cli::RunArgs args;
  args.specs = {a, b};
  CHECK_THROWS_WITH(study::cli::specs_to_run(args),
                    Catch::Contains(b + ": name 'fam' is also the name of the scan in " + a + " (each scan's page is named after it)"));
  args.specs = {a, c};
  const auto specs = study::cli::specs_to_run(args);
  REQUIRE(specs.size() == 4);
  CHECK(specs[0].scan.scan == "fam");
  CHECK(specs[3].scan.scan == "other");
}
