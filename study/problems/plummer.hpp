#pragma once
/// A small softened N-body cluster: n equal masses (5 <= n <= 16) sampled from a Plummer sphere with a fixed
/// seed, in Hénon units (G = M = 1, E = -1/4: positions scaled by 3 pi / 16), centre of mass at rest at the
/// origin, under Plummer-softened gravity
///   a_i = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2),
/// energy sum m v^2 / 2 - sum_{i<j} m_i m_j / sqrt(r_ij^2 + eps^2); momentum and angular momentum are conserved.
/// The state always holds 16 bodies in 3-D (dim 48): bodies n..15 are absent (no mass, no force, at rest at the
/// origin), so that n is a run-time parameter of one compiled problem.
/// Sampling: Aarseth, Hénon & Wielen, A&A 37 (1974) 183 (radius by inverting the cumulative mass, speed by von
/// Neumann rejection from q^2 (1 - q^2)^(7/2)), with a cut at r = 10 (in units of the Plummer radius);
/// uniform numbers from std::mt19937_64 (fully specified by the standard) as (x >> 11) 2^-53, so that every
/// machine gets the same cluster.  Softening: Aarseth, Gravitational N-body Simulations (2003), §2.

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string_view>

#include <boost/math/constants/constants.hpp>

#include "integrators/state.hpp"
#include "study/problems/params.hpp"

namespace study {

template <class Real>
class Plummer {
 public:
  using real_type = Real;
  static constexpr std::size_t max_bodies = 16;
  static constexpr std::string_view id = "plummer";
  static constexpr std::string_view summary = "softened N-body cluster sampled from a Plummer sphere (n bodies, fixed seed)";
  static constexpr std::string_view source = "Aarseth, Henon & Wielen, A&A 37 (1974) 183; Aarseth (2003) §2";
  /// Units of time and of positions ("" dimensionless), for the report's axes: Henon units (G = M = 1, E = -1/4).
  static constexpr std::string_view time_unit = "", length_unit = "";
  static constexpr std::size_t dim = 3 * max_bodies, space_dim = 3, bodies = max_bodies;
  static constexpr bool has_exact = false, has_angular_momentum = true, has_linear_momentum = true;
  /// conservative: the energy is a first integral; not bounded: a body may escape (no compact energy surface).
  static constexpr bool conservative = true, bounded = false;
  static constexpr bool periodic = false;  // period() is 2 pi times the dynamical time 1 of Hénon units
  using Vec = std::array<Real, dim>;
  using State = ode::State<Real, dim>;
  static constexpr std::array<ParamInfo, 3> params{{{"n", "8", "number of bodies, a whole number from 5 to 16"},
                                                    {"softening", "0.05", "Plummer softening length eps, > 0 (Henon units)"},
                                                    {"seed", "1", "seed of the sampling, a whole number from 0 to 2^32"}}};

  explicit Plummer(const ParamValues& values = {}) {
    ParamReader<Real, 3> p(id, params, values);
    const Real n = p("n"), seed = p("seed");
    eps2_ = p("softening");
    using std::floor;
    p.require(n == floor(n) && n >= 5 && n <= Real(max_bodies), "n", "the number of bodies must be a whole number from 5 to 16");
    p.require(eps2_ > 0, "softening", "the softening length must be > 0 (without it close encounters are singular)");
    p.require(seed == floor(seed) && seed >= 0 && seed <= Real(4294967296.0), "seed", "the seed must be a whole number from 0 to 2^32");
    eps2_ *= eps2_;
    n_ = static_cast<std::size_t>(static_cast<double>(n));
    sample(static_cast<std::uint64_t>(static_cast<double>(seed)));
  }

  State initial() const { return start_; }

  void accel(const Vec& q, Vec& a) const {
    using std::sqrt;
    a.fill(Real(0));
    const Real m = Real(1) / static_cast<Real>(n_);
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t j = i + 1; j < n_; ++j) {
        Real d[3], r2 = eps2_;
        for (std::size_t k = 0; k < 3; ++k) d[k] = q[3 * j + k] - q[3 * i + k], r2 += d[k] * d[k];
        const Real f = m / (r2 * sqrt(r2));
        for (std::size_t k = 0; k < 3; ++k) a[3 * i + k] += f * d[k], a[3 * j + k] -= f * d[k];
      }
  }

  Real energy(const State& s) const {
    using std::sqrt;
    const Real m = Real(1) / static_cast<Real>(n_);
    Real kinetic = 0, potential = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::size_t k = 0; k < 3; ++k) kinetic += m * s.v[3 * i + k] * s.v[3 * i + k] / 2;
      for (std::size_t j = i + 1; j < n_; ++j) {
        Real r2 = eps2_;
        for (std::size_t k = 0; k < 3; ++k) r2 += (s.q[3 * j + k] - s.q[3 * i + k]) * (s.q[3 * j + k] - s.q[3 * i + k]);
        potential -= m * m / sqrt(r2);
      }
    }
    return kinetic + potential;
  }

  std::array<Real, 3> linear_momentum(const State& s) const {
    std::array<Real, 3> p{};
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t k = 0; k < 3; ++k) p[k] += s.v[3 * i + k] / static_cast<Real>(n_);
    return p;
  }

  std::array<Real, 3> angular_momentum(const State& s) const {
    std::array<Real, 3> L{};
    for (std::size_t i = 0; i < n_; ++i) {
      const Real* x = &s.q[3 * i];
      const Real* v = &s.v[3 * i];
      const Real m = Real(1) / static_cast<Real>(n_);
      L[0] += m * (x[1] * v[2] - x[2] * v[1]), L[1] += m * (x[2] * v[0] - x[0] * v[2]), L[2] += m * (x[0] * v[1] - x[1] * v[0]);
    }
    return L;
  }

  Real period() const { return boost::math::constants::two_pi<Real>(); }
  std::size_t bodies_present() const { return n_; }
  /// n (n - 1) / 2 softened pair forces: the absent bodies cost nothing (the loops stop at n).
  double evaluation_cost() const { return static_cast<double>(n_ * (n_ - 1)) / 2; }

 private:
  /// The cluster, sampled in double (every machine the same numbers) and held exactly in Real.
  void sample(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };  // [0, 1)
    auto direction = [&](double length, double* out) {
      const double z = (1 - 2 * uniform()) * length, phi = 2 * std::numbers::pi * uniform();
      const double rho = std::sqrt(std::max(0.0, length * length - z * z));
      out[0] = rho * std::cos(phi), out[1] = rho * std::sin(phi), out[2] = z;
    };
    double x[max_bodies][3]{}, v[max_bodies][3]{}, cx[3]{}, cv[3]{};
    const double scale_r = 3 * std::numbers::pi / 16, scale_v = 1 / std::sqrt(scale_r);
    for (std::size_t i = 0; i < n_; ++i) {
      double r = 0;
      do {
        const double u = uniform();
        r = u > 0 ? 1 / std::sqrt(std::pow(u, -2.0 / 3) - 1) : 0;
      } while (!(r > 0 && r <= 10));
      direction(r * scale_r, x[i]);
      double q = 0;
      while (true) {  // von Neumann rejection: g(q) = q^2 (1 - q^2)^(7/2) <= 0.1
        q = uniform();
        if (0.1 * uniform() < q * q * std::pow(1 - q * q, 3.5)) break;
      }
      direction(q * std::sqrt(2.0) * std::pow(1 + r * r, -0.25) * scale_v, v[i]);
      for (int k = 0; k < 3; ++k) cx[k] += x[i][k] / static_cast<double>(n_), cv[k] += v[i][k] / static_cast<double>(n_);
    }
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t k = 0; k < 3; ++k)
        start_.q[3 * i + k] = Real(x[i][k] - cx[k]), start_.v[3 * i + k] = Real(v[i][k] - cv[k]);
  }

  std::size_t n_ = 8;
  Real eps2_{};
  State start_{};
};

}  // namespace study
