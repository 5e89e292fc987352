#pragma once
/// Deliberately broken integrators: the quiet mistakes a change can make, each under the id and the declared
/// properties of the method it breaks.  `study check` must catch every one (tests/study/check_gate.sh).

#include <array>
#include <string_view>
#include <tuple>

#include "integrators/all.hpp"

namespace broken {

/// RK4 with one wrong weight: k3 gets h/6 instead of h/3 (weights no longer sum to 1: inconsistent).
struct Rk4WrongWeight : ode::Rk4 {
  template <ode::Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    const Real half = h / 2;
    Vec k1x = s.v, k1v, k2x, k2v, k3x, k3v, k4x, k4v, x, v;
    ode::force(p, s.q, s.v, k1v);
    x = s.q, v = s.v;
    ode::drift(x, k1x, half), ode::kick(v, k1v, half);
    k2x = v;
    ode::force(p, x, v, k2v);
    x = s.q, v = s.v;
    ode::drift(x, k2x, half), ode::kick(v, k2v, half);
    k3x = v;
    ode::force(p, x, v, k3v);
    x = s.q, v = s.v;
    ode::drift(x, k3x, h), ode::kick(v, k3v, h);
    k4x = v;
    ode::force(p, x, v, k4v);
    const Real w1 = h / 6, w2 = h / 3;
    for (std::size_t i = 0; i < P::dim; ++i) {
      s.q[i] += w1 * (k1x[i] + k4x[i]) + w2 * k2x[i] + w1 * k3x[i];  // the bug: w1 * k3, not w2 * k3
      s.v[i] += w1 * (k1v[i] + k4v[i]) + w2 * k2v[i] + w1 * k3v[i];
    }
    s.t += h;
  }
};

/// RK4 made slow, not wrong: the same arithmetic (the same bits, the same force evaluations), then a dependent chain
/// of 400 multiply-adds whose result nothing uses but a volatile store.  Only its time per step tells it apart
/// (`study compare --time-tolerance`, tests/study/compare_cli.sh).
struct Rk4Slowed : ode::Rk4 {
  template <ode::Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    ode::Rk4::step(s, h, p);
    static thread_local volatile double sink = 1;
    double x = sink;
    for (int i = 0; i < 400; ++i) x = x * 1.0000001 + 1e-9;
    sink = x;
  }
};

/// Velocity Verlet without the 1/2 in the position update: x+ = x + h v + h^2 a (first order).
struct VelocityVerletNoHalf : ode::VelocityVerlet {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a0, a1;
    p.accel(s.q, a0);
    for (std::size_t i = 0; i < P::dim; ++i) s.q[i] += h * s.v[i] + h * h * a0[i];  // the bug: h^2 a, not h^2 a / 2
    p.accel(s.q, a1);
    for (std::size_t i = 0; i < P::dim; ++i) s.v[i] += h / 2 * (a0[i] + a1[i]);
    s.t += h;
  }
  template <class P>
  using Stepper = ode::StatelessStepper<VelocityVerletNoHalf, P>;
};

/// Symplectic Euler with kick and drift swapped so that the drift uses the old velocity: explicit Euler.
struct SymplecticEulerSwapped : ode::SymplecticEuler {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a;
    p.accel(s.q, a);
    ode::drift(s.q, s.v, h);  // the bug: drift before the kick (old velocity)
    ode::kick(s.v, a, h);
    s.t += h;
  }
};

/// The explicit midpoint rule with Ralston's node and weights (c2 = 2/3, b = 1/4, 3/4): still second order,
/// another error constant.  Only the baseline of error constants can tell.
struct Rk2MidpointAsRalston : ode::Rk2Midpoint {
  template <ode::Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    const Real c = 2 * h / 3;
    typename P::Vec a1, a2, qm = s.q, vm = s.v;
    ode::force(p, s.q, s.v, a1);
    ode::drift(qm, s.v, c);
    ode::kick(vm, a1, c);
    ode::force(p, qm, vm, a2);
    for (std::size_t i = 0; i < P::dim; ++i) {
      s.q[i] += h * (s.v[i] / 4 + 3 * vm[i] / 4);
      s.v[i] += h * (a1[i] / 4 + 3 * a2[i] / 4);
    }
    s.t += h;
  }
};

/// RK4 with a dropped stage: k3 is never evaluated, k2 stands in for it (a32 = 0, a31 = 1/2): second order.
struct Rk4DroppedStage : ode::Rk4 {
  template <ode::Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    const Real half = h / 2;
    Vec k1x = s.v, k1v, k2x, k2v, k4x, k4v, x, v;
    ode::force(p, s.q, s.v, k1v);
    x = s.q, v = s.v;
    ode::drift(x, k1x, half), ode::kick(v, k1v, half);
    k2x = v;
    ode::force(p, x, v, k2v);
    const Vec k3x = k2x, k3v = k2v;  // the bug: the third stage is not evaluated
    x = s.q, v = s.v;
    ode::drift(x, k3x, h), ode::kick(v, k3v, h);
    k4x = v;
    ode::force(p, x, v, k4v);
    for (std::size_t i = 0; i < P::dim; ++i) {
      s.q[i] += h / 6 * (k1x[i] + 2 * k2x[i] + 2 * k3x[i] + k4x[i]);
      s.v[i] += h / 6 * (k1v[i] + 2 * k2v[i] + 2 * k3v[i] + k4v[i]);
    }
    s.t += h;
  }
};

/// Heun's method with the weights of Ralston's (1/4, 3/4) on Heun's node c2 = 1: sum b c = 3/4, not 1/2 (first order).
struct Rk2HeunWrongWeight : ode::Rk2Heun {
  template <ode::Problem P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a1, a2, qe = s.q, ve = s.v;
    ode::force(p, s.q, s.v, a1);
    ode::drift(qe, s.v, h);
    ode::kick(ve, a1, h);
    ode::force(p, qe, ve, a2);
    for (std::size_t i = 0; i < P::dim; ++i) {
      s.q[i] += h * (s.v[i] / 4 + 3 * ve[i] / 4);  // the bug: 1/4, 3/4 instead of 1/2, 1/2
      s.v[i] += h * (a1[i] / 4 + 3 * a2[i] / 4);
    }
    s.t += h;
  }
};

/// Velocity Verlet whose second half kick uses the force of the old time (one step off): first order.
struct VelocityVerletOldForce : ode::VelocityVerlet {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a0;
    p.accel(s.q, a0);
    for (std::size_t i = 0; i < P::dim; ++i) s.q[i] += h * s.v[i] + h * h / 2 * a0[i];
    for (std::size_t i = 0; i < P::dim; ++i) s.v[i] += h / 2 * (a0[i] + a0[i]);  // the bug: a(x_n), not a(x_{n+1})
    s.t += h;
  }
  template <class P>
  using Stepper = ode::StatelessStepper<VelocityVerletOldForce, P>;
};

/// Two-step Störmer–Verlet started from the wrong value x_{-1} = x_0 - h v_0 while declaring the Taylor start
/// (second order): the start's O(h^2) error becomes an O(h) global one.
struct StormerVerletWrongStart : ode::StormerVerlet {
  constexpr StormerVerletWrongStart() { start = Start::backward_euler; }  // the bug
  constexpr ode::Info info() const { return ode::StormerVerlet{}.info(); }
};

/// Leapfrog with a sign error in its kick: v+ = v - h a (inconsistent: the one-step error is O(h)).
struct LeapfrogKickSign : ode::Leapfrog {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a;
    ode::drift(s.q, s.v, h / 2);
    p.accel(s.q, a);
    ode::kick(s.v, a, -h);  // the bug: -h
    ode::drift(s.q, s.v, h / 2);
    s.t += h;
  }
};

/// Leapfrog (position Verlet) whose first drift is a full step: x+h v, kick, x+h/2 v (a user's slip; issue 33).
/// No longer symmetric, and inconsistent in position: the one-step error is O(h).
struct LeapfrogFullFirstDrift : ode::Leapfrog {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    typename P::Vec a;
    ode::drift(s.q, s.v, h);  // the bug: h, not h / 2
    p.accel(s.q, a);
    ode::kick(s.v, a, h);
    ode::drift(s.q, s.v, h / 2);
    s.t += h;
  }
};

/// Leapfrog with uneven drifts, 0.49 h and 0.51 h: consistent, but not symmetric (first order, a small constant).
struct LeapfrogUnevenDrifts : ode::Leapfrog {
  template <ode::PositionForce P>
  static void step(typename P::State& s, typename P::real_type h, const P& p) {
    using Real = typename P::real_type;
    typename P::Vec a;
    ode::drift(s.q, s.v, Real(0.49) * h);  // the bug: 0.49 and 0.51, not 1/2 and 1/2
    p.accel(s.q, a);
    ode::kick(s.v, a, h);
    ode::drift(s.q, s.v, Real(0.51) * h);
    s.t += h;
  }
};

/// Yoshida's triple jump with w1 = 1.3 (and w0 = 1 - 2 w1, still consistent and symmetric) instead of
/// 1/(2 - 2^(1/3)) = 1.3512...: the third-order condition 2 w1^3 + w0^3 = 0 fails, second order.
struct Yoshida4WrongCoefficient : ode::Splitting<Yoshida4WrongCoefficient> {
  static constexpr ode::DkdCoefficients<3> coefficients{.drift = {"0.65", "-0.15", "-0.15", "0.65"}, .kick = {"1.3", "-1.6", "1.3"}};
  constexpr ode::Info info() const { return ode::Yoshida4{}.info(); }
};

/// Two-stage collocation at the misremembered nodes 1/2 -+ 1/4 instead of Gauss's 1/2 -+ sqrt(3)/6:
/// second order, not fourth (the nodes' polynomial has a nonzero integral).
struct GaussLegendre4WrongNode : ode::ImplicitRk<GaussLegendre4WrongNode, 2> {
  template <class Real>
  static ode::Tableau<Real, 2> tableau() {
    // a_ij = integral from 0 to c_i of the Lagrange polynomial l_j of the nodes 1/4, 3/4.
    return {.a = {{{Real(5) / 16, Real(-1) / 16}, {Real(9) / 16, Real(3) / 16}}}, .b = {Real(1) / 2, Real(1) / 2},
            .c = {Real(1) / 4, Real(3) / 4}};
  }
  constexpr ode::Info info() const { return ode::GaussLegendre4{}.info(); }
};

/// The implicit midpoint rule with its stage at the start (a = 0, c = 0): explicit Euler, first order.
struct ImplicitMidpointAtStart : ode::ImplicitRk<ImplicitMidpointAtStart, 1> {
  template <class Real>
  static ode::Tableau<Real, 1> tableau() {
    return {.a = {{{Real(0)}}}, .b = {Real(1)}, .c = {Real(0)}};  // the bug: 0, not 1/2
  }
  constexpr ode::Info info() const { return ode::ImplicitMidpoint{}.info(); }
};

/// The breakages a correct gate must catch without a baseline (Ralston's rule is a correct second-order method:
/// only its error constant differs).
inline constexpr std::array<std::string_view, 11> caught_without_baseline{
    "rk4-wrong-weight",        "velocity-verlet-no-half",     "symplectic-euler-swapped", "rk4-dropped-stage",
    "rk2-heun-wrong-weight",   "velocity-verlet-old-force",   "stormer-verlet-wrong-start", "leapfrog-kick-sign",
    "yoshida4-wrong-coefficient", "gauss-legendre4-wrong-node", "implicit-midpoint-at-start"};

/// The breakages of the end-to-end gate test (tests/study/check_gate.sh, on the ci profile), by name.
template <class F>
bool with_gate_breakage(std::string_view name, F&& f) {
  if (name == "rk4-wrong-weight") return f(std::tuple<Rk4WrongWeight>{}), true;
  if (name == "velocity-verlet-no-half") return f(std::tuple<VelocityVerletNoHalf>{}), true;
  if (name == "symplectic-euler-swapped") return f(std::tuple<SymplecticEulerSwapped>{}), true;
  if (name == "rk2-midpoint-as-ralston") return f(std::tuple<Rk2MidpointAsRalston>{}), true;
  if (name == "rk4-slowed") return f(std::tuple<Rk4Slowed>{}), true;
  return false;
}

/// Every breakage by name (the gate's and the held-out corpus's, tests/study/corpus.cpp).
template <class F>
bool with_breakage(std::string_view name, F&& f) {
  if (with_gate_breakage(name, f)) return true;
  if (name == "rk4-dropped-stage") return f(std::tuple<Rk4DroppedStage>{}), true;
  if (name == "rk2-heun-wrong-weight") return f(std::tuple<Rk2HeunWrongWeight>{}), true;
  if (name == "velocity-verlet-old-force") return f(std::tuple<VelocityVerletOldForce>{}), true;
  if (name == "stormer-verlet-wrong-start") return f(std::tuple<StormerVerletWrongStart>{}), true;
  if (name == "leapfrog-kick-sign") return f(std::tuple<LeapfrogKickSign>{}), true;
  if (name == "yoshida4-wrong-coefficient") return f(std::tuple<Yoshida4WrongCoefficient>{}), true;
  if (name == "gauss-legendre4-wrong-node") return f(std::tuple<GaussLegendre4WrongNode>{}), true;
  if (name == "implicit-midpoint-at-start") return f(std::tuple<ImplicitMidpointAtStart>{}), true;
  return false;
}

}  // namespace broken
