#pragma once
/// Any method taken k times with step h/k per frame: same order, k times the cost.  Seed 000 compares
/// Euler with 8 substeps against RK4 with 4 at one frame of dt = 1.

#include <stdexcept>
#include <string>

#include "integrators/method.hpp"

namespace ode {

/// k substeps of Base per step.
template <class Base>
struct Substeps {
  Base base{};
  int k = 1;
  static constexpr bool runtime_info = RuntimeInfo<Base>;

  /// What a cache key needs to know of a method given at run time (its coefficients).
  std::string identity() const
    requires requires(const Base& b) { b.identity(); }
  {
    return base.identity();
  }

  constexpr Info info() const {
    Info i = base.info();
    i.evals_per_step *= k;
    i.substeps = k;
    return i;
  }

  template <class P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    using Inner = decltype(make_stepper<P>(std::declval<Base>()));
    explicit Stepper(const Substeps& m) : inner_(make_stepper<P>(m.base)), k_(m.k) {
      if (k_ < 1) throw std::invalid_argument("substeps must be at least 1, got " + std::to_string(k_));
    }
    void step(typename P::State& s, Real h, const P& p) {
      const Real sub = h / k_;
      for (int i = 0; i < k_; ++i) inner_.step(s, sub, p);
    }
    void reset() { inner_.reset(); }
    /// n steps: n k substeps of h/k, as step takes them.
    void advance(typename P::State& s, Real h, const P& p, long n) { ode::advance(inner_, s, h / k_, p, n * k_); }

    /// For multistep bases: continue from a known previous position one substep (h/k) back.
    template <class S>
    void set_history(const typename P::Vec& prev_q, const S& s, Real h_sub, const P& p)
      requires requires(Inner in) { in.set_history(prev_q, s, h_sub, p); }
    {
      inner_.set_history(prev_q, s, h_sub, p);
    }

   private:
    Inner inner_;
    int k_;
  };
};

}  // namespace ode
