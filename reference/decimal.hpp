#pragma once
/// float128 <-> decimal text with every digit (36 significant digits round-trip exactly).

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

}  // namespace reference
