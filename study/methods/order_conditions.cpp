#include "study/methods/order_conditions.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "study/common/interrupt.hpp"

namespace study::tables {
namespace {

using F = boost::multiprecision::cpp_bin_float_50;
constexpr double eps = std::numeric_limits<double>::epsilon();
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

/// Collects the conditions of each order and decides the predicted order.
class Judge {
 public:
  Judge(std::string trees, double precision) : precision_(std::max(eps, precision)) {
    a_.trees = std::move(trees), a_.precision = precision_;
  }
  /// Adds a condition of `order`; the first order with a failing condition ends the analysis.
  void add(int order, const F& value, double magnitude, double gamma, double sigma, const std::function<Condition()>& describe) {
    const double residual = to_d(value - F(1) / F(gamma));
    const double scale = 4 * order * (magnitude + 1 / gamma), tolerance = scale * precision_;
    ++a_.conditions;
    coefficients_[order] += (residual / sigma) * (residual / sigma);
    residuals_[order] = std::max(residuals_[order], std::abs(residual));
    if (std::abs(residual) > scale * eps && (failed_exact_ == 0 || order < failed_exact_)) failed_exact_ = order;
    if (std::abs(residual) > tolerance && (failed_ == 0 || order < failed_)) {
      failed_ = order;
      a_.first_failing = describe();
      a_.first_failing.order = order, a_.first_failing.residual = residual, a_.first_failing.tolerance = tolerance;
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
  double precision_;
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

std::vector<F> times(const std::vector<std::vector<F>>& a, const std::vector<F>& x) {
  std::vector<F> y(x.size(), F(0));
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j)
      if (a[i][j] != 0) y[i] += a[i][j] * x[j];
  return y;
}

std::vector<double> times_abs(const std::vector<std::vector<double>>& a, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) y[i] += a[i][j] * x[j];
  return y;
}

std::vector<std::vector<double>> abs_of(const std::vector<std::vector<F>>& a) {
  std::vector<std::vector<double>> m(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    for (const auto& x : a[i]) m[i].push_back(std::abs(to_d(x)));
  return m;
}

F dot(const std::vector<F>& a, const std::vector<F>& b) {
  F s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}
double dot_abs(const std::vector<F>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::abs(to_d(a[i])) * b[i];
  return s;
}

std::vector<F> to_f(const std::vector<Rational>& x) {
  std::vector<F> y;
  for (const auto& v : x) y.push_back(to_f(v));
  return y;
}

bool near(const F& value, double magnitude, double precision) {
  return std::abs(to_d(value)) <= 16 * std::max(eps, precision) * magnitude;
}

}  // namespace

OrderAnalysis runge_kutta_order(const Matrix& a_in, const std::vector<Rational>& b_in, double precision) {
  const std::size_t s = b_in.size();
  const auto a = square(a_in, s);
  const auto a_abs = abs_of(a);
  const auto b = to_f(b_in);
  const auto& trees = rooted_trees();
  std::vector<std::vector<F>> phi(trees.size()), g(trees.size());  // Phi(t) and a Phi(t), per stage
  std::vector<std::vector<double>> phi_abs(trees.size()), g_abs(trees.size());
  Judge judge("rooted trees (any force a(x, v))", precision);
  for (std::size_t k = 0; k < trees.size() && judge.wants(trees[k].order); ++k) {
    study::stop_if_interrupted();  // a large table's 1 205 trees take seconds: Ctrl-C is honoured between them
    phi[k].assign(s, F(1)), phi_abs[k].assign(s, 1.0);
    for (int c : trees[k].children)
      for (std::size_t i = 0; i < s; ++i) phi[k][i] *= g[c][i], phi_abs[k][i] *= g_abs[c][i];
    g[k] = times(a, phi[k]), g_abs[k] = times_abs(a_abs, phi_abs[k]);
    judge.add(trees[k].order, dot(b, phi[k]), dot_abs(b, phi_abs[k]), trees[k].gamma, trees[k].sigma, [&] {
      return Condition{.order = 0, .tree = bracket(trees, static_cast<int>(k), false),
                       .formula = formula(trees, static_cast<int>(k), false, "b", trees[k].gamma), .residual = 0, .tolerance = 0};
    });
  }
  return judge.result();
}

OrderAnalysis linear_order(const Matrix& a_in, const std::vector<Rational>& b_in, double precision) {
  const std::size_t s = b_in.size();
  const auto a = square(a_in, s);
  const auto a_abs = abs_of(a);
  const auto b = to_f(b_in);
  // The tall trees [[...[t]...]]: Phi = A^(k-1) 1, gamma = k!, sigma = 1.
  std::vector<F> phi(s, F(1));
  std::vector<double> phi_abs(s, 1.0);
  Judge judge("tall trees (linear x' = L x)", precision);
  for (int k = 1; k <= max_checked_order && judge.wants(k); ++k) {
    if (k > 1) phi = times(a, phi), phi_abs = times_abs(a_abs, phi_abs);
    judge.add(k, dot(b, phi), dot_abs(b, phi_abs), factorial(k), 1, [&] {
      return Condition{.order = 0, .tree = k == 1 ? "t" : std::string(k - 1, '[') + "t" + std::string(k - 1, ']'),
                       .formula = "sum b^T A^" + std::to_string(k - 1) + " 1 = " + fraction(factorial(k)), .residual = 0, .tolerance = 0};
    });
  }
  return judge.result();
}

OrderAnalysis nystrom_order(const Nystrom& m, double precision) {
  const std::size_t s = m.b.size();
  const auto abar = square(m.abar, s);
  const auto c = to_f(m.c), bbar = to_f(m.bbar), b = to_f(m.b);
  std::vector<double> c_abs = m.c_abs, bbar_abs = m.bbar_abs;
  if (c_abs.empty())
    for (const auto& x : c) c_abs.push_back(std::abs(to_d(x)));
  if (bbar_abs.empty())
    for (const auto& x : bbar) bbar_abs.push_back(std::abs(to_d(x)));
  const auto abar_abs = m.abar_abs.empty() ? abs_of(abar) : m.abar_abs;
  auto dot_abs_d = [](const std::vector<double>& x, const std::vector<double>& y) {
    double sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) sum += x[i] * y[i];
    return sum;
  };
  const auto& trees = white_trees();
  std::vector<std::vector<F>> phi(trees.size()), g(trees.size());  // Phi(w) and abar Phi(w), per stage
  std::vector<std::vector<double>> phi_abs(trees.size()), g_abs(trees.size());
  Judge judge("Nystrom trees (x'' = a(x))", precision);
  judge.add(1, to_f(m.b_x), m.b_x_abs, 1, 1, [] {
    return Condition{.order = 0, .tree = "x", .formula = "the weights of h v sum to 1", .residual = 0, .tolerance = 0};
  });
  for (std::size_t k = 0; k < trees.size(); ++k) {
    const Tree& w = trees[k];
    if (!judge.wants(w.order)) break;
    study::stop_if_interrupted();
    phi[k].assign(s, F(1)), phi_abs[k].assign(s, 1.0);
    for (int ch : w.children)
      for (std::size_t i = 0; i < s; ++i) {
        phi[k][i] *= ch < 0 ? c[i] : g[ch][i];
        phi_abs[k][i] *= ch < 0 ? c_abs[i] : g_abs[ch][i];
      }
    g[k] = times(abar, phi[k]), g_abs[k] = times_abs(abar_abs, phi_abs[k]);
    const int id = static_cast<int>(k);
    // The velocity's condition on w (order |w|), then the position's on the black root over w (order |w| + 1).
    judge.add(w.order, dot(b, phi[k]), dot_abs(b, phi_abs[k]), w.gamma, w.sigma, [&] {
      return Condition{.order = 0, .tree = bracket(trees, id, true), .formula = formula(trees, id, true, "b", w.gamma),
                       .residual = 0, .tolerance = 0};
    });
    if (w.order < max_checked_order && judge.wants(w.order + 1)) {
      const double gamma = (w.order + 1) * w.gamma;
      judge.add(w.order + 1, dot(bbar, phi[k]), dot_abs_d(bbar_abs, phi_abs[k]), gamma, w.sigma, [&] {
        std::string tree = "x";
        tree += bracket(trees, id, true);
        return Condition{.order = 0, .tree = tree, .formula = formula(trees, id, true, "bbar", gamma), .residual = 0, .tolerance = 0};
      });
    }
  }
  return judge.result();
}

Nystrom nystrom_of(const Matrix& a, const std::vector<Rational>& b, const Matrix& ahat, const std::vector<Rational>& bhat) {
  const std::size_t s = b.size();
  auto at = [](const Matrix& m, std::size_t i, std::size_t j) { return i < m.size() && j < m[i].size() ? m[i][j] : Rational(0); };
  auto mag = [](const Rational& x) { return std::abs(static_cast<double>(x)); };
  Nystrom n;
  n.b = bhat;
  n.b_x = 0, n.b_x_abs = 0;
  for (const auto& x : b) n.b_x += x, n.b_x_abs += mag(x);
  n.c.assign(s, Rational(0)), n.bbar.assign(s, Rational(0)), n.abar.assign(s, std::vector<Rational>(s, Rational(0)));
  n.c_abs.assign(s, 0.0), n.bbar_abs.assign(s, 0.0), n.abar_abs.assign(s, std::vector<double>(s, 0.0));
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t j = 0; j < s; ++j) {
      n.c[i] += at(a, i, j), n.c_abs[i] += mag(at(a, i, j));
      n.bbar[i] += b[j] * at(ahat, j, i), n.bbar_abs[i] += mag(b[j]) * mag(at(ahat, j, i));
      for (std::size_t k = 0; k < s; ++k)
        n.abar[i][j] += at(a, i, k) * at(ahat, k, j), n.abar_abs[i][j] += mag(at(a, i, k)) * mag(at(ahat, k, j));
    }
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
