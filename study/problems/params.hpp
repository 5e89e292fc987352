#pragma once
/// Named problem parameters: declared with defaults and a description, given at run time as text,
/// parsed in the problem's own precision (so float128 gets "0.6" to 34 digits), validated with messages
/// that name the problem, the parameter, the value and what would be valid.

#include <array>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "integrators/state.hpp"
#include "study/common/suggest.hpp"

namespace study {

/// One declared parameter.
struct ParamInfo {
  std::string_view name;
  std::string_view default_value;
  std::string_view help;
};

/// Parameter values as given by a user (name -> decimal text).
using ParamValues = std::map<std::string, std::string, std::less<>>;

/// A bad parameter: unknown name, not a number, or out of range.
struct ParamError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Reads a problem's parameters from user values, falling back to the declared defaults.
template <class Real, std::size_t N>
class ParamReader {
 public:
  ParamReader(std::string_view problem, const std::array<ParamInfo, N>& infos, const ParamValues& values)
      : problem_(problem), infos_(infos), values_(values) {
    for (const auto& [name, text] : values) {
      if (find(name) == nullptr) {
        std::array<std::string_view, N> names;
        for (std::size_t i = 0; i < N; ++i) names[i] = infos[i].name;
        throw ParamError(std::string(problem) + ": unknown parameter '" + name + "'" + did_you_mean(name, names) +
                         (N ? "; valid parameters: " + join(names) : "; it takes no parameters"));
      }
    }
  }

  /// The value of `name` in Real precision.
  Real operator()(std::string_view name) const {
    const ParamInfo* info = find(name);
    if (info == nullptr) throw std::logic_error("undeclared parameter " + std::string(name));
    const auto it = values_.find(name);
    const std::string_view text = it != values_.end() ? std::string_view(it->second) : info->default_value;
    Real x;
    try {
      x = ode::from_decimal<Real>(text);
    } catch (const std::exception&) {
      throw ParamError(std::string(problem_) + ": parameter '" + std::string(name) + "' = '" + std::string(text) +
                       "' is not a number (" + std::string(info->help) + ")");
    }
    using std::abs;
    // Every parameter is a physical quantity: within 1e150 either way, nothing overflows when it is squared.
    // The bounds in Real's own rounding of the decimals (float128's 1e-150 is not double's), so that the bounds
    // themselves are valid values.
    static const Real lowest = bound("1e-150", 1e-150), highest = bound("1e150", 1e150);
    if (!(abs(x) <= highest) || (x != 0 && abs(x) < lowest))
      throw ParamError(std::string(problem_) + ": parameter '" + std::string(name) + "' = " + std::string(text) +
                       " is out of range: its magnitude must be 0 or lie in [1e-150, 1e150] (" + std::string(info->help) + ")");
    return x;
  }

  /// A range bound in Real's own rounding of its decimal; a type that cannot hold it (float) takes double's.
  static Real bound(const char* decimal, double fallback) {
    try {
      return ode::from_decimal<Real>(decimal);
    } catch (const std::exception&) {
      return Real(fallback);
    }
  }

  /// Throws a ParamError for `name` unless `ok`, saying what is valid.
  void require(bool ok, std::string_view name, std::string_view valid) const {
    if (ok) return;
    const auto it = values_.find(name);
    const ParamInfo* info = find(name);
    const std::string text = it != values_.end() ? it->second : std::string(info ? info->default_value : "");
    throw ParamError(std::string(problem_) + ": parameter '" + std::string(name) + "' = " + text +
                     " is out of range: " + std::string(valid));
  }

 private:
  const ParamInfo* find(std::string_view name) const {
    for (const auto& i : infos_)
      if (i.name == name) return &i;
    return nullptr;
  }
  std::string_view problem_;
  const std::array<ParamInfo, N>& infos_;
  const ParamValues& values_;
};

}  // namespace study
