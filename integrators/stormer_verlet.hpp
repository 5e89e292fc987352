#pragma once
/// Störmer–Verlet, the two-step position form: x_{n+1} = 2 x_n - x_{n-1} + h^2 a(x_n).
/// 2nd order (Taylor start), symplectic and symmetric (as a map of (x_{n-1}, x_n)), 1 force evaluation per
/// step.  Velocities are not part of the recurrence: v_n = (x_{n+1} - x_{n-1}) / (2h), the central
/// difference, with x_{n+1} the position the next step will produce (so a(x_n) is computed once).
/// Starts:
///   taylor         x_1 = x_0 + h v_0 + h^2/2 a_0                       (seed 004; positions equal velocity Verlet's)
///   backward-euler x_{-1} = x_0 - h v_0, then the recurrence          (seed 000; positions equal symplectic Euler's,
///                                                                      so the method is then only 1st order)
/// When the step changes, the variable-step form of seed 004 is used:
///   x_{i+1} = x_i + (x_i - x_{i-1}) h_i/h_{i-1} + a(x_i) (h_i + h_{i-1})/2 h_i.
/// (With h_i = -h_{i-1} it returns x_{i-1} exactly: stepping back retraces the run.)  `adjust = false` keeps
/// the constant-step formula whatever the step: the mistake seed 004 warns about, kept to show what it costs.
/// Sources: seeds 000, 003 ("Position Verlet"), 004 ("Störmer-Verlet"); Verlet, Phys. Rev. 159 (1967) 98;
/// Hairer, Lubich, Wanner, Acta Numerica 12 (2003) 399, eq. (1.1).

#include <string_view>

#include "integrators/method.hpp"

namespace ode {

/// Two-step Störmer–Verlet with a choice of starting procedure.
struct StormerVerlet {
  enum class Start { taylor, backward_euler };
  Start start = Start::taylor;
  bool adjust = true;  ///< use the variable-step formula when h changes (false: "unadjusted")

  static constexpr std::string_view start_name(Start s) {
    return s == Start::taylor ? "taylor" : "backward-euler";
  }

  constexpr Info info() const {
    const bool taylor = start == Start::taylor;
    return {.id = "stormer-verlet",
            .summary = taylor ? "Stormer-Verlet two-step (Taylor start): 2nd order, symplectic, symmetric, 1 force evaluation per step"
                              : "Stormer-Verlet two-step (x_-1 = x_0 - h v_0 start): 1st order (equals symplectic Euler), 1 force evaluation per step",
            .order = taylor ? 2 : 1,
            .local_order = 4,  // x+ = 2x - x- + h^2 a(x) from two exact positions: O(h^4) (seed 003)
            .evals_per_step = 1, .startup_evals = 1, .symplectic = true, .symmetric = true,
            .position_force_only = true, .start = start_name(start),
            .source = "seeds 000, 003, 004; Verlet, Phys. Rev. 159 (1967) 98; Hairer, Lubich, Wanner, Acta Numerica 12 (2003)"};
  }

  template <PositionForce P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    explicit Stepper(const StormerVerlet& m) : start_(m.start), adjust_(m.adjust) {}

    void step(typename P::State& s, Real h, const P& p) {
      Vec next;
      if (!history_ || !same(s.q, last_q_)) {  // fresh start, or the state was changed from outside
        p.accel(s.q, a_);
        next = s.q;
        if (start_ == Start::taylor) {
          drift(next, s.v, h);
          kick(next, a_, h * h / 2);  // x_1 = x_0 + h v_0 + h^2/2 a_0
        } else {
          Vec before = s.q;
          drift(before, s.v, -h);  // x_{-1} = x_0 - h v_0
          for (std::size_t i = 0; i < P::dim; ++i) next[i] = 2 * s.q[i] - before[i] + h * h * a_[i];
        }
      } else if (h == h_prev_) {
        next = ahead_;  // computed by the last step for its velocity: the same formula on the same numbers
      } else if (!adjust_) {
        for (std::size_t i = 0; i < P::dim; ++i) next[i] = 2 * s.q[i] - prev_[i] + h * h * a_[i];
      } else {
        const Real ratio = h / h_prev_, w = (h + h_prev_) / 2 * h;
        for (std::size_t i = 0; i < P::dim; ++i) next[i] = s.q[i] + (s.q[i] - prev_[i]) * ratio + w * a_[i];
      }
      advance(s, next, h, p);
    }

    /// Continue from two known positions: prev_q at t - h_prev and s.q at t (e.g. two reference states).
    void set_history(const Vec& prev_q, const typename P::State& s, Real h_prev, const P& p) {
      prev_ = prev_q;
      last_q_ = s.q;
      h_prev_ = h_prev;
      p.accel(s.q, a_);
      for (std::size_t i = 0; i < P::dim; ++i) ahead_[i] = 2 * s.q[i] - prev_[i] + h_prev * h_prev * a_[i];
      history_ = true;
    }

    void reset() { history_ = false; }

   private:
    // Shifts the history, evaluates a(x_{n+1}) once, and sets v_{n+1} by the central difference.
    void advance(typename P::State& s, const Vec& next, Real h, const P& p) {
      prev_ = s.q;
      s.q = next;
      p.accel(s.q, a_);
      const Real inv_2h = 1 / (2 * h);  // one division per step, not one per coordinate (the divider is the bottleneck)
      for (std::size_t i = 0; i < P::dim; ++i) {
        ahead_[i] = 2 * s.q[i] - prev_[i] + h * h * a_[i];  // x_{n+2} with the same step (the next step's, if h stays)
        s.v[i] = (ahead_[i] - prev_[i]) * inv_2h;
      }
      s.t += h;
      h_prev_ = h;
      last_q_ = s.q;
      history_ = true;
    }

    Start start_;
    bool adjust_;
    Vec prev_{}, a_{}, last_q_{}, ahead_{};
    Real h_prev_{};
    bool history_ = false;
  };
};

}  // namespace ode
