// The reference solutions: accurate to 1e-24 where the truth is known, honest about their bound, cached
// bit for bit, and never trusting a damaged cache file.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include "tests/support.hpp"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "reference/cache.hpp"
#include "reference/reference.hpp"
#include "reference/user_problems.hpp"
#include "study/problems/all.hpp"

using reference::Real;

namespace {

/// A fresh cache directory per test.

reference::Options no_cache() {
  reference::Options o;
  o.use_cache = false;
  return o;
}

/// `n` times spread over [0, span], none a multiple of the period.
std::vector<Real> times_over(Real span, int n) {
  std::vector<Real> t;
  for (int k = 1; k <= n; ++k) t.push_back(span * (k - Real(0.37)) / n);
  t.push_back(span);
  return t;
}

}  // namespace

TEST_CASE("references match the exact solutions to 1e-24 over the study spans, and the bound brackets the truth", "[reference]") {
  struct Case {
    const char* problem;
    Real span;  // the study time span
  };
  const Case cases[] = {
      {"kepler", 10 * study::Kepler<Real>{}.period()},
      {"central-force", 3 * study::CentralForce<Real>{}.period()},
      {"earth-moon", Real(365 * 86400)},
      {"pendulum", 10 * study::Pendulum<Real>{}.period()},
      {"harmonic", 10 * study::Harmonic<Real>{}.period()},
      {"projectile", Real(2)},
      {"damped-oscillator", 10 * study::DampedOscillator<Real>{}.period()},
  };
  for (const auto& c : cases) {
    const auto r = reference::compute({.problem = c.problem, .params = {}, .times = times_over(c.span, 12), .initial = {}}, no_cache());
    INFO(c.problem << ": exact error " << static_cast<double>(*r.exact_error) << ", two-tolerance bound "
                   << static_cast<double>(r.two_tolerance_bound));
    REQUIRE(r.exact_error);
    CHECK(*r.exact_error <= Real(1e-24));
    CHECK(r.two_tolerance_bound >= *r.exact_error);  // the bound obtained without the truth brackets it
    CHECK(r.two_tolerance_bound <= Real(1e-23));     // ... and is not vacuous
    CHECK(r.error_bound == std::max(r.two_tolerance_bound, *r.exact_error));
    CHECK(r.bound_method == "two-tolerance+exact");
  }
}

TEST_CASE("each requested time costs at most two full-order steps beyond the solve to the last time", "[reference]") {
  // Odeint's Bulirsch–Stoer extrapolates over the step counts n_k = 2(k + 1), k = 0..8: a step at its highest
  // order takes one derivative at its start and sum n_k = 90 more, 91 evaluations.  A requested time reached on a
  // copy of the stepper costs one such step, more only where one is rejected (then a shorter step and the rest):
  // two per time on average allow a rejection at every other time.  The free steps are those of the solve to the
  // last time alone: they do not depend on the times requested.  (Cutting the free step to land, as
  // integrate_times does, reset the stepper's order at every time: harmonic at 699 times took 585 per time.)
  const int n = 699;
  std::vector<Real> many;
  for (int k = 1; k <= n; ++k) many.push_back(Real(0.0731) * k);
  const auto all = reference::compute({.problem = "harmonic", .params = {}, .times = many, .initial = {}}, no_cache());
  const auto last = reference::compute({.problem = "harmonic", .params = {}, .times = {many.back()}, .initial = {}}, no_cache());
  INFO("evaluations: " << all.evaluations << " at " << n << " times, " << last.evaluations << " to the last alone");
  CHECK(all.evaluations <= last.evaluations + 2 * 91 * n);
  CHECK(all.evaluations > last.evaluations);  // each landing is a step of its own
  // and lands exactly: every state agrees with the exact solution within the bound
  REQUIRE(all.exact_error);
  CHECK(*all.exact_error <= all.two_tolerance_bound);
}

TEST_CASE("without an exact solution the bound comes from the two solves alone", "[reference]") {
  const auto r = reference::compute({.problem = "henon-heiles", .params = {}, .times = times_over(Real(200), 4), .initial = {}}, no_cache());
  CHECK_FALSE(r.exact_error);
  CHECK(r.bound_method == "two-tolerance");
  // The bound is the two solves' distance plus the round-off allowance (100 eps per evaluation): they differ, so it
  // is more than the allowance alone.  (That it lies above the true error: test_reference_bound.)
  CHECK(r.error_bound == r.two_tolerance_bound);
  CHECK(r.two_tolerance_bound > 100 * std::numeric_limits<Real>::epsilon() * Real(r.evaluations));
  CHECK(r.error_bound < Real(1e-20));
  // Energy is conserved along the reference to within its bound.
  const study::HenonHeiles<Real> p;
  const Real e0 = p.energy(p.initial());
  for (std::size_t i = 0; i < r.times.size(); ++i) {
    ode::State<Real, 2> s{{r.q[i][0], r.q[i][1]}, {r.v[i][0], r.v[i][1]}, r.times[i]};
    CHECK(abs(p.energy(s) - e0) <= 10 * r.error_bound);
  }
}

TEST_CASE("Arenstorf's orbit closes after its period, to the digits of its published data", "[reference]") {
  // HNW I §II.0 give the start and T to 30 digits: the float128 reference at T is back at the start (a wrong
  // sign in the Coriolis term, or a wrong mass, misses by order one).
  const Real T = reference::from_decimal("17.0652165601579625588917206249");
  const auto r = reference::compute({.problem = "arenstorf", .params = {}, .times = {T / 2, T}, .initial = {}}, no_cache());
  const study::Arenstorf<Real> p;
  const auto s = p.initial();
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(abs(r.q[1][i] - s.q[i]) <= Real(1e-18));
    CHECK(abs(r.v[1][i] - s.v[i]) <= Real(1e-18));
  }
  CHECK(abs(r.q[0][0] - s.q[0]) > Real(0.1));  // half way it is far from the start
  CHECK(r.error_bound < Real(1e-20));
}

TEST_CASE("the Plummer cluster's reference conserves energy to its bound", "[reference]") {
  const auto r = reference::compute({.problem = "plummer", .params = {{"n", "5"}}, .times = times_over(Real(2), 2), .initial = {}}, no_cache());
  const study::Plummer<Real> p(study::ParamValues{{"n", "5"}});
  const Real e0 = p.energy(p.initial());
  CHECK(r.error_bound < Real(1e-20));
  for (std::size_t i = 0; i < r.times.size(); ++i) {
    study::Plummer<Real>::State s;
    for (std::size_t k = 0; k < 48; ++k) s.q[k] = r.q[i][k], s.v[k] = r.v[i][k];
    CHECK(abs(p.energy(s) - e0) <= 10 * r.error_bound * abs(e0) + Real(1e-25));
  }
}

TEST_CASE("the certifying solve on a second thread gives bitwise the same reference as on one thread", "[reference]") {
  const reference::Request request{.problem = "kepler", .params = {}, .times = times_over(Real(20), 6), .initial = {}};
  auto one = no_cache(), two = no_cache();
  one.concurrent = false, two.concurrent = true;
  const auto a = reference::compute(request, one), b = reference::compute(request, two);
  CHECK(a.q == b.q);
  CHECK(a.v == b.v);
  CHECK(a.error_bound == b.error_bound);
  CHECK(a.evaluations == b.evaluations);
  // Both solves ran: the bound is their distance plus the round-off allowance, and they differ.
  CHECK(a.two_tolerance_bound > 100 * std::numeric_limits<Real>::epsilon() * Real(a.evaluations));
}

TEST_CASE("a cache hit returns bitwise the same states", "[reference][cache]") {
  testing::TempDir dir("reference-hit");
  reference::Options o;
  o.cache_dir = dir.path;
  const reference::Request request{.problem = "kepler", .params = {{"e", "0.9"}}, .times = times_over(Real(20), 5), .initial = {}};
  const auto first = reference::compute(request, o);
  const auto second = reference::compute(request, o);
  CHECK_FALSE(first.from_cache);
  CHECK(second.from_cache);
  // Every field as computed (Kepler has an exact solution: its error is kept too).
  CHECK(second.problem == "kepler");
  CHECK(second.params == first.params);
  CHECK(second.times == first.times);
  CHECK(second.q == first.q);
  CHECK(second.v == first.v);
  CHECK(second.error_bound == first.error_bound);
  CHECK(second.position_bound == first.position_bound);
  CHECK(second.velocity_bound == first.velocity_bound);
  CHECK(second.two_tolerance_bound == first.two_tolerance_bound);
  REQUIRE(first.exact_error);
  CHECK(second.exact_error == first.exact_error);
  CHECK(second.bound_method == first.bound_method);
  CHECK(second.tolerance == first.tolerance);
  CHECK(second.check_tolerance == first.check_tolerance);
  CHECK(second.evaluations == first.evaluations);
  CHECK(first.velocity_bound > 0);
  CHECK(first.evaluations > 0);
  // Another parameter value, time list or tolerance is another entry.
  auto other = request;
  other.params["e"] = "0.8";
  CHECK_FALSE(reference::compute(other, o).from_cache);
  other = request;
  other.times.back() += 1;
  CHECK_FALSE(reference::compute(other, o).from_cache);
}

TEST_CASE("a corrupt, truncated or foreign cache file is detected and recomputed", "[reference][cache]") {
  testing::TempDir dir("reference-corrupt");
  reference::Options o;
  o.cache_dir = dir.path;
  const reference::Request request{.problem = "harmonic", .params = {}, .times = times_over(Real(10), 3), .initial = {}};
  const auto good = reference::compute(request, o);
  const auto files = [&] {
    std::vector<std::filesystem::path> f;
    for (const auto& e : std::filesystem::directory_iterator(dir.path)) f.push_back(e.path());
    return f;
  };
  REQUIRE(files().size() == 1);  // no temporary file left behind
  const auto path = files().front();
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto rewrite = [&](const std::string& t) { std::ofstream(path, std::ios::trunc) << t; };

  SECTION("a digit changed") {
    auto pos = text.find("e-01\"");
    REQUIRE(pos != std::string::npos);
    std::string bad = text;
    bad[pos - 1] = bad[pos - 1] == '1' ? '2' : '1';
    rewrite(bad);
  }
  SECTION("truncated") { rewrite(text.substr(0, text.size() / 2)); }
  SECTION("foreign: a sound file of another request under this name") {
    const auto other = reference::compute({.problem = "harmonic", .params = {{"omega", "2"}}, .times = request.times, .initial = {}}, o);
    REQUIRE_FALSE(other.from_cache);
    std::filesystem::path other_file;
    for (const auto& f : files())
      if (f != path) other_file = f;
    std::filesystem::copy_file(other_file, path, std::filesystem::copy_options::overwrite_existing);
  }
  const auto again = reference::compute(request, o);
  CHECK_FALSE(again.from_cache);  // the damaged file is recomputed, not trusted
  CHECK(again.q == good.q);
  CHECK(again.v == good.v);
  CHECK(reference::compute(request, o).from_cache);  // and the entry is sound again
}

TEST_CASE("the cache rejects damaged files with a reason", "[reference][cache]") {
  testing::TempDir dir("reference-reasons");
  const nlohmann::json payload{{"x", "1"}};
  reference::cache::store(dir.path, "key A", payload);
  std::string why;
  CHECK(reference::cache::load(dir.path, "key A", &why) == payload);
  CHECK_FALSE(reference::cache::load(dir.path, "key B", &why));
  CHECK_THAT(why, Catch::Contains("no cache file"));
  const auto path = reference::cache::file_for(dir.path, "key A");
  std::filesystem::copy_file(reference::cache::file_for(dir.path, "key A"), reference::cache::file_for(dir.path, "key B"));
  CHECK_FALSE(reference::cache::load(dir.path, "key B", &why));
  CHECK_THAT(why, Catch::Contains("another request"));
  std::ofstream(path, std::ios::app) << "garbage";
  CHECK_FALSE(reference::cache::load(dir.path, "key A", &why));
  CHECK_THAT(why, Catch::Contains("not valid JSON"));
}

TEST_CASE("two writers filling the same entry at once both succeed and leave one sound file", "[reference][cache]") {
  testing::TempDir dir("reference-race");
  reference::Options o;
  o.cache_dir = dir.path;
  const reference::Request request{.problem = "pendulum", .params = {}, .times = times_over(Real(30), 4), .initial = {}};
  std::vector<reference::Reference> results(4);
  std::vector<std::thread> writers;
  for (auto& r : results) writers.emplace_back([&] { r = reference::compute(request, o); });
  for (auto& w : writers) w.join();
  for (const auto& r : results) CHECK(r.q == results[0].q);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path)) ++files;
  CHECK(files == 1);
  CHECK(reference::compute(request, o).from_cache);
}

TEST_CASE("bad requests get clear errors", "[reference]") {
  using Catch::Contains;
  const std::vector<Real> t{Real(1)};
  CHECK_THROWS_WITH(reference::compute({.problem = "keplr", .params = {}, .times = t, .initial = {}}, no_cache()),
                    Contains("unknown problem 'keplr'") && Contains("did you mean 'kepler'"));
  CHECK_THROWS_WITH(reference::compute({.problem = "kepler", .params = {{"e", "1.5"}}, .times = t, .initial = {}}, no_cache()),
                    Contains("'e' = 1.5"));
  CHECK_THROWS_WITH(reference::compute({.problem = "kepler", .params = {}, .times = {Real(2), Real(1)}, .initial = {}}, no_cache()),
                    Contains("strictly increasing"));
  // The two times named are the ones out of order (the third after the second), not the first.
  CHECK_THROWS_WITH(reference::compute({.problem = "kepler", .params = {}, .times = {Real(0), Real(3), Real(2)}, .initial = {}}, no_cache()),
                    Contains("strictly increasing: 2 comes after 3"));
  CHECK_THROWS_WITH(reference::compute({.problem = "kepler", .params = {}, .times = {}, .initial = {}}, no_cache()),
                    Contains("no times"));
  // An initial state of the wrong size, in positions or in velocities alone (the harmonic oscillator has one of each).
  using Initial = std::pair<std::vector<Real>, std::vector<Real>>;
  for (const Initial& bad : {Initial{{Real(1), Real(2)}, {Real(0)}}, Initial{{Real(1)}, {Real(0), Real(0)}}, Initial{{}, {}}})
    CHECK_THROWS_WITH(reference::compute({.problem = "harmonic", .params = {}, .times = t, .initial = bad}, no_cache()),
                      Contains("harmonic: the initial state needs 1 positions and velocities"));
  reference::Options crawl = no_cache();
  crawl.tolerance = 1e-40;
  CHECK_THROWS_WITH(reference::compute({.problem = "kepler", .params = {}, .times = t, .initial = {}}, crawl), Contains("1e-32"));
}

TEST_CASE("a failed solve names the problem, the parameters and the time reached", "[reference]") {
  reference::Options o = no_cache();
  o.max_steps = 20;  // far too few for 50 time units
  CHECK_THROWS_WITH(reference::compute({.problem = "kepler", .params = {{"e", "0.9"}}, .times = {Real(50)}, .initial = {}}, o),
                    Catch::Contains("reference for kepler (e = 0.9)") && Catch::Contains("at t = ") && Catch::Contains("of 50"));
  // The work limit holds inside the solves, shared by both: 1000 evaluations do not reach t = 50 (Kepler at
  // e = 0.6 takes about 1.4e4 per period, and 50 time units are 8 of them); what is left is what both took.
  reference::Options budget = no_cache();
  budget.budget = {.left = std::make_shared<std::atomic<double>>(1000.0), .per_evaluation = 1};
  const reference::Request far{.problem = "kepler", .params = {}, .times = {Real(50)}, .initial = {}};
  CHECK_THROWS_WITH(reference::compute(far, budget),
                    Catch::Contains("reference for kepler") && Catch::Contains("reached the work limit (--max-work)"));
  CHECK(budget.budget.left->load() < 0);
  CHECK(budget.budget.left->load() >= -2);  // each solve takes at most one evaluation past the end
  // 10^6 weighted evaluations at 3 each reach it; the reference solve's evaluations and the certifying solve's
  // (at least one more) were taken from it.
  budget.budget = {.left = std::make_shared<std::atomic<double>>(1e6), .per_evaluation = 3};
  const reference::Reference r = reference::compute(far, budget);
  CHECK(budget.budget.left->load() < 1e6 - 3.0 * static_cast<double>(r.evaluations));
  CHECK(budget.budget.left->load() > 0);
}

TEST_CASE("a reference can start from a given state", "[reference]") {
  // The double-rounded start of an integrator in double: the reference follows that start, not the decimal one.
  const study::Kepler<double> pd;
  const auto s = pd.initial();
  const reference::Request request{.problem = "kepler", .params = {}, .times = {Real(1)},
                                   .initial = std::pair{std::vector<Real>{Real(s.q[0]), Real(s.q[1])},
                                                        std::vector<Real>{Real(s.v[0]), Real(s.v[1])}}};
  const auto r = reference::compute(request, no_cache());
  CHECK_FALSE(r.exact_error);  // the exact solution belongs to the decimal start
  const auto own = reference::compute({.problem = "kepler", .params = {}, .times = {Real(1)}, .initial = {}}, no_cache());
  const Real gap = abs(r.q[0][0] - own.q[0][0]);
  CHECK(gap > Real(1e-20));  // they differ by the rounding of the start to double ...
  CHECK(gap < Real(1e-14));  // ... and no more
}

TEST_CASE("a sample where the velocity vanishes does not inflate the relative bound", "[reference]") {
  // At t = 2 pi (rounded) the harmonic velocity is ~5e-16: the velocity scale must not be taken from it.
  const auto r = reference::compute({.problem = "harmonic", .params = {}, .times = {reference::from_decimal("6.283185307179586")}, .initial = {}},
                                    no_cache());
  CHECK(abs(r.v[0][0]) < Real(1e-15));
  CHECK(r.error_bound < Real(1e-24));
  CHECK(r.velocity_bound < Real(1e-24));  // absolute, in the problem's units
}

TEST_CASE("a given start that is the problem's own start is checked against the exact solution too", "[reference]") {
  // A study passes its double-rounded start; for harmonic (x0 = 1, v0 = 0) that is the problem's own start.
  const reference::Request request{.problem = "harmonic", .params = {}, .times = {Real(1), Real(2)},
                                   .initial = std::pair{std::vector<Real>{Real(1)}, std::vector<Real>{Real(0)}}};
  const auto r = reference::compute(request, no_cache());
  REQUIRE(r.exact_error);
  CHECK(*r.exact_error <= r.two_tolerance_bound);
  CHECK(r.bound_method == "two-tolerance+exact");
}

TEST_CASE("an exact solution that contradicts the equations of motion is refused, one within the bound is not", "[reference]") {
  // A problem of a user's program (reference/user_problems.hpp) whose solves are given: the reference and its
  // certifying solve agree to 1e-30, and the exact solution is off by `gap`.
  using reference::detail::Solved;
  auto solver_with_gap = [](Real gap) {
    Solved s;
    s.q0 = {Real(1)}, s.v0 = {Real(0)};
    s.q = {{Real(0.5)}}, s.v = {{Real(-0.8)}};
    s.check_q = {{Real(0.5) + Real(1e-30)}}, s.check_v = s.v;
    s.exact_q = {{Real(0.5) + gap}}, s.exact_v = s.v;
    s.evaluations = 100;
    return reference::detail::UserSolver{
        [s](const study::ParamValues&, const reference::detail::Start&) { return s; },
        [s](const study::ParamValues&, const reference::detail::Start&, const std::vector<Real>&, Real, Real, std::uint64_t, const reference::WorkBudget&,
            bool) { return s; }};
  };
  const reference::Request request{.problem = "user-spring", .params = {}, .times = {Real(1)}, .initial = {}};
  reference::detail::user_solvers()["user-spring"] = solver_with_gap(Real(0.5));
  CHECK_THROWS_WITH(reference::compute(request, no_cache()),
                    Catch::Contains("user-spring: its exact solution exact(t) and its equations of motion disagree by 0.5") &&
                        Catch::Contains("exact() or its accel() is wrong"));
  reference::detail::user_solvers()["user-spring"] = solver_with_gap(Real(1e-29));
  const auto r = reference::compute(request, no_cache());
  REQUIRE(r.exact_error);
  CHECK(*r.exact_error > Real(1e-30));
  CHECK(*r.exact_error < Real(1e-28));
  reference::detail::user_solvers().erase("user-spring");
}

TEST_CASE("a reference at t = 0 is the initial state, and times must increase strictly from the first", "[reference][known]") {
  // Harmonic oscillator from (1, 0): (cos t, -sin t).
  const auto r = reference::compute({.problem = "harmonic", .params = {}, .times = {Real(0), Real(1)}, .initial = {}}, no_cache());
  REQUIRE(r.times.size() == 2);
  CHECK(r.q[0][0] == 1);
  CHECK(r.v[0][0] == 0);
  CHECK(static_cast<double>(r.q[1][0]) == Approx(std::cos(1.0)).epsilon(1e-15));
  CHECK(static_cast<double>(r.v[1][0]) == Approx(-std::sin(1.0)).epsilon(1e-15));
  for (const std::vector<Real>& bad : {std::vector<Real>{Real(1), Real(1)}, {Real(0), Real(2), Real(1)}, {Real(-1)}})
    CHECK_THROWS_AS(reference::compute({.problem = "harmonic", .params = {}, .times = bad, .initial = {}}, no_cache()),
                    std::invalid_argument);
}

namespace {
/// Sets (or, with nullptr, unsets) an environment variable for the life of the object, then restores it.
struct EnvVar {
  std::string name;
  std::optional<std::string> old;
  EnvVar(std::string n, const char* value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) old = v;
    if (value) ::setenv(name.c_str(), value, 1);
    else ::unsetenv(name.c_str());
  }
  ~EnvVar() {
    if (old) ::setenv(name.c_str(), old->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};
}  // namespace

TEST_CASE("the default cache folder: STUDY_CACHE_DIR, else XDG_CACHE_HOME/ode-study, else ~/.cache/ode-study, else a "
          "folder of the user's own in the temp folder", "[reference][known]") {
  namespace fs = std::filesystem;
  testing::TempDir scratch("cache-default");
  const EnvVar t("TMPDIR", scratch.path.c_str());  // the temp folder, here: its hostile states are made below
  const fs::path base = scratch.path / ("ode-study-" + std::to_string(::geteuid())), tmp = base / "reference";
  {
    const EnvVar a("STUDY_CACHE_DIR", "/x/study"), b("XDG_CACHE_HOME", "/x/xdg"), c("HOME", "/x/home");
    CHECK(reference::default_cache_dir() == fs::path("/x/study"));
  }
  {
    const EnvVar a("STUDY_CACHE_DIR", ""), b("XDG_CACHE_HOME", "/x/xdg"), c("HOME", "/x/home");  // empty: not set
    CHECK(reference::default_cache_dir() == fs::path("/x/xdg/ode-study/reference"));
  }
  {
    const EnvVar a("STUDY_CACHE_DIR", nullptr), b("XDG_CACHE_HOME", ""), c("HOME", "/x/home");
    CHECK(reference::default_cache_dir() == fs::path("/x/home/.cache/ode-study/reference"));
  }
  {  // a relative XDG_CACHE_HOME is invalid (XDG Base Directory Specification): ignored, not a folder made here
    const EnvVar a("STUDY_CACHE_DIR", nullptr), b("XDG_CACHE_HOME", "rel/cache"), c("HOME", "/x/home");
    CHECK(reference::default_cache_dir() == fs::path("/x/home/.cache/ode-study/reference"));
  }
  {
    const EnvVar a("STUDY_CACHE_DIR", nullptr), b("XDG_CACHE_HOME", nullptr), c("HOME", "");
    CHECK(reference::default_cache_dir() == tmp);
    struct stat st {};
    REQUIRE(::lstat(base.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);  // made for this user alone
    CHECK(st.st_uid == ::geteuid());
  }
  const EnvVar a("STUDY_CACHE_DIR", nullptr), b("XDG_CACHE_HOME", nullptr), c("HOME", nullptr);
  CHECK(reference::default_cache_dir() == tmp);
  // Another user could make that name first: a link, a folder open to others, or one of their own, each refused.
  fs::remove_all(base);
  fs::create_directory(scratch.path / "target");
  fs::create_directory_symlink(scratch.path / "target", base);
  CHECK_THROWS_WITH(reference::default_cache_dir(), Catch::Contains("is a symbolic link, so it is not trusted"));
  fs::remove(base);
  fs::create_directory(base);
  fs::permissions(base, fs::perms::owner_all | fs::perms::group_all | fs::perms::others_all);
  CHECK_THROWS_WITH(reference::default_cache_dir(), Catch::Contains("is open to other users"));
  if (::geteuid() == 0) {  // as root (CI): a folder chowned to nobody
    fs::permissions(base, fs::perms::owner_all);
    REQUIRE(::chown(base.c_str(), 65534, 65534) == 0);
    CHECK_THROWS_WITH(reference::default_cache_dir(), Catch::Contains("another user's (uid 65534)"));
  }
}

TEST_CASE("a cache entry or folder another user owns is not trusted: neither read nor written", "[reference][known]") {
  namespace fs = std::filesystem;
  if (::geteuid() != 0) return;  // only root can give a file away (CI runs as root)
  testing::TempDir dir("cache-foreign");
  const fs::path mine = dir.path / "mine";
  reference::cache::store(mine, "k", nlohmann::json{{"x", 1}});
  REQUIRE(reference::cache::load(mine, "k"));
  // A forged entry: a checksum anyone can recompute; what gives it away is its owner.
  REQUIRE(::chown(reference::cache::file_for(mine, "k").c_str(), 65534, 65534) == 0);
  std::string why;
  CHECK_FALSE(reference::cache::load(mine, "k", &why));
  CHECK_THAT(why, Catch::Contains("belongs to another user"));
  // A folder another user owns: its entries are not read, and none is written into it.
  const fs::path theirs = dir.path / "theirs";
  reference::cache::store(theirs, "k", nlohmann::json{{"x", 1}});
  REQUIRE(::chown(theirs.c_str(), 65534, 65534) == 0);
  CHECK_FALSE(reference::cache::load(theirs, "k", &why));
  CHECK_THAT(why, Catch::Contains("belongs to another user (uid 65534)"));
  fs::remove(reference::cache::file_for(theirs, "k"));
  reference::cache::store(theirs, "k", nlohmann::json{{"x", 1}});
  CHECK_FALSE(fs::exists(reference::cache::file_for(theirs, "k")));
}
