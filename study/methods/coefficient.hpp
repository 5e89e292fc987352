#pragma once
/// Coefficients of method tables as exact rationals: parsed from decimal text of any length or "p/q", and
/// turned into the decimal text from which every binary type the harness runs (double, long double, float128)
/// reads its correctly rounded value.

#include <string>
#include <string_view>

#include <boost/multiprecision/cpp_int.hpp>

namespace study::tables {

using Rational = boost::multiprecision::cpp_rational;

/// Parses a decimal number ("0.4144907717943757371", "-1e-3", "7") or a ratio of two ("-2/3", "1.5/7") exactly.
/// Throws std::invalid_argument saying what is wrong (the caller adds file, line and key).
Rational parse_coefficient(std::string_view text);

/// Decimal text that rounds, in any binary floating-point type of at most 113 significand bits, to the same value
/// as x itself: x's exact expansion when it terminates, else enough digits that no rounding boundary of a 113-bit
/// grid lies between x and the text (a boundary is a dyadic rational M / 2^e, at least 1 / (den 2^e) away from
/// x = num / den, which is not dyadic).
std::string decimal_for_rounding(const Rational& x);

/// The relative precision of a coefficient as written.  A decimal of d >= 6 significant digits (trailing zeros not
/// counted) is read as a value rounded to d digits: 5 10^-d (from a paper: 15 digits of an irrational number),
/// unless it is the exact expansion of a ratio p/q of fewer than d digits in all ("0.037109375" is 19/512: exact).
/// Shorter decimals ("0.5", "-0.125", "0.500000"), and integers, are exact: 0.  A ratio "p/q": p's and q's added.
double stated_precision(std::string_view text);

/// How far a coefficient as written may lie from the value its author rounded (absolute): half a unit in the last
/// nonzero digit of a decimal that stated_precision reads as rounded (>= 6 significant digits), else 0 (exact); a
/// decimal of 16 or more significant digits, which may have been printed from a double, at least |x| eps.  A
/// ratio "p/q": |p/q| times the relative uncertainties of p and q added.  Two coefficients that are the same number
/// rounded lie within the sum of theirs; two that differ by more are different numbers, whatever their digits.
double written_uncertainty(std::string_view text);

/// Short text for messages: the exact "p/q" when both have at most 12 digits, else 20 significant digits.
std::string describe(const Rational& x);

}  // namespace study::tables
