// Methods as coefficient tables: exact coefficients in every precision, the order predicted from Butcher's
// conditions, the built-ins' tables against the built-ins themselves, the shipped library, bad tables' messages, and
// a table run by the engine (the same bits as its built-in; a wrong one caught by its predicted and measured order).
#include <catch2/catch.hpp>

#include "tests/support.hpp"

#include <boost/math/special_functions/next.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "integrators/all.hpp"
#include "integrators/table.hpp"
#include "study/engine.hpp"
#include "study/problems/all.hpp"
#include "study/problems/counted.hpp"
#include "study/spec/spec.hpp"
#include "study/common/interrupt.hpp"
#include "study/methods/library.hpp"

namespace {

using study::tables::Rational;
namespace tables = study::tables;

Rational R(const std::string& text) { return tables::parse_coefficient(text); }

/// Whether y (a value of a binary type, exactly as a rational) is the nearest value of its type to x: no closer
/// neighbour on either side (next is the step to the neighbours, computed by the caller).
bool nearest(const Rational& x, const Rational& y, const Rational& below, const Rational& above) {
  const Rational d = abs(x - y);
  return d <= abs(x - below) && d <= abs(x - above);
}

template <class Real>
void check_rounding(const Rational& x) {
  const Real y = ode::from_decimal<Real>(tables::decimal_for_rounding(x));
  INFO("x = " << tables::describe(x) << " in " << std::numeric_limits<Real>::digits << " bits");
  CHECK(nearest(x, Rational(y), Rational(std::nextafter(y, Real(-INFINITY))), Rational(std::nextafter(y, Real(INFINITY)))));
}

void check_rounding_quad(const Rational& x) {
  using Quad = boost::multiprecision::cpp_bin_float_quad;  // 113 bits, float128's significand
  const Quad y = ode::from_decimal<Quad>(tables::decimal_for_rounding(x));
  INFO("x = " << tables::describe(x) << " in 113 bits");
  CHECK(nearest(x, Rational(y), Rational(Quad(boost::math::float_prior(y))), Rational(Quad(boost::math::float_next(y)))));
}

/// The table of a built-in, from study/methods/builtin.toml.
const tables::Method& builtin(const std::string& id) { return tables::builtin_tables().at(id); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

std::string methods_error(const testing::TempDir& dir, const std::string& text) {
  const auto file = dir.file("m.toml", text);
  return error_of([&] { tables::read_methods_file(file); });
}

}  // namespace

TEST_CASE("coefficients are parsed exactly: decimals of any length, ratios, exponents") {
  CHECK(R("0.1") == Rational(1, 10));
  CHECK(R("-2/3") == Rational(-2, 3));
  CHECK(R("1.5/7") == Rational(3, 14));
  CHECK(R("-1.25e-3") == Rational(-1, 800));
  CHECK(R("+7") == Rational(7));
  CHECK(R(" 2.50 ") == Rational(5, 2));
  CHECK(R("0.414490771794375737142") == Rational(boost::multiprecision::cpp_int("414490771794375737142"),
                                                  boost::multiprecision::cpp_int("1000000000000000000000")));
  for (const char* bad : {"", "abc", "1/0", "1..2", "1e", "1e5000", "1e101", "0x10", "1/2/3", "--1"}) {
    INFO(bad);
    CHECK_THROWS_AS(R(bad), std::invalid_argument);
  }
  // The size limits (they bound the work of the order conditions): 100 digits a side, exponents within +-100.
  const std::string hundred(100, '7');
  CHECK(R(hundred + "/" + hundred + "e-100") == R("1e100"));
  CHECK(R("1e-100") == Rational(1, boost::multiprecision::pow(boost::multiprecision::cpp_int(10), 100)));
  CHECK_THAT(error_of([&] { R("0." + hundred + "7"); }), Catch::Contains("more than 100 digits"));
  CHECK_THAT(error_of([&] { R("1/" + hundred + "7"); }), Catch::Contains("more than 100 digits"));
  CHECK_THAT(error_of([] { R("1e-101"); }), Catch::Contains("beyond +-100"));
  CHECK_THAT(error_of([] { R("1/0"); }), Catch::Contains("divides by zero"));
  CHECK_THAT(error_of([] { R("0.5x"); }), Catch::Contains("unexpected 'x'"));
}

TEST_CASE("a coefficient rounds to its nearest double, long double and 113-bit value through its decimal text") {
  // Terminating decimals are written exactly; others with enough digits that no rounding boundary lies between.
  CHECK(tables::decimal_for_rounding(R("3/8")) == "0.375");
  CHECK(tables::decimal_for_rounding(R("-7/40")) == "-0.175");  // 2^3 5: terminating too
  // 2^-130 terminates after exactly 130 digits (Python's Fraction): all of them, more than a 113-bit grid needs.
  CHECK(tables::decimal_for_rounding(R("1/1361129467683753853853498429727072845824")) ==
        "0.0000000000000000000000000000000000000007346839692639296924804603357639035486366659729825547009429698164240107871592044830322265625");
  CHECK(tables::decimal_for_rounding(R("-12.5e3")) == "-12500");
  std::mt19937_64 rng(20261123);
  std::vector<Rational> xs{R("1/3"), R("-2/3"), R("1/7"), R("22/7"), R("1e-30/7"), R("123456789/1000000007"), R("1/1024"),
                           R("5/36"), R("-2889/1024")};
  for (int i = 0; i < 300; ++i) {
    const auto num = static_cast<long long>(rng() % 2000001) - 1000000;
    const auto den = static_cast<long long>(rng() % 999999) + 1;
    xs.push_back(Rational(num, den) * Rational(1, static_cast<long long>(1) << (rng() % 40)));
  }
  for (const auto& x : xs) {
    check_rounding<double>(x);
    check_rounding<long double>(x);
    check_rounding_quad(x);
  }
}

TEST_CASE("a decimal of six or more digits is read as rounded to them, and shorter ones, ratios and integers as exact") {
  CHECK(tables::stated_precision("0.5") == 0);
  CHECK(tables::stated_precision("-0.125") == 0);
  CHECK(tables::stated_precision("1/3") == 0);
  CHECK(tables::stated_precision("1234567") == 0);
  CHECK(tables::stated_precision("0.29697761") == Approx(5e-8));
  CHECK(tables::stated_precision("0.1786178958448091") == Approx(5e-16));
  CHECK(tables::stated_precision("1.00000e-3") == 0);
  CHECK(tables::stated_precision("0.500000") == 0);
  CHECK(tables::stated_precision("1.35120719195966/1") == Approx(5e-15));
  CHECK(tables::stated_precision("1.2345678e-3") == Approx(5e-8));
  // A decimal longer than the ratio it equals is exact: 0.037109375 = 19/512 (9 digits written, 5 in the ratio),
  // 1.00390625 = 257/256, 0.0390625 = 5/128.  Roundings of as many digits reduce to ratios at least as long:
  // 0.03710937 = 3710937/10^8, 123456.78 = 6172839/50, -3.05096516 = -76274129/25000000.
  CHECK(tables::stated_precision("3.7109375e-2") == 0);
  CHECK(tables::stated_precision("0.037109375") == 0);
  CHECK(tables::stated_precision("1.00390625") == 0);
  CHECK(tables::stated_precision("0.0390625") == 0);
  CHECK(tables::written_uncertainty("0.0390625") == 0);
  CHECK(tables::stated_precision("0.03710937") == Approx(5e-7));
  // At the edge: 0.00859375 = 11/1280 (6 digits written, 2 + 4 in the ratio) is not longer, so read as rounded;
  // 0.01015625 = 13/1280 (7 digits written) is longer, so exact.
  CHECK(tables::stated_precision("0.00859375") == Approx(5e-6));
  CHECK(tables::stated_precision("0.01015625") == 0);
  CHECK(tables::stated_precision("123456.78") == Approx(5e-8));
  CHECK(tables::stated_precision("-3.05096516") == Approx(5e-9));
  // 16 significant digits or more may have been printed from a double (%.17g), up to an ulp from the value meant:
  // held to at least |x| eps, not to half a unit of the 17th digit (5e-17); 15 digits keep their own 5e-16.
  constexpr double eps = std::numeric_limits<double>::epsilon();
  CHECK(tables::written_uncertainty("1.3512071919596578") == Approx(1.3512071919596578 * eps).epsilon(1e-12));
  CHECK(tables::written_uncertainty("0.123456789012345") == Approx(5e-16).epsilon(1e-9));
  CHECK(tables::written_uncertainty("0.1000000000000000055511151231257827") == Approx(0.1 * eps).epsilon(1e-9));  // a double's expansion
}

TEST_CASE("the order conditions stop at Ctrl-C (a large table's take seconds)", "[hardening]") {
  const tables::Matrix rk4{{}, {R("1/2")}, {R("0"), R("1/2")}, {R("0"), R("0"), R("1")}};
  const std::vector<Rational> rk4_b{R("1/6"), R("1/3"), R("1/3"), R("1/6")};
  study::interrupt_flag = true;
  CHECK_THROWS_AS(tables::runge_kutta_order(rk4, rk4_b), study::Interrupted);
  CHECK_THROWS_AS(tables::nystrom_order(tables::nystrom_of(rk4, rk4_b, rk4, rk4_b), 0), study::Interrupted);
  study::interrupt_flag = false;
  CHECK(tables::runge_kutta_order(rk4, rk4_b).order == 4);
}

TEST_CASE("order conditions: the classical orders and tree counts") {
  // RK4: all 8 conditions of order <= 4 hold; the 9 of order 5 are checked, b c^4 = 1/5 fails first.
  const tables::Matrix rk4{{}, {R("1/2")}, {R("0"), R("1/2")}, {R("0"), R("0"), R("1")}};
  const std::vector<Rational> rk4_b{R("1/6"), R("1/3"), R("1/3"), R("1/6")};
  const auto a = tables::runge_kutta_order(rk4, rk4_b);
  CHECK(a.order == 4);
  CHECK(a.exact_order == 4);
  CHECK(a.conditions == 1 + 1 + 2 + 4 + 9);
  CHECK(a.first_failing.order == 5);
  CHECK(a.first_failing.formula == "sum b_i c_i^4 = 1/5");
  CHECK(a.first_failing.residual == Approx(5.0 / 24 - 1.0 / 5).epsilon(1e-12));  // b c^4 = 1/6 (1/16 + 1/16) + ... = 5/24
  // The principal error coefficient of RK4 (Butcher's A^(5)): 0.01450 (Butcher, Numerical Methods for ODEs, §32).
  CHECK(a.error_coefficient == Approx(0.0145).margin(5e-5));
  // A 3rd-order tableau (Kutta): order 3, failing at order 4 among its 4 trees.
  const auto k3 = tables::runge_kutta_order({{}, {R("1/2")}, {R("-1"), R("2")}}, {R("1/6"), R("2/3"), R("1/6")});
  CHECK(k3.order == 3);
  CHECK(k3.conditions == 1 + 1 + 2 + 4);
  // Gauss-Legendre 6 (exact in sqrt 15: given to 40 digits): order 6, 85 conditions through order 7.
  const auto& gl6 = *tables::shipped_library().find("gauss-legendre6");
  CHECK(gl6.predicted.order().order == 6);
  CHECK(gl6.predicted.order().conditions == 1 + 1 + 2 + 4 + 9 + 20 + 48);
  // Nyström trees (x'' = a(x)): Kahan-Li 8 is checked through order 9: velocity trees 1, 1, 2, 3, 6, 10, 20, 36, 72
  // (Hairer, Norsett, Wanner I, Table II.14.3) and a position tree over each velocity tree of order <= 8, plus x itself.
  const auto& kl8 = *tables::shipped_library().find("kahan-li8");
  CHECK(kl8.predicted.order().order == 8);
  CHECK(kl8.predicted.order().conditions == (1 + 1 + 2 + 3 + 6 + 10 + 20 + 36 + 72) + (1 + 1 + 1 + 2 + 3 + 6 + 10 + 20 + 36));
}

TEST_CASE("order conditions: a wrong coefficient lowers the predicted order, a rounded digit does not") {
  // RK4 with a31 = 1/6, a32 = 1/3 instead of 0, 1/2 (the node c3 = 1/2 kept): b a c = 1/6 fails, order 2.
  const auto wrong = tables::runge_kutta_order({{}, {R("1/2")}, {R("1/6"), R("1/3")}, {R("0"), R("0"), R("1")}},
                                               {R("1/6"), R("1/3"), R("1/3"), R("1/6")});
  CHECK(wrong.order == 2);
  CHECK(wrong.first_failing.order == 3);
  CHECK(wrong.first_failing.formula == "sum b_i a_ij c_j = 1/6");
  CHECK(wrong.first_failing.residual == Approx(5.0 / 36 - 1.0 / 6).epsilon(1e-12));
  // Ralston 4 with its coefficients rounded to 8 digits (as tables print them): 4th order to their precision,
  // 3rd with the digits taken as exact.
  const tables::Matrix a8{{}, {R("0.4")}, {R("0.29697761"), R("0.15875964")}, {R("0.21810040"), R("-3.05096516"), R("3.83286476")}};
  const std::vector<Rational> b8{R("0.17476028"), R("-0.55148066"), R("1.20553560"), R("0.17118478")};
  const auto rounded = tables::runge_kutta_order(a8, b8, 5e-8);
  CHECK(rounded.order == 4);
  CHECK(rounded.exact_order < 4);
  const auto exact = tables::runge_kutta_order(a8, b8, 0);
  CHECK(exact.order < 4);
  // Kutta's third-order method (c = 0, 1/2, 1): b c^3 = 2/3 1/8 + 1/6 = 1/4 holds, then b_i c_i a_ij c_j = 1/6 1 1
  // against 1/8 fails first, by 1/24; the factors of its formula in alphabetical order, equal ones as powers.
  const auto kutta = tables::runge_kutta_order({{}, {R("1/2")}, {R("-1"), R("2")}}, {R("1/6"), R("2/3"), R("1/6")});
  CHECK(kutta.order == 3);
  CHECK(kutta.first_failing.order == 4);
  CHECK(kutta.first_failing.tree == "[t,[t]]");
  CHECK(kutta.first_failing.formula == "sum b_i a_ij c_i c_j = 1/8");
  CHECK(kutta.first_failing.residual == Approx(1.0 / 24).epsilon(1e-12));
  // A digit wrong in the third place is not rounding: order 3 at that precision too.
  const tables::Matrix typo{{}, {R("0.4")}, {R("0.29997761"), R("0.15875964")}, {R("0.21810040"), R("-3.05096516"), R("3.83286476")}};
  CHECK(tables::runge_kutta_order(typo, b8, 5e-8).order < 4);
}

TEST_CASE("linear problems: a table's order there is its stability function's, by hand and from Hairer and Wanner") {
  // c = 0, 1/2, 1; a31 = 1/3, a32 = 2/3; b = 1/2, 0, 1/2.  b c = 1/2 holds, b c^2 = 1/2 against 1/3 fails: order 2.
  // On x' = L x only the tall trees count: b A c = 1/2 (2/3 1/2) = 1/6 holds, b A^2 c = 0 (A (A c) = 0: the only
  // nonzero entry of A c is the last) against 1/24 fails by -1/24: order 3.
  const tables::Matrix a{{}, {R("1/2")}, {R("1/3"), R("2/3")}};
  const std::vector<Rational> b{R("1/2"), R("0"), R("1/2")};
  CHECK(tables::runge_kutta_order(a, b).order == 2);
  const auto lin = tables::linear_order(a, b);
  CHECK(lin.order == 3);
  CHECK(lin.first_failing.order == 4);
  CHECK(lin.first_failing.formula == "sum b^T A^3 1 = 1/24");
  CHECK(lin.first_failing.residual == Approx(-1.0 / 24).epsilon(1e-12));
  // Classical RK4: four explicit stages, A^4 = 0, so b A^4 1 = 0 against 1/120: its order and no more.
  const auto rk4 = tables::linear_order(builtin("rk4").exact.a, builtin("rk4").exact.b);
  CHECK(rk4.order == 4);
  CHECK(rk4.first_failing.residual == Approx(-1.0 / 120).epsilon(1e-12));
  // Dormand-Prince 5(4): R(z) = 1 + z + ... + z^5/120 + z^6/600 (Hairer and Wanner, Solving ODEs II, §IV.2):
  // order 5 on linear problems, its z^6 term off by 1/600 - 1/720 = 1/3600.
  const tables::Method* dopri5 = tables::shipped_library().find("dopri5");
  REQUIRE(dopri5);
  const auto dp = tables::linear_order(dopri5->exact.a, dopri5->exact.b);
  CHECK(dp.order == 5);
  CHECK(dp.first_failing.residual == Approx(1.0 / 3600).epsilon(1e-12));
  REQUIRE(dopri5->predicted.linear);
  CHECK(tables::Prediction::of(*dopri5->predicted.linear).order == 5);
}

TEST_CASE("a table's stated precision comes from its digits, quoted or bare numbers alike") {
  // Ralston 4 rounded to 8 digits, as above, written once as strings and once as TOML numbers: 4th order to that
  // precision, 1st with the digits taken as exact -- in both forms.  The precision is the largest half unit of a
  // last significant digit: 0.21810040 has 7 (a trailing zero is not one), 5e-7.
  const testing::TempDir dir("tables-precision");
  const std::string rows[] = {R"([[], [0.4], [0.29697761, 0.15875964], [0.21810040, -3.05096516, 3.83286476]])",
                              R"([0.17476028, -0.55148066, 1.20553560, 0.17118478])"};
  auto quoted = [](std::string t) {  // every number in quotes
    std::string out;
    for (std::size_t i = 0; i < t.size();) {
      if (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '-') {
        std::size_t j = i;
        while (j < t.size() && (std::isdigit(static_cast<unsigned char>(t[j])) || t[j] == '.' || t[j] == '-')) ++j;
        out += '"' + t.substr(i, j - i) + '"', i = j;
      } else {
        out += t[i++];
      }
    }
    return out;
  };
  for (const bool strings : {false, true}) {
    INFO((strings ? "quoted" : "bare numbers"));
    const auto lib = tables::read_methods_file(dir.file(strings ? "q.toml" : "b.toml",
        "[methods.ralston8]\nkind = \"runge-kutta\"\norder = 4\na = " + (strings ? quoted(rows[0]) : rows[0]) + "\nb = " +
            (strings ? quoted(rows[1]) : rows[1]) + "\n"));
    const auto& p = lib.find("ralston8")->predicted.order();
    CHECK(p.order == 4);
    CHECK(p.exact_order == 1);  // sum b = 1 exactly, but sum b c - 1/2 = -4.88e-9 (Python's Fraction)
    CHECK(p.precision == Approx(5e-7));
  }
}

TEST_CASE("a partitioned method's Nystrom form, and the sums of magnitudes its tolerances use, by hand") {
  // c = a 1, abar = a ahat, bbar = b^T ahat, b_x = sum b (GNI §III.2), and the same sums of absolute values.
  const tables::Matrix a{{R("1/2"), R("-1/4")}, {R("1"), R("0")}}, ahat{{R("1/2"), R("0")}, {R("1"), R("1/2")}};
  const auto n = tables::nystrom_of(a, {R("-1/4"), R("5/4")}, ahat, {R("1/3"), R("2/3")});
  CHECK(n.c == std::vector<Rational>{R("1/4"), R("1")});
  CHECK(n.c_abs == std::vector<double>{0.75, 1});
  CHECK(n.bbar == std::vector<Rational>{R("9/8"), R("5/8")});      // -1/4 1/2 + 5/4 1, 5/4 1/2
  CHECK(n.bbar_abs == std::vector<double>{11.0 / 8, 5.0 / 8});
  CHECK(n.abar == tables::Matrix{{R("0"), R("-1/8")}, {R("1/2"), R("0")}});  // 1/2 1/2 - 1/4 1 = 0, ...
  CHECK(n.abar_abs == std::vector<std::vector<double>>{{0.5, 0.125}, {0.5, 0}});
  CHECK(n.b == std::vector<Rational>{R("1/3"), R("2/3")});
  CHECK(n.b_x == Rational(1));
  CHECK(n.b_x_abs == 1.5);
  // An explicit table's rows written short (the zeros above the diagonal left out) are the same table.
  const tables::Matrix full{{R("0"), R("0")}, {R("1/2"), R("0")}}, short_rows{{}, {R("1/2")}};
  const auto f = tables::nystrom_of(full, {R("0"), R("1")}, full, {R("1/3"), R("2/3")});
  const auto r = tables::nystrom_of(short_rows, {R("0"), R("1")}, short_rows, {R("1/3"), R("2/3")});
  CHECK(r.c == std::vector<Rational>{R("0"), R("1/2")});
  CHECK(r.c == f.c);
  CHECK(r.abar == f.abar);
  CHECK(r.abar == tables::Matrix{{R("0"), R("0")}, {R("0"), R("0")}});  // a ahat: 1/2 0 below the diagonal only
  CHECK(r.bbar == f.bbar);
  CHECK(r.bbar == std::vector<Rational>{R("1/2"), R("0")});               // b^T ahat = 1 1/2 in column 0
  // The written uncertainties, to first order: |d(sum x y)| <= sum |x| u_y + u_x |y|.  In units of 1/1024: u_a = [[1, 2],
  // [3, 4]], u_b = [5, 6], u_ahat = [[7, 8], [9, 10]], u_bhat = [11, 12].
  const double u = 1.0 / 1024;
  const tables::Units units{{{1 * u, 2 * u}, {3 * u, 4 * u}}, {5 * u, 6 * u}}, hat{{{7 * u, 8 * u}, {9 * u, 10 * u}}, {11 * u, 12 * u}};
  const auto w = tables::nystrom_of(a, {R("-1/4"), R("5/4")}, ahat, {R("1/3"), R("2/3")}, units, hat);
  CHECK(w.c_unit == std::vector<double>{3 * u, 7 * u});  // c_i = sum_j a_ij
  // bbar_0 = b_0 ahat_00 + b_1 ahat_10: 1/4 7 + 5 1/2 + 5/4 9 + 6 1 = 21.5; bbar_1 = 1/4 8 + 5 0 + 5/4 10 + 6 1/2 = 17.5.
  CHECK(w.bbar_unit == std::vector<double>{21.5 * u, 17.5 * u});
  // abar_ij = sum_k a_ik ahat_kj: (0,0) 1/2 7 + 1 1/2 + 1/4 9 + 2 1 = 8.25; (0,1) 1/2 8 + 1 0 + 1/4 10 + 2 1/2 = 7.5;
  // (1,0) 1 7 + 3 1/2 + 0 9 + 4 1 = 12.5; (1,1) 1 8 + 3 0 + 0 10 + 4 1/2 = 10.
  CHECK(w.abar_unit == std::vector<std::vector<double>>{{8.25 * u, 7.5 * u}, {12.5 * u, 10 * u}});
  CHECK(w.b_unit == std::vector<double>{11 * u, 12 * u});  // b of the Nystrom form is bhat
  CHECK(w.b_x_unit == 11 * u);                              // sum b: 5 + 6
}

TEST_CASE("a composition becomes its base's drifts and kicks (or stages) scaled by each weight, merged where they meet") {
  const testing::TempDir dir("tables-composition");
  const auto lib = tables::read_methods_file(dir.file("c.toml", R"(
[methods.jump]
kind = "composition"
order = 2
base = "leapfrog"
weights = ["2/3", "-1/3", "2/3"]

[methods.rk4-twice]
kind = "composition"
order = 4
base = "rk4"
weights = ["1/2", "1/2"]
)"));
  // Leapfrog is drift 1/2, kick 1, drift 1/2: three of them at 2/3, -1/3, 2/3, with the drifts that meet added:
  // drift 1/3, kick 2/3, drift 1/3 - 1/6 = 1/6, kick -1/3, drift 1/6, kick 2/3, drift 1/3 (a triple jump's shape).
  const auto& jump = lib.find("jump")->exact;
  const std::vector<std::pair<bool, Rational>> ops{{false, R("1/3")}, {true, R("2/3")},  {false, R("1/6")}, {true, R("-1/3")},
                                                   {false, R("1/6")}, {true, R("2/3")},  {false, R("1/3")}};
  CHECK(jump.ops == ops);
  CHECK(lib.find("jump")->table->evals_per_step == 3);
  // RK4 twice at h/2: 8 stages; block (i, j < i) holds w_j b, the diagonal blocks w_i a; c the row sums.
  const auto& twice = lib.find("rk4-twice")->exact;
  REQUIRE(twice.b.size() == 8);
  CHECK(twice.b == std::vector<Rational>{R("1/12"), R("1/6"), R("1/6"), R("1/12"), R("1/12"), R("1/6"), R("1/6"), R("1/12")});
  CHECK(twice.a[4][0] == R("1/12"));  // w_0 b_0
  CHECK(twice.a[5][1] == R("1/6"));   // w_0 b_1
  CHECK(twice.a[5][4] == R("1/4"));   // w_1 a_10
  CHECK(twice.a[7][6] == R("1/2"));   // w_1 a_32
  CHECK(twice.a[1][0] == R("1/4"));
  CHECK(twice.a[0][4] == R("0"));     // nothing above the blocks
  CHECK(twice.c == std::vector<Rational>{R("0"), R("1/4"), R("1/4"), R("1/2"), R("1/2"), R("3/4"), R("3/4"), R("1")});
  CHECK(lib.find("rk4-twice")->table->evals_per_step == 8);
  CHECK(lib.find("rk4-twice")->predicted.order().order == 4);
}

TEST_CASE("a Runge-Kutta composition with unequal weights is the tableau multiplied out by hand") {
  const testing::TempDir dir("tables-composition-unequal");
  const auto lib = tables::read_methods_file(dir.file("c.toml", R"(
[methods.heun-quarters]
kind = "composition"
order = 2
base = "rk2-heun"
weights = ["1/4", "3/4"]

[methods.rk4-thirds]
kind = "composition"
order = 4
base = "rk4"
weights = ["1/2", "1/3", "1/6"]
)"));
  auto rows = [](std::vector<std::vector<std::string>> text) {
    tables::Matrix m;
    for (const auto& row : text) {
      m.emplace_back();
      for (const auto& x : row) m.back().push_back(R(x));
    }
    return m;
  };
  // Heun (a21 = 1, b = 1/2, 1/2) at h/4 then 3h/4: the second step's stages see the first step whole (1/4 b =
  // 1/8, 1/8) and their own a scaled by 3/4.
  const auto& heun = lib.find("heun-quarters")->exact;
  CHECK(heun.a == rows({{"0", "0", "0", "0"}, {"1/4", "0", "0", "0"}, {"1/8", "1/8", "0", "0"}, {"1/8", "1/8", "3/4", "0"}}));
  CHECK(heun.b == std::vector<Rational>{R("1/8"), R("1/8"), R("3/8"), R("3/8")});
  CHECK(heun.c == std::vector<Rational>{R("0"), R("1/4"), R("1/4"), R("1")});
  // RK4 (b = 1/6, 1/3, 1/3, 1/6) at h/2, h/3, h/6: every row of block 2 holds 1/2 b in columns 0-3 and 1/3 b in 4-7,
  // block 1 holds 1/2 b; the diagonal blocks a scaled by their own weight.
  const auto& rk4 = lib.find("rk4-thirds")->exact;
  REQUIRE(rk4.a.size() == 12);
  const std::vector<Rational> half_b{R("1/12"), R("1/6"), R("1/6"), R("1/12")}, third_b{R("1/18"), R("1/9"), R("1/9"), R("1/18")};
  for (std::size_t r = 4; r < 12; ++r)
    for (std::size_t k = 0; k < 4; ++k) {
      INFO("row " << r << " column " << k);
      CHECK(rk4.a[r][k] == half_b[k]);
      if (r >= 8) CHECK(rk4.a[r][4 + k] == third_b[k]);
    }
  CHECK(rk4.a[1][0] == R("1/4"));   // 1/2 a_10
  CHECK(rk4.a[3][2] == R("1/2"));   // 1/2 a_32
  CHECK(rk4.a[5][4] == R("1/6"));   // 1/3 a_10
  CHECK(rk4.a[7][6] == R("1/3"));   // 1/3 a_32
  CHECK(rk4.a[9][8] == R("1/12"));  // 1/6 a_10
  CHECK(rk4.a[11][10] == R("1/6")); // 1/6 a_32
  CHECK(rk4.a[6][4] == R("0"));     // a_20 = 0 stays 0
  CHECK(rk4.b == std::vector<Rational>{R("1/12"), R("1/6"), R("1/6"), R("1/12"), R("1/18"), R("1/9"), R("1/9"), R("1/18"), R("1/36"),
                                       R("1/18"), R("1/18"), R("1/36")});
  CHECK(rk4.c == std::vector<Rational>{R("0"), R("1/4"), R("1/4"), R("1/2"), R("1/2"), R("2/3"), R("2/3"), R("5/6"), R("5/6"), R("11/12"),
                                       R("11/12"), R("1")});
  // Each still has its base's order (a composition of steps adding up to one keeps it).
  CHECK(lib.find("heun-quarters")->predicted.order().order == 2);
  CHECK(lib.find("rk4-thirds")->predicted.order().order == 4);
}

TEST_CASE("order conditions do not hold by the size of terms that cancel: weights 1e17, 1, -1e17 make order 2", "[hardening]") {
  const testing::TempDir dir("tables-cancel");
  // Leapfrog (order 2, symmetric) at weights w: Sum w = 1 keeps order 2; order 3 needs Sum w^3 = 0 (the base's h^3
  // error term, scaled by w_i^3, adds up; Hairer, Lubich, Wanner, GNI §II.4).  Here Sum w^3 = 1e51 + 1 - 1e51 = 1, so
  // the order is 2, though the terms of the order-3 conditions reach 1e51 and their 50-digit rounding is ~1e2.
  for (const std::string big : {"1e17", "1e100"}) {
    INFO(big);
    const std::string text = "[methods.cancel]\nkind = \"composition\"\nbase = \"leapfrog\"\norder = 4\nweights = [\"" + big +
                             "\", \"1\", \"-" + big + "\"]\n";
    const std::string error = methods_error(dir, text);
    CHECK_THAT(error, Catch::Contains("declares order 4, but the coefficients have order 2"));
    CHECK_THAT(error, Catch::Contains("declare order = 2"));
    // Declared 2, it reads, and its analysis says 2 (the exact residual is the base's own, 1/12 or 1/24, not 1e2).
    auto ok = text;
    ok.replace(ok.find("order = 4"), 9, "order = 2");
    const auto lib = tables::read_methods_file(dir.file("ok.toml", ok));
    const auto& p = lib.find("cancel")->predicted.order();
    CHECK(p.order == 2);
    CHECK(p.first_failing.order == 3);
    CHECK(std::abs(p.first_failing.residual) >= 1.0 / 24 - 1e-12);
    CHECK(std::abs(p.first_failing.residual) <= 1.0 / 6 + 1e-12);
  }
  // The same on a Runge–Kutta table: Heun's rk2 (b = 1/2, 1/2; a21 = 1) with b = 1e17 + 1/2, 1/2 - 1e17 is not even
  // consistent; b = 1/2 + 1e17, 1/2 - 1e17 with a21 = 1 fails b c = 1/2 by 1e17, caught in 50 digits as before.  The
  // cancelling case: rk4's weights with 1e20 added to b1 and b4 and 2e20 taken from b2 (c = 0, 1/2, 1/2, 1):
  // b 1 = 1 and b c = 1/2 still hold exactly (1e20 0 - 2e20 1/2 + 1e20 1 = 0) but b c^2 = 1/3 gains 1e20 (1 - 1/2)
  // = 5e19: order 2.
  const tables::Matrix rk4{{}, {R("1/2")}, {R("0"), R("1/2")}, {R("0"), R("0"), R("1")}};
  const auto p = tables::runge_kutta_order(rk4, {R("1/6") + R("1e20"), R("1/3") - R("2e20"), R("1/3"), R("1/6") + R("1e20")});
  CHECK(p.order == 2);
  CHECK(p.first_failing.residual == Approx(5e19).epsilon(1e-12));
}

TEST_CASE("each coefficient is held to its own digits: an exact short decimal does not loosen the others") {
  const testing::TempDir dir("tables-own-digits");
  // Kutta's 3-stage family of order 3 (Hairer, Norsett, Wanner I, (1.9)) at c2 = 5/128, c3 = 3/4:
  // b = -49/45, 2048/1365, 482/819; a31 = -31329/4820, a32 = 8736/1205, a21 = 5/128 = 0.0390625 (7 digits, exact).
  // The others to 30 digits.  With a32 wrong in its 10th digit (and a31 with it, so c3 stays), the order is 1: b c =
  // 1/2 misses by b3 a32 10^-9-ish.  Held to the 7-digit decimal's precision (5e-7 for all, as before), it passed as 3.
  const std::string good = R"([methods.kutta-c]
kind = "runge-kutta"
order = 3
a = [[], ["0.0390625"], ["-6.49979253112033195020746887967", "7.24979253112033195020746887967"]]
b = ["-1.08888888888888888888888888889", "1.50036630036630036630036630037", "0.588522588522588522588522588523"]
)";
  const auto lib = tables::read_methods_file(dir.file("good.toml", good));
  CHECK(lib.find("kutta-c")->predicted.order().order == 3);
  CHECK(lib.find("kutta-c")->predicted.order().exact_order == 3);
  auto typo = good;
  typo.replace(typo.find("7.249792531"), 11, "7.249792532");
  typo.replace(typo.find("-6.499792531"), 12, "-6.499792532");
  const std::string error = methods_error(dir, typo);
  CHECK_THAT(error, Catch::Contains("declares order 3, but the coefficients have order"));
  // Every coefficient rounded to 8 digits: order 3 to their precision, as before (each to its own 5e-9 relative).
  const std::string eight = R"([methods.kutta-8]
kind = "runge-kutta"
order = 3
a = [[], ["0.0390625"], ["-6.4997925", "7.2497925"]]
b = ["-1.0888889", "1.5003663", "0.58852259"]
)";
  const auto lib8 = tables::read_methods_file(dir.file("eight.toml", eight));
  CHECK(lib8.find("kutta-8")->predicted.order().order == 3);
  CHECK(lib8.find("kutta-8")->predicted.order().exact_order < 3);
}

TEST_CASE("a table whose conditions cancel too deeply to evaluate exactly within the bound is refused, naming it", "[hardening]") {
  // Stages 1 and 3 alike (a10 = a30 = 1/2) with weights 1e90 and -1e90, stage 2 the midpoint's (a21 = 1/2) with
  // weight 1, and a00 = 1 (c0 = 1: the stages' a c do not vanish): every condition's terms reach 1e90 and cancel to
  // the midpoint's (order 2), beyond 50 digits.  Rows 4 to 23 hold 99-digit coprime denominators (weight 0): the
  // common denominator has some 37 000 digits, and the exact a c (order 3) needs about 1.5e9 limb products.
  const std::size_t s = 24;
  tables::Matrix a(s, std::vector<Rational>(s, Rational(0)));
  a[0][0] = R("1"), a[1][0] = a[3][0] = a[2][1] = R("1/2");
  boost::multiprecision::cpp_int q = boost::multiprecision::pow(boost::multiprecision::cpp_int(10), 98);
  for (std::size_t i = 4; i < s; ++i)
    for (std::size_t j = 0; j < i; ++j) {
      q += 1;
      while (boost::multiprecision::gcd(q, boost::multiprecision::cpp_int(30)) != 1) q += 1;
      a[i][j] = Rational(boost::multiprecision::cpp_int(1), q);
    }
  std::vector<Rational> b(s, Rational(0));
  b[1] = R("1e90"), b[2] = R("1"), b[3] = R("-1e90");
  CHECK_THROWS_WITH(tables::runge_kutta_order(a, b), Catch::Contains("evaluating them exactly needs more than"));
  // Without the costly rows, the same table is decided exactly: the midpoint's order 2.
  tables::Matrix small(a.begin(), a.begin() + 4);
  for (auto& row : small) row.resize(4);
  const auto p = tables::runge_kutta_order(small, std::vector<Rational>(b.begin(), b.begin() + 4));
  CHECK(p.order == 2);
  CHECK(p.first_failing.residual == Approx(1.0 / 4 - 1.0 / 3).epsilon(1e-12));  // b c^2 = (1/2)^2 against 1/3
  CHECK(p.first_failing.formula == "sum b_i c_i^2 = 1/3");
}

TEST_CASE("a composition is symmetric only when its weights mirror each other within the digits written") {
  const testing::TempDir dir("tables-symmetric");
  // Triple jumps of leapfrog whose weights add up to 1 exactly.  Written to 6 digits, 1.35122 and 1.35120 differ by
  // 2e-5: 4 half units of the 6th digit (5e-6 for 1.35122; 1.3512 is exact), so they are two numbers and the
  // composition is not symmetric (the relative precision 5e-6 times 16 let them agree).  1.351207191959657634 and
  // 1.35120719195965763404 are roundings of one number (within 5e-19 + 5e-21) and mirror each other; so do exact
  // ratios that are equal.
  const auto lib = tables::read_methods_file(dir.file("s.toml", R"(
[methods.lopsided]
kind = "composition"
order = 2
base = "leapfrog"
weights = ["1.35122", "-1.70242", "1.35120"]

[methods.mirrored]
kind = "composition"
order = 4
base = "leapfrog"
weights = ["1.351207191959657634", "-1.70241438391931526804", "1.35120719195965763404"]

[methods.exact]
kind = "composition"
order = 2
base = "leapfrog"
weights = ["1/2", "1/4", "1/4"]

[methods.exact-mirror]
kind = "composition"
order = 2
base = "leapfrog"
weights = ["1/3", "1/3", "2/6"]

[methods.rk-lopsided]
kind = "composition"
order = 2
base = "implicit-midpoint"
weights = ["0.300001", "0.4", "0.299999"]

[methods.rk-mirrored]
kind = "composition"
order = 2
base = "implicit-midpoint"
weights = ["0.4142135623730950488", "0.1715728752538099024", "0.41421356237309505"]

[methods.split-zero]
kind = "splitting"
order = 2
drift = ["1/2", "0", "1/2"]
kick = ["1", "0"]
)"));
  // Drift 1/2, kick 1, drift 0, kick 0, drift 1/2: the zeros dropped and the kicks merged, leapfrog, a palindrome.
  CHECK(lib.find("split-zero")->predicted.symmetric);
  CHECK_FALSE(lib.find("lopsided")->predicted.symmetric);
  CHECK(lib.find("mirrored")->predicted.symmetric);
  CHECK_FALSE(lib.find("exact")->predicted.symmetric);
  CHECK(lib.find("exact-mirror")->predicted.symmetric);
  // A Runge-Kutta base (implicit midpoint, symmetric): the block tableau's identities, exactly, within the entries'
  // uncertainties.  0.300001 and 0.299999 differ by 2e-6, over their half units 5e-7 + 5e-7; 0.4142135623730950488
  // and 0.41421356237309505 differ by 1.2e-19, within 5e-20 + 5e-18 (both roundings of sqrt(2) - 1).
  CHECK_FALSE(lib.find("rk-lopsided")->predicted.symmetric);
  CHECK(lib.find("rk-mirrored")->predicted.symmetric);
  // The written uncertainties themselves, by hand: half a unit in the last nonzero digit.
  CHECK(tables::written_uncertainty("1.35122") == Approx(5e-6).epsilon(1e-12));
  CHECK(tables::written_uncertainty("1.3512") == 0);          // 5 digits: exact (stated_precision)
  CHECK(tables::written_uncertainty("-0.000123456") == Approx(5e-10).epsilon(1e-12));
  CHECK(tables::written_uncertainty("1.234567e-3") == Approx(5e-10).epsilon(1e-12));
  CHECK(tables::written_uncertainty("1234567.0") == Approx(0.5).epsilon(1e-12));
  CHECK(tables::written_uncertainty("1234560") == 0);          // an integer: exact
  CHECK(tables::written_uncertainty("2/3") == 0);
  CHECK(tables::written_uncertainty("1.234567/2") == Approx(5e-7 / 2).epsilon(1e-9));
}

TEST_CASE("compositions of compositions are read each after its base, in any order, and a cycle is named", "[hardening]") {
  const testing::TempDir dir("tables-chain");
  // A chain listed so that TOML's key order (c0, c1, c10, c100, ...) puts most bases after their compositions:
  // c_i = c_{i-1} at weights 1/2, 1/2 for i <= 3 (leapfrog at four half-halvings: 2^3 leapfrogs of h/8, merged to
  // 9 drifts and 8 kicks), then weight 1 (the same method again) up to c_200 (each table's order conditions are evaluated: 200 keep the
  // test quick under the sanitizers).
  std::string text = "[methods.c0]\nkind = \"composition\"\norder = 2\nbase = \"leapfrog\"\nweights = [\"1\"]\n";
  for (int i = 1; i <= 200; ++i)
    text += "[methods.c" + std::to_string(i) + "]\nkind = \"composition\"\norder = 2\nbase = \"c" + std::to_string(i - 1) +
            (i <= 3 ? "\"\nweights = [\"1/2\", \"1/2\"]\n" : "\"\nweights = [\"1\"]\n");
  const auto lib = tables::read_methods_file(dir.file("chain.toml", text));
  const auto& last = lib.find("c200")->exact;
  REQUIRE(last.ops.size() == 17);
  CHECK(last.ops.front() == std::pair<bool, Rational>{false, R("1/16")});
  CHECK(last.ops[1] == std::pair<bool, Rational>{true, R("1/8")});
  CHECK(last.ops[2] == std::pair<bool, Rational>{false, R("1/8")});
  CHECK(lib.find("c200")->table->evals_per_step == 8);

  const std::string two = "[methods.a]\nkind = \"composition\"\norder = 2\nbase = \"b\"\nweights = [\"1\"]\n"
                          "[methods.b]\nkind = \"composition\"\norder = 2\nbase = \"a\"\nweights = [\"1\"]\n";
  CHECK_THAT(methods_error(dir, two), Catch::Contains(".base: the compositions' bases form a cycle"));
  CHECK_THAT(methods_error(dir, "[methods.a]\nkind = \"composition\"\norder = 2\nbase = \"a\"\nweights = [\"1\"]\n"),
             Catch::Contains("m.toml:4: methods.a.base: the compositions' bases form a cycle"));
}

TEST_CASE("symplectic and symmetric Runge-Kutta tables") {
  CHECK(tables::runge_kutta_symplectic({{R("1/2")}}, {R("1")}));
  CHECK(tables::runge_kutta_symmetric({{R("1/2")}}, {R("1")}));
  const tables::Matrix rk4{{}, {R("1/2")}, {R("0"), R("1/2")}, {R("0"), R("0"), R("1")}};
  CHECK_FALSE(tables::runge_kutta_symplectic(rk4, {R("1/6"), R("1/3"), R("1/3"), R("1/6")}));
  CHECK_FALSE(tables::runge_kutta_symmetric(rk4, {R("1/6"), R("1/3"), R("1/3"), R("1/6")}));
  // Lobatto IIIA: symmetric, not symplectic; Radau IIA: neither.
  const auto& lobatto = *tables::shipped_library().find("lobatto-iiia4");
  CHECK(lobatto.predicted.symmetric);
  CHECK_FALSE(lobatto.predicted.symplectic);
  const auto& radau = *tables::shipped_library().find("radau-iia5");
  CHECK_FALSE(radau.predicted.symmetric);
  CHECK_FALSE(radau.predicted.symplectic);
  const auto& gl6 = *tables::shipped_library().find("gauss-legendre6");
  CHECK(gl6.predicted.symmetric);
  CHECK(gl6.predicted.symplectic);
}

TEST_CASE("a Nystrom table is symplectic when bbar_i = b_i (1 - c_i) and b_i (bbar_j - abar_ij) = b_j (bbar_i - abar_ji), within its digits") {
  // Suris' conditions.  Velocity Verlet as a Nystrom table (c = 0, 1; abar_10 = 1/2; bbar = 1/2, 0; b = 1/2, 1/2) holds both;
  // RK4's (rkn4) does not: b_0 (bbar_1 - abar_01) = 1/6 1/3 = 1/18 against b_1 (bbar_0 - abar_10) = 2/3 (1/6 - 1/8) = 1/36.
  // With its node c_1 written 1 + d to 7 digits (half unit 5e-7), bbar_1 - b_1 (1 - c_1) = d / 2 is held to 16 half
  // units times its terms' sizes |bbar_1| + |b_1| (1 + |c_1|) = (2 + d) / 2: 8.00006e-6 at d = 1.5e-5 (d / 2 = 7.5e-6
  // holds), 8.00007e-6 at d = 1.7e-5 (8.5e-6 does not).  Their conditions of order 2 fail (sum b c = 1/2 + d / 2): order 1.
  const testing::TempDir dir("tables-nystrom-symplectic");
  const std::string verlet = "kind = \"nystrom\"\nabar = [[], [\"1/2\"]]\nbbar = [\"1/2\", \"0\"]\nb = [\"1/2\", \"1/2\"]\n";
  const auto lib = tables::read_methods_file(dir.file("n.toml", "[methods.verlet]\n" + verlet + "c = [\"0\", \"1\"]\norder = 2\n"
                                                                 "[methods.near]\n" + verlet + "c = [\"0\", \"1.000015\"]\norder = 1\n"
                                                                 "[methods.far]\n" + verlet + "c = [\"0\", \"1.000017\"]\norder = 1\n"
                                                                 "[methods.rkn4]\nkind = \"nystrom\"\nc = [\"0\", \"1/2\", \"1\"]\n"
                                                                 "abar = [[], [\"1/8\"], [\"0\", \"1/2\"]]\nbbar = [\"1/6\", \"1/3\", \"0\"]\n"
                                                                 "b = [\"1/6\", \"2/3\", \"1/6\"]\norder = 4\n"));
  CHECK(lib.find("verlet")->predicted.symplectic);
  CHECK(lib.find("verlet")->predicted.order().order == 2);
  CHECK_FALSE(lib.find("rkn4")->predicted.symplectic);
  CHECK(lib.find("near")->predicted.symplectic);
  CHECK_FALSE(lib.find("far")->predicted.symplectic);
  CHECK(lib.find("near")->predicted.order().order == 1);
}

TEST_CASE("a Runge-Kutta table is symplectic when b_i a_ij + b_j a_ji = b_i b_j, within 16 half units of its terms' sizes") {
  // The implicit midpoint rule (a = 1/2, b = 1: 2 b a - b^2 = 0; Hairer, Lubich, Wanner, GNI Theorem VI.4.3) with its
  // one entry written 1/2 + d to 7 digits (half unit 5e-7): 2 b a - b^2 = 2 d against 16 x 5e-7 x (|b a| + |b a| + |b b|)
  // = 8e-6 (2 + 2 d).  d = 7.9e-6 holds (1.58e-5 against 1.60001e-5), d = 9.1e-6 does not (1.82e-5).
  const testing::TempDir dir("tables-rk-symplectic");
  auto midpoint = [](const std::string& name, const std::string& a) {
    return "[methods." + name + "]\nkind = \"runge-kutta\"\norder = " + (a == "1/2" ? "2" : "1") + "\na = [[\"" + a + "\"]]\nb = [\"1\"]\n";
  };
  const auto lib = tables::read_methods_file(
      dir.file("m.toml", midpoint("exact", "1/2") + midpoint("inside", "0.5000079") + midpoint("outside", "0.5000091")));
  CHECK(lib.find("exact")->predicted.symplectic);
  CHECK(lib.find("inside")->predicted.symplectic);
  CHECK_FALSE(lib.find("outside")->predicted.symplectic);
}

TEST_CASE("a splitting's conditions carry each operation's own digits: a kick written 1.000001 is leapfrog within them") {
  // Drift 1/2, kick 1 + d, drift 1/2 with d = 1e-6 written to 7 digits (half unit u = 5e-7): the kicks sum to 1 + d
  // (within 4 u = 2e-6), and the position's weights bbar = drift x kick sum to (1 + d) / 2, off by 5e-7, within 4 x
  // 1/2 u = 1e-6: order 2 within its digits; with them taken as exact not even consistent (order 0).  The kick's uncertainty rides on the entry that
  // holds the kick; on the drifts' entries (exact) none does, and the position's condition would fail at order 2.
  const testing::TempDir dir("tables-split-units");
  const auto lib = tables::read_methods_file(
      dir.file("l.toml", "[methods.leap]\nkind = \"splitting\"\norder = 2\ndrift = [\"1/2\", \"1/2\"]\nkick = [\"1.000001\"]\n"));
  const auto& p = lib.find("leap")->predicted.order();
  CHECK(p.order == 2);
  CHECK(p.exact_order == 0);
  REQUIRE(p.residuals.size() == 2);
  CHECK(p.residuals[0] == Approx(1e-6).epsilon(1e-9));
  CHECK(p.residuals[1] == Approx(5e-7).epsilon(1e-9));
}

TEST_CASE("symmetry pairs the stages by their nodes, c_i with 1 - c_i, in whatever order the table lists them") {
  // Lobatto IIIA with 3 stages (c = 0, 1/2, 1; Hairer & Wanner II, Table IV.5.7): symmetric.
  const tables::Matrix lobatto{{R("0"), R("0"), R("0")}, {R("5/24"), R("1/3"), R("-1/24")}, {R("1/6"), R("2/3"), R("1/6")}};
  const std::vector<Rational> lb{R("1/6"), R("2/3"), R("1/6")};
  CHECK(tables::runge_kutta_symmetric(lobatto, lb));
  CHECK(tables::runge_kutta_order(lobatto, lb).order == 4);
  // The same method with its stages listed as (1/2, 0, 1): still symmetric (stage 0 pairs with itself, 1 with 2),
  // though reversing the list would pair 1/2 with 1.
  const tables::Matrix permuted{{R("1/3"), R("5/24"), R("-1/24")}, {R("0"), R("0"), R("0")}, {R("2/3"), R("1/6"), R("1/6")}};
  const std::vector<Rational> pb{R("2/3"), R("1/6"), R("1/6")};
  CHECK(tables::runge_kutta_symmetric(permuted, pb));
  CHECK(tables::runge_kutta_order(permuted, pb).order == 4);
  // A wrong entry breaks it: a_{p(i)p(j)} + a_ij = b_j fails for (i, j) = (0, 1).
  tables::Matrix broken = permuted;
  broken[0][1] = R("1/4");
  CHECK_FALSE(tables::runge_kutta_symmetric(broken, pb));
}

TEST_CASE("every built-in that is a table predicts its declared order, symplecticity and symmetry") {
  int tables_seen = 0;
  ode::for_each_method([&](auto m) {
    const ode::Info info = m.info();
    const std::string id(info.id);
    INFO(id);
    if (!info.start.empty()) {  // stormer-verlet: a two-step method, no one-step table
      CHECK_FALSE(tables::builtin_tables().count(id));
      return;
    }
    REQUIRE(tables::builtin_tables().count(id));
    const auto& t = builtin(id);
    CHECK(t.predicted.order().order == info.order);
    CHECK(t.predicted.order().exact_order == info.order);
    CHECK(t.predicted.symplectic == info.symplectic);
    CHECK(t.predicted.symmetric == info.symmetric);
    CHECK(t.table->evals_per_step == info.evals_per_step);
    CHECK(t.table->implicit == info.implicit);
    ++tables_seen;
  });
  CHECK(tables_seen == static_cast<int>(std::tuple_size_v<ode::AllMethods>) - 1);
}

TEST_CASE("a built-in's table steps like the built-in, to the same bits") {
  const study::Kepler<double> kepler(study::ParamValues{{"e", "0.6"}});
  const study::DampedOscillator<double> damped(study::ParamValues{});
  ode::for_each_method([&](auto m) {
    const std::string id(m.info().id);
    if (!tables::builtin_tables().count(id)) return;
    INFO(id);
    const ode::TableMethod table{builtin(id).table};
    auto compare = [&](const auto& p) {
      // The same operations in the same order on the same coefficients (gauss-legendre4's, computed from sqrt 3 in
      // double, happen to be the correctly rounded ones): the same bits after 300 steps.
      const auto a = testing::integrate(m, p, 3.0, 300), b = testing::integrate(table, p, 3.0, 300);
      CHECK(testing::phase_error(a, b) == 0);
      CHECK(testing::phase_error(a, p.initial()) > 1e-3);  // they moved
    };
    compare(kepler);
    if constexpr (!decltype(m){}.info().position_force_only) compare(damped);
  });
}

TEST_CASE("every shipped table's force evaluations over a run are its definition: a kick or stage each and one saved when first same as last") {
  // The definition (Hairer, Norsett, Wanner I, §II.4 and §II.5 for Runge-Kutta; a splitting evaluates the force at
  // each kick): an explicit Runge-Kutta step evaluates each of its s stages; when the last stage's point is the
  // step's result (a_sj = b_j for j < s, b_s = 0) its force is the next step's first: s on the first step, s - 1
  // after.  A splitting evaluates at each kick (adjacent kicks are one); when it starts and ends with a kick, the
  // last is the next step's first.  Counted here through the force, over 1, 2 and 40 steps.
  std::vector<const tables::Method*> all = tables::shipped_library().methods();
  for (const auto& [id, m] : tables::builtin_tables()) all.push_back(&m);
  // Known from their papers, beside the rule: Dormand-Prince 7 stages FSAL, Bogacki-Shampine 4 FSAL, Verner 6(5)
  // 9 FSAL, Fehlberg 7(8) 13, classic RK4 4, velocity Verlet 2 kicks FSAL, Forest-Ruth 4 kicks FSAL.
  const std::map<std::string, std::pair<int, int>> known{{"dopri5", {7, 6}},      {"bogacki-shampine3", {4, 3}}, {"verner65", {9, 8}},
                                                        {"fehlberg78", {13, 13}}, {"rk4", {4, 4}},              {"velocity-verlet", {2, 1}},
                                                        {"forest-ruth-kick", {4, 3}}};
  std::size_t seen = 0, fsal = 0, known_seen = 0;
  for (const tables::Method* m : all) {
    const auto& t = *m->table;
    INFO(t.id);
    if (t.implicit) continue;  // Newton iterations: counted in tests/integrators/test_evaluations.cpp
    int first = 0, after = 0;
    const auto& x = m->exact;
    if (t.kind == ode::MethodTable::Kind::runge_kutta) {
      const std::size_t s = x.b.size();
      bool last_is_result = s >= 2 && x.b[s - 1] == 0;
      for (std::size_t j = 0; j + 1 < s; ++j) last_is_result = last_is_result && x.a[s - 1][j] == x.b[j];
      first = static_cast<int>(s), after = first - (last_is_result ? 1 : 0);
    } else if (t.kind == ode::MethodTable::Kind::splitting) {
      int kicks = 0;
      for (std::size_t k = 0; k < x.ops.size(); ++k) kicks += x.ops[k].first && (k == 0 || !x.ops[k - 1].first);
      first = kicks, after = kicks - (x.ops.size() > 1 && x.ops.front().first && x.ops.back().first ? 1 : 0);
    } else {
      FAIL("no definition here for the kind of " << t.id);
    }
    if (const auto it = known.find(t.id); it != known.end()) {
      CHECK(std::pair{first, after} == it->second);
      ++known_seen;
    }
    fsal += first != after;
    const ode::TableMethod method{m->table};
    study::Counted<study::Kepler<double>> p;
    auto state = p.initial();
    auto stepper = ode::make_stepper<decltype(p)>(method);
    for (int n = 1; n <= 40; ++n) {
      stepper.step(state, 0.01, p);
      if (n <= 2 || n == 40) CHECK(p.evaluations() == static_cast<std::uint64_t>(first + (n - 1) * after));
    }
    ++seen;
  }
  CHECK(known_seen == known.size());
  CHECK(seen >= 30);
  CHECK(fsal >= 5);
}

TEST_CASE("a table's timed loop (ode::advance) takes the same steps as step, to the same bits") {
  const study::Kepler<double> kepler(study::ParamValues{{"e", "0.6"}});
  const study::Harmonic<double> harmonic(study::ParamValues{});
  const study::DampedOscillator<double> damped(study::ParamValues{});
  std::vector<const tables::Method*> all;
  for (const auto& [id, m] : tables::builtin_tables()) all.push_back(&m);
  for (const auto* m : tables::shipped_library().methods()) all.push_back(m);
  REQUIRE(all.size() >= 30);
  for (const auto* m : all) {
    INFO(m->table->id);
    auto compare = [&](const auto& p, const auto& method) {
      using P = std::decay_t<decltype(p)>;
      const double h = 0.01;
      auto one = ode::make_stepper<P>(method);
      auto s = p.initial();
      for (int k = 0; k < 300; ++k) one.step(s, h, p);
      // In several calls mixed with single steps (and an empty one), so that what a step keeps for the next (a
      // first-same-as-last force) crosses between them.
      auto loop = ode::make_stepper<P>(method);
      auto x = p.initial();
      ode::advance(loop, x, h, p, 120);
      ode::advance(loop, x, h, p, 0);
      for (int k = 0; k < 30; ++k) loop.step(x, h, p);
      ode::advance(loop, x, h, p, 150);
      CHECK(testing::phase_error(s, x) == 0);
      CHECK(s.t == x.t);
      // An empty advance on a fresh stepper computes nothing, so it has no force to keep for the next step.
      auto fresh = ode::make_stepper<P>(method);
      auto y = p.initial();
      ode::advance(fresh, y, h, p, 0);
      for (int k = 0; k < 300; ++k) fresh.step(y, h, p);
      CHECK(testing::phase_error(s, y) == 0);
      CHECK(testing::phase_error(s, p.initial()) > 1e-3);  // they moved
    };
    compare(kepler, ode::TableMethod{m->table});
    compare(harmonic, ode::TableMethod{m->table});
    if (m->table->kind == ode::MethodTable::Kind::runge_kutta) compare(damped, ode::TableMethod{m->table});  // a(q, v)
    compare(kepler, ode::Substeps<ode::TableMethod>{.base = ode::TableMethod{m->table}, .k = 3});
  }
}

TEST_CASE("every shipped table short enough for a kernel takes one in its timed loop, a table of another shape the general loop") {
  const study::Kepler<double> kepler(study::ParamValues{{"e", "0.6"}});
  std::vector<const tables::Method*> all;
  for (const auto& [id, m] : tables::builtin_tables()) all.push_back(&m);
  for (const auto* m : tables::shipped_library().methods()) all.push_back(m);
  int with = 0, longer = 0;
  for (const auto* m : all) {
    INFO(m->table->id);
    const auto& t = *m->table;
    const bool is_splitting = t.kind == ode::MethodTable::Kind::splitting;
    const std::size_t n = is_splitting ? t.operations.size() : t.b.size();
    if (t.kind == ode::MethodTable::Kind::nystrom) continue;
    const auto stepper = ode::make_stepper<study::Kepler<double>>(ode::TableMethod{m->table});
    if (n > (is_splitting ? ode::table_detail::max_kernel_ops : ode::table_detail::max_kernel_stages) && !t.implicit) {
      CHECK_FALSE(stepper.has_kernel());
      ++longer;
      continue;
    }
    CHECK(stepper.has_kernel() == decltype(stepper)::fast_paths);  // none under the sanitizers: nothing is timed there
    ++with;
  }
  // Counted from the tables: blanes-moan4 and yoshida6 (13 and 15 operations), mclachlan4 (11), the four compositions
  // of leapfrog (11 operations and more), verner65 and fehlberg78 with their embedded weights (9 and 13 stages).
  CHECK(longer == 11);
  CHECK(with >= 30);
  // A shape no shipped table has (an explicit tableau of 5 stages: RK4 and a zero fifth stage), timed through the
  // general loop, the same bits as n steps (the test above).
  auto five = std::make_shared<ode::MethodTable>(*tables::builtin_tables().at("rk4").table);
  five->a.push_back({"0", "0", "0", "0"});
  five->b.push_back("0");
  CHECK_FALSE(ode::make_stepper<study::Kepler<double>>(ode::TableMethod{five}).has_kernel());
}

TEST_CASE("the shipped library: every method cites its source and has the order it declares") {
  const auto& lib = tables::shipped_library();
  for (const char* id : {"ruth3", "pefrl", "forest-ruth", "forest-ruth-kick", "suzuki4", "yoshida6-composition", "yoshida8",
                         "kahan-li8", "mclachlan4", "mclachlan-atela4", "kutta3", "ssprk3", "rk38", "ralston2", "ralston4",
                         "dopri5", "gauss-legendre6", "radau-iia5", "lobatto-iiia4", "bogacki-shampine3", "cash-karp5", "fehlberg4", "fehlberg78"}) {
    INFO(id);
    const tables::Method* m = lib.find(id);
    REQUIRE(m);
    CHECK_FALSE(m->table->source.empty());
    CHECK(m->predicted.order().order == m->table->order);
    if (m->table->kind == ode::MethodTable::Kind::splitting) CHECK(m->predicted.symplectic);
  }
  CHECK(lib.find("dopri5")->table->evals_per_step == 6);  // first same as last
  CHECK(lib.find("forest-ruth-kick")->table->evals_per_step == 3);
  CHECK(lib.find("forest-ruth")->predicted.symmetric);
  CHECK(lib.find("mclachlan-atela4")->predicted.symmetric == false);
  CHECK(lib.find("radau-iia5")->table->implicit);
  CHECK(lib.find("kahan-li8")->stages == 35);  // 17 leapfrog steps, adjacent drifts merged
  // The embedded pairs: each weight set holds its declared order, and no more (Dormand-Prince 5(4), Bogacki-Shampine
  // 3(2), Cash-Karp 5(4), Fehlberg 4(5), whose embedded weights are the higher order, Fehlberg 7(8), Odeint's peer);
  // Bogacki-Shampine is first same as last, 3 evaluations a step.
  for (const auto& [id, order, order_hat] : {std::tuple{"dopri5", 5, 4}, std::tuple{"bogacki-shampine3", 3, 2}, std::tuple{"cash-karp5", 5, 4},
                                             std::tuple{"fehlberg4", 4, 5}, std::tuple{"fehlberg78", 8, 7}, std::tuple{"verner65", 6, 5}}) {
    INFO(id);
    const tables::Method& m = *lib.find(id);
    REQUIRE(m.predicted.embedded);
    CHECK(m.exact.order_hat == order_hat);
    CHECK(m.predicted.order().order == order);
    CHECK(tables::Prediction::of(*m.predicted.embedded).order == order_hat);
    // The embedded weights as a method of their own, for the fixed-step sweeps: the same stages, b_hat for b.
    const tables::Method* hat = lib.find(std::string(id) + "-embedded");
    REQUIRE(hat);
    CHECK(hat->table->order == order_hat);
    CHECK(hat->predicted.order().order == order_hat);
    CHECK(hat->table->b == m.table->b_hat);
    CHECK(hat->table->a == m.table->a);
    CHECK(hat->table->b_hat.empty());
    CHECK_FALSE(hat->table->fsal);  // the last stage's weight is not 0 in b_hat: every stage evaluated
    CHECK(hat->table->evals_per_step == m.stages);
  }
  CHECK(lib.find("verner65")->table->evals_per_step == 8);  // 9 stages, first same as last
  CHECK_FALSE(lib.find("rk38-embedded"));
  CHECK(lib.find("bogacki-shampine3")->table->evals_per_step == 3);
  CHECK_FALSE(lib.find("rk38")->predicted.embedded);  // no pair: no embedded prediction
}

TEST_CASE("the conditions are checked to order 10 and no further: a 10th-order composition names no failing condition") {
  // Sofroniou and Spaletta's p10s35 (tests/corpus/methods.toml) holds every condition to order 10 within its 26
  // digits; order 11's are never formed, so it has no first failing condition and no error coefficient.
  const auto lib = tables::read_methods_file(std::filesystem::path(HARNESS_SOURCE_DIR) / "tests" / "corpus" / "methods.toml");
  const tables::Method* m = lib.find("sofroniou-spaletta10");
  REQUIRE(m);
  const auto& p = m->predicted.order();
  CHECK(p.order == study::tables::max_checked_order);
  CHECK(p.order == 10);
  CHECK(p.residuals.size() == 10);
  CHECK(std::isnan(p.error_coefficient));
  CHECK(p.first_failing.tree.empty());
  // Yoshida's 8th-order composition fails at 9: its error coefficient is order 9's.
  const auto& y8 = tables::shipped_library().find("yoshida8")->predicted.order();
  CHECK(y8.order == 8);
  CHECK(y8.first_failing.order == 9);
  CHECK(y8.error_coefficient > 0);
}

TEST_CASE("an embedded pair's weights b_hat are held to their declared order, and a wrong one is named", "[known]") {
  const testing::TempDir dir("tables-embedded");
  // Bogacki-Shampine 3(2) (Appl. Math. Lett. 2 (1989) 321): b_hat = 7/24, 1/4, 1/3, 1/8 has order 2: b_hat c = 7/48 +
  // 1/4 + 1/8 ... = 1/2 holds; its order-3 condition b_hat c^2 = 1/3 misses: 1/4 1/4 + 1/3 9/16 + 1/8 = 1/16 + 3/16 +
  // 2/16 = 3/8, off by 1/24.
  const std::string head = "[methods.bs]\nkind = \"runge-kutta\"\na = [[], [\"1/2\"], [\"0\", \"3/4\"], [\"2/9\", \"1/3\", \"4/9\"]]\n"
                           "b = [\"2/9\", \"1/3\", \"4/9\", \"0\"]\norder = 3\n";
  const auto lib = tables::read_methods_file(dir.file("ok.toml", head + "b_hat = [\"7/24\", \"1/4\", \"1/3\", \"1/8\"]\norder_hat = 2\n"));
  const auto& e = tables::Prediction::of(*lib.find("bs")->predicted.embedded);
  CHECK(e.order == 2);
  CHECK(e.first_failing.formula == "sum b_i c_i^2 = 1/3");
  CHECK(e.first_failing.residual == Approx(3.0 / 8 - 1.0 / 3).epsilon(1e-12));
  CHECK_THAT(tables::describe(*lib.find("bs")), Catch::Contains("embedded     b_hat declared order 2, predicted 2"));
  using Catch::Contains;
  // Declared 3: refused, naming the condition on b_hat.
  CHECK_THAT(methods_error(dir, head + "b_hat = [\"7/24\", \"1/4\", \"1/3\", \"1/8\"]\norder_hat = 3\n"),
             Contains("m.toml:7: methods.bs.order_hat: declares order 3, but the embedded weights b_hat have order 2: the order-3 "
                      "condition sum b_hat_i c_i^2 = 1/3"));
  // A digit wrong (1/3 -> 1/4 and 1/8 -> 5/24, still summing to 1): b_hat c = 7/48 ... fails at order 2.
  CHECK_THAT(methods_error(dir, head + "b_hat = [\"7/24\", \"1/4\", \"1/4\", \"5/24\"]\norder_hat = 2\n"),
             Contains("declares order 2, but the embedded weights b_hat have order 1"));
  CHECK_THAT(methods_error(dir, head + "b_hat = [\"7/24\", \"1/4\", \"1/3\"]\norder_hat = 2\n"), Contains("b_hat: has 3 weights, but b has 4"));
  CHECK_THAT(methods_error(dir, head + "b_hat = [\"7/24\", \"1/4\", \"1/3\", \"1/8\"]\n"), Contains("order_hat: missing"));
  CHECK_THAT(methods_error(dir, head + "order_hat = 2\n"), Contains("order_hat: is the order of the embedded weights: give them too"));
  CHECK_THAT(methods_error(dir, head + "b_hat = [\"2/9\", \"1/3\", \"4/9\", \"0\"]\norder_hat = 2\n"), Contains("b_hat: equals b"));
  CHECK_THAT(methods_error(dir, head + "b_hat = [\"7/24\", \"1/4\", \"1/3\", \"1/4\"]\norder_hat = 2\n"),
             Contains("b_hat: the coefficients sum to 9/8, not 1"));
}

TEST_CASE("bad method tables are refused before anything runs, naming file, line and key") {
  const testing::TempDir dir("tables-bad");
  auto err = [&](const std::string& text) { return methods_error(dir, text); };
  const std::string head = "[methods.x]\n";
  CHECK_THAT(err(head + "kind = \"splitter\"\norder = 2\n"), Catch::Contains("m.toml:2: methods.x.kind: unknown kind 'splitter'") &&
                                                             Catch::Contains("did you mean 'splitting'"));
  CHECK_THAT(err(head + "kind = \"splitting\"\ndrift = [\"1/2\", \"1/2\"]\nkick = [\"1\"]\n"),
             Catch::Contains("methods.x.order: missing"));
  CHECK_THAT(err(head + "kind = \"splitting\"\norder = 2\ndrift = [\"1/2\", \"1/2\", \"0\"]\nkick = [\"1\"]\n"),
             Catch::Contains("m.toml:4: methods.x.drift: has 3 coefficients and kick has 1"));
  CHECK_THAT(err(head + "kind = \"splitting\"\norder = 2\ndrift = [\"1/2\", \"1/3\"]\nkick = [\"1\"]\n"),
             Catch::Contains("methods.x.drift: the coefficients sum to 5/6, not 1") && Catch::Contains("not consistent"));
  CHECK_THAT(err(head + "kind = \"splitting\"\norder = 2\ndrift = [\"1/2\", \"one half\"]\nkick = [\"1\"]\n"),
             Catch::Contains("m.toml:4: methods.x.drift[1]: 'one half' is not a number"));
  CHECK_THAT(err(head + "kind = \"splitting\"\norder = 2\ndrift = [\"1/2\", true]\nkick = [\"1\"]\n"),
             Catch::Contains("methods.x.drift[1]: must be a number"));
  CHECK_THAT(err(head + "kind = \"splitting\"\norder = 3\ndrift = [\"1/2\", \"1/2\"]\nkick = [\"1\"]\n"),
             Catch::Contains("m.toml:3: methods.x.order: declares order 3, but the coefficients have order 2: the order-3 condition "
                             "sum bbar_i c_i = 1/6"));
  CHECK_THAT(err(head + "kind = \"splitting\"\norder = 2\ndrift = [\"1/2\", \"1/2\"]\nkicks = [\"1\"]\n"),
             Catch::Contains("methods.x.kicks: not a key of a splitting table (did you mean 'kick'?)"));
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 1\na = [[], [\"1\"]]\nb = [\"1\"]\n"),
             Catch::Contains("methods.x.a: has 2 rows, but there are 1 weights"));
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 1\na = [[], [\"1\", \"0\", \"0\"]]\nb = [\"1/2\", \"1/2\"]\n"),
             Catch::Contains("row 2 has 3 entries; at most 2"));
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 1\na = [[], \"1\"]\nb = [\"1/2\", \"1/2\"]\n"),
             Catch::Contains("methods.x.a: row 2 must be an array of coefficients"));
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 1\na = [[], [\"1\"]]\nb = [\"1/2\", \"1/3\"]\n"),
             Catch::Contains("methods.x.b: the coefficients sum to 5/6, not 1"));
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 2\na = [[], [\"1\"]]\nb = [\"1/2\", \"1/2\"]\nc = [\"0\", \"1/2\"]\n"),
             Catch::Contains("methods.x.c: c[1] = 1/2 is not the sum of row 2 of a (1)"));
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 2\nexplicit = true\na = [[\"1/2\"]]\nb = [\"1\"]\n"),
             Catch::Contains("methods.x.a: a[0][0] = 1/2 is on or above the diagonal: the table is implicit, but explicit = true"));
  CHECK_THAT(err(head + "kind = \"nystrom\"\norder = 1\nabar = [[\"1/2\"]]\nbbar = [\"1/2\"]\nb = [\"1\"]\nc = [\"1\"]\n"),
             Catch::Contains("implicit Nyström tables are not supported"));
  CHECK_THAT(err(head + "kind = \"composition\"\norder = 2\nbase = \"leapfrogg\"\nweights = [\"1\"]\n"),
             Catch::Contains("methods.x.base: 'leapfrogg' is not a method with known coefficients (did you mean 'leapfrog'?)"));
  CHECK_THAT(err(head + "kind = \"composition\"\norder = 2\nbase = \"leapfrog\"\nweights = [\"1/2\", \"1/4\"]\n"),
             Catch::Contains("methods.x.weights: the coefficients sum to 3/4, not 1"));
  CHECK_THAT(err("[methods.rk4]\nkind = \"runge-kutta\"\norder = 1\na = [[]]\nb = [\"1\"]\n"),
             Catch::Contains("m.toml:1: methods.rk4: the id shadows the built-in integrator 'rk4'"));
  CHECK_THAT(err("[methods.all]\nkind = \"runge-kutta\"\norder = 1\na = [[]]\nb = [\"1\"]\n"),
             Catch::Contains("m.toml:1: methods.all: 'all' is reserved"));
  CHECK_THAT(err("[methods.My-Method]\nkind = \"runge-kutta\"\norder = 1\na = [[]]\nb = [\"1\"]\n"),
             Catch::Contains("a method id is lowercase letters"));
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 1\na = [[]]\nb = [\"1e-400\"]\n"),
             Catch::Contains("methods.x.b[0]: ") && Catch::Contains("the exponent is beyond +-100"));
  // Within the digit and exponent limits, a ratio can still leave double's range: 1e-101 / 1e200.
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 1\na = [[]]\nb = [\"0.1e-100/" + std::string(100, '9') + "e100\"]\n"),
             Catch::Contains("methods.x.b[0]: ") && Catch::Contains("is outside what a double holds"));
  CHECK_THAT(err("[methods]\n"), Catch::Contains("no [methods.ID] table in this file"));
  CHECK_THAT(err("name = \"x\"\n"), Catch::Contains("m.toml:1: name: a methods file holds [methods.ID] tables only"));
  CHECK_THAT(err("[methods.x\n"), Catch::Contains("m.toml:1: not valid TOML"));
  // Coefficients written as bare ratios, the likeliest slip in a table: what to write instead.
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 2\na = [[], [1/2]]\nb = [0, 1]\n"),
             Catch::Contains("m.toml:4: not valid TOML: write ratios as strings: \"1/2\"") && Catch::Contains("the TOML parser: "));
  // A spec holding [methods.ID] tables is a methods file to `study method` and --methods (its own keys skipped);
  // one without tables says it is a spec, and a key that is neither still gets its suggestion.
  const std::string spec = "name = \"s\"\nproblem = \"kepler\"\nt_end = 1.0\nintegrators = [\"x\"]\ndt = \"auto\"\n";
  const auto spec_file = dir.file("spec.toml", spec + "[methods.x]\nkind = \"runge-kutta\"\norder = 1\na = [[]]\nb = [\"1\"]\n");
  CHECK(tables::read_methods_file(spec_file, study::spec_keys()).ids() == std::vector<std::string>{"x"});
  CHECK_THAT(error_of([&] { tables::read_methods_file(dir.file("bare.toml", spec), study::spec_keys()); }),
             Catch::Contains("bare.toml: no [methods.ID] table in this file (it is a study spec, with dt, integrators, name, "
                             "problem, t_end: `study run ") && Catch::Contains("a method table starts with a line [methods.ID]"));
  CHECK_THAT(error_of([&] { tables::read_methods_file(dir.file("typo.toml", "[method.x]\nkind = 1\n"), study::spec_keys()); }),
             Catch::Contains("typo.toml:1: method: neither a [methods.ID] table nor a spec's key (did you mean 'methods'?)"));
  CHECK_THAT(error_of([&] { tables::read_methods_file(dir.file("empty.toml", ""), study::spec_keys()); }),
             Catch::Contains("empty.toml: no [methods.ID] table in this file (it is empty)"));
  CHECK_THAT(error_of([&] { tables::read_methods_file(dir.path / "missing.toml"); }), Catch::Contains("missing.toml: no such methods file"));
  CHECK_THAT(error_of([&] { tables::read_methods_file(dir.path); }), Catch::Contains("is a folder, not a methods file"));
  // Bounded size: the order conditions of a huge table would take hours.
  std::string b65 = "b = [", a65 = "a = [";
  for (int i = 0; i < 65; ++i) b65 += std::string(i ? ", " : "") + "\"1/65\"", a65 += std::string(i ? ", " : "") + "[]";
  CHECK_THAT(err(head + "kind = \"runge-kutta\"\norder = 1\n" + a65 + "]\n" + b65 + "]\n"),
             Catch::Contains("methods.x.b: 65 stages; at most 64"));
  std::string w129 = "weights = [";
  for (int i = 0; i < 129; ++i) w129 += std::string(i ? ", " : "") + "\"1/129\"";
  CHECK_THAT(err(head + "kind = \"composition\"\norder = 1\nbase = \"leapfrog\"\n" + w129 + "]\n"),
             Catch::Contains("methods.x.weights: has 129 coefficients; at most 128"));
  std::string w20 = "weights = [";
  for (int i = 0; i < 20; ++i) w20 += std::string(i ? ", " : "") + "\"1/20\"";
  CHECK_THAT(err(head + "kind = \"composition\"\norder = 1\nbase = \"rk4\"\n" + w20 + "]\n"),
             Catch::Contains("20 steps of a 4-stage base make 80 stages; at most 64"));
}

TEST_CASE("TOML numbers are read from their digits: 0.1 is one tenth, and rounded digits count as rounded") {
  const testing::TempDir dir("tables-numbers");
  const auto file = dir.file("m.toml", "[methods.x]\nkind = \"runge-kutta\"\norder = 2\na = [[], [0.5]]\nb = [0, 1_0e-1]\n");
  const auto lib = tables::read_methods_file(file);
  const auto* m = lib.find("x");
  REQUIRE(m);
  CHECK(m->exact.a[1][0] == Rational(1, 2));
  CHECK(m->exact.b[1] == Rational(1));
  CHECK(m->predicted.order().order == 2);
  // A number on the file's last line, with and without its line end, is read from its digits too: 0.2 is 1/5.
  for (const char* end : {"\n", ""}) {
    const auto last = tables::read_methods_file(
        dir.file("last.toml", std::string("[methods.y]\nkind = \"runge-kutta\"\norder = 2\nb = [-1.5, 2.5]\na = [[], [0.2]]") + end));
    REQUIRE(last.find("y"));
    CHECK(last.find("y")->exact.a[1][0] == Rational(1, 5));
  }
  // PEFRL's 16 digits: order 4 to their precision.
  const auto& pefrl = *tables::shipped_library().find("pefrl");
  CHECK(pefrl.exact.precision == Approx(5e-16));
}

namespace {

study::EngineOptions no_cache() {
  study::EngineOptions o;
  o.jobs = 2;
  o.use_cache = false;
  return o;
}

/// Every measured number of a run, bit for bit (not its names, not its timing).
bool same_numbers(const study::Run& a, const study::Run& b) {
  auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  auto same_all = [&](const std::vector<double>& x, const std::vector<double>& y) {
    return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), same);
  };
  bool ok = a.steps == b.steps && a.status == b.status && a.force_evals == b.force_evals && same(a.dt, b.dt);
  for (auto [x, y] : {std::pair{a.global, b.global}, {a.position, b.position}, {a.max, b.max}, {a.local, b.local},
                      {a.local_position, b.local_position}, {a.roundoff, b.roundoff}, {a.reversal, b.reversal},
                      {a.energy_max_rel, b.energy_max_rel}, {a.energy_final_rel, b.energy_final_rel},
                      {a.energy_drift_per_time, b.energy_drift_per_time}, {a.energy_roundoff, b.energy_roundoff}})
    ok = ok && same(x, y);
  ok = ok && same_all(a.final_q, b.final_q) && same_all(a.final_v, b.final_v) && same_all(a.sample_error, b.sample_error) &&
       same_all(a.sample_energy, b.sample_energy) && a.energy_class == b.energy_class;
  for (std::size_t i = 0; ok && i < a.sample_q.size(); ++i) ok = same_all(a.sample_q[i], b.sample_q[i]);
  return ok;
}

}  // namespace

TEST_CASE("a table's own substeps are its default where a spec names it alone, and a spec's substeps win", "[known]") {
  const testing::TempDir dir("tables-substeps");
  const auto spec = study::load_spec(dir.file("s.toml", R"(
name = "s"
problem = "harmonic"
t_end = 1.0
integrators = ["heun3", { id = "heun3", substeps = 1 }, { id = "heun3", substeps = 5 }, "rk4"]
dt = [0.1]

[methods.heun3]
kind = "runge-kutta"
order = 3
substeps = 2
a = [[], ["1/3"], ["0", "2/3"]]
b = ["1/4", "0", "3/4"]
)"));
  REQUIRE(spec.integrators.size() == 4);
  CHECK(spec.integrators[0].choice.substeps == 2);  // the table's default
  CHECK(spec.integrators[0].choice.label() == "heun3 x2");
  CHECK(spec.integrators[1].choice.substeps == 1);  // given: even 1 overrides it
  CHECK(spec.integrators[2].choice.substeps == 5);
  CHECK(spec.integrators[3].choice.substeps == 1);  // a built-in's default
}

TEST_CASE("a table with yoshida4's 36-digit coefficients gives the built-in's numbers in every field of every run") {
  const testing::TempDir dir("tables-same");
  const auto spec = study::load_spec(dir.file("same.toml", R"(
name = "same"
problem = "kepler"
params = { e = 0.6 }
t_end = 2.0
integrators = ["yoshida4", "yoshida4-table"]
dt = [0.1, 0.05, 0.025]
metrics = ["global", "local", "energy", "reversibility"]

[methods.yoshida4-table]
kind = "splitting"
first = "drift"
drift = ["0.675603595979828817023843904485730413", "-0.175603595979828817023843904485730413",
         "-0.175603595979828817023843904485730413", "0.675603595979828817023843904485730413"]
kick = ["1.351207191959657634047687808971460827", "-1.702414383919315268095375617942921654",
        "1.351207191959657634047687808971460827"]
order = 4
source = "integrators/yoshida4.hpp"
)"));
  REQUIRE(spec.integrators.size() == 2);
  CHECK(spec.integrators[1].table.find("same.toml:10") != std::string::npos);
  CHECK(spec.integrators[1].predicted.order == 4);
  CHECK(spec.integrators[0].predicted.order == 4);  // the built-in's own table (study/methods/builtin.toml)
  const auto results = study::run_studies({spec}, no_cache());
  const auto& runs = results[0].runs;
  REQUIRE(runs.size() == 6);
  for (std::size_t k = 0; k < 3; ++k) {
    INFO("dt " << runs[k].dt);
    CHECK(runs[k].integrator == "yoshida4");
    CHECK(runs[k + 3].integrator == "yoshida4-table");
    CHECK(same_numbers(runs[k], runs[k + 3]));
  }
  // The check is not vacuous: another step size's run differs.
  CHECK_FALSE(same_numbers(runs[0], runs[4]));
}

TEST_CASE("a wrong table is caught by its predicted order, and by its measured order when run anyway") {
  const testing::TempDir dir("tables-wrong");
  // RK4 with a typo in its third row: 1/6, 1/3 instead of 0, 1/2 (the node kept).
  const std::string table = R"(
[methods.rk4-typo]
kind = "runge-kutta"
a = [[], ["1/2"], ["1/6", "1/3"], ["0", "0", "1"]]
b = ["1/6", "1/3", "1/3", "1/6"]
)";
  const std::string spec_head = "name = \"wrong\"\nproblem = \"kepler\"\nparams = { e = 0.3 }\nt_end = 3.0\n"
                                "integrators = [\"rk4\", \"rk4-typo\"]\ndt = [0.1, 0.05, 0.025, 0.0125, 0.00625]\n"
                                "metrics = [\"global\"]\n";
  // Declared 4: refused before anything runs, naming the first failing condition.
  const std::string refused = error_of([&] { study::load_spec(dir.file("w4.toml", spec_head + table + "order = 4\n")); });
  CHECK_THAT(refused, Catch::Contains("methods.rk4-typo.order: declares order 4, but the coefficients have order 2") &&
                          Catch::Contains("the order-3 condition sum b_i a_ij c_j = 1/6"));
  // Declared at its predicted order, but expected at 4 by the spec: the measurement fails it, and passes rk4.
  const auto spec = study::load_spec(dir.file("w2.toml", spec_head + "expect = { rk4-typo = 4 }\n" + table + "order = 2\n"));
  const auto results = study::run_studies({spec}, no_cache());
  int judged = 0;
  for (const auto& o : results[0].orders) {
    if (o.metric != "global") continue;
    INFO(o.integrator << ": order " << o.fit.order);
    if (o.integrator == "rk4") CHECK(o.verdict.verdict == "pass");
    if (o.integrator == "rk4-typo") {
      CHECK(o.verdict.verdict == "fail");
      CHECK(o.fit.order == Approx(2).margin(0.3));
    }
    ++judged;
  }
  CHECK(judged == 2);
}

TEST_CASE("every kind of table converges at its predicted order: Nystrom, implicit, and longer than the fixed-size paths") {
  // Observed global order on Kepler e = 0.6 at t = 5 in long double (round-off far below the errors), fitted over
  // an automatic window as in tests/integrators/test_order.cpp.
  const testing::TempDir dir("tables-orders");
  const auto file = dir.file("m.toml", R"(
# RK4 on x'' = a(x) as a Nystrom method: its two middle stages share a position, leaving 3 (order 4).
[methods.rkn4]
kind = "nystrom"
c = ["0", "1/2", "1"]
abar = [[], ["1/8"], ["0", "1/2"]]
bbar = ["1/6", "1/3", "0"]
b = ["1/6", "2/3", "1/6"]
order = 4

# Two RK4 steps of h/2 as one 8-stage tableau: beyond the fixed-size paths (7 stages).
[methods.rk4-twice]
kind = "composition"
base = "rk4"
weights = ["1/2", "1/2"]
order = 4
)");
  const auto lib = tables::read_methods_file(file);
  using P = study::Kepler<long double>;
  const P kepler(study::ParamValues{{"e", "0.6"}});
  auto check = [&](const tables::Method& m) {
    const ode::TableMethod method{m.table};
    const auto fit = study::fit_order(testing::sweep(method, kepler, 5.0L, 8, 1L << 14));
    INFO(m.table->id << ": predicted " << m.predicted.order().order << ", observed " << fit.order << " over " << fit.points
                     << " points" << (fit.determined ? "" : ": " + fit.reason));
    REQUIRE(fit.determined);
    CHECK(std::abs(fit.order - m.predicted.order().order) <= 0.15);
  };
  REQUIRE(lib.find("rkn4"));
  CHECK(lib.find("rkn4")->predicted.order().order == 4);
  check(*lib.find("rkn4"));
  REQUIRE(lib.find("rk4-twice"));
  CHECK(lib.find("rk4-twice")->stages == 8);
  check(*lib.find("rk4-twice"));
  for (const char* id : {"gauss-legendre6", "radau-iia5", "lobatto-iiia4", "dopri5", "ralston4"}) check(*tables::shipped_library().find(id));
}

TEST_CASE("a spec's composition may take a --methods file's table as its base") {
  const testing::TempDir dir("tables-base");
  const auto methods = tables::read_methods_file(dir.file("m.toml", "[methods.my-leapfrog]\nkind = \"splitting\"\norder = 2\n"
                                                                    "drift = [\"1/2\", \"1/2\"]\nkick = [\"1\"]\n"));
  const auto spec = study::load_spec(dir.file("s.toml", R"(
name = "s"
problem = "kepler"
t_end = 1.0
integrators = ["my-jump"]
dt = [0.1]
[methods.my-jump]
kind = "composition"
base = "my-leapfrog"
weights = ["1.351207191959657634047687808971460827", "-1.702414383919315268095375617942921654", "1.351207191959657634047687808971460827"]
order = 4
)"), &methods);
  REQUIRE(spec.integrators.size() == 1);
  CHECK(spec.integrators[0].predicted.order == 4);
}

TEST_CASE("a table's digits as written: how far they miss consistency and each order's conditions, exactly", "[known]") {
  const testing::TempDir dir("tables-digits");
  // Yoshida's triple jump of leapfrog to 18 digits: 2 x 1.35120719195965763 - 1.70241438391931527 = 0.99999999999999999,
  // so its kicks and its drifts advance the flow by (1 - 1e-17) h.  The classical RK4 with 7-digit weights 0.1666667,
  // 0.3333333, 0.3333333, 0.1666666 (c = 0, 1/2, 1/2, 1): sum b = 0.9999999 (order 1 off by 1e-7); sum b c =
  // 0.3333333 + 0.1666666 = 0.4999999 (order 2: 1e-7); sum b c^2 = 0.16666665 + 0.1666666 = 0.33333325 and
  // sum b a c = 0.083333325 + 0.0833333 = 0.166666625 (order 3: the larger miss, 1/3 - 0.33333325 = 8.333...e-8).
  const auto spec = study::load_spec(dir.file("digits.toml", R"(
name = "digits"
problem = "harmonic"
t_end = 1.0
dt = [0.1, 0.05, 0.025]
integrators = ["jump", "rk4-7", "rk4-exact"]

[methods.jump]
kind = "composition"
order = 4
base = "leapfrog"
weights = ["1.35120719195965763", "-1.70241438391931527", "1.35120719195965763"]

[methods.rk4-7]
kind = "runge-kutta"
order = 4
a = [[], ["1/2"], ["0", "1/2"], ["0", "0", "1"]]
b = ["0.1666667", "0.3333333", "0.3333333", "0.1666666"]

[methods.rk4-exact]
kind = "runge-kutta"
order = 4
a = [[], ["1/2"], ["0", "1/2"], ["0", "0", "1"]]
b = ["1/6", "1/3", "1/3", "1/6"]
)"));
  const auto& jump = spec.integrators[0].predicted;
  CHECK_THAT(jump.consistency, Catch::WithinRel(1e-17, 1e-12));
  const auto& rk = spec.integrators[1].predicted;
  REQUIRE(rk.order == 4);
  CHECK_THAT(rk.consistency, Catch::WithinRel(1e-7, 1e-9));
  REQUIRE(rk.residuals.size() == 4);
  CHECK_THAT(rk.residuals[0], Catch::WithinRel(1e-7, 1e-9));
  CHECK_THAT(rk.residuals[1], Catch::WithinRel(1e-7, 1e-9));
  CHECK_THAT(rk.residuals[2], Catch::WithinRel(1.0 / 3 - 0.33333325, 1e-9));
  // Exact ratios miss by nothing (50-digit rounding at most).
  const auto& exact = spec.integrators[2].predicted;
  CHECK(exact.consistency == 0);
  for (double r : exact.residuals) CHECK(r < 1e-45);
}

TEST_CASE("a spec on a linear problem carries the order of a table's stability function where it is higher") {
  const testing::TempDir dir("tables-linear");
  const auto methods = tables::read_methods_file(dir.file("m.toml", R"([methods.lin3]
kind = "runge-kutta"
order = 2
source = "by hand: order 2, its stability function 1 + z + z^2/2 + z^3/6"
a = [[], ["1/2"], ["1/3", "2/3"]]
b = ["1/2", "0", "1/2"]
)"));
  // study method says so, with the failing condition worked by hand above; rk4 has no such line.
  CHECK_THAT(tables::describe(*methods.find("lin3")),
             Catch::Contains("  linear       order 3 on linear problems x' = L x (first failing: sum b^T A^3 1 = 1/24, off by -0.0417)"));
  CHECK_THAT(tables::describe(builtin("rk4")), !Catch::Contains("linear"));
  auto spec_on = [&](const std::string& problem) {
    return study::load_spec(dir.file(problem + ".toml", "name = \"s\"\nproblem = \"" + problem +
                                                          "\"\nt_end = 1.0\nintegrators = [\"lin3\", \"rk4\"]\ndt = [0.1]\n"),
                            &methods);
  };
  for (const std::string problem : {"harmonic", "damped-oscillator"}) {
    INFO(problem);
    const auto spec = spec_on(problem);
    REQUIRE(spec.integrators.size() == 2);
    CHECK(spec.integrators[0].predicted.order == 2);
    CHECK(spec.integrators[0].predicted.linear_order == 3);
    CHECK(spec.integrators[1].predicted.linear_order == 0);  // rk4: no higher there
  }
  const auto kepler = spec_on("kepler");  // not linear: the general order only
  CHECK(kepler.integrators[0].predicted.linear_order == 0);
  // Run on the harmonic oscillator: its errors fall as dt^3 (the z^4 term of R(z) - exp(z), -z^4/24, per step), and the
  // engine passes the declared 2 on that 3.
  const auto run = study::load_spec(dir.file("run.toml", "name = \"lin\"\nproblem = \"harmonic\"\nt_end = 1.0\n"
                                                           "integrators = [\"lin3\"]\ndt = [0.1, 0.05, 0.025, 0.0125, 0.00625]\n"
                                                           "metrics = [\"global\"]\n"),
                                    &methods);
  const auto results = study::run_studies({run}, no_cache());
  int judged = 0;
  for (const auto& o : results[0].orders) {
    if (o.metric != "global") continue;
    INFO(o.verdict.reason);
    CHECK(o.fit.order == Approx(3).margin(0.1));
    CHECK(o.verdict.verdict == "pass");
    CHECK_THAT(o.verdict.reason, Catch::Contains("on linear problems"));
    ++judged;
  }
  CHECK(judged == 1);
}
