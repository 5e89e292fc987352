#pragma once
/// Adaptive stepping: an embedded Runge–Kutta pair (a table with b_hat) tries steps, a step-size controller judges
/// their error estimates, and a driver lands the steps on given output times as Odeint's integrate_times does.
///
/// Controllers:
///   OdeintController  Odeint's default_error_checker and default_step_adjuster, reproduced operation for operation
///                     (boost/numeric/odeint/stepper/controlled_runge_kutta.hpp, Boost 1.74): the same steps, to
///                     the bit, as make_controlled(eps_abs, eps_rel, max_dt, stepper) (tests/methods/test_adaptive.cpp).
///   PIController      Gustafsson's PI control with Hairer & Wanner's DOPRI5 settings (HNW I, §II.4 and IV.2; the
///                     code dopri5.f): an RMS norm of the error against atol + rtol max(|y0|, |y1|), beta = 0.04.
///   a user's own      derived from StepController in the user's C++ (docs/adaptive.md).
/// Everything here is in double: an adaptive run is judged by its error against its tolerance, not by an order that
/// would need wider arithmetic.

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "integrators/method.hpp"
#include "integrators/state.hpp"
#include "integrators/table.hpp"

namespace ode {

/// Judges a tried step and proposes the next: the interface a user's controller implements.  x = (q, v) flattened,
/// dxdt = (v, a) at the step's start, err = the pair's estimate b - b_hat of the step's local error.
class StepController {
 public:
  virtual ~StepController() = default;
  /// A fresh controller for a new run (a PI controller remembers the last error).
  virtual std::unique_ptr<StepController> clone() const = 0;
  /// The step's scaled error: the step is accepted when it is at most 1.
  virtual double error(std::span<const double> x_old, std::span<const double> dxdt_old, std::span<const double> x_new,
                       std::span<const double> err, double dt) = 0;
  /// The next step to try after a step of dt with scaled error `error`, accepted or not; `order` is the propagated
  /// solution's, `error_order` the estimate's (the lower of the pair's two orders, as Odeint's error_order).
  virtual double next(double dt, double error, bool accepted, int order, int error_order) = 0;
  /// The largest step allowed (0: none): a larger one is cut to it before it is tried, as Odeint does.
  virtual double max_dt() const { return 0; }
  /// Whether the step tried keeps its size when the controller proposes a smaller one after an acceptance (Odeint).
  virtual bool keeps_larger_step() const { return false; }
};

/// Odeint's default_error_checker and default_step_adjuster (see the file's head), its arithmetic in its order.
class OdeintController final : public StepController {
 public:
  double eps_abs = 1e-6, eps_rel = 1e-6, a_x = 1, a_dxdt = 1, max_step = 0;

  std::unique_ptr<StepController> clone() const override { return std::make_unique<OdeintController>(*this); }
  double error(std::span<const double> x_old, std::span<const double> dxdt_old, std::span<const double>, std::span<const double> err,
               double dt) override {
    // rel_error: |err_i| / (eps_abs + eps_rel (a_x |x_i| + (a_dxdt |dt|) |dxdt_i|)), then the max norm.
    const double a_dt = a_dxdt * std::abs(dt);
    double worst = 0;
    for (std::size_t i = 0; i < err.size(); ++i)
      worst = std::max(worst, std::abs(err[i]) / (eps_abs + eps_rel * (a_x * std::abs(x_old[i]) + a_dt * std::abs(dxdt_old[i]))));
    return worst;
  }
  /// The same on a state's positions and velocities directly (x = (q, v), x' = (v, a)): the driver's path, no copies.
  template <class Vec>
  double error_qv(const Vec& q, const Vec& v, const Vec& a, const Vec&, const Vec&, const Vec& eq, const Vec& ev, double dt) const {
    const double a_dt = a_dxdt * std::abs(dt);
    double worst = 0;
    for (std::size_t i = 0; i < q.size(); ++i)
      worst = std::max(worst, std::abs(eq[i]) / (eps_abs + eps_rel * (a_x * std::abs(q[i]) + a_dt * std::abs(v[i]))));
    for (std::size_t i = 0; i < q.size(); ++i)
      worst = std::max(worst, std::abs(ev[i]) / (eps_abs + eps_rel * (a_x * std::abs(v[i]) + a_dt * std::abs(a[i]))));
    return worst;
  }
  [[gnu::always_inline]] double next(double dt, double error, bool accepted, int order, int error_order) override {
    if (!accepted) {  // decrease_step: note the exponent -1/(error_order - 1), as Odeint has it
      dt *= std::max(9.0 / 10.0 * std::pow(error, -1.0 / (error_order - 1)), 1.0 / 5.0);
      return max_step != 0 ? std::min(dt, max_step) : dt;
    }
    if (error < 0.5) {  // increase_step: at most 5 x (the error floored at 5^-order)
      if (order != floor_order_) floor_order_ = order, floor_ = std::pow(5.0, -static_cast<double>(order));  // kept: one pow a step less
      error = std::max(floor_, error);
      dt *= 9.0 / 10.0 * std::pow(error, -1.0 / order);
      if (max_step != 0) dt = std::min(dt, max_step);
    }
    return dt;
  }
  double max_dt() const override { return max_step; }
  bool keeps_larger_step() const override { return true; }

 private:
  int floor_order_ = 0;  ///< the order floor_ = 5^-order was computed for (0: none yet)
  double floor_ = 0;
};

/// PI step-size control (Gustafsson 1991), as Hairer & Wanner's DOPRI5 sets it: fac = err^(1/(q+1) - 0.75 beta) /
/// err_old^beta over `safe`, kept within [1/fac_max, 1/fac_min]; after a rejection the step may not grow.
class PIController final : public StepController {
 public:
  double atol = 1e-6, rtol = 1e-6, beta = 0.04, safe = 0.9, fac_min = 0.2, fac_max = 10, max_step = 0;

  std::unique_ptr<StepController> clone() const override {
    auto c = std::make_unique<PIController>(*this);
    c->err_old_ = 1e-4, c->rejected_ = false;
    return c;
  }
  double error(std::span<const double> x_old, std::span<const double>, std::span<const double> x_new, std::span<const double> err,
               double) override {
    double sum = 0;
    for (std::size_t i = 0; i < err.size(); ++i) {
      const double sk = atol + rtol * std::max(std::abs(x_old[i]), std::abs(x_new[i]));
      sum += (err[i] / sk) * (err[i] / sk);
    }
    return std::sqrt(sum / static_cast<double>(err.size()));
  }
  double next(double dt, double error, bool accepted, int, int error_order) override {
    const double expo = 1.0 / (error_order + 1) - 0.75 * beta;
    const double fac11 = std::pow(error, expo);
    double h;
    if (accepted) {
      const double fac = std::clamp(fac11 / std::pow(err_old_, beta) / safe, 1.0 / fac_max, 1.0 / fac_min);
      h = dt / fac;
      err_old_ = std::max(error, 1e-4);
      if (rejected_) h = std::min(h, dt);
      rejected_ = false;
    } else {
      h = dt / std::min(1.0 / fac_min, fac11 / safe);
      rejected_ = true;
    }
    return max_step != 0 ? std::min(h, max_step) : h;
  }
  double max_dt() const override { return max_step; }

 private:
  double err_old_ = 1e-4;
  bool rejected_ = false;
};

/// An explicit Runge–Kutta table with embedded weights, trying steps in double: the new state and b - b_hat's
/// estimate of its error.  The arithmetic is Odeint's (x + (h a_i1) k_1 + (h a_i2) k_2 + ... in that order; the
/// error weights d_i = b_i - b_hat_i rounded in double), so that the same controller takes the same steps.  The
/// kernels for the shipped stage counts add the zero terms too, as Odeint's generic stepper (Cash-Karp, Fehlberg)
/// does; its hand-written Dormand-Prince and our general loop leave them out, which changes a sum only where it is
/// an exact zero (its sign) or a stage not finite (a step rejected either way).  The force at a step's start is kept across rejections, and with first-same-as-last the last stage
/// is the next step's first.
template <Problem P>
class EmbeddedStepper {
 public:
  using Vec = typename P::Vec;
  using State = typename P::State;
  static constexpr std::size_t dim = P::dim;

  explicit EmbeddedStepper(const MethodTable& t) : fsal_(t.fsal), order_(t.order), order_hat_(t.order_hat) {
    static_assert(std::is_same_v<typename P::real_type, double>, "adaptive runs are in double");
    if (t.kind != MethodTable::Kind::runge_kutta || t.implicit || t.b_hat.empty())
      throw std::invalid_argument(t.id + " is not an explicit Runge-Kutta table with embedded weights b_hat: it cannot run adaptively");
    s_ = t.b.size();
    row_.push_back(0);
    for (std::size_t i = 0; i < s_; ++i) {
      const double b = from_decimal<double>(t.b[i]), d = b - from_decimal<double>(t.b_hat[i]);
      if (b != 0) b_terms_.emplace_back(i, b);
      if (d != 0) d_terms_.emplace_back(i, d);
      for (std::size_t j = 0; j < i && j < t.a[i].size(); ++j)
        if (const double a = from_decimal<double>(t.a[i][j]); a != 0) term_j_.push_back(j), term_a_.push_back(a);
      row_.push_back(term_j_.size());
      dense_b_.push_back(b), dense_d_.push_back(d);
      for (std::size_t j = 0; j < s_; ++j)
        dense_a_.push_back(j < i && j < t.a[i].size() ? from_decimal<double>(t.a[i][j]) : 0.0);
    }
    kx_.resize(s_), kv_.resize(s_);
  }
  int order() const { return order_; }
  /// The order of the error estimate: the lower of the two (Odeint's error_order).
  int error_order() const { return std::min(order_, order_hat_); }
  /// Force evaluations of the last try_step.
  int last_evals() const { return evals_; }

  /// The derivative (v, a) at x, computing a unless it is kept from the last accepted step (FSAL) or an earlier try
  /// from the same x.
  [[gnu::always_inline]] void derivative_at(const State& x, const P& p, Vec& a) {
    if (!have_) force(p, x.q, x.v, a0_), ++evals_, have_ = true;
    a = a0_;
  }

  /// Forget the force kept from the last step: before a run (integrate_times does it).
  void reset() { have_ = false; }
  /// The force at the start of the last try_step.
  const Vec& start_force() const { return a0_; }

  /// One step of h from x into out, with the error estimate in err_q, err_v.  x is the state the last accepted step
  /// ended at (accepted()), or any after reset(): the force at x is kept across tries, not checked against x.  With
  /// first-same-as-last the last stage's point is out itself (its row of a is b: the same sums in the same order),
  /// as Odeint's Dormand-Prince evaluates the force at out.
  void try_step(const State& x, State& out, double h, const P& p, Vec& err_q, Vec& err_v) {
    switch (s_) {
      case 6: return try_stages<6>(x, out, h, p, err_q, err_v);
      case 7: return try_stages<7>(x, out, h, p, err_q, err_v);
      case 13: return try_stages<13>(x, out, h, p, err_q, err_v);
      default: return try_stages<0>(x, out, h, p, err_q, err_v);
    }
  }
  /// The stage counts with a kernel of their own: those of the pairs `study bench` times against Boost.Odeint's
  /// (Cash-Karp 6, Dormand-Prince 7, Fehlberg 7(8) 13), where being as fast as the peer is the claim.  Others run the
  /// general loop (the same values, up to the sign of an exact zero): a kernel per stage count, problem and controller was compiled whether it
  /// paid or not (study/measure/adaptive.cpp took 134 s to compile with five).
  static constexpr std::array<std::size_t, 3> fixed_stages{6, 7, 13};
  std::size_t stages() const { return s_; }

  /// try_step with the stage count S known at compile time (S = 0: any, the general loop).  The shipped pairs'
  /// counts have their sizes known (the stage values in registers, the loops unrolled: on the harmonic oscillator,
  /// where the bookkeeping is most of a try, 1.6 x faster); the same operations in the same order as the general loop.
  /// The driver calls it for its stepper's count, dispatched once per run, so that it is inlined into the loop.
  template <std::size_t S>
  [[gnu::always_inline]] void try_stages(const State& x, State& out, double h, const P& p, Vec& err_q, Vec& err_v) {
    if constexpr (S != 0) return try_fixed<S>(x, out, h, p, err_q, err_v);
    evals_ = 0;
    derivative_at(x, p, kv_[0]);
    kx_[0] = x.v;
    for (std::size_t i = 1; i < s_; ++i) {
      Vec q = x.q, v = x.v;
      for (std::size_t t = row_[i]; t < row_[i + 1]; ++t) {
        const double w = h * term_a_[t];
        drift(q, kx_[term_j_[t]], w), kick(v, kv_[term_j_[t]], w);
      }
      kx_[i] = v;
      force(p, q, v, kv_[i]);
      ++evals_;
      if (fsal_ && i + 1 == s_) out.q = q, out.v = v;
    }
    if (fsal_) last_force_ = kv_[s_ - 1];
    if (!fsal_) {
      out.q = x.q, out.v = x.v;
      for (const auto& [j, bj] : b_terms_) drift(out.q, kx_[j], h * bj);
      for (const auto& [j, bj] : b_terms_) kick(out.v, kv_[j], h * bj);
    }
    out.t = x.t + h;
    if (d_terms_.empty()) return err_q.fill(0), err_v.fill(0);
    const auto& [j0, d0] = d_terms_.front();
    const double w0 = h * d0;
    for (std::size_t k = 0; k < dim; ++k) err_q[k] = w0 * kx_[j0][k], err_v[k] = w0 * kv_[j0][k];
    for (std::size_t t = 1; t < d_terms_.size(); ++t) {
      const auto& [j, dj] = d_terms_[t];
      drift(err_q, kx_[j], h * dj), kick(err_v, kv_[j], h * dj);
    }
  }
  template <std::size_t S>
  [[gnu::always_inline]] void try_fixed(const State& x, State& out, double h, const P& p, Vec& err_q, Vec& err_v) {
    evals_ = 0;
    std::array<Vec, S> kx, kv;
    derivative_at(x, p, kv[0]);
    kx[0] = x.v;
#pragma GCC unroll 16
    for (std::size_t i = 1; i < S; ++i) {
      Vec q;
      Vec& v = kx[i];  // the stage's velocities are its position derivative: summed in place
      std::array<double, S> w{};
#pragma GCC unroll 16
      for (std::size_t j = 0; j < i; ++j) w[j] = h * dense_a_[i * S + j];
      // component by component, the sum in a register: x + w_0 k_0 + w_1 k_1 + ... in that order, as term by term
      for (std::size_t k = 0; k < dim; ++k) {
        double sq = x.q[k], sv = x.v[k];
#pragma GCC unroll 16
        for (std::size_t j = 0; j < i; ++j)
          sq += w[j] * kx[j][k], sv += w[j] * kv[j][k];
        q[k] = sq, v[k] = sv;
      }
      force(p, q, v, kv[i]);
      if (fsal_ && i + 1 == S) out.q = q, out.v = v;
    }
    evals_ = static_cast<int>(S) - 1 + evals_;
    std::array<double, S> wb, wd;
#pragma GCC unroll 16
    for (std::size_t i = 0; i < S; ++i) wb[i] = h * dense_b_[i], wd[i] = h * dense_d_[i];
    if (!fsal_)
      for (std::size_t k = 0; k < dim; ++k) {
        double sq = x.q[k], sv = x.v[k];
#pragma GCC unroll 16
        for (std::size_t i = 0; i < S; ++i) sq += wb[i] * kx[i][k], sv += wb[i] * kv[i][k];
        out.q[k] = sq, out.v[k] = sv;
      }
    out.t = x.t + h;
    for (std::size_t k = 0; k < dim; ++k) {
      double eq = wd[0] * kx[0][k], ev = wd[0] * kv[0][k];
#pragma GCC unroll 16
      for (std::size_t i = 1; i < S; ++i) eq += wd[i] * kx[i][k], ev += wd[i] * kv[i][k];
      err_q[k] = eq, err_v[k] = ev;
    }
    if (fsal_) last_force_ = kv[S - 1];
  }

  /// The step from x to out was accepted: with first-same-as-last, the last stage's force is out's.
  void accepted(const State& /*out*/) {
    if (fsal_) a0_ = last_force_;
    have_ = fsal_;  // without first-same-as-last, out's force is unknown
  }

 private:
  std::size_t s_ = 0;
  bool fsal_ = false;
  int order_ = 0, order_hat_ = 0, evals_ = 0;
  std::vector<std::size_t> row_, term_j_;  ///< stage i's nonzero a_ij: term_j_[row_[i] .. row_[i + 1]), values term_a_
  std::vector<double> term_a_;
  std::vector<std::pair<std::size_t, double>> b_terms_, d_terms_;  ///< nonzero b_j and d_j = b_j - b_hat_j
  std::vector<Vec> kx_, kv_;
  std::vector<double> dense_a_, dense_b_, dense_d_;  ///< the fixed-size kernels' coefficients, s x s and s
  Vec last_force_{};                                   ///< the last stage's force of the last try
  Vec a0_{};           ///< the force at the state tries start from
  bool have_ = false;  ///< whether a0_ is known
};

/// Why an adaptive run stopped before its end.
enum class AdaptiveStop { none, step_limit, underflow, rejections, diverged, interrupted };

/// What an adaptive run did: its counts, its step sizes and how far it got.
struct AdaptiveStats {
  long accepted = 0, rejected = 0, evals = 0;
  long cut = 0;  ///< accepted steps cut short to land on an output time or t_end (their size the times', not the controller's)
  long side_evals = 0;  ///< force evaluations of the steps to the output times between the controller's (free runs): not its cost
  double h_min = std::numeric_limits<double>::infinity(), h_max = 0, t_reached = 0;
  AdaptiveStop stop = AdaptiveStop::none;
  /// When asked for (AdaptiveLimits::record_steps): every accepted step in order, how many had been taken before each
  /// output time, and the step from there to it that observed it (0: the state there, the run landed on it): what a
  /// replay in wider arithmetic needs to take the same steps.
  std::vector<double> steps;
  std::vector<std::size_t> steps_at_output;
  std::vector<double> side_steps;
};

/// Limits of one adaptive run, and how it meets its output times.
struct AdaptiveLimits {
  long max_steps = 1000000;  ///< accepted plus rejected: a tolerance sets no step count, this bounds the work
  int max_rejections = 500;  ///< in a row, then the next stops the run (Odeint's failed_step_checker throws at the 501st)
  double blow_up = 1e100;    ///< a state component beyond this is divergence
  bool record_steps = false;  ///< keep the accepted steps (AdaptiveStats::steps)
  /// true: every step that would pass an output time is cut to land on it, as Odeint's integrate_times does (bit for
  /// bit).  false: the controller chooses every step, only the last cut to end on t_end (Odeint's integrate_adaptive),
  /// and an output time inside a step is observed by a step of the pair to it from the step's start, not taken on.
  bool land = true;
};

/// Whether a free run shows its observer the output times inside its steps (each by a step of the pair to it): only
/// an observer that asks (`static constexpr bool between = true`), so that a timed run's loop compiles no such step.
template <class O>
constexpr bool observes_between = requires { requires std::decay_t<O>::between; };

namespace detail {
/// integrate_times for a stepper of S stages (0: any), its try inlined into the loop.
template <std::size_t S, Problem P, class Control, class Observe, class Poll>
AdaptiveStats integrate_times_s(EmbeddedStepper<P>& stepper, Control& control, typename P::State& state, const std::vector<double>& times,
                                double dt, const P& p, const AdaptiveLimits& limits, Observe& observe, Poll& poll) {
  using Vec = typename P::Vec;
  constexpr std::size_t D = P::dim;
  stepper.reset();
  AdaptiveStats st;
  // Two states, the tried step written into the other and the two swapped on acceptance: no copy of the state.
  std::array<typename P::State, 2> buf{state, state};
  typename P::State* now = &buf[0];
  typename P::State* next = &buf[1];
  Vec eq{}, ev{};
  std::array<double, 2 * D> x_old{}, dxdt{}, x_new{}, err{};
  int in_a_row = 0;
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double end = times.back();
  std::size_t j = 0;  // the next output time to observe
  // The state now at output time j (landed on it).
  const auto observe_now = [&](std::size_t k) {
    now->t = times[k];
    st.t_reached = times[k];
    if (limits.record_steps) st.steps_at_output.push_back(st.steps.size()), st.side_steps.push_back(0);
    observe(k, std::as_const(*now));
  };
  // One try towards target (the next output time when landing, else t_end): AdaptiveStop::none to go on.
  const auto attempt = [&](double target) __attribute__((always_inline)) {
    const auto& x = *now;
    auto& out = *next;
    // Odeint's integrate_times tries min(dt, time - t); its integrate_adaptive cuts only a step that would pass t_end.
    double cur = limits.land ? std::min(dt, target - x.t) : (target < x.t + dt ? target - x.t : dt);
    if (const double m = control.max_dt(); m != 0 && cur - m > eps) {  // Odeint's check_step_size_limit
      dt = m;
      return AdaptiveStop::none;
    }
    if (st.accepted + st.rejected >= limits.max_steps) return AdaptiveStop::step_limit;
    // The controller's step, not one cut to land on a time (which may be tiny, as Odeint takes it too), below the
    // resolution of t there: relative to t itself (and, at t = 0, to the run's end, far below it), so that a problem
    // written in small units (t_end 1e-12) steps as in large ones.
    if (!(dt > 16 * eps * std::max(std::abs(x.t), eps * std::abs(end)))) return AdaptiveStop::underflow;
    poll();
    stepper.template try_stages<S>(x, out, cur, p, eq, ev);
    st.evals += stepper.last_evals();
    const Vec& a = stepper.start_force();  // kept by try_step: no evaluation
    double e;
    if constexpr (requires { control.error_qv(x.q, x.v, a, out.q, out.v, eq, ev, cur); }) {
      e = control.error_qv(x.q, x.v, a, out.q, out.v, eq, ev, cur);  // the same operations, without the copies
    } else {
      for (std::size_t i = 0; i < D; ++i) {
        x_old[i] = x.q[i], x_old[D + i] = x.v[i], dxdt[i] = x.v[i], dxdt[D + i] = a[i];
        x_new[i] = out.q[i], x_new[D + i] = out.v[i], err[i] = eq[i], err[D + i] = ev[i];
      }
      e = control.error(x_old, dxdt, x_new, err, cur);
    }
    if (!std::isfinite(e) || e > 1.0) {
      ++st.rejected;
      if (++in_a_row > limits.max_rejections) return AdaptiveStop::rejections;  // Odeint throws at the 501st
      dt = std::isfinite(e) ? control.next(cur, e, false, stepper.order(), stepper.error_order()) : cur / 5;
      return AdaptiveStop::none;
    }
    in_a_row = 0;
    ++st.accepted;
    if (cur < dt) ++st.cut;
    else st.h_min = std::min(st.h_min, cur), st.h_max = std::max(st.h_max, cur);  // the controller's steps
    bool finite = true;
    for (std::size_t i = 0; i < D; ++i) finite = finite && std::abs(out.q[i]) < limits.blow_up && std::abs(out.v[i]) < limits.blow_up;
    // A free run's output times inside this step (one that stays finite): each observed by a step of the pair from x
    // to it, on a copy of the stepper (x's force kept: its other stages evaluated, counted apart), the run going on from out.
    if constexpr (observes_between<Observe>)
      for (; finite && !limits.land && j + 1 < times.size() && times[j] < out.t; ++j) {
        typename P::State at = x;
        const double h = times[j] - x.t;
        if (h > 0) {
          EmbeddedStepper<P> side = stepper;
          Vec sq{}, sv{};
          side.template try_stages<0>(x, at, h, p, sq, sv);  // the general stages: no second kernel to compile
          st.side_evals += side.last_evals();
        }
        at.t = times[j];
        if (limits.record_steps) st.steps_at_output.push_back(st.steps.size()), st.side_steps.push_back(std::max(h, 0.0));
        observe(j, std::as_const(at));
      }
    if (limits.record_steps) st.steps.push_back(cur);
    stepper.accepted(out);
    std::swap(now, next);  // out (its t = x.t + cur) is the state now
    if (!finite) return AdaptiveStop::diverged;
    st.t_reached = out.t;
    // An observer that asks to see every accepted step (a long energy run's envelope) is shown it.
    if constexpr (requires { observe.accepted(std::as_const(*now)); }) observe.accepted(std::as_const(*now));
    const double proposed = control.next(cur, e, true, stepper.order(), stepper.error_order());
    // Landing: after a step cut to land on a time, the step before the cut is kept if larger; Odeint's integrate_times
    // keeps it after every accepted step (max_abs(dt, current_dt)), which undoes its own shrink by 0.9 err^(-1/order) < 1
    // when err is just under 0.5 (order 8: err > 0.43).  Free: the controller's proposal, as integrate_adaptive takes it.
    dt = limits.land && (cur < dt || control.keeps_larger_step()) ? std::max(dt, proposed) : proposed;
    return AdaptiveStop::none;
  };
  const auto stop = [&](AdaptiveStop why) { return state = *now, st.stop = why, st; };
  // One loop and one call of the try (inlined): towards the next output time when landing, else towards t_end.
  observe_now(j++);
  while (j < times.size()) {
    const double target = limits.land ? times[j] : end;
    if (target - now->t > eps) {
      if (const AdaptiveStop why = attempt(target); why != AdaptiveStop::none) return stop(why);
    } else if (limits.land) {
      observe_now(j++);
    } else {
      break;
    }
  }
  for (; j < times.size(); ++j) observe_now(j);  // free: t_end (and any time the last step landed on)
  return state = *now, st;
}

template <std::size_t... S, Problem P, class Control, class Observe, class Poll>
AdaptiveStats dispatch(std::index_sequence<S...>, EmbeddedStepper<P>& stepper, Control& control, typename P::State& x,
                       const std::vector<double>& times, double dt, const P& p, const AdaptiveLimits& limits, Observe& observe, Poll& poll) {
  constexpr auto n = EmbeddedStepper<P>::fixed_stages;
  AdaptiveStats st;
  const bool fixed = ((stepper.stages() == n[S] ? (st = integrate_times_s<n[S]>(stepper, control, x, times, dt, p, limits, observe, poll), true) : false) || ...);
  if (!fixed) st = integrate_times_s<0>(stepper, control, x, times, dt, p, limits, observe, poll);
  return st;
}
}  // namespace detail

/// Which loop integrate_times runs: the kernel of the stepper's stage count where it has one (fixed_stages), else
/// the general loop; or the general loop always.
enum class Loop { kernels, general };

/// Integrates from x (at times[0]) through every time of `times` (increasing) with first step dt, landing on each
/// as Odeint's integrate_times does for a controlled stepper: a step is cut to reach the next time, and after an
/// accepted cut step the step before the cut is kept if larger.  observe(j, x) is called at times[j] (the state's
/// t set to it), and observe.accepted(x) after every accepted step where observe has it; poll() before every try
/// may throw to interrupt.  A step of dt whose error is not finite is rejected and dt cut by 5.
/// Control: StepController or a final class derived from it (OdeintController, PIController), whose calls are then
/// direct (a tenth of a Dormand-Prince try's time on Kepler went to the virtual calls).
/// Loop::general runs the general loop whatever the stage count: where the run's speed is not measured (a counted
/// accuracy run, a controller other than Odeint's), so that no kernel is compiled for it.
template <Loop L = Loop::kernels, Problem P, class Control, class Observe, class Poll>
  requires std::derived_from<Control, StepController>
AdaptiveStats integrate_times(EmbeddedStepper<P>& stepper, Control& control, typename P::State& x, const std::vector<double>& times,
                              double dt, const P& p, const AdaptiveLimits& limits, Observe&& observe, Poll&& poll) {
#if defined(__SANITIZE_ADDRESS__)
  // Under the sanitizers the general loop only: the inlined, unrolled kernels of every stage count, for every problem
  // and controller, took one file 8 minutes to compile there (CI time).  The same operations (up to the sign of an
  // exact zero); the Release tests hold the kernels to Odeint's steps bit for bit.
  constexpr bool general = true;
#else
  constexpr bool general = L == Loop::general;
#endif
  if constexpr (general)
    return detail::integrate_times_s<0>(stepper, control, x, times, dt, p, limits, observe, poll);
  else
    return detail::dispatch(std::make_index_sequence<EmbeddedStepper<P>::fixed_stages.size()>{}, stepper, control, x, times, dt, p,
                            limits, observe, poll);
}

/// Hairer & Wanner's starting step (HNW I, §II.4, "Starting step size"), with the PI controller's weights
/// sk = atol + rtol |y0|: h0 = 0.01 ||y0|| / ||f(y0)||, one Euler step, then h1 from the second derivative's size;
/// min(100 h0, h1).  Costs one force evaluation beyond the one at y0, returned in `evals`.
template <Problem P>
double starting_step(const typename P::State& x, const P& p, int order, double atol, double rtol, double span, long& evals) {
  constexpr std::size_t D = P::dim;
  typename P::Vec a0{}, a1{};
  force(p, x.q, x.v, a0);
  auto norm = [&](auto&& component) {
    double s = 0;
    for (std::size_t i = 0; i < 2 * D; ++i) {
      const double y = i < D ? x.q[i] : x.v[i - D];
      const double r = component(i) / (atol + rtol * std::abs(y));
      s += r * r;
    }
    return std::sqrt(s / (2 * D));
  };
  const double d0 = norm([&](std::size_t i) { return i < D ? x.q[i] : x.v[i - D]; });
  const double d1 = norm([&](std::size_t i) { return i < D ? x.v[i] : a0[i - D]; });
  double h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
  h0 = std::min(h0, span);
  typename P::State y = x;
  drift(y.q, x.v, h0), kick(y.v, a0, h0);
  force(p, y.q, y.v, a1);
  evals += 2;
  const double d2 = norm([&](std::size_t i) { return i < D ? y.v[i] - x.v[i] : a1[i - D] - a0[i - D]; }) / h0;
  const double big = std::max(d1, d2);
  const double h1 = big <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / big, 1.0 / (order + 1));
  return std::min({100 * h0, h1, span});
}

}  // namespace ode
