#pragma once
/// Methods given by their coefficients at run time: a splitting (a sequence of drifts and kicks), a Runge–Kutta
/// tableau (explicit, or implicit through the same Newton iteration as the built-in implicit methods), or a
/// Runge–Kutta–Nyström tableau.  The coefficients come as decimal text, which every precision reads into its own
/// correctly rounded value (study/tables/ writes text for which that is the rounding of the exact coefficient).
/// A splitting performs exactly the operations of integrators/splitting.hpp, so a table with the coefficients of
/// a built-in splitting gives the same bits.  Sources of the formulas: splitting, GNI §II.5 and §III.3;
/// Runge–Kutta, Hairer, Nørsett, Wanner, Solving ODEs I, §II.1; Nyström, ibid. §II.14.

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "integrators/implicit_rk.hpp"
#include "integrators/method.hpp"

namespace ode {

/// A method's coefficients and what is known of it (filled by study/tables/ from a TOML table).
struct MethodTable {
  enum class Kind { splitting, runge_kutta, nystrom };
  /// One operation of a splitting: a drift q += c h v or a kick v += c h a(q).
  struct Operation {
    bool kick = false;
    std::string coefficient;
  };
  Kind kind = Kind::runge_kutta;
  std::string id, summary, source;
  std::string identity;  ///< the kind and every coefficient as text: what a cache key needs to know of the method
  std::vector<Operation> operations;            ///< splitting
  std::vector<std::vector<std::string>> a;      ///< runge-kutta: a (s x s); nystrom: abar
  std::vector<std::string> b, bbar, c;          ///< weights (nystrom: of h a in v; bbar of h^2 a in x) and nodes
  bool implicit = false;
  bool fsal = false;  ///< the last stage (a kick, or the last row of a) is the next step's first: one evaluation saved
  int order = 0;      ///< the declared global order
  int evals_per_step = 0, startup_evals = 0;
  bool symplectic = false, symmetric = false;  ///< as predicted from the coefficients
};

/// A method table as an integrator (any table, one C++ type: the engine instantiates it once per problem).
struct TableMethod {
  std::shared_ptr<const MethodTable> table;
  static constexpr bool runtime_info = true;  ///< info() is known at run time only (see accepts<M, P>)

  Info info() const {
    const MethodTable& t = *table;
    return {.id = t.id, .summary = t.summary, .order = t.order, .local_order = 0, .evals_per_step = t.evals_per_step,
            .startup_evals = t.startup_evals, .symplectic = t.symplectic, .symmetric = t.symmetric, .implicit = t.implicit,
            .position_force_only = t.kind != MethodTable::Kind::runge_kutta, .substeps = 1, .start = {}, .source = t.source};
  }
  std::string identity() const { return table->identity; }

  template <Problem P>
  class Stepper {
   public:
    using Real = typename P::real_type;
    using Vec = typename P::Vec;
    using Kind = MethodTable::Kind;

    explicit Stepper(const TableMethod& m) : kind_(m.table->kind) {
      const MethodTable& t = *m.table;
      if (kind_ != Kind::runge_kutta && !PositionForce<P>)
        throw std::invalid_argument(t.id + " needs a position-only force a(q); the problem's force depends on velocity");
      fsal_ = t.fsal;
      for (const auto& op : t.operations) ops_.push_back({op.kick, from_decimal<Real>(op.coefficient)});
      for (const auto& x : t.b) b_.push_back(from_decimal<Real>(x));
      for (const auto& x : t.bbar) bbar_.push_back(from_decimal<Real>(x));
      for (const auto& x : t.c) c_.push_back(from_decimal<Real>(x));
      s_ = kind_ == Kind::splitting ? 0 : b_.size();
      if (kind_ != Kind::splitting && t.a.size() != s_) throw std::invalid_argument(t.id + ": a must have one row per weight");
      for (const auto& row : t.a) {
        std::vector<Real> r(s_, Real(0));
        for (std::size_t j = 0; j < row.size() && j < s_; ++j) r[j] = from_decimal<Real>(row[j]);
        a_.push_back(r);
      }
      if (t.implicit) implicit_ = std::make_unique<ImplicitRkCore<P, dynamic_stages>>(a_, b_, t.id);
      kx_.resize(s_), kv_.resize(s_);
    }
    Stepper(Stepper&&) noexcept = default;

    void step(typename P::State& s, Real h, const P& p) {
      if (implicit_) return implicit_->step(s, h, p);
      switch (kind_) {
        case Kind::splitting: splitting(s, h, p); break;
        case Kind::runge_kutta: runge_kutta(s, h, p); break;
        case Kind::nystrom: nystrom(s, h, p); break;
      }
    }
    void reset() { cached_ = false; }

   private:
    struct Op {
      bool kick;
      Real c;
    };

    // The operations in order (integrators/splitting.hpp's arithmetic); a last kick's force is kept for the next
    // step's first kick when that starts from the same q.
    void splitting(typename P::State& s, Real h, const P& p) {
      if constexpr (PositionForce<P>) {
        for (std::size_t i = 0; i < ops_.size(); ++i) {
          const Op& op = ops_[i];
          if (!op.kick) {
            drift(s.q, s.v, op.c * h);
            continue;
          }
          if (!(i == 0 && fsal_ && cached_ && same(s.q, cached_q_))) p.accel(s.q, acc_);
          kick(s.v, acc_, op.c * h);
        }
        if (fsal_) cached_q_ = s.q, cached_ = true;
        s.t += h;
      }
    }

    // Stages X_i = q + h sum_j a_ij V_j, V_i = v + h sum_j a_ij A_j, A_i = a(X_i, V_i); zero coefficients are
    // skipped, so that a table of the classic RK4 gives integrators/rk4.hpp's bits.
    void runge_kutta(typename P::State& s, Real h, const P& p) {
      for (std::size_t i = 0; i < s_; ++i) {
        Vec x = s.q, v = s.v;
        for (std::size_t j = 0; j < i; ++j)
          if (a_[i][j] != 0) {
            const Real w = h * a_[i][j];
            drift(x, kx_[j], w), kick(v, kv_[j], w);
          }
        kx_[i] = v;
        if (i == 0 && fsal_ && cached_ && same(s.q, cached_q_) && same(s.v, cached_v_)) kv_[0] = cached_a_;
        else force(p, x, v, kv_[i]);
      }
      for (std::size_t i = 0; i < s_; ++i)
        if (b_[i] != 0) {
          const Real w = h * b_[i];
          drift(s.q, kx_[i], w), kick(s.v, kv_[i], w);
        }
      if (fsal_) cached_q_ = s.q, cached_v_ = s.v, cached_a_ = kv_[s_ - 1], cached_ = true;
      s.t += h;
    }

    // X_i = q + c_i h v + h^2 sum_j abar_ij A_j, A_i = a(X_i); q += h v + h^2 sum bbar_i A_i, v += h sum b_i A_i.
    void nystrom(typename P::State& s, Real h, const P& p) {
      if constexpr (PositionForce<P>) {
        const Real hh = h * h;
        for (std::size_t i = 0; i < s_; ++i) {
          Vec x = s.q;
          if (c_[i] != 0) drift(x, s.v, c_[i] * h);
          for (std::size_t j = 0; j < i; ++j)
            if (a_[i][j] != 0) kick(x, kv_[j], hh * a_[i][j]);
          p.accel(x, kv_[i]);
        }
        drift(s.q, s.v, h);
        for (std::size_t i = 0; i < s_; ++i) {
          if (bbar_[i] != 0) kick(s.q, kv_[i], hh * bbar_[i]);
          if (b_[i] != 0) kick(s.v, kv_[i], h * b_[i]);
        }
        s.t += h;
      }
    }

    Kind kind_;
    bool fsal_ = false, cached_ = false;
    std::size_t s_ = 0;
    std::vector<Op> ops_;
    std::vector<std::vector<Real>> a_;
    std::vector<Real> b_, bbar_, c_;
    std::vector<Vec> kx_, kv_;
    Vec acc_{}, cached_q_{}, cached_v_{}, cached_a_{};
    std::unique_ptr<ImplicitRkCore<P, dynamic_stages>> implicit_;
  };
};

}  // namespace ode
