#pragma once
/// Methods given by their coefficients at run time: a splitting (a sequence of drifts and kicks), a Runge–Kutta
/// tableau (explicit, or implicit through the same Newton iteration as the built-in implicit methods), or a
/// Runge–Kutta–Nyström tableau.  The coefficients come as decimal text, which every precision reads into its own
/// correctly rounded value (study/methods/ writes text for which that is the rounding of the exact coefficient).
/// A splitting performs exactly the operations of integrators/splitting.hpp, so a table with the coefficients of
/// a built-in splitting gives the same bits.  Sources of the formulas: splitting, GNI §II.5 and §III.3;
/// Runge–Kutta, Hairer, Nørsett, Wanner, Solving ODEs I, §II.1; Nyström, ibid. §II.14.

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "integrators/implicit_rk.hpp"
#include "integrators/method.hpp"

namespace ode {

/// A method's coefficients and what is known of it (filled by study/methods/ from a TOML table).
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
  /// runge-kutta: an embedded pair's other weights (b - b_hat estimates the local error) and their order; empty, 0: none
  std::vector<std::string> b_hat;
  int order_hat = 0;
  bool implicit = false;
  bool fsal = false;  ///< the last stage (a kick, or the last row of a) is the next step's first: one evaluation saved
  int order = 0;      ///< the declared global order
  int evals_per_step = 0, startup_evals = 0;
  bool symplectic = false, symmetric = false;  ///< as predicted from the coefficients
};

namespace table_detail {
/// for (i = from; i < to; ++i) f(i), unrolled where Unroll: in a kernel, whose counts are known at compile time (the
/// values then live in registers); as written in the general loops, where unrolled copies cost build time (a third
/// of a table's) and gained no speed.
template <bool Unroll, class F>
[[gnu::always_inline]] inline void loop(std::size_t from, std::size_t to, F&& f) {
  if constexpr (Unroll) {
#pragma GCC unroll 16
    for (std::size_t i = from; i < to; ++i) f(i);
  } else {
    for (std::size_t i = from; i < to; ++i) f(i);
  }
}

/// The shapes a table's timed loop has a fixed-size kernel for: those of the shipped tables (study/methods/*.toml,
/// builtin.toml), whose kernels study bench times against their built-ins (docs/bench.md).  A kernel is compiled for
/// every problem, each stage count and form a few seconds of the build (docs/build.md); a table of another shape is
/// timed through the general loop (the same bits; before the kernels, RK4's table took 1.28 x its built-in's time on
/// kepler, leapfrog's 1.82 x on harmonic: docs/bench.md).
/// Splittings: n operations, the first a kick or a drift; a kick-first one of odd n ends with a kick whose force
/// the next step reuses (first same as last, as study/methods/ always sets it).  Runge–Kutta: s explicit stages,
/// first same as last or not (a pair's b_hat run as a method, "dopri5-embedded", is not).  A test holds every shipped table of up to max_kernel_ops operations or
/// max_kernel_stages stages to a kernel.
struct KernelShape {
  MethodTable::Kind kind;
  std::size_t n;
  bool first_kick, fsal;
};
inline constexpr std::size_t max_kernel_ops = 9, max_kernel_stages = 7;
inline constexpr std::array<KernelShape, 17> kernel_shapes{{
    {MethodTable::Kind::splitting, 2, false, false}, {MethodTable::Kind::splitting, 2, true, false},
    {MethodTable::Kind::splitting, 3, false, false}, {MethodTable::Kind::splitting, 3, true, true},
    {MethodTable::Kind::splitting, 6, false, false}, {MethodTable::Kind::splitting, 7, false, false},
    {MethodTable::Kind::splitting, 7, true, true},   {MethodTable::Kind::splitting, 8, true, false},
    {MethodTable::Kind::splitting, 9, false, false}, {MethodTable::Kind::runge_kutta, 1, false, false},
    {MethodTable::Kind::runge_kutta, 2, false, false}, {MethodTable::Kind::runge_kutta, 3, false, false},
    {MethodTable::Kind::runge_kutta, 4, false, false}, {MethodTable::Kind::runge_kutta, 4, false, true},
    {MethodTable::Kind::runge_kutta, 6, false, false}, {MethodTable::Kind::runge_kutta, 7, false, false},
    {MethodTable::Kind::runge_kutta, 7, false, true},
}};
static_assert([] {
  for (const auto& k : kernel_shapes)
    if (k.n > (k.kind == MethodTable::Kind::splitting ? max_kernel_ops : max_kernel_stages)) return false;
  return true;
}());
}  // namespace table_detail

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
    /// The fixed-size kernels (advance) are compiled where speed is measured (double, not counting its
    /// evaluations, as the timed loops run); elsewhere (the counted accuracy runs, long double shadows) the
    /// general loops serve and the build stays shorter.  Every path performs the same operations: the same bits.
    static constexpr bool fast_paths = std::is_same_v<Real, double> && !CountsIterations<P>
#if defined(__SANITIZE_ADDRESS__)
                                       && false  // nothing is timed under the sanitizers
#endif
        ;

    explicit Stepper(const TableMethod& m) : kind_(m.table->kind) {
      const MethodTable& t = *m.table;
      if (kind_ != Kind::runge_kutta && !PositionForce<P>)
        throw std::invalid_argument(t.id + " needs a position-only force a(q); the problem's force depends on velocity");
      if (kind_ == Kind::splitting ? t.operations.empty() : t.b.empty())
        throw std::invalid_argument(t.id + ": a method table needs at least one operation or stage");
      fsal_ = t.fsal;
      first_kick_ = !t.operations.empty() && t.operations.front().kick;
      for (std::size_t i = 0; i < t.operations.size(); ++i) {
        if (t.operations[i].kick != (first_kick_ == (i % 2 == 0)))
          throw std::invalid_argument(t.id + ": a splitting's drifts and kicks must alternate");
        ops_.push_back(from_decimal<Real>(t.operations[i].coefficient));
      }
      for (const auto& x : t.b) b_.push_back(from_decimal<Real>(x));
      for (const auto& x : t.bbar) bbar_.push_back(from_decimal<Real>(x));
      for (const auto& x : t.c) c_.push_back(from_decimal<Real>(x));
      s_ = kind_ == Kind::splitting ? 0 : b_.size();
      if (kind_ != Kind::splitting && t.a.size() != s_) throw std::invalid_argument(t.id + ": a must have one row per weight");
      std::vector<std::vector<Real>> rows;
      for (const auto& row : t.a) {
        std::vector<Real> r(s_, Real(0));
        for (std::size_t j = 0; j < row.size() && j < s_; ++j) r[j] = from_decimal<Real>(row[j]);
        rows.push_back(r);
        a_.insert(a_.end(), r.begin(), r.end());
      }
      if (t.implicit) {
        implicit_ = std::make_unique<ImplicitRkCore<P, dynamic_stages>>(rows, b_, t.id);
        if constexpr (fast_paths)
          implicit1_ = fixed_core<1>(rows, t.id), implicit2_ = fixed_core<2>(rows, t.id), implicit3_ = fixed_core<3>(rows, t.id);
      }
      kx_.resize(s_), kv_.resize(s_);
    }
    Stepper(Stepper&&) noexcept = default;

    void step(typename P::State& s, Real h, const P& p) {
      if (implicit_) return implicit_->step(s, h, p);
      switch (kind_) {
        case Kind::splitting: return fsal_ ? splitting<0, false, true>(s, h, p, 1) : splitting<0, false, false>(s, h, p, 1);
        case Kind::runge_kutta: return fsal_ ? runge_kutta<0, true>(s, h, p, 1) : runge_kutta<0, false>(s, h, p, 1);
        case Kind::nystrom: return nystrom(s, h, p);
      }
    }

    /// n steps of h, the same bits as n calls of step (ode::advance, which timed loops call).  A table of a shape
    /// in table_detail::kernel_shapes takes a path with its length known at compile time, its coefficients times h
    /// and the state in locals across the steps: as a built-in's inlined loop keeps them in registers (a table is
    /// within 1.2 x of its built-in's time: docs/bench.md).
    void advance(typename P::State& s, Real h, const P& p, long n) {
      if (n <= 0) return;  // the kernels would mark a force cached that no step computed
      if constexpr (fast_paths) {
        // Implicit tableaus of up to 3 stages: the Newton iteration with its sizes known at compile time.
        auto loop = [&](auto& core) {
          for (long k = 0; k < n; ++k) core->step(s, h, p);
        };
        if (implicit1_) return loop(implicit1_);
        if (implicit2_) return loop(implicit2_);
        if (implicit3_) return loop(implicit3_);
        bool done = false;
        [&]<std::size_t... I>(std::index_sequence<I...>) {
          auto one = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
            constexpr table_detail::KernelShape k = table_detail::kernel_shapes[K];
            if (done || !is(k)) return;
            done = true;
            if constexpr (k.kind == Kind::splitting) splitting<k.n, k.first_kick, k.fsal>(s, h, p, n);
            else runge_kutta<k.n, k.fsal>(s, h, p, n);
          };
          (one(std::integral_constant<std::size_t, I>{}), ...);
        }(std::make_index_sequence<table_detail::kernel_shapes.size()>{});
        if (done) return;
      }
      for (long k = 0; k < n; ++k) step(s, h, p);
    }
    /// Whether advance takes a kernel (fixed sizes) rather than the general loop.
    bool has_kernel() const {
      if constexpr (fast_paths) {
        if (implicit1_ || implicit2_ || implicit3_) return true;
        for (const auto& k : table_detail::kernel_shapes)
          if (is(k)) return true;
      }
      return false;
    }
    void reset() { cached_ = false; }

   private:
    /// Whether this (explicit) table has shape k: a splitting's first same as last is its last kick's force, kept
    /// where it starts and ends with a kick (odd n); an explicit Runge–Kutta table's, its last stage's.
    bool is(const table_detail::KernelShape& k) const {
      if (implicit_ || k.kind != kind_) return false;
      if (kind_ == Kind::splitting)
        return ops_.size() == k.n && first_kick_ == k.first_kick && (first_kick_ && k.n % 2 == 1 && fsal_) == k.fsal;
      return s_ == k.n && (fsal_ && s_ > 1) == k.fsal;
    }

    // The operations in order (integrators/splitting.hpp's arithmetic), `steps` times, on local copies of the
    // state: the coefficients live on the heap, and only locals let the compiler keep q and v in registers.
    // N > 0: N operations, the first a kick if FirstKick, their coefficients times h in a local array (the same
    // products as c h computed at each operation); N = 0: any number, the first as the table says.  With Fsal, a
    // last kick's force is kept for the next step's first kick when that starts from the same q.
    template <std::size_t N, bool FirstKick, bool Fsal>
    [[gnu::noinline]]
    void splitting(typename P::State& s, Real h, const P& p, long steps) {
      if constexpr (PositionForce<P>) {
        Vec q = s.q, v = s.v, acc{};
        if constexpr (Fsal) acc = acc_;
        const std::size_t n = N ? N : ops_.size();
        std::array<Real, N ? N : 1> ch{};
        if constexpr (N > 0)
          for (std::size_t i = 0; i < N; ++i) ch[i] = ops_[i] * h;
        const bool first_kick = N ? FirstKick : first_kick_;
        bool reuse = Fsal && cached_ && same(q, cached_q_);
        Real t = s.t;
        for (long k = 0; k < steps; ++k) {
          table_detail::loop<N != 0>(0, n, [&](std::size_t i) {
            const Real w = N ? ch[i] : ops_[i] * h;
            if (first_kick == (i % 2 == 1)) return drift(q, v, w);
            if (i != 0 || !reuse) p.accel(q, acc);
            kick(v, acc, w);
          });
          reuse = Fsal;  // the last kick's force is at the q the next step starts from
          t += h;
        }
        s.q = q, s.v = v, s.t = t;
        if constexpr (Fsal) acc_ = acc, cached_q_ = q, cached_ = true;
      }
    }

    // Stages X_i = q + h sum_j a_ij V_j, V_i = v + h sum_j a_ij A_j, A_i = a(X_i, V_i), `steps` times; zero
    // coefficients are skipped, so that a table of the classic RK4 gives integrators/rk4.hpp's bits.  S > 0: S
    // stages, the stage values and h a, h b on the stack (the same products as computed at each use), the loops
    // unrolled so that the stage values live in registers (kepler rk4: 1.22 x its built-in's time rolled, 1.09
    // unrolled); S = 0: any number, in the stepper's buffers.  Kernels are not inlined: flattened into a timed
    // loop beside every other kernel, the outer-solar-system force was not either (all tables 1.2 x slower).
    template <std::size_t S, bool Fsal>
    [[gnu::noinline]]
    void runge_kutta(typename P::State& s, Real h, const P& p, long steps) {
      const std::size_t n = S ? S : s_;
      std::array<Vec, S ? S : 1> kx_local, kv_local;
      Vec* kx = S ? kx_local.data() : kx_.data();
      Vec* kv = S ? kv_local.data() : kv_.data();
      std::array<Real, S ? S * S : 1> ha{};
      std::array<Real, S ? S : 1> hb{};
      if constexpr (S > 0)
        for (std::size_t i = 0; i < S; ++i) {
          hb[i] = h * b_[i];
          for (std::size_t j = 0; j < S; ++j) ha[i * S + j] = h * a_[i * S + j];
        }
      const Real* a = a_.data();
      Vec q = s.q, v = s.v;
      bool reuse = Fsal && cached_ && same(q, cached_q_) && same(v, cached_v_);
      Real t = s.t;
      for (long k = 0; k < steps; ++k) {
        // The stages read q and v, which change only after the last one; the first stage is (q, v) itself (an
        // explicit table's first row is empty), so it copies nothing: on large systems the copies showed.
        kx[0] = v;
        if (Fsal && reuse) kv[0] = acc_;
        else force(p, q, v, kv[0]);
        table_detail::loop<S != 0>(1, n, [&](std::size_t i) {
          Vec x = q, u = v;
          table_detail::loop<S != 0>(0, i, [&](std::size_t j) {
            if (a[i * n + j] != 0) {
              const Real w = S ? ha[i * n + j] : h * a[i * n + j];
              drift(x, kx[j], w), kick(u, kv[j], w);
            }
          });
          kx[i] = u;
          force(p, x, u, kv[i]);
        });
        // Positions, then velocities: in one loop, GCC (-O3 -march=native) fused both into one vector addition,
        // so that Euler's next position, which needs no force, waited for this one (1.85 x its built-in's time).
        table_detail::loop<S != 0>(0, n, [&](std::size_t i) {
          if (b_[i] != 0) drift(q, kx[i], S ? hb[i] : h * b_[i]);
        });
        table_detail::loop<S != 0>(0, n, [&](std::size_t i) {
          if (b_[i] != 0) kick(v, kv[i], S ? hb[i] : h * b_[i]);
        });
        if constexpr (Fsal) acc_ = kv[n - 1], reuse = true;  // kept for a next step from this state, as step() does
        t += h;
      }
      s.q = q, s.v = v, s.t = t;
      if constexpr (Fsal) cached_q_ = q, cached_v_ = v, cached_ = true;
    }

    // X_i = q + c_i h v + h^2 sum_j abar_ij A_j, A_i = a(X_i); q += h v + h^2 sum bbar_i A_i, v += h sum b_i A_i.
    void nystrom(typename P::State& s, Real h, const P& p) {
      if constexpr (PositionForce<P>) {
        const Real hh = h * h;
        const Vec q0 = s.q, v0 = s.v;
        Vec q = q0, v = v0;
        for (std::size_t i = 0; i < s_; ++i) {
          Vec x = q0;
          if (c_[i] != 0) drift(x, v0, c_[i] * h);
          for (std::size_t j = 0; j < i; ++j)
            if (a_[i * s_ + j] != 0) kick(x, kv_[j], hh * a_[i * s_ + j]);
          p.accel(x, kv_[i]);
        }
        drift(q, v0, h);
        for (std::size_t i = 0; i < s_; ++i) {
          if (bbar_[i] != 0) kick(q, kv_[i], hh * bbar_[i]);
          if (b_[i] != 0) kick(v, kv_[i], h * b_[i]);
        }
        s.q = q, s.v = v;
        s.t += h;
      }
    }

    Kind kind_;
    bool fsal_ = false, cached_ = false, first_kick_ = false;
    std::size_t s_ = 0;
    std::vector<Real> ops_;  ///< splitting: the coefficients of its alternating drifts and kicks
    std::vector<Real> a_;    ///< runge-kutta: a (abar for nystrom), s x s, row-major
    std::vector<Real> b_, bbar_, c_;
    std::vector<Vec> kx_, kv_;
    Vec acc_{}, cached_q_{}, cached_v_{};
    std::unique_ptr<ImplicitRkCore<P, dynamic_stages>> implicit_;
    std::unique_ptr<ImplicitRkCore<P, 1>> implicit1_;
    std::unique_ptr<ImplicitRkCore<P, 2>> implicit2_;
    std::unique_ptr<ImplicitRkCore<P, 3>> implicit3_;

    /// The Newton iteration of an S-stage tableau with S fixed, or none if it has another number of stages.
    template <std::size_t S>
    std::unique_ptr<ImplicitRkCore<P, S>> fixed_core(const std::vector<std::vector<Real>>& rows, const std::string& id) const {
      if (rows.size() != S) return nullptr;
      StageArray<StageArray<Real, S>, S> a{};
      StageArray<Real, S> b{};
      for (std::size_t i = 0; i < S; ++i) {
        b[i] = b_[i];
        for (std::size_t j = 0; j < S; ++j) a[i][j] = rows[i][j];
      }
      return std::make_unique<ImplicitRkCore<P, S>>(a, b, id);
    }
  };
};

}  // namespace ode
