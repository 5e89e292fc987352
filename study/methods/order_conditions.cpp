#include "study/methods/order_conditions.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "study/common/interrupt.hpp"

namespace study::tables {
namespace {

using F = boost::multiprecision::cpp_bin_float_50;
using L = long double;  // sizes and uncertainties: terms of 1e300^10 overflow a double
constexpr double eps = std::numeric_limits<double>::epsilon();
constexpr L f_eps = 1e-49L;  // F's relative rounding (50 decimal digits: 2^-166 = 1.1e-50), with a margin
const char* const index_names = "ijklmnopqruvwxyz";

F to_f(const Rational& x) { return F(x); }
double to_d(const F& x) { return static_cast<double>(x); }

/// A tree as its children: indices into the list of trees, sorted (a multiset).  For rooted trees the children are
/// trees; for Nyström trees they are black vertices, -1 a black leaf and k >= 0 a black vertex over white tree k.
struct Tree {
  int order = 1;
  std::vector<int> children;
  double gamma = 1, sigma = 1;
};

double factorial(int m) { return m <= 1 ? 1.0 : m * factorial(m - 1); }

/// Every multiset of items (sorted, from `first` on) whose orders sum to `rest`; `order_of(k)` for k >= first.
void multisets(int rest, int first, int items, const std::function<int(int)>& order_of, std::vector<int>& current,
               const std::function<void(const std::vector<int>&)>& emit) {
  if (rest == 0) {
    emit(current);
    return;
  }
  for (int k = first; k < items; ++k) {
    const int o = order_of(k);
    if (o > rest) continue;
    current.push_back(k);
    multisets(rest - o, k, items, order_of, current, emit);
    current.pop_back();
  }
}

/// sigma: the product over distinct children of m! sigma(child)^m.
double symmetry(const std::vector<int>& children, const std::function<double(int)>& sigma_of) {
  double s = 1;
  for (std::size_t i = 0; i < children.size();) {
    std::size_t j = i;
    while (j < children.size() && children[j] == children[i]) ++j;
    const int m = static_cast<int>(j - i);
    s *= factorial(m) * std::pow(sigma_of(children[i]), m);
    i = j;
  }
  return s;
}

/// "c_i^2 a_ij" from factors in order: equal neighbours become powers.
std::string product_text(std::vector<std::string> factors) {
  std::sort(factors.begin(), factors.end());
  std::string out;
  for (std::size_t i = 0; i < factors.size();) {
    std::size_t j = i;
    while (j < factors.size() && factors[j] == factors[i]) ++j;
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string here.
    if (!out.empty()) out += ' ';
    out += factors[i];
    if (j - i > 1) out += '^', out += std::to_string(j - i);
    i = j;
  }
  return out;
}

std::string fraction(double gamma) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "1/%.0f", gamma);
  return buf;
}

/// Rooted trees of orders 1..max_checked_order, each order's trees after the lower orders'.
const std::vector<Tree>& rooted_trees() {
  static const std::vector<Tree> trees = [] {
    std::vector<Tree> t{Tree{}};
    for (int n = 2; n <= max_checked_order; ++n) {
      const int before = static_cast<int>(t.size());
      std::vector<int> current;
      multisets(n - 1, 0, before, [&](int k) { return t[k].order; }, current, [&](const std::vector<int>& children) {
        Tree x;
        x.order = n, x.children = children, x.gamma = n;
        for (int c : children) x.gamma *= t[c].gamma;
        x.sigma = symmetry(children, [&](int c) { return t[c].sigma; });
        t.push_back(x);
      });
    }
    return t;
  }();
  return trees;
}

/// White Nyström trees (rooted at a force evaluation) of orders 1..max_checked_order.
const std::vector<Tree>& white_trees() {
  static const std::vector<Tree> trees = [] {
    std::vector<Tree> t{Tree{}};
    // Items: -1 the black leaf (order 1), k the black vertex over white tree k (order 1 + |k|); shifted by one.
    for (int n = 2; n <= max_checked_order; ++n) {
      const int before = static_cast<int>(t.size());
      std::vector<int> current;
      multisets(n - 1, 0, before + 1, [&](int k) { return k == 0 ? 1 : 1 + t[k - 1].order; }, current,
                [&](const std::vector<int>& items) {
                  Tree x;
                  x.order = n, x.gamma = n;
                  for (int k : items) {
                    x.children.push_back(k - 1);
                    if (k > 0) x.gamma *= (1 + t[k - 1].order) * t[k - 1].gamma;
                  }
                  x.sigma = symmetry(x.children, [&](int c) { return c < 0 ? 1.0 : t[c].sigma; });
                  t.push_back(x);
                });
    }
    return t;
  }();
  return trees;
}

std::string bracket(const std::vector<Tree>& trees, int k, bool nystrom) {
  const Tree& t = trees[k];
  if (t.children.empty()) return nystrom ? "g" : "t";
  std::string s = nystrom ? "g[" : "[";
  for (std::size_t i = 0; i < t.children.size(); ++i) {
    const int c = t.children[i];
    if (i) s += ',';
    if (nystrom) s += 'x';
    if (!nystrom || c >= 0) s += bracket(trees, c, nystrom);
  }
  return s + "]";
}

/// The sum a tree's condition takes at vertex index `at`: leaf children give c, others a (abar) and recurse.
void vertex_factors(const std::vector<Tree>& trees, int k, bool nystrom, int at, int& next, std::vector<std::string>& factors) {
  const std::string i(1, index_names[at]);
  for (int c : trees[k].children) {
    if (nystrom ? c < 0 : trees[c].children.empty()) {
      factors.push_back("c_" + i);
      continue;
    }
    const int j = next++;
    factors.push_back(std::string(nystrom ? "abar_" : "a_") + i + index_names[j]);
    vertex_factors(trees, c, nystrom, j, next, factors);
  }
}

std::string formula(const std::vector<Tree>& trees, int k, bool nystrom, const std::string& weight, double gamma) {
  std::vector<std::string> factors;
  int next = 1;
  vertex_factors(trees, k, nystrom, 0, next, factors);
  std::string out = "sum ";
  out += weight, out += "_i";
  if (!factors.empty()) out += ' ', out += product_text(factors);
  out += " = ", out += fraction(gamma);
  return out;
}

/// Exact values of the trees' elementary weights, in integers over common denominators: a' = D_a a, c' = D_c c and
/// w' = D_w w are integers, so Phi(t) D_a^m D_c^n is one (m, n: t's a and c factors).  cpp_rational's gcd at every
/// step makes sums of distinct denominators take seconds; here only the final ratio is reduced.  The work, in
/// products of 64-bit limbs, is counted and bounded (max_exact_work).
class ExactTrees {
 public:
  /// `trees`' children index earlier trees (rooted and tall trees), or -1 a leaf c (Nyström trees: `c` given).
  ExactTrees(const std::vector<Tree>& trees, const Matrix& a, std::size_t s, const std::vector<Rational>* c = nullptr)
      : trees_(trees), s_(s), a_in_(a), c_in_(c), phi_(trees.size()), g_(trees.size()) {}
  /// sum_i w_i Phi_i(t) for tree k, exactly.
  Rational value(int k, const std::vector<Rational>& w) {
    if (!ready_) scale_inputs();
    const Scaled& phi = phi_of(k);
    const cpp_int dw = scale_of(Matrix{w});  // (a few weights: small)
    cpp_int sum = 0;
    for (std::size_t i = 0; i < s_; ++i) sum += scaled(w[i], dw) * phi.v[i];
    cpp_int den = dw;
    for (int m = 0; m < phi.na; ++m) den *= da_;
    for (int n = 0; n < phi.nc; ++n) den *= dc_;
    return Rational(sum, den);
  }

 private:
  using cpp_int = boost::multiprecision::cpp_int;
  struct Scaled {
    std::vector<cpp_int> v;
    int na = 0, nc = 0;  // powers of D_a and D_c
  };
  /// a' and c' on first use (most tables never need them); their size counts as work.
  void scale_inputs() {
    da_ = scale_of(a_in_), a_.assign(s_, std::vector<cpp_int>(s_, 0));
    double work = 0;
    for (std::size_t i = 0; i < a_in_.size() && i < s_; ++i)
      for (std::size_t j = 0; j < a_in_[i].size() && j < s_; ++j)
        if (a_in_[i][j] != 0) work += limbs(da_);
    spend(work);
    for (std::size_t i = 0; i < a_in_.size() && i < s_; ++i)
      for (std::size_t j = 0; j < a_in_[i].size() && j < s_; ++j) a_[i][j] = scaled(a_in_[i][j], da_);
    if (c_in_) {
      dc_ = scale_of(Matrix{*c_in_});
      for (const auto& x : *c_in_) c_.push_back(scaled(x, dc_));
    }
    ready_ = true;
  }
  /// The least common denominator; each step's work (a remainder of d's size) counted.
  cpp_int scale_of(const Matrix& m) {
    cpp_int d = 1;
    for (const auto& row : m)
      for (const auto& x : row) {
        const cpp_int& q = boost::multiprecision::denominator(x);
        if (q == 1) continue;
        spend(limbs(d) * limbs(q));
        // gcd(d, q) = gcd(q, d mod q): Boost's gcd of a long d with a short q costs the square of d's length.
        d = d / boost::multiprecision::gcd(q, cpp_int(d % q)) * q;
      }
    return d;
  }
  static cpp_int scaled(const Rational& x, const cpp_int& d) {
    return boost::multiprecision::numerator(x) * (d / boost::multiprecision::denominator(x));
  }
  static double limbs(const cpp_int& x) { return x == 0 ? 0.0 : static_cast<double>(boost::multiprecision::msb(abs(x)) / 64 + 1); }
  void spend(double work) {
    work_ += work;
    if (work_ > max_exact_work)
      throw TooCostly("the order conditions' terms cancel by more digits than 50 resolve, and evaluating them exactly needs more than " +
                      std::to_string(static_cast<long long>(max_exact_work)) + " limb products (the coefficients' denominators and sizes "
                      "are too large); write the coefficients with fewer digits or smaller magnitudes");
  }
  const Scaled& phi_of(int k) {
    if (!phi_[k].v.empty()) return phi_[k];
    Scaled p;
    p.v.assign(s_, cpp_int(1));
    for (int ch : trees_[k].children) {
      study::stop_if_interrupted();
      const Scaled& f = ch < 0 ? leaf() : g_of(ch);
      double work = 0;
      for (std::size_t i = 0; i < s_; ++i) work += limbs(p.v[i]) * limbs(f.v[i]);
      spend(work);  // before the work it counts
      for (std::size_t i = 0; i < s_; ++i) p.v[i] *= f.v[i];
      p.na += f.na, p.nc += f.nc;
    }
    return phi_[k] = std::move(p);
  }
  const Scaled& g_of(int k) {
    if (!g_[k].v.empty()) return g_[k];
    const Scaled& p = phi_of(k);
    Scaled g;
    g.v.assign(s_, cpp_int(0)), g.na = p.na + 1, g.nc = p.nc;
    for (std::size_t i = 0; i < s_; ++i) {
      study::stop_if_interrupted();
      double work = 0;
      for (std::size_t j = 0; j < s_; ++j) work += limbs(a_[i][j]) * limbs(p.v[j]);
      spend(work);
      for (std::size_t j = 0; j < s_; ++j)
        if (a_[i][j] != 0) g.v[i] += a_[i][j] * p.v[j];
    }
    return g_[k] = std::move(g);
  }
  const Scaled& leaf() {
    if (leaf_.v.empty()) leaf_.v = c_, leaf_.nc = 1;
    return leaf_;
  }
  const std::vector<Tree>& trees_;
  std::size_t s_;
  const Matrix& a_in_;
  const std::vector<Rational>* c_in_;
  bool ready_ = false;
  cpp_int da_ = 1, dc_ = 1;
  std::vector<std::vector<cpp_int>> a_;
  std::vector<cpp_int> c_;
  std::vector<Scaled> phi_, g_;
  Scaled leaf_;
  double work_ = 0;
};

/// Collects the conditions of each order and decides the predicted order.
class Judge {
 public:
  Judge(std::string trees, double precision) { a_.trees = std::move(trees), a_.precision = precision; }
  /// Adds a condition of `order`: its value in 50 digits, the sum of its terms' sizes, its written uncertainty
  /// (first order), and its exact value on demand.  The first order with a failing condition ends the analysis.
  void add(int order, const F& value, L magnitude, L unit, double gamma, double sigma, const std::function<Condition()>& describe,
           const std::function<Rational()>& exact) {
    const F residual_f = value - F(1) / F(gamma);
    const L size = magnitude + 1 / static_cast<L>(gamma);
    // The 50-digit sum's rounding: products of `order` factors through sums over s <= 64 stages at each of at most
    // `order` levels: at most order + order (s - 1) = order s <= 64 order roundings, each of at most `size`.
    const L rounding = 64 * order * size * f_eps;
    const L floor = exact_relative / static_cast<L>(gamma), tolerance = 4 * unit + floor;
    const L r = std::abs(static_cast<L>(residual_f));
    std::optional<Rational> exact_residual;
    // Whether |residual| <= tol: in 50 digits when their rounding is far below tol, else exactly where they cannot tell.
    auto within = [&](L tol) {
      if (rounding <= tol / 1000) return r <= tol;
      if (r + rounding <= tol) return true;  // holds whatever the 50 digits' rounding
      if (r > tol + rounding) return false;
      if (!exact_residual) exact_residual = exact() - Rational(1, static_cast<long long>(gamma));
      return std::abs(static_cast<L>(*exact_residual)) <= tol;
    };
    // With the digits taken as exact, to what double's rounding of the condition's terms can tell: where they matter
    // in double (never above `order`: huge terms that cancel leave that to the exact judgement above).
    const bool holds = within(tolerance), holds_exact = within(std::max(floor, 4 * order * eps * size));
    const double residual = exact_residual ? static_cast<double>(*exact_residual) : to_d(residual_f);
    ++a_.conditions;
    coefficients_[order] += (residual / sigma) * (residual / sigma);
    residuals_[order] = std::max(residuals_[order], std::abs(residual));
    if (!holds_exact && (failed_exact_ == 0 || order < failed_exact_)) failed_exact_ = order;
    if (!holds && (failed_ == 0 || order < failed_)) {
      failed_ = order;
      a_.first_failing = describe();
      a_.first_failing.order = order, a_.first_failing.residual = residual;
      a_.first_failing.tolerance = static_cast<double>(tolerance);
    }
  }
  /// Whether conditions of `order` need adding (no lower order failed).
  bool wants(int order) const { return failed_ == 0 || order <= failed_; }
  OrderAnalysis result() {
    a_.order = failed_ ? failed_ - 1 : max_checked_order;
    a_.exact_order = failed_exact_ ? std::min(a_.order, failed_exact_ - 1) : a_.order;
    a_.error_coefficient = failed_ ? std::sqrt(coefficients_[failed_]) : NAN;
    for (int k = 1; k <= a_.order; ++k) a_.residuals.push_back(residuals_[k]);
    return a_;
  }

 private:
  OrderAnalysis a_;
  int failed_ = 0, failed_exact_ = 0;
  std::map<int, double> coefficients_, residuals_;
};

std::vector<std::vector<F>> square(const Matrix& a, std::size_t s) {
  std::vector<std::vector<F>> m(s, std::vector<F>(s, F(0)));
  for (std::size_t i = 0; i < a.size() && i < s; ++i)
    for (std::size_t j = 0; j < a[i].size() && j < s; ++j) m[i][j] = to_f(a[i][j]);
  return m;
}

/// A vector of values with, beside each, the sum of its terms' sizes and its written uncertainty.
struct Tracked {
  std::vector<F> v;
  std::vector<L> size, unit;
  explicit Tracked(std::size_t s = 0, F one = F(1)) : v(s, one), size(s, one == 0 ? 0 : 1), unit(s, 0) {}
  /// Entrywise times x (first order: d(xy) = |x| dy + |y| dx).
  void times_entries(const Tracked& x) {
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] *= x.v[i], unit[i] = unit[i] * x.size[i] + size[i] * x.unit[i], size[i] *= x.size[i];
  }
};

/// A matrix with its entries' sizes and written uncertainties.
struct TrackedMatrix {
  std::vector<std::vector<F>> v;
  std::vector<std::vector<L>> size, unit;
  TrackedMatrix(const Matrix& m, std::size_t s, const std::vector<std::vector<double>>& units, double precision,
                const std::vector<std::vector<double>>* sizes = nullptr)
      : v(square(m, s)), size(s, std::vector<L>(s, 0)), unit(s, std::vector<L>(s, 0)) {
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j < s; ++j) {
        size[i][j] = sizes && i < sizes->size() && j < (*sizes)[i].size() ? (*sizes)[i][j] : std::abs(static_cast<L>(v[i][j]));
        unit[i][j] = i < units.size() && j < units[i].size() ? units[i][j] : precision * size[i][j];
      }
  }
  /// This matrix times x.
  Tracked times(const Tracked& x) const {
    Tracked y(x.v.size(), F(0));
    for (std::size_t i = 0; i < x.v.size(); ++i)
      for (std::size_t j = 0; j < x.v.size(); ++j) {
        if (v[i][j] != 0) y.v[i] += v[i][j] * x.v[j];
        y.size[i] += size[i][j] * x.size[j], y.unit[i] += size[i][j] * x.unit[j] + unit[i][j] * x.size[j];
      }
    return y;
  }
};

/// A weight vector with its sizes and written uncertainties; dot() with a tracked vector.
struct TrackedWeights {
  std::vector<F> v;
  std::vector<L> size, unit;
  TrackedWeights(const std::vector<Rational>& w, const std::vector<double>& units, double precision,
                 const std::vector<double>* sizes = nullptr) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      v.push_back(to_f(w[i]));
      size.push_back(sizes && i < sizes->size() ? (*sizes)[i] : std::abs(static_cast<L>(v.back())));
      unit.push_back(i < units.size() ? units[i] : precision * size.back());
    }
  }
  F dot(const Tracked& x) const {
    F sum = 0;
    for (std::size_t i = 0; i < v.size(); ++i) sum += v[i] * x.v[i];
    return sum;
  }
  L dot_size(const Tracked& x) const {
    L sum = 0;
    for (std::size_t i = 0; i < v.size(); ++i) sum += size[i] * x.size[i];
    return sum;
  }
  L dot_unit(const Tracked& x) const {
    L sum = 0;
    for (std::size_t i = 0; i < v.size(); ++i) sum += size[i] * x.unit[i] + unit[i] * x.size[i];
    return sum;
  }
};

std::vector<F> to_f(const std::vector<Rational>& x) {
  std::vector<F> y;
  for (const auto& v : x) y.push_back(to_f(v));
  return y;
}

bool near(const F& value, double magnitude, double precision) {
  return std::abs(to_d(value)) <= 16 * std::max(eps, precision) * magnitude;
}

}  // namespace

OrderAnalysis runge_kutta_order(const Matrix& a_in, const std::vector<Rational>& b_in, double precision, const Units& units) {
  const std::size_t s = b_in.size();
  const TrackedMatrix a(a_in, s, units.a, precision);
  const TrackedWeights b(b_in, units.b, precision);
  const auto& trees = rooted_trees();
  std::vector<Tracked> phi(trees.size()), g(trees.size());  // Phi(t) and a Phi(t), per stage
  ExactTrees exact(trees, a_in, s);
  Judge judge("rooted trees (any force a(x, v))", precision);
  for (std::size_t k = 0; k < trees.size() && judge.wants(trees[k].order); ++k) {
    study::stop_if_interrupted();  // a large table's 1 205 trees take seconds: Ctrl-C is honoured between them
    phi[k] = Tracked(s);
    for (int c : trees[k].children) phi[k].times_entries(g[c]);
    g[k] = a.times(phi[k]);
    const int id = static_cast<int>(k);
    judge.add(trees[k].order, b.dot(phi[k]), b.dot_size(phi[k]), b.dot_unit(phi[k]), trees[k].gamma, trees[k].sigma, [&] {
      return Condition{.order = 0, .tree = bracket(trees, id, false),
                       .formula = formula(trees, id, false, "b", trees[k].gamma), .residual = 0, .tolerance = 0};
    }, [&] { return exact.value(id, b_in); });
  }
  return judge.result();
}

OrderAnalysis linear_order(const Matrix& a_in, const std::vector<Rational>& b_in, double precision, const Units& units) {
  const std::size_t s = b_in.size();
  const TrackedMatrix a(a_in, s, units.a, precision);
  const TrackedWeights b(b_in, units.b, precision);
  // The tall trees [[...[t]...]]: Phi = A^(k-1) 1, gamma = k!, sigma = 1.
  std::vector<Tree> tall(max_checked_order);
  for (int k = 1; k < max_checked_order; ++k) tall[k].order = k + 1, tall[k].children = {k - 1};
  ExactTrees exact(tall, a_in, s);
  Tracked phi(s);
  Judge judge("tall trees (linear x' = L x)", precision);
  for (int k = 1; k <= max_checked_order && judge.wants(k); ++k) {
    if (k > 1) phi = a.times(phi);
    judge.add(k, b.dot(phi), b.dot_size(phi), b.dot_unit(phi), factorial(k), 1, [&] {
      return Condition{.order = 0, .tree = k == 1 ? "t" : std::string(k - 1, '[') + "t" + std::string(k - 1, ']'),
                       .formula = "sum b^T A^" + std::to_string(k - 1) + " 1 = " + fraction(factorial(k)), .residual = 0, .tolerance = 0};
    }, [&] { return exact.value(k - 1, b_in); });
  }
  return judge.result();
}

OrderAnalysis nystrom_order(const Nystrom& m, double precision) {
  const std::size_t s = m.b.size();
  const TrackedMatrix abar(m.abar, s, m.abar_unit, precision, m.abar_abs.empty() ? nullptr : &m.abar_abs);
  const TrackedWeights c(m.c, m.c_unit, precision, m.c_abs.empty() ? nullptr : &m.c_abs);
  const TrackedWeights bbar(m.bbar, m.bbar_unit, precision, m.bbar_abs.empty() ? nullptr : &m.bbar_abs);
  const TrackedWeights b(m.b, m.b_unit, precision);
  Tracked leaf(s);  // c as a tracked vector: a black leaf's factor
  for (std::size_t i = 0; i < s; ++i) leaf.v[i] = c.v[i], leaf.size[i] = c.size[i], leaf.unit[i] = c.unit[i];
  const auto& trees = white_trees();
  std::vector<Tracked> phi(trees.size()), g(trees.size());  // Phi(w) and abar Phi(w), per stage
  ExactTrees exact(trees, m.abar, s, &m.c);
  Judge judge("Nystrom trees (x'' = a(x))", precision);
  const L b_x_unit = m.b_x_unit != 0 || !m.b_unit.empty() ? m.b_x_unit : precision * m.b_x_abs;
  judge.add(1, to_f(m.b_x), m.b_x_abs, b_x_unit, 1, 1, [] {
    return Condition{.order = 0, .tree = "x", .formula = "the weights of h v sum to 1", .residual = 0, .tolerance = 0};
  }, [&] { return m.b_x; });
  for (std::size_t k = 0; k < trees.size(); ++k) {
    const Tree& w = trees[k];
    if (!judge.wants(w.order)) break;
    study::stop_if_interrupted();
    phi[k] = Tracked(s);
    for (int ch : w.children) phi[k].times_entries(ch < 0 ? leaf : g[ch]);
    g[k] = abar.times(phi[k]);
    const int id = static_cast<int>(k);
    // The velocity's condition on w (order |w|), then the position's on the black root over w (order |w| + 1).
    judge.add(w.order, b.dot(phi[k]), b.dot_size(phi[k]), b.dot_unit(phi[k]), w.gamma, w.sigma, [&] {
      return Condition{.order = 0, .tree = bracket(trees, id, true), .formula = formula(trees, id, true, "b", w.gamma),
                       .residual = 0, .tolerance = 0};
    }, [&] { return exact.value(id, m.b); });
    if (w.order < max_checked_order && judge.wants(w.order + 1)) {
      const double gamma = (w.order + 1) * w.gamma;
      judge.add(w.order + 1, bbar.dot(phi[k]), bbar.dot_size(phi[k]), bbar.dot_unit(phi[k]), gamma, w.sigma, [&] {
        std::string tree = "x";
        tree += bracket(trees, id, true);
        return Condition{.order = 0, .tree = tree, .formula = formula(trees, id, true, "bbar", gamma), .residual = 0, .tolerance = 0};
      }, [&] { return exact.value(id, m.bbar); });
    }
  }
  return judge.result();
}

Nystrom nystrom_of(const Matrix& a, const std::vector<Rational>& b, const Matrix& ahat, const std::vector<Rational>& bhat,
                   const Units& units, const Units& hat_units) {
  const std::size_t s = b.size();
  auto at = [](const Matrix& m, std::size_t i, std::size_t j) { return i < m.size() && j < m[i].size() ? m[i][j] : Rational(0); };
  auto unit_at = [](const std::vector<std::vector<double>>& m, std::size_t i, std::size_t j) {
    return i < m.size() && j < m[i].size() ? m[i][j] : 0.0;
  };
  auto unit_of = [](const std::vector<double>& v, std::size_t i) { return i < v.size() ? v[i] : 0.0; };
  auto mag = [](const Rational& x) { return std::abs(static_cast<double>(x)); };
  const bool with_units = !units.a.empty() || !units.b.empty() || !hat_units.a.empty() || !hat_units.b.empty();
  Nystrom n;
  n.b = bhat;
  n.b_x = 0, n.b_x_abs = 0;
  for (std::size_t i = 0; i < s; ++i) n.b_x += b[i], n.b_x_abs += mag(b[i]), n.b_x_unit += unit_of(units.b, i);
  n.c.assign(s, Rational(0)), n.bbar.assign(s, Rational(0)), n.abar.assign(s, std::vector<Rational>(s, Rational(0)));
  n.c_abs.assign(s, 0.0), n.bbar_abs.assign(s, 0.0), n.abar_abs.assign(s, std::vector<double>(s, 0.0));
  n.c_unit.assign(s, 0.0), n.bbar_unit.assign(s, 0.0), n.abar_unit.assign(s, std::vector<double>(s, 0.0));
  for (std::size_t i = 0; i < s; ++i) {
    n.b_unit.push_back(unit_of(hat_units.b, i));
    for (std::size_t j = 0; j < s; ++j) {
      n.c[i] += at(a, i, j), n.c_abs[i] += mag(at(a, i, j)), n.c_unit[i] += unit_at(units.a, i, j);
      n.bbar[i] += b[j] * at(ahat, j, i), n.bbar_abs[i] += mag(b[j]) * mag(at(ahat, j, i));
      n.bbar_unit[i] += mag(b[j]) * unit_at(hat_units.a, j, i) + unit_of(units.b, j) * mag(at(ahat, j, i));
      for (std::size_t k = 0; k < s; ++k) {
        n.abar[i][j] += at(a, i, k) * at(ahat, k, j), n.abar_abs[i][j] += mag(at(a, i, k)) * mag(at(ahat, k, j));
        n.abar_unit[i][j] += mag(at(a, i, k)) * unit_at(hat_units.a, k, j) + unit_at(units.a, i, k) * mag(at(ahat, k, j));
      }
    }
  }
  if (!with_units) n.c_unit.clear(), n.bbar_unit.clear(), n.b_unit.clear(), n.abar_unit.clear();
  return n;
}

bool runge_kutta_symplectic(const Matrix& a_in, const std::vector<Rational>& b_in, double precision) {
  const std::size_t s = b_in.size();
  const auto a = square(a_in, s);
  const auto b = to_f(b_in);
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t j = 0; j < s; ++j) {
      const F value = b[i] * a[i][j] + b[j] * a[j][i] - b[i] * b[j];
      if (!near(value, to_d(abs(b[i] * a[i][j]) + abs(b[j] * a[j][i]) + abs(b[i] * b[j])), precision)) return false;
    }
  return true;
}

bool runge_kutta_symmetric(const Matrix& a_in, const std::vector<Rational>& b_in, double precision,
                           const std::vector<std::vector<double>>* a_unit, const std::vector<double>* b_unit) {
  const std::size_t s = b_in.size();
  if (a_unit && b_unit) {
    // Exactly, within the written uncertainties.
    auto ua = [&](std::size_t i, std::size_t j) { return i < a_unit->size() && j < (*a_unit)[i].size() ? (*a_unit)[i][j] : 0.0; };
    auto ub = [&](std::size_t j) { return j < b_unit->size() ? (*b_unit)[j] : 0.0; };
    auto at = [&](std::size_t i, std::size_t j) { return i < a_in.size() && j < a_in[i].size() ? a_in[i][j] : Rational(0); };
    auto within = [](const Rational& residual, double unit) {
      return unit == 0 ? residual == 0 : std::abs(static_cast<double>(residual)) < unit;
    };
    std::vector<Rational> c(s, Rational(0));
    std::vector<double> uc(s, 0.0);
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j < s; ++j) c[i] += at(i, j), uc[i] += ua(i, j);
    std::vector<std::size_t> p(s);
    bool distinct = true;
    for (std::size_t i = 0; i < s && distinct; ++i) {
      std::size_t hits = 0;
      for (std::size_t j = 0; j < s; ++j) {
        if (j != i && within(c[i] - c[j], uc[i] + uc[j])) distinct = false;
        if (within(c[i] + c[j] - 1, uc[i] + uc[j])) p[i] = j, ++hits;
      }
      if (hits != 1) distinct = false;
    }
    if (!distinct)
      for (std::size_t i = 0; i < s; ++i) p[i] = s - 1 - i;
    for (std::size_t i = 0; i < s; ++i) {
      if (!within(b_in[p[i]] - b_in[i], ub(p[i]) + ub(i))) return false;
      for (std::size_t j = 0; j < s; ++j)
        if (!within(at(p[i], p[j]) + at(i, j) - b_in[j], ua(p[i], p[j]) + ua(i, j) + ub(j))) return false;
    }
    return true;
  }
  const auto a = square(a_in, s);
  const auto b = to_f(b_in);
  std::vector<F> c(s, F(0));
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t j = 0; j < s; ++j) c[i] += a[i][j];
  // The permutation c_i -> 1 - c_i when the nodes are distinct, else the reversal.
  std::vector<std::size_t> p(s);
  bool distinct = true;
  for (std::size_t i = 0; i < s && distinct; ++i) {
    std::size_t hits = 0;
    for (std::size_t j = 0; j < s; ++j) {
      if (j != i && near(c[i] - c[j], 1, precision)) distinct = false;
      if (near(c[i] + c[j] - 1, 1, precision)) p[i] = j, ++hits;
    }
    if (hits != 1) distinct = false;
  }
  if (!distinct)
    for (std::size_t i = 0; i < s; ++i) p[i] = s - 1 - i;
  for (std::size_t i = 0; i < s; ++i) {
    if (!near(b[p[i]] - b[i], to_d(abs(b[i])) + 1, precision)) return false;
    for (std::size_t j = 0; j < s; ++j)
      if (!near(a[p[i]][p[j]] + a[i][j] - b[j], to_d(abs(a[p[i]][p[j]]) + abs(a[i][j]) + abs(b[j])), precision)) return false;
  }
  return true;
}

bool nystrom_symplectic(const Nystrom& m, double precision) {
  const std::size_t s = m.b.size();
  const auto abar = square(m.abar, s);
  const auto c = to_f(m.c), bbar = to_f(m.bbar), b = to_f(m.b);
  for (std::size_t i = 0; i < s; ++i) {
    if (!near(bbar[i] - b[i] * (1 - c[i]), to_d(abs(bbar[i]) + abs(b[i]) * (1 + abs(c[i]))), precision)) return false;
    for (std::size_t j = 0; j < s; ++j) {
      const F value = b[i] * (bbar[j] - abar[i][j]) - b[j] * (bbar[i] - abar[j][i]);
      if (!near(value, to_d(abs(b[i]) * (abs(bbar[j]) + abs(abar[i][j])) + abs(b[j]) * (abs(bbar[i]) + abs(abar[j][i]))), precision)) return false;
    }
  }
  return true;
}

}  // namespace study::tables
