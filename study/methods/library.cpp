#include "study/methods/library.hpp"

#include "study/registry/integrators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/core.h>

#include "integrators/all.hpp"
#include "study/common/data_dir.hpp"
#include "study/common/input_file.hpp"
#include "study/common/names.hpp"
#include "study/common/suggest.hpp"
#include "study/common/toml_error.hpp"

namespace study::tables {
namespace {

using Kind = ode::MethodTable::Kind;

const std::vector<std::string> kinds{"splitting", "runge-kutta", "composition", "nystrom"};
/// Bounds on a table's size: its order conditions (1205 rooted trees, each summed over the stages squared, in
/// 50 digits) stay within a few seconds.
constexpr std::size_t max_coefficients = 128, max_stages = 64;
constexpr std::string_view embedded_suffix = "-embedded";  ///< an embedded pair's b_hat as a method: "dopri5-embedded"

const std::vector<std::string> common_keys{"kind", "order", "source", "summary", "substeps"};

std::vector<std::string> keys_of(const std::string& kind) {
  std::vector<std::string> k = common_keys;
  if (kind == "splitting") k.insert(k.end(), {"first", "drift", "kick"});
  if (kind == "runge-kutta") k.insert(k.end(), {"a", "b", "c", "explicit", "b_hat", "order_hat"});
  if (kind == "composition") k.insert(k.end(), {"base", "weights"});
  if (kind == "nystrom") k.insert(k.end(), {"abar", "bbar", "b", "c"});
  return k;
}

double to_double(const Rational& x) { return static_cast<double>(x); }
Rational sum_of(const std::vector<Rational>& xs) {
  Rational sum = 0;
  for (const auto& x : xs) sum += x;
  return sum;
}
/// The nodes c_i of a tableau: its row sums.
std::vector<Rational> row_sums(const Matrix& a) {
  std::vector<Rational> c;
  for (const auto& row : a) c.push_back(sum_of(row));
  return c;
}
double magnitude(const std::vector<Rational>& xs) {
  double m = 0;
  for (const auto& x : xs) m += std::abs(to_double(x));
  return m;
}
/// Whether x and y agree to what the coefficients' precision (at least double's) can tell apart: 16 u of `scale`.
bool agrees(const Rational& x, const Rational& y, double scale, double precision) {
  return std::abs(to_double(x - y)) <= 16 * std::max(std::numeric_limits<double>::epsilon(), precision) * scale;
}

/// A TOML document with its text, for errors and for the digits of numbers as written.
struct Document {
  std::filesystem::path file;
  std::vector<std::string> lines;
  Document(std::filesystem::path f, const std::string& text) : file(std::move(f)) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  std::string where(const toml::node* n) const {
    return n && n->source().begin.line ? file.string() + ":" + std::to_string(n->source().begin.line) : file.string();
  }
  /// The characters of a number as written at n (TOML's digit separators removed), if they can be found.
  std::optional<std::string> token(const toml::node& n) const {
    const auto& b = n.source().begin;
    if (b.line == 0 || b.line > lines.size()) return std::nullopt;
    const std::string& line = lines[b.line - 1];
    std::size_t i = b.column > 0 ? b.column - 1 : 0;
    std::string t;
    for (; i < line.size() && std::string_view("0123456789+-._eE").find(line[i]) != std::string_view::npos; ++i)
      if (line[i] != '_') t += line[i];
    if (t.empty()) return std::nullopt;
    return t;
  }
};

/// Reads the keys of one [methods.ID] (or [builtin.ID]) table; every error names file, line and key.
class Reader {
 public:
  Reader(const Document& doc, const toml::table& t, std::string prefix) : doc_(doc), t_(t), prefix_(std::move(prefix)) {}

  [[noreturn]] void fail(const toml::node* at, const std::string& key, const std::string& what) const {
    throw TableError(where(at, key) + ": " + what);
  }
  /// "file:line: section.id.key", as fail() begins.
  std::string where(const toml::node* at, const std::string& key) const {
    // Keys and ids may be quoted TOML keys holding line breaks: echoed on one line, escaped.
    return doc_.where(at ? at : &t_) + ": " + printable(prefix_) + (key.empty() ? "" : "." + printable(key));
  }
  const toml::node* get(const std::string& key) const { return t_.get(key); }

  std::string string(const std::string& key, bool required, const std::string& what) const {
    const toml::node* n = get(key);
    if (!n) {
      if (required) fail(nullptr, key, "missing (" + what + ")");
      return {};
    }
    if (!n->is_string()) fail(n, key, "must be a string (" + what + ")");
    return **n->as_string();
  }

  std::optional<long> integer(const std::string& key, long lo, long hi, const std::string& what) const {
    const toml::node* n = get(key);
    if (!n) return std::nullopt;
    if (!n->is_integer() || **n->as_integer() < lo || **n->as_integer() > hi)
      fail(n, key, "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + " (" + what + ")");
    return static_cast<long>(**n->as_integer());
  }

  /// A coefficient: a TOML number (read from its digits as written, so 0.1 is 1/10), or a string "p/q" or decimal;
  /// its magnitude must be 0 or within 1e-300..1e300 (every precision the integrators run in holds it).
  Rational coefficient(const toml::node& n, const std::string& key) const {
    static const Rational big(boost::multiprecision::pow(boost::multiprecision::cpp_int(10), 300)), small = 1 / big;
    const Rational x = any_coefficient(n, key), a = abs(x);
    if (x != 0 && (a > big || a < small))
      fail(&n, key, describe(x) + " is outside what a double holds (a magnitude from 1e-300 to 1e300, or 0)");
    return x;
  }

  Rational any_coefficient(const toml::node& n, const std::string& key) const {
    try {
      last_unit_ = 0;
      if (n.is_string()) {
        precision_ = std::max(precision_, stated_precision(**n.as_string()));
        const Rational x = parse_coefficient(**n.as_string());
        last_unit_ = written_uncertainty(**n.as_string());
        return x;
      }
      if (n.is_integer()) return Rational(static_cast<long long>(**n.as_integer()));
      if (n.is_floating_point()) {
        const double value = **n.as_floating_point();
        if (!std::isfinite(value)) fail(&n, key, "must be a finite number");
        if (const auto t = doc_.token(n)) {
          char* end = nullptr;
          if (std::strtod(t->c_str(), &end) == value && *end == '\0') {
            precision_ = std::max(precision_, stated_precision(*t));
            last_unit_ = written_uncertainty(*t);
            return parse_coefficient(*t);
          }
        }
        last_unit_ = std::abs(value) * std::numeric_limits<double>::epsilon();  // the double: a rounding, to its eps
        return Rational(value);  // the digits were not found: the double itself, exactly
      }
    } catch (const std::invalid_argument& e) {
      fail(&n, key, e.what());
    }
    fail(&n, key, "must be a number, a decimal string such as \"0.5\" or a ratio such as \"-2/3\"");
  }

  std::vector<Rational> list(const std::string& key, const std::string& what) const {
    const toml::node* n = get(key);
    if (!n) fail(nullptr, key, "missing (" + what + ")");
    const toml::array* a = n->as_array();
    if (!a || a->empty()) fail(n, key, "must be a non-empty array of coefficients (" + what + ")");
    if (a->size() > max_coefficients)
      fail(n, key, "has " + std::to_string(a->size()) + " coefficients; at most " + std::to_string(max_coefficients) +
                       " (the order conditions' cost grows with the square of the stages)");
    std::vector<Rational> out;
    std::vector<double>& units = units_[key];
    units.clear();
    for (std::size_t i = 0; i < a->size(); ++i) {
      out.push_back(coefficient(*a->get(i), key + "[" + std::to_string(i) + "]"));
      units.push_back(last_unit_);
    }
    return out;
  }
  /// The written uncertainty of each entry of the matrix `key` read last.
  const std::vector<std::vector<double>>& matrix_units(const std::string& key) const { return matrix_units_[key]; }
  /// The written uncertainty (written_uncertainty) of each coefficient of the list `key` read last.
  const std::vector<double>& units(const std::string& key) const { return units_[key]; }

  /// Rows of coefficients; row i may be shorter than `width` (the rest are 0), not longer.
  Matrix matrix(const std::string& key, std::size_t rows, std::size_t width, const std::string& what) const {
    const toml::node* n = get(key);
    if (!n) fail(nullptr, key, "missing (" + what + ")");
    const toml::array* a = n->as_array();
    if (!a) fail(n, key, "must be an array of rows, e.g. [[], [\"1/2\"]] (" + what + ")");
    if (a->size() != rows)
      fail(n, key, "has " + std::to_string(a->size()) + " rows, but there are " + std::to_string(rows) + " weights: one row per stage");
    Matrix m;
    std::vector<std::vector<double>>& units = matrix_units_[key];
    units.clear();
    for (std::size_t i = 0; i < a->size(); ++i) {
      const toml::array* row = a->get(i)->as_array();
      if (!row) fail(a->get(i), key, "row " + std::to_string(i + 1) + " must be an array of coefficients");
      if (row->size() > width)
        fail(a->get(i), key, "row " + std::to_string(i + 1) + " has " + std::to_string(row->size()) + " entries; at most " +
                                 std::to_string(width) + " (one per stage)");
      std::vector<Rational> r(width, Rational(0));
      std::vector<double> u(width, 0.0);
      for (std::size_t j = 0; j < row->size(); ++j)
        r[j] = coefficient(*row->get(j), key + "[" + std::to_string(i) + "][" + std::to_string(j) + "]"), u[j] = last_unit_;
      m.push_back(std::move(r));
      units.push_back(std::move(u));
    }
    return m;
  }

  /// The sum of `xs` must be `want` (to double precision): else the method is not consistent.
  void sums_to(const std::vector<Rational>& xs, const Rational& want, const std::string& key, const std::string& why) const {
    const Rational sum = sum_of(xs);
    if (!agrees(sum, want, magnitude(xs) * static_cast<double>(xs.size()), precision_))
      fail(get(key), key, "the coefficients sum to " + describe(sum) + ", not " + describe(want) + ": " + why);
  }

  const toml::table& table() const { return t_; }
  /// The coarsest relative precision of the coefficients read so far (0: all exact).
  double precision() const { return precision_; }

 private:
  mutable double precision_ = 0;
  mutable double last_unit_ = 0;                              ///< of the coefficient read last
  mutable std::map<std::string, std::vector<double>> units_;  ///< of each list read
  mutable std::map<std::string, std::vector<std::vector<double>>> matrix_units_;  ///< of each matrix read
  const Document& doc_;
  const toml::table& t_;
  std::string prefix_;
};

std::string text(const Rational& x) { return decimal_for_rounding(x); }
std::vector<std::string> texts(const std::vector<Rational>& xs) {
  std::vector<std::string> out;
  for (const auto& x : xs) out.push_back(text(x));
  return out;
}

using Exact = Coefficients;
/// Finds the exact coefficients of a method by id (a composition's base), or nullptr.
using IdList = std::function<std::vector<std::string>()>;  // made on demand: only a message needs it
using Lookup = std::function<const Exact*(const std::string&)>;

/// Adjacent operations of one kind merged (their coefficients add, and so do their written uncertainties `units`,
/// one per operation), zero ones dropped, until none is left.
void canonical(std::vector<std::pair<bool, Rational>>& ops, std::vector<double>& units) {
  units.resize(ops.size(), 0.0);
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<std::pair<bool, Rational>> out;
    std::vector<double> out_units;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].second == 0) {
        changed = true;
        continue;
      }
      if (!out.empty() && out.back().first == ops[i].first) out.back().second += ops[i].second, out_units.back() += units[i], changed = true;
      else out.push_back(ops[i]), out_units.push_back(units[i]);
    }
    ops = std::move(out), units = std::move(out_units);
  }
}

/// Whether x and y may be one number as written: exactly equal when both are exact, else within their uncertainties
/// (two roundings of one number lie within the sum of their half units; 5-digit weights that differ in the 5th
/// digit are two numbers).
bool may_be_equal(const Rational& x, double ux, const Rational& y, double uy) {
  return ux == 0 && uy == 0 ? x == y : std::abs(to_double(x - y)) < ux + uy;
}

/// The splitting's partitioned Runge–Kutta form: stage k is the state before operation k; `units` beside `ops`.
Nystrom nystrom_of_ops(const std::vector<std::pair<bool, Rational>>& ops, const std::vector<double>& units) {
  const std::size_t s = ops.size();
  Matrix a(s, std::vector<Rational>(s, Rational(0))), ahat = a;
  std::vector<Rational> b(s, Rational(0)), bhat(s, Rational(0));
  Units u{std::vector<std::vector<double>>(s, std::vector<double>(s, 0.0)), std::vector<double>(s, 0.0)}, uhat = u;
  for (std::size_t k = 0; k < s; ++k) {
    for (std::size_t l = 0; l < k; ++l) (ops[l].first ? ahat : a)[k][l] = ops[l].second, (ops[l].first ? uhat : u).a[k][l] = units[l];
    (ops[k].first ? bhat : b)[k] = ops[k].second, (ops[k].first ? uhat : u).b[k] = units[k];
  }
  return nystrom_of(a, b, ahat, bhat, u, uhat);
}

std::string identity_of(const ode::MethodTable& t) {
  std::string id;
  switch (t.kind) {
    case Kind::splitting:
      id = "splitting";
      for (const auto& op : t.operations) id += (op.kick ? " K " : " D ") + op.coefficient;
      return id;
    case Kind::runge_kutta: id = "runge-kutta"; break;
    case Kind::nystrom: id = "nystrom"; break;
  }
  for (const auto& row : t.a) id += " a " + join(row, " ");
  id += " b " + join(t.b, " ") + " bbar " + join(t.bbar, " ") + " c " + join(t.c, " ");
  if (!t.b_hat.empty()) id += " b_hat " + join(t.b_hat, " ");
  return id;
}

/// Fills a MethodTable from exact coefficients, with the prediction and the cost.
void build(Method& m, const Exact& x, ode::MethodTable& t) {
  t.kind = x.kind;
  m.predicted.lazy = std::make_shared<LazyOrder>();
  switch (x.kind) {
    case Kind::splitting: {
      int kicks = 0;
      for (const auto& [kick, c] : x.ops) t.operations.push_back({kick, text(c)}), kicks += kick;
      t.fsal = x.ops.size() > 1 && x.ops.front().first && x.ops.back().first;
      t.evals_per_step = kicks - (t.fsal ? 1 : 0), t.startup_evals = t.fsal ? 1 : 0;
      m.stages = static_cast<int>(x.ops.size());
      m.predicted.lazy->compute = [ops = x.ops, units = x.op_unit, p = x.precision] { return nystrom_order(nystrom_of_ops(ops, units), p); };
      m.predicted.symplectic = true;  // a composition of exact flows of Hamiltonian parts
      auto c = x.ops;
      auto units = x.op_unit;
      canonical(c, units);
      bool palindrome = true;
      for (std::size_t i = 0; i < c.size(); ++i) {
        const std::size_t j = c.size() - 1 - i;
        palindrome = palindrome && c[j].first == c[i].first && may_be_equal(c[i].second, units[i], c[j].second, units[j]);
      }
      m.predicted.symmetric = palindrome;
      break;
    }
    case Kind::runge_kutta: {
      const std::size_t s = x.b.size();
      for (const auto& row : x.a) t.a.push_back(texts(row));
      t.b = texts(x.b), t.c = texts(x.c);
      t.b_hat = texts(x.b_hat), t.order_hat = x.order_hat;
      for (std::size_t i = 0; i < s; ++i)
        for (std::size_t j = i; j < s; ++j) t.implicit = t.implicit || x.a[i][j] != 0;
      t.fsal = !t.implicit && s >= 2 && x.b[s - 1] == 0;
      for (std::size_t j = 0; j + 1 < s && t.fsal; ++j) t.fsal = x.a[s - 1][j] == x.b[j];
      t.evals_per_step = static_cast<int>(s) - (t.fsal ? 1 : 0), t.startup_evals = t.fsal ? 1 : 0;
      m.stages = static_cast<int>(s);
      m.predicted.lazy->compute = [a = x.a, b = x.b, p = x.precision, u = Units{x.a_unit, x.b_unit}] { return runge_kutta_order(a, b, p, u); };
      m.predicted.linear = std::make_shared<LazyOrder>();
      m.predicted.linear->compute = [a = x.a, b = x.b, p = x.precision, u = Units{x.a_unit, x.b_unit}] { return linear_order(a, b, p, u); };
      if (!x.b_hat.empty()) {
        m.predicted.embedded = std::make_shared<LazyOrder>();
        m.predicted.embedded->compute = [a = x.a, b = x.b_hat, p = x.precision, u = Units{x.a_unit, x.b_hat_unit}] {
          return runge_kutta_order(a, b, p, u);
        };
      }
      m.predicted.symplectic = runge_kutta_symplectic(x.a, x.b, x.precision);
      m.predicted.symmetric = runge_kutta_symmetric(x.a, x.b, x.precision, &x.a_unit, &x.b_unit);
      break;
    }
    case Kind::nystrom: {
      for (const auto& row : x.a) t.a.push_back(texts(row));
      t.b = texts(x.b), t.bbar = texts(x.bbar), t.c = texts(x.c);
      t.evals_per_step = static_cast<int>(x.b.size());
      m.stages = static_cast<int>(x.b.size());
      Nystrom n;
      n.c = x.c, n.bbar = x.bbar, n.b = x.b, n.abar = x.a;
      n.c_unit = x.c_unit, n.bbar_unit = x.bbar_unit, n.b_unit = x.b_unit, n.abar_unit = x.a_unit;
      m.predicted.lazy->compute = [n, p = x.precision] { return nystrom_order(n, p); };
      m.predicted.symplectic = nystrom_symplectic(n, x.precision);
      m.predicted.symmetric = false;  // not decided for Nyström tables: reported as "not checked"
      break;
    }
  }
  t.symplectic = m.predicted.symplectic, t.symmetric = m.predicted.symmetric;
  t.identity = identity_of(t);
}

/// Reads one [methods.ID] table.  `declared_order` set: a built-in's own ([builtin.ID]; the table has no order key).
Method read_method(const Document& doc, const std::string& section, const std::string& id, const toml::table& t,
                   std::optional<int> declared_order, const Lookup& base_of, const IdList& base_ids, bool shipped) {
  const Reader r(doc, t, section + "." + id);
  Method m;
  m.origin = doc.where(&t);
  m.kind = r.string("kind", true, "one of " + join(kinds));
  if (std::find(kinds.begin(), kinds.end(), m.kind) == kinds.end())
    r.fail(r.get("kind"), "kind", "unknown kind '" + m.kind + "'" + did_you_mean(m.kind, kinds) + "; kinds: " + join(kinds));
  const auto valid = keys_of(m.kind);
  for (auto&& [key, node] : t) {
    const std::string k(key.str());
    if (std::find(valid.begin(), valid.end(), k) == valid.end())
      r.fail(&node, k, "not a key of a " + m.kind + " table" + did_you_mean(k, valid) + "; keys: " + join(valid));
  }
  auto table = std::make_shared<ode::MethodTable>();
  table->id = id;
  table->source = r.string("source", false, "where the coefficients come from");
  if (const std::string why = text_problem(table->source); !why.empty()) r.fail(r.get("source"), "source", "'" + printable(table->source) + "' " + why);
  if (declared_order) {
    if (r.get("order")) r.fail(r.get("order"), "order", "a built-in's order is the one it declares in C++: leave it out");
    table->order = *declared_order;
  } else {
    const auto order = r.integer("order", 1, max_checked_order, "the declared global order");
    if (!order) r.fail(nullptr, "order", "missing (the declared global order, a whole number from 1 to " + std::to_string(max_checked_order) + ")");
    table->order = static_cast<int>(*order);
  }
  m.substeps = static_cast<int>(r.integer("substeps", 1, 1000000, "steps of h/k per step of h").value_or(1));

  Exact x;
  if (m.kind == "splitting") {
    x.kind = Kind::splitting;
    const std::string first = t.contains("first") ? r.string("first", false, "drift or kick") : "drift";
    if (first != "drift" && first != "kick") r.fail(r.get("first"), "first", "must be \"drift\" or \"kick\", not \"" + first + "\"");
    const auto drift = r.list("drift", "the drift coefficients: q += c h v");
    const auto kick = r.list("kick", "the kick coefficients: v += c h a(q)");
    const auto& lead = first == "drift" ? drift : kick;
    const auto& other = first == "drift" ? kick : drift;
    const std::string other_name = first == "drift" ? "kick" : "drift";
    if (lead.size() != other.size() && lead.size() != other.size() + 1)
      r.fail(r.get(first), first, fmt::format("has {} coefficients and {} has {}: the first operation's list ({}) is as long as the "
                                              "other or one longer", lead.size(), other_name, other.size(), first));
    r.sums_to(drift, 1, "drift", "the drifts of a step must add up to one step (the method is not consistent)");
    r.sums_to(kick, 1, "kick", "the kicks of a step must add up to one step (the method is not consistent)");
    const auto& lead_units = r.units(first), &other_units = r.units(other_name);
    for (std::size_t i = 0; i < lead.size(); ++i) {
      x.ops.emplace_back(first == "kick", lead[i]), x.op_unit.push_back(lead_units[i]);
      if (i < other.size()) x.ops.emplace_back(first != "kick", other[i]), x.op_unit.push_back(other_units[i]);
    }
  } else if (m.kind == "runge-kutta") {
    x.kind = Kind::runge_kutta;
    x.b = r.list("b", "the weights b_i");
    x.b_unit = r.units("b");
    const std::size_t s = x.b.size();
    if (s > max_stages) r.fail(r.get("b"), "b", fmt::format("{} stages; at most {} (Feagin's order-14 method has 35)", s, max_stages));
    x.a = r.matrix("a", s, s, "the stage coefficients a_ij, one row per stage: [[], [\"1/2\"], ...] for an explicit method");
    x.a_unit = r.matrix_units("a");
    r.sums_to(x.b, 1, "b", "the weights must add up to 1 (the method is not consistent)");
    x.c = row_sums(x.a);
    // An embedded pair: the other weights and their order (Hairer, Norsett, Wanner I, §II.4): b - b_hat estimates the
    // local error of the order-min(order, order_hat) solution.
    if (r.get("b_hat") || r.get("order_hat")) {
      if (!r.get("b_hat")) r.fail(r.get("order_hat"), "order_hat", "is the order of the embedded weights: give them too, as b_hat = [...]");
      x.b_hat = r.list("b_hat", "the embedded weights b_hat_i, one per stage");
      x.b_hat_unit = r.units("b_hat");
      if (x.b_hat.size() != s)
        r.fail(r.get("b_hat"), "b_hat", fmt::format("has {} weights, but b has {}: one embedded weight per stage", x.b_hat.size(), s));
      const auto order_hat = r.integer("order_hat", 1, max_checked_order, "the declared order of the embedded weights");
      if (!order_hat)
        r.fail(r.get("b_hat"), "order_hat", "missing (the declared order of the embedded weights b_hat, a whole number from 1 to " +
                                                 std::to_string(max_checked_order) + ")");
      x.order_hat = static_cast<int>(*order_hat);
      r.sums_to(x.b_hat, 1, "b_hat", "the embedded weights must add up to 1 (their solution is not consistent)");
      if (x.b_hat == x.b) r.fail(r.get("b_hat"), "b_hat", "equals b: an embedded pair's weights differ (b - b_hat is its error estimate)");
      if (id.size() + embedded_suffix.size() > max_name_length)
        r.fail(r.get("b_hat"), "b_hat", fmt::format("the embedded weights run as a method of their own, '{}{}', an id longer than {} "
                                                    "characters: give the pair a shorter id", id, embedded_suffix, max_name_length));
    }
    if (const toml::node* cn = r.get("c")) {
      const auto c = r.list("c", "the nodes c_i, the row sums of a");
      if (c.size() != s) r.fail(cn, "c", fmt::format("has {} nodes, but there are {} weights", c.size(), s));
      for (std::size_t i = 0; i < s; ++i)
        if (!agrees(c[i], x.c[i], magnitude(x.a[i]) + std::abs(to_double(c[i])), r.precision()))
          r.fail(cn, "c", fmt::format("c[{}] = {} is not the sum of row {} of a ({}); the nodes must be the row sums", i, describe(c[i]),
                                      i + 1, describe(x.c[i])));
    }
    if (const toml::node* e = r.get("explicit")) {
      if (!e->is_boolean()) r.fail(e, "explicit", "must be true or false");
      if (**e->as_boolean())
        for (std::size_t i = 0; i < s; ++i)
          for (std::size_t j = i; j < s; ++j)
            if (x.a[i][j] != 0)
              r.fail(r.get("a"), "a", fmt::format("a[{}][{}] = {} is on or above the diagonal: the table is implicit, but explicit = true",
                                                  i, j, describe(x.a[i][j])));
    }
  } else if (m.kind == "nystrom") {
    x.kind = Kind::nystrom;
    x.b = r.list("b", "the velocity weights b_i of h a(X_i)");
    const std::size_t s = x.b.size();
    if (s > max_stages) r.fail(r.get("b"), "b", fmt::format("{} stages; at most {}", s, max_stages));
    x.b_unit = r.units("b");
    x.bbar = r.list("bbar", "the position weights bbar_i of h^2 a(X_i)");
    x.bbar_unit = r.units("bbar");
    x.c = r.list("c", "the nodes c_i: X_i = x + c_i h v + h^2 sum_j abar_ij a(X_j)");
    x.c_unit = r.units("c");
    if (x.bbar.size() != s) r.fail(r.get("bbar"), "bbar", fmt::format("has {} weights, but b has {}", x.bbar.size(), s));
    if (x.c.size() != s) r.fail(r.get("c"), "c", fmt::format("has {} nodes, but b has {}", x.c.size(), s));
    x.a = r.matrix("abar", s, s, "the stage coefficients abar_ij, one row per stage: [[], [\"1/8\"], ...]");
    x.a_unit = r.matrix_units("abar");
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = i; j < s; ++j)
        if (x.a[i][j] != 0)
          r.fail(r.get("abar"), "abar", fmt::format("abar[{}][{}] = {} is on or above the diagonal: implicit Nyström tables are not "
                                                    "supported (give an explicit one, or the method as a runge-kutta table)",
                                                    i, j, describe(x.a[i][j])));
    r.sums_to(x.b, 1, "b", "the velocity weights must add up to 1 (the method is not consistent)");
    r.sums_to(x.bbar, Rational(1, 2), "bbar", "the position weights of h^2 must add up to 1/2 (the method is not consistent)");
  } else {  // composition
    m.base = r.string("base", true, "the id of the method composed, e.g. \"leapfrog\"");
    const Exact* base = base_of(m.base);
    if (!base)
      r.fail(r.get("base"), "base", "'" + m.base + "' is not a method with known coefficients" + did_you_mean(m.base, base_ids()) +
                                        "; bases: " + join(base_ids()));
    const auto w = r.list("weights", "the step fractions of the base method's steps");
    const auto& wu = r.units("weights");
    // A product's uncertainty: |w| u_c + |c| u_w (second order dropped).
    auto product_unit = [](const Rational& w1, double u1, const Rational& c1, double u2) {
      return std::abs(to_double(w1)) * u2 + std::abs(to_double(c1)) * u1;
    };
    r.sums_to(w, 1, "weights", "the steps must add up to one step (the method is not consistent)");
    x.kind = base->kind;
    if (base->kind == Kind::splitting) {
      if (w.size() * base->ops.size() > 2 * max_coefficients)
        r.fail(r.get("weights"), "weights", fmt::format("{} steps of a base of {} drifts and kicks: more than {} operations", w.size(),
                                                        base->ops.size(), 2 * max_coefficients));
      for (std::size_t i = 0; i < w.size(); ++i)
        for (std::size_t k = 0; k < base->ops.size(); ++k) {
          const auto& [kick, c] = base->ops[k];
          x.ops.emplace_back(kick, w[i] * c);
          x.op_unit.push_back(product_unit(w[i], wu[i], c, k < base->op_unit.size() ? base->op_unit[k] : 0.0));
        }
      canonical(x.ops, x.op_unit);
    } else if (base->kind == Kind::runge_kutta) {
      // Block tableau: stage block i takes w_i a on its diagonal and w_j b in every row of block (i, j < i).
      const std::size_t s = base->b.size(), n = s * w.size();
      if (n > max_stages)
        r.fail(r.get("weights"), "weights", fmt::format("{} steps of a {}-stage base make {} stages; at most {}", w.size(), s, n, max_stages));
      x.a.assign(n, std::vector<Rational>(n, Rational(0)));
      x.a_unit.assign(n, std::vector<double>(n, 0.0));
      auto base_a_unit = [&](std::size_t r1, std::size_t c1) {
        return r1 < base->a_unit.size() && c1 < base->a_unit[r1].size() ? base->a_unit[r1][c1] : 0.0;
      };
      auto base_b_unit = [&](std::size_t c1) { return c1 < base->b_unit.size() ? base->b_unit[c1] : 0.0; };
      for (std::size_t i = 0; i < w.size(); ++i)
        for (std::size_t r1 = 0; r1 < s; ++r1) {
          for (std::size_t j = 0; j < i; ++j)
            for (std::size_t c1 = 0; c1 < s; ++c1)
              x.a[i * s + r1][j * s + c1] = w[j] * base->b[c1],
                                  x.a_unit[i * s + r1][j * s + c1] = product_unit(w[j], wu[j], base->b[c1], base_b_unit(c1));
          for (std::size_t c1 = 0; c1 < s; ++c1)
            x.a[i * s + r1][i * s + c1] = w[i] * base->a[r1][c1],
                                x.a_unit[i * s + r1][i * s + c1] = product_unit(w[i], wu[i], base->a[r1][c1], base_a_unit(r1, c1));
        }
      for (std::size_t i = 0; i < w.size(); ++i)
        for (std::size_t k = 0; k < s; ++k) x.b.push_back(w[i] * base->b[k]), x.b_unit.push_back(product_unit(w[i], wu[i], base->b[k], base_b_unit(k)));
      x.c = row_sums(x.a);
    } else {
      r.fail(r.get("base"), "base", "compositions of Nyström tables are not supported: give the composed table as kind = \"nystrom\"");
    }
  }
  x.precision = r.precision();
  if (m.kind == "composition") x.precision = std::max(x.precision, base_of(m.base)->precision);
  build(m, x, *table);
  // The declared order against the coefficients': at once for a table of the user's (refused before any work),
  // on first use for the shipped ones (a unit test holds each to its declared order).
  // "declares order 4, but ...": `weights` names the weight set (the embedded b_hat), `key` the declaration.
  auto problem_of = [](int declared, const OrderAnalysis& p, const std::string& weights, const std::string& key) -> std::string {
    if (declared <= p.order) return "";
    const Condition& f = p.first_failing;
    return fmt::format("declares order {}, but {} have order {}: the order-{} condition {} (tree {}, {}) fails by {:.3g} "
                       "(their precision explains {:.2g}); check {}, or declare {} = {}",
                       declared, weights, p.order, f.order, f.formula, f.tree, p.trees, f.residual, f.tolerance,
                       weights == "the coefficients" ? "the coefficients" : "them", key, p.order);
  };
  auto order_problem = [declared = table->order, problem_of](const OrderAnalysis& p) {
    return problem_of(declared, p, "the coefficients", "order");
  };
  auto embedded_problem = [declared = x.order_hat, problem_of](const OrderAnalysis& p) {
    std::string why = problem_of(declared, p, "the embedded weights b_hat", "order_hat");
    // The condition names the weights b; here they are b_hat.
    for (std::size_t at = why.find("sum b_i"); at != std::string::npos; at = why.find("sum b_i", at + 1)) why.replace(at, 7, "sum b_hat_i");
    return why;
  };
  const toml::node* order_at = r.get("order") ? r.get("order") : &t;
  const std::string order_key = declared_order ? "" : "order";
  const toml::node* hat_at = r.get("order_hat") ? r.get("order_hat") : &t;
  if (shipped) {
    m.predicted.lazy->compute = [compute = std::move(m.predicted.lazy->compute), order_problem, where = r.where(order_at, order_key)] {
      OrderAnalysis p = compute();
      if (const std::string why = order_problem(p); !why.empty()) throw TableError(where + ": " + why);
      return p;
    };
    if (m.predicted.embedded)
      m.predicted.embedded->compute = [compute = std::move(m.predicted.embedded->compute), embedded_problem, where = r.where(hat_at, "order_hat")] {
        OrderAnalysis p = compute();
        if (const std::string why = embedded_problem(p); !why.empty()) throw TableError(where + ": " + why);
        return p;
      };
  } else {
    std::string why, why_hat;
    try {
      why = order_problem(m.predicted.order());
      if (m.predicted.linear) Prediction::of(*m.predicted.linear);  // its exact work bounded too, refused here, not in a run
      if (m.predicted.embedded) why_hat = embedded_problem(Prediction::of(*m.predicted.embedded));
    } catch (const TooCostly& e) {
      r.fail(&t, "", e.what());
    }
    if (!why.empty()) r.fail(order_at, order_key, why);
    if (!why_hat.empty()) r.fail(hat_at, "order_hat", why_hat);
  }
  const std::string evals = fmt::format("{} force evaluation{} per {}", table->evals_per_step, table->evals_per_step == 1 ? "" : "s",
                                        table->implicit ? "iteration" : "step");
  const std::string shown_kind = m.kind == "composition" ? "composition of " + m.base : m.kind;
  table->summary = r.string("summary", false, "one line on the method");
  if (const std::string why = text_problem(table->summary); !why.empty()) r.fail(r.get("summary"), "summary", "'" + printable(table->summary) + "' " + why);
  if (table->summary.empty())
    table->summary = fmt::format("{} table: order {}{}{}, {}", shown_kind, table->order, table->symplectic ? ", symplectic" : "",
                                 table->symmetric ? ", symmetric" : "", evals);
  m.table = std::move(table);
  m.exact = std::move(x);
  return m;
}

/// An embedded pair's other weights as a method of their own, "ID-embedded": the same stages with b_hat for b, so
/// that fixed-step sweeps measure the embedded order as they measure any (issue 55: each pair's two orders).
Method embedded_method(const Method& pair) {
  Method m;
  m.origin = pair.origin, m.kind = "runge-kutta", m.stages = pair.stages, m.substeps = pair.substeps;
  Exact x = pair.exact;
  x.b = x.b_hat, x.b_unit = x.b_hat_unit;
  x.b_hat.clear(), x.b_hat_unit.clear(), x.order_hat = 0;
  auto table = std::make_shared<ode::MethodTable>();
  table->id = pair.table->id + std::string(embedded_suffix);
  table->order = pair.exact.order_hat;
  table->source = pair.table->source;
  build(m, x, *table);
  table->summary = fmt::format("the embedded weights b_hat of {}, order {}, as a method: {} force evaluations per step", pair.table->id,
                               table->order, table->evals_per_step);
  m.table = std::move(table);
  m.exact = std::move(x);
  return m;
}

std::string read_text(const std::filesystem::path& file) {
  return read_input_file<TableError>(file, "methods file (TOML)", "no such methods file");
}

toml::table parse(const std::string& text, const std::filesystem::path& file) {
  try {
    return toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    throw TableError(toml_error(e, text, file.string()));
  }
}

bool valid_id(const std::string& id) {
  return !id.empty() && id.size() <= max_name_length && id.front() >= 'a' && id.front() <= 'z' &&
         id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
}

/// The methods of the [methods] table of a document, compositions after the tables they may compose.
std::vector<Method> read_section(const Document& doc, const toml::table& root, const std::string& section, bool builtin,
                                 const Lookup& outer, const IdList& outer_ids, bool shipped) {
  std::vector<Method> out;
  const toml::node* node = root.get(section);
  if (!node) return out;
  const toml::table* methods = node->as_table();
  if (!methods) throw TableError(doc.where(node) + ": " + section + ": must be a table of methods, [" + section + ".ID]");
  const auto builtins = integrator_ids();  // the hand-written ones and a program's own (study/registry/integrators.hpp)
  std::vector<std::pair<std::string, const toml::table*>> pending;
  for (auto&& [key, value] : *methods) {
    const std::string id(key.str());
    const toml::table* t = value.as_table();
    if (!t)
      throw TableError(doc.where(&value) + ": " + section + "." + printable(id) + ": must be a table ([" + section + "." + printable(id) + "])");
    if (!valid_id(id))
      throw TableError(doc.where(t) + ": " + section + "." + printable(id) + ": a method id is lowercase letters, digits, '-' or '_', "
                                      "starting with a letter, at most " + std::to_string(max_name_length) + " of them (it names rows of the results)");
    if (id == "all")  // a spec's integrators = ["all"] means every hand-written one: a table by that name could not be chosen
      throw TableError(doc.where(t) + ": " + section + ".all: 'all' is reserved (integrators = [\"all\"] means every built-in "
                                      "integrator); give the table another id");
    const bool is_builtin = std::find(builtins.begin(), builtins.end(), id) != builtins.end();
    if (builtin && !is_builtin)
      throw TableError(doc.where(t) + ": " + section + "." + id + ": not a built-in integrator" + did_you_mean(id, builtins));
    if (!builtin && is_builtin)
      throw TableError(doc.where(t) + ": " + section + "." + id + ": the id shadows the " +
                       (find_user_integrator(id) ? "program's own" : "built-in") + " integrator '" + id +
                       "'; give the table another id (e.g. '" + id + "-table')");
    pending.emplace_back(id, t);
  }
  // Bases: this section's methods read so far, then the outer ones.
  // The ids a base may name, for the message about one that is none of them: made only then.
  const IdList base_ids = [&] {
    std::vector<std::string> ids = outer_ids ? outer_ids() : std::vector<std::string>{};
    for (const auto& [id, t] : pending) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  std::map<std::string, std::size_t> pending_at, read_at;  // id -> index in pending, in out
  for (std::size_t i = 0; i < pending.size(); ++i) pending_at.emplace(pending[i].first, i);
  const Lookup base_of = [&](const std::string& id) -> const Exact* {
    if (const auto it = read_at.find(id); it != read_at.end()) return &out[it->second].exact;
    return outer ? outer(id) : nullptr;
  };
  // The composition base of pending[i] when it is another table of this section.
  auto base_here = [&](std::size_t i) -> std::optional<std::size_t> {
    const toml::table& t = *pending[i].second;
    const auto base = t["base"].value<std::string>();
    if (t["kind"].value<std::string>() != "composition" || !base) return std::nullopt;
    const auto it = pending_at.find(*base);
    return it == pending_at.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  };
  // Each table after its base (a composition of a composition): depth first with a stack of our own, so that a
  // long chain neither recurses deeply nor costs more than its length (rounds over the rest cost its square).
  enum : char { unread, waiting, read };
  std::vector<char> state(pending.size(), unread);
  for (std::size_t first = 0; first < pending.size(); ++first) {
    std::vector<std::size_t> stack{first};
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      if (state[i] == read) {
        stack.pop_back();
        continue;
      }
      if (const auto b = base_here(i); b && state[*b] != read) {
        if (state[i] == waiting || state[*b] == waiting)
          throw TableError(doc.where((*pending[i].second)["base"].node()) + ": " + section + "." + pending[i].first +
                           ".base: the compositions' bases form a cycle");
        state[i] = waiting;
        stack.push_back(*b);
        continue;
      }
      const auto& [id, t] = pending[i];
      std::optional<int> order;
      if (builtin)
        ode::for_each_method([&](auto m) {
          if (m.info().id == id) order = m.info().order;
        });
      out.push_back(read_method(doc, section, id, *t, order, base_of, base_ids, shipped));
      read_at.emplace(id, out.size() - 1);
      if (!out.back().exact.b_hat.empty()) {
        Method hat = embedded_method(out.back());
        if (pending_at.count(hat.table->id))
          throw TableError(doc.where(t) + ": " + section + "." + hat.table->id + ": the id of " + id + "'s embedded weights run as a "
                           "method of their own; give the table another id");
        read_at.emplace(hat.table->id, out.size());
        out.push_back(std::move(hat));
      }
      state[i] = read;
      stack.pop_back();
    }
  }
  return out;
}

void reject_other_keys(const Document& doc, const toml::table& root, const std::vector<std::string>& allowed) {
  for (auto&& [key, value] : root) {
    const std::string k(key.str());
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      throw TableError(doc.where(&value) + ": " + printable(k) + (allowed.size() > 2 ? ": neither a [methods.ID] table nor a spec's key" : ": a methods file holds [methods.ID] tables only") +
                       did_you_mean(k, allowed));
  }
}

/// Every *.toml of the shipped library folder but builtin.toml, sorted.
std::vector<std::filesystem::path> library_files() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(data_dir() / "methods", ec))
    if (e.path().extension() == ".toml" && e.path().filename() != "builtin.toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

void Library::add(Method m) {
  const std::string id = m.table->id;
  if (const auto it = methods_.find(id); it != methods_.end())
    throw TableError(m.origin + ": methods." + id + ": also defined at " + it->second.origin + "; give one of them another id");
  methods_.emplace(id, std::move(m));
}

void Library::add_document(const toml::table& root, const std::string& text, const std::filesystem::path& file,
                           const Library* also) {
  // Bases a composition may name: this library's methods, `also`'s, the shipped library's (unless this is it), the
  // built-ins'.
  // The shipped library is read (its tables checked, tenths of a second) only when a composition names a base this
  // file does not define: most files, and every error in one, need none of it.
  const bool is_shipped = this == building_shipped_;
  const Library* shipped_read = nullptr;
  auto shipped = [&]() -> const Library* {
    if (!is_shipped && !shipped_read) shipped_read = &shipped_library();
    return shipped_read;
  };
  const IdList ids = [&] { return ids_with_bases(shipped(), also); };
  const Lookup outer = [&](const std::string& id) -> const Exact* {
    if (const Method* m = find(id)) return &m->exact;
    if (also)
      if (const Method* m = also->find(id)) return &m->exact;
    // A built-in's table before the shipped library: no shipped id is a built-in's (the library refuses them).
    const auto& b = builtin_tables();
    if (const auto it = b.find(id); it != b.end()) return &it->second.exact;
    if (const Library* s = shipped())
      if (const Method* m = s->find(id)) return &m->exact;
    return nullptr;
  };
  const Document doc(file, text);
  for (auto& m : read_section(doc, root, "methods", false, outer, ids, is_shipped)) add(std::move(m));
}

std::vector<std::string> Library::ids_with_bases(const Library* shipped, const Library* also) const {
  std::vector<std::string> ids = this->ids();
  if (also)
    for (const auto& id : also->ids()) ids.push_back(id);
  if (shipped)
    for (const auto& id : shipped->ids()) ids.push_back(id);
  for (const auto& [id, m] : builtin_tables()) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

void Library::add_file(const std::filesystem::path& file, const std::vector<std::string>& spec_keys) {
  const std::string text = read_text(file);
  const toml::table root = parse(text, file);
  std::vector<std::string> allowed = spec_keys;
  allowed.push_back("methods");
  reject_other_keys(Document(file, text), root, allowed);
  const toml::table* methods = root["methods"].as_table();
  if (!methods || methods->empty()) {
    // Say what the file holds instead: a spec without tables is the usual mix-up.
    std::vector<std::string> keys;
    for (auto&& [key, value] : root) keys.emplace_back(printable(key.str()));
    const bool spec = root.contains("problem") || root.contains("integrators");
    throw TableError(file.string() + ": no [methods.ID] table in this file" +
                     (keys.empty() ? std::string(" (it is empty)")
                      : spec ? " (it is a study spec, with " + join(keys) + ": `study run " + file.string() +
                                   "` runs it; a method table starts with a line [methods.ID])"
                             : " (it holds " + join(keys) + ")") +
                     "; see docs/method-tables.md");
  }
  add_document(root, text, file);
}

const Method* Library::find(const std::string& id) const {
  const auto it = methods_.find(id);
  return it == methods_.end() ? nullptr : &it->second;
}

std::vector<std::string> Library::ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, m] : methods_) ids.push_back(id);
  return ids;
}

std::vector<const Method*> Library::methods() const {
  std::vector<const Method*> out;
  for (const auto& [id, m] : methods_) out.push_back(&m);
  return out;
}

const std::map<std::string, Method>& builtin_tables() {
  static const std::map<std::string, Method> tables = [] {
    std::map<std::string, Method> out;
    const std::filesystem::path file = data_dir() / "methods" / "builtin.toml";
    const std::string text = read_text(file);
    const toml::table root = parse(text, file);
    const Document doc(file, text);
    reject_other_keys(doc, root, {"builtin"});
    for (auto& m : read_section(doc, root, "builtin", true, nullptr, nullptr, true)) out.emplace(m.table->id, std::move(m));
    return out;
  }();
  return tables;
}

const Library& shipped_library() {
  static const Library library = [] {
    Library l;
    Library::building_shipped_ = &l;
    struct Reset {  // also when a file throws: no later library may pass for the shipped one
      ~Reset() { Library::building_shipped_ = nullptr; }
    } reset;
    for (const auto& f : library_files()) l.add_file(f);
    return l;
  }();
  return library;
}

Library read_methods_file(const std::filesystem::path& file, const std::vector<std::string>& spec_keys) {
  Library l;
  l.add_file(file, spec_keys);
  return l;
}


Library read_user_methods(const std::vector<std::string>& files, const std::vector<std::string>& spec_keys) {
  Library lib;
  for (const auto& f : files) lib.add_file(f, spec_keys);
  // A table named like a shipped one takes its place (a spec looks in --methods files before the shipped library):
  // the library grows, and a user's table must keep meaning theirs.
  return lib;
}

std::string describe(const Method& m) {
  const ode::MethodTable& t = *m.table;
  const OrderAnalysis& p = m.predicted.order();
  std::string out = fmt::format("{}  ({})\n", t.id, m.origin);
  out += fmt::format("  kind         {}{}, {} {}{}\n", m.kind, m.base.empty() ? "" : " of " + m.base, m.stages,
                     t.kind == Kind::splitting ? "operation" : "stage", m.stages == 1 ? "" : "s");
  out += fmt::format("  cost         {} force evaluation{} per {}{}{}\n", t.evals_per_step, t.evals_per_step == 1 ? "" : "s",
                     t.implicit ? "Newton iteration (implicit)" : "step", t.fsal ? " (first same as last)" : "",
                     t.kind == Kind::runge_kutta ? "" : "; needs a position-only force a(q)");
  out += fmt::format("  order        declared {}, predicted {}{} from {} conditions of {}\n", t.order, p.order,
                     p.order == max_checked_order ? " (or more: checked up to " + std::to_string(max_checked_order) + ")" : "",
                     p.conditions, p.trees);
  if (p.exact_order < p.order)
    out += fmt::format("               ({} to the precision of the digits given, {:.1g}; {} if those digits were exact)\n", p.order,
                       p.precision, p.exact_order);
  if (p.order < max_checked_order)
    out += fmt::format("  first failing order {}: {} (tree {}) off by {:.3g}; principal error coefficient {:.3g}\n",
                       p.first_failing.order, p.first_failing.formula, p.first_failing.tree, p.first_failing.residual,
                       p.error_coefficient);
  // On linear problems the failing conditions may all vanish: the order is higher there.
  if (m.predicted.linear && p.order < max_checked_order)
    if (const OrderAnalysis& q = Prediction::of(*m.predicted.linear); q.order > p.order)
      out += q.order == max_checked_order  // the spec judges none (no failing condition: no order to settle on)
                 ? fmt::format("  linear       order {} or more on linear problems x' = L x\n", q.order)
                 : fmt::format("  linear       order {} on linear problems x' = L x (first failing: {}, off by {:.3g})\n", q.order,
                               q.first_failing.formula, q.first_failing.residual);
  if (m.predicted.embedded) {  // the pair's other weights
    const OrderAnalysis& e = Prediction::of(*m.predicted.embedded);
    out += fmt::format("  embedded     b_hat declared order {}, predicted {}{}; b - b_hat estimates the error of order {}\n",
                       m.exact.order_hat, e.order, e.order == max_checked_order ? " (or more)" : "",
                       std::min(p.order, e.order) + 1);
  }
  out += fmt::format("  symplectic   {}\n", m.predicted.symplectic ? "yes" : "no");
  out += fmt::format("  symmetric    {}\n", t.kind == Kind::nystrom ? "not checked for Nystrom tables" : m.predicted.symmetric ? "yes" : "no");
  if (m.substeps > 1) out += fmt::format("  substeps     {} by default\n", m.substeps);
  out += fmt::format("  source       {}\n", t.source.empty() ? "(none given)" : t.source);
  return out;
}

}  // namespace study::tables
