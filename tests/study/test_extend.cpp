// The registry of a user program's integrators and problems (study/registry/extensions.hpp, study/extend/): ids refused
// before anything runs, problems found by id beside the shipped ones, a pair that was never compiled refused at
// the spec, and cli_main reporting refused registrations with exit 2.  The registrations here are type-erased by
// hand (cheap to compile); examples/ and tests/install/examples.sh build the real templates against an install.
#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>

#include "study/cli.hpp"
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

TEST_CASE("cli_main: a misspelt option of a command is named with the command's own suggestion, exit 2", "[extend][known]") {
  const CleanRegistry clean;
  auto run = [](std::vector<std::string> args) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::ostringstream err;
    auto* old = std::cerr.rdbuf(err.rdbuf());
    const int rc = study::cli_main(static_cast<int>(argv.size()), argv.data());
    std::cerr.rdbuf(old);
    return std::pair{rc, err.str()};
  };
  const auto [rc, err] = run({"study", "report", "--acuracy", "1e-6"});
  CHECK(rc == 2);
  CHECK(err == "study report: unknown option '--acuracy' (did you mean '--accuracy'?) (see study report --help)\n");
  const auto [rc2, err2] = run({"study", "run", "--job=2"});
  CHECK(rc2 == 2);
  CHECK(err2 == "study run: unknown option '--job' (did you mean '--jobs'?) (see study run --help)\n");
  const auto [rc3, err3] = run({"study", "frobnicate"});
  CHECK(rc3 == 2);
  CHECK_THAT(err3, Catch::StartsWith("study: unknown command 'frobnicate'; commands: list, run, report"));
}
