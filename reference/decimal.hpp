#pragma once
/// float128 <-> decimal text with every digit (36 significant digits round-trip exactly).

#include <cstdio>
#include <ios>
#include <limits>
#include <string>
#include <string_view>

#include <boost/multiprecision/float128.hpp>

#include "integrators/state.hpp"

namespace reference {

using Real = boost::multiprecision::float128;

/// All digits of x: parsing the text gives back exactly x.
inline std::string to_decimal(const Real& x) {
  return x.str(std::numeric_limits<Real>::max_digits10, std::ios_base::scientific);
}

/// Exactly rounded float128 from decimal text; throws std::invalid_argument on anything else.
inline Real from_decimal(std::string_view text) { return ode::from_decimal<Real>(text); }

/// A long double as a C99 hex float ("%La"): exact, and read back by strtold (cache keys and entries).
inline std::string to_hex(long double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%La", x);
  return buf;
}

}  // namespace reference
