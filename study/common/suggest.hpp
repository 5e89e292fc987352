#pragma once
/// "Did you mean …?" for mistyped ids, keys and parameter names.

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

namespace study {

/// Levenshtein edit distance (insertions, deletions, substitutions), case-insensitive.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// The closest candidate to `word`, or "" when none is plausibly meant (more than half the letters differ).
template <class Range>
std::string nearest(std::string_view word, const Range& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 2) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) best_distance = d, best = std::string(c);
  }
  return best;
}

/// " (did you mean 'x'?)" or "", to append to an error message.
template <class Range>
std::string did_you_mean(std::string_view word, const Range& candidates) {
  const std::string n = nearest(word, candidates);
  return n.empty() ? std::string{} : " (did you mean '" + n + "'?)";
}

/// "a, b, c" for listing the valid choices in an error message.
template <class Range>
std::string join(const Range& items, std::string_view sep = ", ") {
  std::string out;
  for (const auto& i : items) {
    if (!out.empty()) out += sep;
    out += std::string(i);
  }
  return out;
}

}  // namespace study
