// Adaptive stepping (integrators/adaptive.hpp): embedded pairs under Odeint's controller take Odeint's own steps,
// bit for bit; the controllers' step sequences on y' = -y are worked from the pair's stability polynomials; a run
// that cannot finish stops with its cause.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>
#include <type_traits>
#include <vector>

#include "integrators/adaptive.hpp"
#include "reference/odeint_controlled.hpp"
#include "study/methods/library.hpp"
#include "study/problems/all.hpp"

namespace {

/// q' = v, v' = -v from (0, 1): v = e^-t is y' = -y, and the system is linear, y' = J y with J = [[0, 1], [0, -1]].
struct Decay {
  using real_type = double;
  static constexpr std::size_t dim = 1;
  using Vec = std::array<double, 1>;
  using State = ode::State<double, 1>;
  State initial() const { return {{0.0}, {1.0}, 0.0}; }
  void accel(const Vec&, const Vec& v, Vec& a) const { a[0] = -v[0]; }
};

/// v' = v^2 from v = 1: v = 1 / (1 - t), which blows up at t = 1.
struct BlowUp {
  using real_type = double;
  static constexpr std::size_t dim = 1;
  using Vec = std::array<double, 1>;
  using State = ode::State<double, 1>;
  State initial() const { return {{0.0}, {1.0}, 0.0}; }
  void accel(const Vec&, const Vec& v, Vec& a) const { a[0] = v[0] * v[0]; }
};

const ode::MethodTable& table(const char* id) { return *study::tables::shipped_library().find(id)->table; }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

struct Tried {
  double t, dt;
  bool accepted;
};

/// Our pair under `control` through `times` from p's start with first step dt: every try, and the states at the times.
/// With ode::Loop::general, the general loop whatever the stage count (the counted accuracy runs take it).
template <ode::Loop L = ode::Loop::kernels, class P>
std::tuple<std::vector<Tried>, std::vector<typename P::State>, ode::AdaptiveStats> ours(const ode::MethodTable& t, ode::StepController& control,
                                                                                         const P& p, const std::vector<double>& times, double dt,
                                                                                         ode::AdaptiveLimits limits = {}) {
  // The tries are seen through a controller that forwards to `control` and records each judgement.
  struct Recording final : ode::StepController {
    ode::StepController* inner;
    std::vector<Tried>* tries;
    double t_now = 0;
    std::unique_ptr<ode::StepController> clone() const override { return nullptr; }
    double error(std::span<const double> x, std::span<const double> d, std::span<const double> n, std::span<const double> e, double h) override {
      return inner->error(x, d, n, e, h);
    }
    double next(double h, double e, bool ok, int o, int eo) override {
      tries->push_back({0, h, ok});
      return inner->next(h, e, ok, o, eo);
    }
    double max_dt() const override { return inner->max_dt(); }
    bool keeps_larger_step() const override { return inner->keeps_larger_step(); }
  };
  std::vector<Tried> tries;
  std::vector<typename P::State> at;
  Recording rec;
  rec.inner = &control, rec.tries = &tries;
  ode::EmbeddedStepper<P> stepper(t);
  auto x = p.initial();
  const auto stats = ode::integrate_times<L>(stepper, rec, x, times, dt, p, limits, [&](std::size_t, const auto& s) { at.push_back(s); }, [] {});
  return {tries, at, stats};
}

}  // namespace

TEST_CASE("under Odeint's controller our Dormand-Prince, Cash-Karp and Fehlberg 7(8) take Odeint's steps, bit for bit, in their kernels and "
          "in the general loop", "[adaptive]") {
  const study::Kepler<double> kepler(study::ParamValues{{"e", "0.6"}});
  const study::DampedOscillator<double> damped(study::ParamValues{});  // a velocity-dependent force
  std::vector<double> times;
  for (int j = 0; j <= 10; ++j) times.push_back(2.0 * j);  // samples at 0, 2, ..., 20: steps are cut to land on them
  for (const auto& [ours_id, odeint_id] : {std::pair{"dopri5", "dopri5"}, std::pair{"cash-karp5", "cash-karp54"}, std::pair{"fehlberg78", "fehlberg78"}}) {
    long rejections = 0;
    for (const double tol : {1e-6, 1e-10})
      for (const double max_dt : {0.0, 0.05}) {
        INFO(ours_id << " tol " << tol << " max_dt " << max_dt);
        auto compare = [&](const auto& p, auto loop) {
          INFO((decltype(loop)::value == ode::Loop::general ? "the general loop" : "the kernel of its stage count"));
          ode::OdeintController control;
          control.eps_abs = control.eps_rel = tol, control.max_step = max_dt;
          // A first step of 1, too large: the sequence opens with rejections.
          const auto [tries, at, stats] = ours<decltype(loop)::value>(table(ours_id), control, p, times, 1.0);
          const auto theirs = reference::odeint::run_controlled(odeint_id, p, times, 1.0, tol, tol, max_dt);
          INFO("stop " << static_cast<int>(stats.stop) << " at " << stats.t_reached << ", tries " << tries.size());
          REQUIRE(tries.size() == theirs.tries.size());
          std::size_t differ = 0;
          for (std::size_t i = 0; i < tries.size(); ++i)
            differ += !same_bits(tries[i].dt, theirs.tries[i].dt) || tries[i].accepted != theirs.tries[i].accepted;
          CHECK(differ == 0);
          REQUIRE(at.size() == theirs.at_times.size());
          for (std::size_t j = 0; j < at.size(); ++j)
            for (std::size_t i = 0; i < at[j].q.size(); ++i) CHECK((same_bits(at[j].q[i], theirs.at_times[j].q[i]) && same_bits(at[j].v[i], theirs.at_times[j].v[i])));
          CHECK(stats.accepted == theirs.accepted);
          CHECK(stats.rejected == theirs.rejected);
          // Cut steps, counted alike: without max_dt each of the 10 intervals ends on a step cut to land on its time.
          CHECK(stats.cut == theirs.cut);
          CHECK(theirs.cut <= 10);  // at most one a time
          // On Kepler's orbit no step lands on a time by itself: each of the 10 ends on a cut (the damped oscillator's
          // first steps are exactly 1, and land on 2, 4 and 6 uncut).
          if (std::is_same_v<std::decay_t<decltype(p)>, study::Kepler<double>> && max_dt == 0) CHECK(theirs.cut == 10);
          rejections += stats.rejected;
          CHECK(theirs.refused == (max_dt == 0 ? 0 : 1));  // the first step, 1 > max_dt: cut untried
          CHECK(stats.stop == ode::AdaptiveStop::none);
          // Force evaluations, from each algorithm's definition: Dormand-Prince is first same as last, in both one
          // evaluation at the start and 6 per try.  Odeint's Cash-Karp and Fehlberg evaluate the start of every try
          // (6 and 13 per try, and once more for the first step, refused untried above max_dt); ours keeps the start's
          // force across a rejection: one evaluation less per rejection.
          const long tried = stats.accepted + stats.rejected;
          if (std::string(ours_id) == "dopri5") {
            CHECK(theirs.evals == 1 + 6 * tried);
            CHECK(stats.evals == theirs.evals);
          } else {
            const long per_try = std::string(ours_id) == "cash-karp5" ? 6 : 13;
            CHECK(theirs.evals == per_try * tried + theirs.refused);
            CHECK(stats.evals == theirs.evals - stats.rejected - theirs.refused);
          }
        };
        // The kernel of each pair's stage count (6, 7, 13: the timed runs), and the general loop (the counted runs).
        const std::integral_constant<ode::Loop, ode::Loop::kernels> kernels;
        const std::integral_constant<ode::Loop, ode::Loop::general> general;
        compare(kepler, kernels), compare(damped, kernels);
        compare(kepler, general), compare(damped, general);
      }
    CHECK(rejections > 0);  // the sequences hold rejections, not only acceptances
  }
}

TEST_CASE("Odeint's controller on y' = -y: three steps worked from Dormand-Prince's stability polynomials", "[adaptive]") {
  // For y' = J y, J = [[0, 1], [0, -1]], from (q, v) = (0, 1): J^k y0 = (-1)^(k+1) (1, -1), so a step of h gives
  // v1 = R(-h) and the estimate err = -E(-h) (1, -1), with R(z) = 1 + z + ... + z^5/120 + z^6/600 and R_hat(z) =
  // 1 + ... + z^4/24 + 1097 z^5/120000 + 161 z^6/120000 + z^7/24000 (HNW I, §II.5; sum_k (b - b_hat)^T A^(k-1) e z^k
  // in exact fractions), E = R - R_hat = -97/120000 z^5 + 13/40000 z^6 - 1/24000 z^7.  Odeint's rules (eps 1e-6,
  // a_x = a_dxdt = 1): the step of 0.5 has err = 20.44 > 1, cut to 0.5 max(0.9 err^(-1/3), 0.2); then two
  // acceptances, each grown by 0.9 err^(-1/5).
  ode::OdeintController control;
  const std::vector<double> times{0.0, 10.0};
  ode::AdaptiveLimits limits;
  limits.max_steps = 4;
  const auto [tries, at, stats] = ours(table("dopri5"), control, Decay{}, times, 0.5, limits);
  REQUIRE(tries.size() == 4);
  // The estimate is a difference of O(h) stage terms: its rounding is about 1e-16 h against err ~ 1e-5 h^5 .. 1e-7,
  // 1e-11 relative, and the steps take its 1/3 or 1/5 power: 1e-9 holds them with room.
  const double expected[] = {0.5, 0.16457594960282373, 0.24003746961632877, 0.25421005324107793};
  const bool accepted[] = {false, true, true, true};
  for (int i = 0; i < 4; ++i) {
    CHECK(tries[i].dt == Approx(expected[i]).epsilon(1e-9));
    CHECK(tries[i].accepted == accepted[i]);
  }
  CHECK(stats.stop == ode::AdaptiveStop::step_limit);  // 4 tries, then the limit
  CHECK(stats.accepted == 3);
  CHECK(stats.t_reached == Approx(0.65882347246023043).epsilon(1e-9));
}

TEST_CASE("the PI controller on y' = -y: three steps worked by hand with Hairer and Wanner's DOPRI5 rules", "[adaptive]") {
  // As above, with sk = 1e-6 + 1e-6 max(|y0|, |y1|), err = RMS over (q, v), beta = 0.04: exponent 1/5 - 0.03 = 0.17;
  // the rejection cuts h by min(5, err^0.17 / 0.9); an acceptance divides it by err^0.17 / err_old^0.04 / 0.9 within
  // [0.1, 5], err_old starting at 1e-4; and just after a rejection the step may not grow (0.2729 -> 0.1725).
  ode::PIController pi;
  const std::vector<double> times{0.0, 10.0};
  ode::AdaptiveLimits limits;
  limits.max_steps = 4;
  const auto [tries, at, stats] = ours(table("dopri5"), *pi.clone(), Decay{}, times, 0.5, limits);
  REQUIRE(tries.size() == 4);
  const double expected[] = {0.5, 0.27287371600621485, 0.1725108982222853, 0.24547816202998352};
  const bool accepted[] = {false, true, true, true};
  for (int i = 0; i < 4; ++i) {
    CHECK(tries[i].dt == Approx(expected[i]).epsilon(1e-9));
    CHECK(tries[i].accepted == accepted[i]);
  }
}

TEST_CASE("the controllers' rules on given errors, worked by hand", "[adaptive]") {
  // Odeint, a 5(4) pair: grow by 0.9 err^(-1/5), at most 0.9 x 5 (err floored at 5^-5); shrink by
  // max(0.9 err^(-1/3), 0.2); max_dt caps both.
  ode::OdeintController o;
  CHECK(o.next(0.1, 0.2, true, 5, 4) == Approx(0.1 * 0.9 * 1.379729661461215).epsilon(1e-14));  // 0.2^(-1/5)
  CHECK(o.next(0.1, 1e-12, true, 5, 4) == Approx(0.45).epsilon(1e-14));
  CHECK(o.next(0.1, 0.7, true, 5, 4) == 0.1);  // err >= 0.5: kept
  CHECK(o.next(0.1, 8, false, 5, 4) == Approx(0.045).epsilon(1e-14));  // 0.9 / 2
  CHECK(o.next(0.1, 1000, false, 5, 4) == Approx(0.02).epsilon(1e-14));  // 0.9 / 10 < 0.2
  o.max_step = 0.03;
  CHECK(o.next(0.1, 8, false, 5, 4) == 0.03);
  CHECK(o.next(0.02, 1e-12, true, 5, 4) == 0.03);
  // PI (beta 0.04, exponent 0.17): a rejection at err 2 cuts h = 1 by min(5, 2^0.17 / 0.9 = 1.2500) to 0.8000;
  // the next, accepted at err 1e-6, would grow by 1 / (1e-6^0.17 / 1e-4^0.04 / 0.9 = 0.15336) to 3.26 h, but just
  // after a rejection the step may not grow: 0.5 stays 0.5; the one after may, by at most 10 (a shrink at most 5).
  auto pi = ode::PIController{}.clone();
  CHECK(pi->next(1.0, 2.0, false, 5, 4) == Approx(1.0 / (std::pow(2.0, 0.17) / 0.9)).epsilon(1e-14));
  CHECK(pi->next(0.5, 1e-6, true, 5, 4) == 0.5);
  CHECK(pi->next(0.5, 1e-6, true, 5, 4) == Approx(0.5 / (std::pow(1e-6, 0.17) / std::pow(1e-4, 0.04) / 0.9)).epsilon(1e-14));
  CHECK(pi->next(0.5, 1e-12, true, 5, 4) == Approx(5.0).epsilon(1e-14));  // at most 10 x (HNW: fac2 = 10)
}

TEST_CASE("a problem in small units steps as in large ones: omega = 1e13 over t_end = 1e-12 is omega = 1 over 10", "[adaptive]") {
  // The same oscillator in units 1e13 times smaller: the step sizes scale by 1e-13 and the steps are the same (a purely
  // relative error, eps_abs = 0: the terms |x| + |h x'| of x and of v scale together, by 1 and by 1e13); no "underflow"
  // at t = 0.
  ode::OdeintController control;
  control.eps_abs = 0, control.eps_rel = 1e-8;
  const study::Harmonic<double> slow(study::ParamValues{{"omega", "1"}}), fast(study::ParamValues{{"omega", "1e13"}});
  const auto [tries1, at1, big] = ours(table("dopri5"), control, slow, std::vector<double>{0.0, 10.0}, 1e-3);
  const auto [tries2, at2, small] = ours(table("dopri5"), control, fast, std::vector<double>{0.0, 1e-12}, 1e-16);
  CHECK(big.stop == ode::AdaptiveStop::none);
  CHECK(small.stop == ode::AdaptiveStop::none);
  CHECK(small.t_reached == 1e-12);
  // Counts within a few steps of each other (the scaled steps round differently): h ~ tol^(1/5) / omega, 10 radians.
  INFO("accepted " << big.accepted << " and " << small.accepted << ", rejected " << big.rejected << " and " << small.rejected);
  CHECK(small.accepted == big.accepted);
  CHECK(big.accepted >= 10);
  REQUIRE(at2.size() == 2);
  CHECK(at2[1].q[0] == Approx(std::cos(10.0)).margin(1e-6));  // x = cos(omega t): 10 radians in both
}

TEST_CASE("an adaptive run that cannot finish stops with its cause: a blow-up, a step limit", "[adaptive]") {
  ode::OdeintController control;
  control.eps_abs = control.eps_rel = 1e-8;
  const std::vector<double> times{0.0, 2.0};
  {
    const auto [tries, at, stats] = ours(table("dopri5"), control, BlowUp{}, times, 0.1);
    // v = 1/(1 - t): the steps shrink towards t = 1 until they underflow or the state passes 1e100.
    INFO("stop " << static_cast<int>(stats.stop) << " at " << stats.t_reached);
    CHECK((stats.stop == ode::AdaptiveStop::underflow || stats.stop == ode::AdaptiveStop::diverged));
    // The numerical solution blows up within its tolerance of t = 1.
    CHECK(stats.t_reached == Approx(1.0).epsilon(1e-6));
    CHECK(at.size() == 1);  // only the start: t = 2 was never reached
  }
  {
    ode::AdaptiveLimits limits;
    limits.max_steps = 50;
    const auto [tries, at, stats] = ours(table("cash-karp5"), control, study::Kepler<double>(study::ParamValues{{"e", "0.9"}}), std::vector<double>{0.0, 100.0}, 0.1, limits);
    CHECK(stats.stop == ode::AdaptiveStop::step_limit);
    CHECK(stats.accepted + stats.rejected == 50);
    CHECK(tries.size() == 50);
  }
}
