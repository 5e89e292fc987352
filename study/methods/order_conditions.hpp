#pragma once
/// The order of a method predicted from its coefficients, before anything runs: Butcher's order conditions over
/// rooted trees for Runge–Kutta tables (Hairer, Nørsett, Wanner, Solving ODEs I, §II.2, Theorem 2.13), and the
/// conditions of Nyström trees for the methods that only ever see x' = v, v' = a(x): splittings and compositions
/// (as partitioned Runge–Kutta methods, GNI §III.2) and Runge–Kutta–Nyström tables (Solving ODEs I, §II.14).
/// Evaluated in 50 digits.  A condition holds when its residual is within what the coefficients' own precision
/// can move it by (see Condition::tolerance): the precision of double, or of the digits the table gives when
/// it gives rounded decimals (15 digits from a paper are not the exact coefficients).

#include <string>
#include <vector>

#include "study/methods/coefficient.hpp"

namespace study::tables {

using Matrix = std::vector<std::vector<Rational>>;

/// The highest order the conditions are checked to (trees of order 10: 1205 rooted trees in all).
inline constexpr int max_checked_order = 10;

/// One order condition as it failed.
struct Condition {
  int order = 0;
  std::string tree;     ///< Butcher's bracket notation: "[t,[t]]" (t a single vertex)
  std::string formula;  ///< the condition in sums: "sum b_i c_i a_ij c_j = 1/8"
  double residual = 0;  ///< left side minus right side
  /// What the coefficients' relative precision u can move the residual by: 4 |t| u (sum |b| |Phi|(t) + 1/gamma),
  /// u = max(double's eps, the precision of the given digits) (a product of |t| coefficients moves by |t| u).
  double tolerance = 0;
};

/// What the coefficients say about the order.
struct OrderAnalysis {
  std::string trees;  ///< which conditions: "rooted trees" or "Nystrom trees (x'' = a(x))"
  int order = 0;      ///< every condition of order <= this holds; == max_checked_order means "at least"
  /// The order with the digits taken as exact (to double's eps): below `order` when rounded digits make a
  /// condition hold only to their precision.
  int exact_order = 0;
  double precision = 0;  ///< the relative precision u the conditions were held to
  int conditions = 0;  ///< conditions checked (those of every order up to order + 1)
  /// The principal error coefficient: the 2-norm of (Phi(t) - 1/gamma(t)) / sigma(t) over the trees of order
  /// order + 1 (Butcher's A^(p+1)); NaN when every checked order holds.
  double error_coefficient = 0;
  Condition first_failing;  ///< the first failing condition (in tree order) of order order + 1
  /// [k - 1]: the largest |residual| among the conditions of order k, k = 1 .. order (those that hold: with digits as
  /// written, what they miss by; exact coefficients leave only 50-digit rounding).
  std::vector<double> residuals;
};

/// Runge–Kutta (a, b): a is s x s (a row may be shorter: the rest is 0).  `precision`: the coefficients' relative
/// precision (0: exact, held to double's eps).
OrderAnalysis runge_kutta_order(const Matrix& a, const std::vector<Rational>& b, double precision = 0);

/// The order of a Runge–Kutta (a, b) on linear problems x' = L x: its stability function 1 + z b^T (I - z a)^-1 1 =
/// sum_k b^T a^(k-1) 1 z^k matches exp(z) to z^order (the conditions of the tall trees, b^T a^(k-1) 1 = 1/k!;
/// Solving ODEs I, §II.2; the stability function: Solving ODEs II, §IV.2).  At least the order on every problem, and above it for some methods.
OrderAnalysis linear_order(const Matrix& a, const std::vector<Rational>& b, double precision = 0);

/// A method on x' = v, v' = g(x) in Nyström form: stage positions X_i = x + c_i h v + h^2 sum_j abar_ij g(X_j),
/// x1 = x + h v + h^2 sum_i bbar_i g(X_i), v1 = v + h sum_i b_i g(X_i).  `b_x` is the sum of the position
/// weights of h v (1 for a consistent method).
struct Nystrom {
  std::vector<Rational> c, bbar, b;
  Matrix abar;
  Rational b_x = 1;
  /// Where c, abar, bbar and b_x are sums and products of other coefficients (nystrom_of), the same sums of their
  /// absolute values: how far the inputs' rounding can move a condition, which the cancelled values understate.
  /// Empty: the absolute values of the coefficients themselves.
  std::vector<double> c_abs, bbar_abs;
  std::vector<std::vector<double>> abar_abs;
  double b_x_abs = 1;
};
OrderAnalysis nystrom_order(const Nystrom& m, double precision = 0);

/// A partitioned Runge–Kutta method (GNI §III.2): positions take (a, b) of the velocities, velocities take
/// (ahat, bhat) of the forces.  Its Nyström form: c = a 1, abar = a ahat, bbar = b^T ahat, b = bhat.
Nystrom nystrom_of(const Matrix& a, const std::vector<Rational>& b, const Matrix& ahat, const std::vector<Rational>& bhat);

/// Symplectic Runge–Kutta: b_i a_ij + b_j a_ji = b_i b_j for all i, j (each of these checks holds its identities
/// to 16 max(eps, precision) of the terms' size).
bool runge_kutta_symplectic(const Matrix& a, const std::vector<Rational>& b, double precision = 0);
/// Symmetric Runge–Kutta: a_{p(i)p(j)} + a_ij = b_j and b_{p(i)} = b_i for the stage permutation p that maps c_i to
/// 1 - c_i (the reversal when c has repeated nodes).  With the coefficients' written uncertainties (a_unit, b_unit:
/// absolute, beside a and b) each identity holds when its residual, computed exactly, lies within the sum of its
/// terms' uncertainties (exactly 0 when they are all exact); without, to 16 max(eps, precision) of the terms' size.
bool runge_kutta_symmetric(const Matrix& a, const std::vector<Rational>& b, double precision = 0,
                           const std::vector<std::vector<double>>* a_unit = nullptr, const std::vector<double>* b_unit = nullptr);
/// Symplectic Runge–Kutta–Nyström (Suris): bbar_i = b_i (1 - c_i) and b_i (bbar_j - abar_ij) = b_j (bbar_i - abar_ji).
bool nystrom_symplectic(const Nystrom& m, double precision = 0);

}  // namespace study::tables
