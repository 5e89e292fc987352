#pragma once
/// The order of a method predicted from its coefficients, before anything runs: Butcher's order conditions over
/// rooted trees for Runge–Kutta tables (Hairer, Nørsett, Wanner, Solving ODEs I, §II.2, Theorem 2.13), and the
/// conditions of Nyström trees for the methods that only ever see x' = v, v' = a(x): splittings and compositions
/// (as partitioned Runge–Kutta methods, GNI §III.2) and Runge–Kutta–Nyström tables (Solving ODEs I, §II.14).
/// Evaluated in 50 digits.  A condition holds when its residual is within what the coefficients as written can move
/// it by (see Condition::tolerance): each coefficient's own written uncertainty (written_uncertainty: a rounded
/// decimal's half unit in its last digit; 0 for an exact one), carried through the condition's products and sums.
/// Where the terms cancel by more than 50 digits can resolve (weights 1e17, 1, -1e17), the condition is evaluated
/// exactly, in integers over common denominators, within a bound on the work (beyond it the table is refused).

#include <stdexcept>
#include <string>
#include <vector>

#include "study/methods/coefficient.hpp"

namespace study::tables {

using Matrix = std::vector<std::vector<Rational>>;

/// The highest order the conditions are checked to (trees of order 10: 1205 rooted trees in all).
inline constexpr int max_checked_order = 10;

/// Exact coefficients hold a condition to this fraction of its own size 1/gamma (and no more: terms of 1e51 that
/// cancel to 1 leave a residual of 1, not one within their size).
inline constexpr double exact_relative = 1e-30;

/// A table's conditions needing more exact work than this (in products of 64-bit limbs) are refused (about a second).
inline constexpr double max_exact_work = 3e8;

/// The conditions cancel too deeply to evaluate exactly within max_exact_work.
struct TooCostly : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One order condition as it failed.
struct Condition {
  int order = 0;
  std::string tree;     ///< Butcher's bracket notation: "[t,[t]]" (t a single vertex)
  std::string formula;  ///< the condition in sums: "sum b_i c_i a_ij c_j = 1/8"
  double residual = 0;  ///< left side minus right side
  /// What the coefficients as written can move the residual by: 4 U + exact_relative / gamma, U the first-order bound
  /// sum over the condition's terms of |term| sum_factors (uncertainty / |factor|), from each coefficient's own
  /// written uncertainty (4: the second-order terms and a margin; U = |t| u sum |b| |Phi| for a uniform relative u).
  double tolerance = 0;
};

/// Written uncertainties (absolute, see written_uncertainty) beside a Runge–Kutta table's a and b; a shorter row or an
/// empty list: those entries are uncertain by `precision` times their size.
struct Units {
  std::vector<std::vector<double>> a;
  std::vector<double> b;
};

/// What the coefficients say about the order.
struct OrderAnalysis {
  std::string trees;  ///< which conditions: "rooted trees" or "Nystrom trees (x'' = a(x))"
  int order = 0;      ///< every condition of order <= this holds; == max_checked_order means "at least"
  /// The order with the digits taken as exact, each condition held to double's rounding of its terms (4 |t| eps
  /// (sum |b| |Phi| + 1/gamma)), at most `order`: below it when rounded digits make a condition hold only to their
  /// precision, and that shows in double.
  int exact_order = 0;
  double precision = 0;  ///< the coarsest relative precision of the digits given (for messages; each is held to its own)
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
/// precision where `units` gives none (0: exact).  Throws TooCostly, or Interrupted when a stop is asked for.
OrderAnalysis runge_kutta_order(const Matrix& a, const std::vector<Rational>& b, double precision = 0, const Units& units = {});

/// The order of a Runge–Kutta (a, b) on linear problems x' = L x: its stability function 1 + z b^T (I - z a)^-1 1 =
/// sum_k b^T a^(k-1) 1 z^k matches exp(z) to z^order (the conditions of the tall trees, b^T a^(k-1) 1 = 1/k!;
/// Solving ODEs I, §II.2; the stability function: Solving ODEs II, §IV.2).  At least the order on every problem, and above it for some methods.
OrderAnalysis linear_order(const Matrix& a, const std::vector<Rational>& b, double precision = 0, const Units& units = {});

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
  /// The written uncertainties (absolute) of c, bbar, b, abar and b_x, carried through nystrom_of's sums and
  /// products.  Empty: `precision` times the magnitudes.
  std::vector<double> c_unit, bbar_unit, b_unit;
  std::vector<std::vector<double>> abar_unit;
  double b_x_unit = 0;
};
OrderAnalysis nystrom_order(const Nystrom& m, double precision = 0);

/// A partitioned Runge–Kutta method (GNI §III.2): positions take (a, b) of the velocities, velocities take
/// (ahat, bhat) of the forces.  Its Nyström form: c = a 1, abar = a ahat, bbar = b^T ahat, b = bhat; the written
/// uncertainties of (a, b) and (ahat, bhat) carried to it (first order) when any is given (then a list not given is
/// exact); when none is, nystrom_order's precision applies to every coefficient.
Nystrom nystrom_of(const Matrix& a, const std::vector<Rational>& b, const Matrix& ahat, const std::vector<Rational>& bhat,
                   const Units& units = {}, const Units& hat_units = {});

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
