#pragma once
/// Where integrator ids meet method types: one task of the engine, for the methods of a list (the
/// hand-written ones and tables in hand_written_*.cpp; deliberately broken ones in tests/study/broken_runner.hpp).
/// A method's type is bound to the problem's here (study/measure/stepper.hpp) and goes no further; the stability
/// search, which steps x'' = -x whatever the problem, is the one measurement compiled per method.

#include <complex>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

#include "study/measure/runners.hpp"
#include "study/measure/measure.hpp"
#include "study/problems/all.hpp"
#include "study/registry/integrators.hpp"
#include "study/measure/stability_theory.hpp"
#include "study/measure/stepper.hpp"

namespace study::engine {

/// Spectral radius of the one-step map on x'' = -x with step h (2x2: (q, v), or (x_{n-1}, x_n) with history).
template <class M>
double amplification(const M& m, double h) {
  using P = Harmonic<double>;
  const P p;
  std::array<std::array<double, 2>, 2> a{};
  for (int col = 0; col < 2; ++col) {
    auto st = ode::make_stepper<P>(m);
    P::State s{{col == 0 ? 1.0 : 0.0}, {col == 1 ? 1.0 : 0.0}, 0.0};
    if constexpr (HasHistory<decltype(st), P::State, P>) {
      // Basis of (x_{n-1}, x_n) pairs; the map returns (x_n, x_{n+1}).
      const P::Vec prev{col == 0 ? 1.0 : 0.0};
      s.q = {col == 1 ? 1.0 : 0.0};
      st.set_history(prev, s, h, p);
      const double xn = s.q[0];
      st.step(s, h, p);
      a[0][col] = xn, a[1][col] = s.q[0];
    } else {
      st.step(s, h, p);
      a[0][col] = s.q[0], a[1][col] = s.v[0];
    }
  }
  const double tr = a[0][0] + a[1][1], det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  const std::complex<double> root = std::sqrt(std::complex<double>(tr * tr - 4 * det));
  return std::max(std::abs((tr + root) / 2.0), std::abs((tr - root) / 2.0));
}

/// The largest stable omega h: scanned on 0.01, 0.02, ..., 10, then bisected to 1e-9.
template <class M>
Stability stability(const M& m, const IntegratorChoice& choice) {
  Stability st;
  st.integrator = choice.label();
  const StabilityTheory theory = stability_theory(m);
  st.theory = theory.limit, st.theory_basis = theory.basis;
  const double tolerance = 64 * std::numeric_limits<double>::epsilon();
  std::string failure;
  auto stable = [&](double h) {
    try {
      const double rho = amplification(m, h);
      return std::isfinite(rho) && rho <= 1 + tolerance;
    } catch (const ode::ConvergenceError&) {
      failure = "the Newton iteration of the stage equations stops converging here; the method itself may be stable beyond";
      return false;
    }
  };
  if (!stable(0.01)) {
    st.limit = 0;
    st.note = failure.empty() ? "unstable for every omega h tried: |lambda| > 1 already at omega h = 0.01" : failure;
    return st;
  }
  double lo = 0.01, hi = 0;
  for (int i = 2; i <= 1000 && hi == 0; ++i) {
    if (stable(0.01 * i)) lo = 0.01 * i;
    else hi = 0.01 * i;
  }
  if (hi == 0) {
    st.limit = lo, st.beyond_search = true, st.note = "stable over the whole search range omega h <= 10";
    return st;
  }
  while (hi - lo > 1e-9) {
    const double mid = (lo + hi) / 2;
    (stable(mid) ? lo : hi) = mid;
  }
  st.limit = lo;
  st.note = failure;
  return st;
}

/// Measures one task (a run, the long energy run, or the stability search) of `si` on problem p.  The method's
/// type ends here: runs are measured through MethodOn<P>, compiled once per problem (study/measure/measure.cpp).
template <class Methods, class P>
void run_task_on(const P& p, TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                 StudyResult& res, std::size_t slot) {
  with_method<Methods>(si.choice, [&](const auto& m) {
    using M = std::decay_t<decltype(m)>;
    if constexpr (ode::accepts<M, P>) {
      switch (kind) {
        case TaskKind::run: res.runs[slot] = reuse_or_measure(*bind<P>(m), p, spec, si.choice, steps, ctx); break;
        case TaskKind::energy: res.energy_long[slot] = energy_run(*bind<P>(m), p, spec, si.choice); break;
        case TaskKind::stability: res.stability[slot] = stability(m, si.choice); break;
      }
    } else {
      throw std::invalid_argument(si.choice.id + " cannot integrate " + spec.problem + ": it needs a position-only force");
    }
  });
}

/// Measures one task of `si` on the spec's problem.
template <class Methods>
void run_task(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
              std::size_t slot) {
  with_problem<double>(spec.problem, spec.params,
                       [&](const auto& p) { run_task_on<Methods>(p, kind, spec, si, steps, ctx, res, slot); });
}

/// run_task for the problems at indices [First, Last) of AllProblems only; false when the spec's problem is
/// not one of them.  The hand-written methods' instantiations are spread this way over translation units that
/// compile in parallel (hand_written_*.cpp).
template <class Methods, std::size_t First, std::size_t Last>
bool run_task_part(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx, StudyResult& res,
                   std::size_t slot) {
  bool found = false;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto one = [&]<class P>(std::type_identity<P>) {
      if (found || P::id != spec.problem) return;
      found = true;
      run_task_on<Methods>(P(spec.params), kind, spec, si, steps, ctx, res, slot);
    };
    (one(std::type_identity<std::tuple_element_t<First + I, AllProblems<double>>>{}), ...);
  }(std::make_index_sequence<Last - First>{});
  return found;
}

/// The hand-written methods on the problems at [0, split) and [split, end) of AllProblems.
inline constexpr std::size_t hand_written_split = 6;
bool run_hand_written_first(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                            StudyResult& res, std::size_t slot);
bool run_hand_written_second(TaskKind kind, const Spec& spec, const SpecIntegrator& si, long steps, const Context& ctx,
                             StudyResult& res, std::size_t slot);

}  // namespace study::engine
