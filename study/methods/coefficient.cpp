#include "study/methods/coefficient.hpp"

#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/multiprecision/cpp_bin_float.hpp>

namespace study::tables {
namespace {

using boost::multiprecision::cpp_int;

constexpr int max_digits = 100, max_exponent = 100;

cpp_int pow10(unsigned k) {
  cpp_int p = 1;
  for (unsigned i = 0; i < k; ++i) p *= 10;
  return p;
}

/// "-12.5e-3" exactly.  At most max_digits digits and exponents within +-max_exponent: a coefficient beyond that is a
/// typo, and the limits bound the size of the integers, so that a table's order conditions take seconds at most
/// (a 64-stage table of 300-digit ratios took 33 s).
Rational parse_decimal(std::string_view t, std::string_view whole) {
  auto bad = [&](const std::string& why) -> std::invalid_argument {
    return std::invalid_argument("'" + std::string(whole) + "' is not a number: " + why +
                                 " (use a decimal such as \"0.5\" or \"-1.25e-3\", or a ratio such as \"-2/3\")");
  };
  std::size_t i = 0;
  bool negative = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative = t[i++] == '-';
  cpp_int digits = 0;
  int scale = 0, count = 0;
  bool point = false;
  for (; i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.'); ++i) {
    if (t[i] == '.') {
      if (point) throw bad("two decimal points");
      point = true;
      continue;
    }
    digits = digits * 10 + (t[i] - '0');
    if (++count > max_digits) throw bad("more than " + std::to_string(max_digits) + " digits (36 carry a float128 in full)");
    if (point) --scale;
  }
  if (count == 0) throw bad(t.empty() ? "it is empty" : "no digits");
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool neg_exp = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg_exp = t[i++] == '-';
    int exponent = 0, exp_digits = 0;
    for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i, ++exp_digits) {
      exponent = exponent * 10 + (t[i] - '0');
      if (exponent > max_exponent) throw bad("the exponent is beyond +-" + std::to_string(max_exponent));
    }
    if (exp_digits == 0) throw bad("no digits in the exponent");
    scale += neg_exp ? -exponent : exponent;
  }
  if (i != t.size()) throw bad("unexpected '" + std::string(1, t[i]) + "'");
  Rational r = scale >= 0 ? Rational(digits * pow10(static_cast<unsigned>(scale))) : Rational(digits, pow10(static_cast<unsigned>(-scale)));
  return negative ? Rational(-r) : r;
}

unsigned decimal_digits(const cpp_int& x) {
  unsigned n = 0;
  for (cpp_int p = 1; p <= x; p *= 10) ++n;
  return n;
}

/// "N e-k" for the integer N and k >= 0, as plain decimal text.
std::string scaled_text(cpp_int n, unsigned k) {
  const bool negative = n < 0;
  if (negative) n = -n;
  std::string digits = n.str();
  if (k > 0) {
    if (digits.size() <= k) digits.insert(0, k - digits.size() + 1, '0');
    digits.insert(digits.size() - k, ".");
    while (digits.back() == '0') digits.pop_back();
    if (digits.back() == '.') digits.pop_back();
  }
  if (negative) digits.insert(0, 1, '-');  // not "-" + digits: GCC 12 warns falsely (-Wstringop-overflow) on that
  return digits;
}

}  // namespace

Rational parse_coefficient(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  const auto slash = t.find('/');
  if (slash == std::string_view::npos) return parse_decimal(t, text);
  const Rational num = parse_decimal(t.substr(0, slash), text), den = parse_decimal(t.substr(slash + 1), text);
  if (den == 0) throw std::invalid_argument("'" + std::string(text) + "' divides by zero");
  return num / den;
}

std::string decimal_for_rounding(const Rational& x) {
  using boost::multiprecision::denominator;
  using boost::multiprecision::numerator;
  const cpp_int num = numerator(x), den = denominator(x);
  if (num == 0) return "0";
  // A terminating expansion is exact: den = 2^a 5^b.
  cpp_int rest = den;
  unsigned twos = 0, fives = 0;
  while (rest % 2 == 0) rest /= 2, ++twos;
  while (rest % 5 == 0) rest /= 5, ++fives;
  if (rest == 1) {
    const unsigned k = std::max(twos, fives);
    return scaled_text(num * pow10(k) / den, k);
  }
  // Otherwise truncate to k digits after the point, with 10^-k < 1 / (2 den 2^e): a lower bound of floor(log2 |x|)
  // is msb(|num|) - msb(den) - 1, and the boundaries of a 113-bit grid (with its midpoints: 114 bits) near |x| are
  // multiples of 2^(e2 - 114).
  const cpp_int a = num < 0 ? cpp_int(-num) : num;
  const long e2 = static_cast<long>(boost::multiprecision::msb(a)) - static_cast<long>(boost::multiprecision::msb(den)) - 1;
  const long shift = std::max(0L, 114 - e2);
  const unsigned k = decimal_digits((den << static_cast<unsigned>(shift)) * 2);
  return scaled_text(num * pow10(k) / den, k);  // cpp_int division truncates toward zero
}

namespace {

/// Significant digits of a decimal's mantissa, without leading zeros, nor trailing ones: "0.500000" has 1.
int significant_digits(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (std::isdigit(static_cast<unsigned char>(c)) && !(digits.empty() && c == '0')) digits += c;
  }
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  return static_cast<int>(digits.size());
}

/// Half a unit in the last nonzero digit of a decimal stated_precision reads as rounded, else 0.
double last_digit_uncertainty(std::string_view text) {
  if (stated_precision(text) == 0) return 0;
  // The place (power of ten) of the mantissa's last nonzero digit, then shifted by the exponent.
  const std::size_t e = text.find_first_of("eE");
  const std::string_view mantissa = text.substr(0, e);
  const std::size_t dot = mantissa.find('.');
  const std::size_t integer_digits = dot == std::string_view::npos ? mantissa.size() : dot;
  long last = 0;
  bool seen = false;
  for (std::size_t i = 0; i < mantissa.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(mantissa[i])) || mantissa[i] == '0') continue;
    last = i < integer_digits ? static_cast<long>(integer_digits - 1 - i) : -static_cast<long>(i - integer_digits);
    seen = true;
  }
  if (!seen) return 0;
  const long exponent = e == std::string_view::npos ? 0 : std::stol(std::string(text.substr(e + 1)));
  return 0.5 * std::pow(10.0, static_cast<double>(last + exponent));
}

}  // namespace

double stated_precision(std::string_view text) {
  if (const auto slash = text.find('/'); slash != std::string_view::npos)  // a ratio: each side's, added
    return stated_precision(text.substr(0, slash)) + stated_precision(text.substr(slash + 1));
  if (text.find_first_of(".eE") == std::string_view::npos) return 0;  // an integer
  const int d = significant_digits(text);
  if (d < 6) return 0;
  // A decimal longer than the ratio it equals is that ratio, exactly: 0.037109375 is 19/512 (8 digits for 5).  A
  // rounding of d digits reduces that far only when its last digits happen to hold a power of 2 or 5 above 10^(d/2).
  try {
    const Rational x = parse_coefficient(text);
    const cpp_int num = boost::multiprecision::numerator(x), den = boost::multiprecision::denominator(x);
    if (static_cast<int>(decimal_digits(num < 0 ? cpp_int(-num) : num) + decimal_digits(den)) < d) return 0;
  } catch (const std::invalid_argument&) {
    // not a number: the reader says so; its precision does not matter
  }
  return 5 * std::pow(10.0, -d);
}

double written_uncertainty(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (const auto slash = text.find('/'); slash != std::string_view::npos) {
    const std::string_view p = text.substr(0, slash), q = text.substr(slash + 1);
    const double vp = std::abs(static_cast<double>(parse_coefficient(p))), vq = std::abs(static_cast<double>(parse_coefficient(q)));
    if (vp == 0 || vq == 0) return 0;
    return vp / vq * (written_uncertainty(p) / vp + written_uncertainty(q) / vq);
  }
  const double u = last_digit_uncertainty(text);
  // 16 significant digits or more, perhaps printed from a double (%.17g): such text lies up to an ulp of the double
  // from the value meant, more than its last digit says, so at least double's eps (a short exact ratio too).
  if (text.find_first_of(".eE") != std::string_view::npos && significant_digits(text) >= 16) {
    try {
      return std::max(u, std::abs(static_cast<double>(parse_coefficient(text))) * std::numeric_limits<double>::epsilon());
    } catch (const std::invalid_argument&) {
      return u;
    }
  }
  return u;
}

std::string describe(const Rational& x) {
  using boost::multiprecision::denominator;
  using boost::multiprecision::numerator;
  const cpp_int num = numerator(x), den = denominator(x);
  const auto n = num.str(), d = den.str();
  if (n.size() <= 13 && d.size() <= 12) return den == 1 ? n : n + "/" + d;
  return boost::multiprecision::cpp_bin_float_50(x).str(20);
}

}  // namespace study::tables
