#pragma once
/// The grammar of every name that becomes a file or folder name (a study's name, a plot's): lowercase letters,
/// digits, '-' and '_', starting with a letter or digit, at most 64 characters.  The spec parser and the results
/// loader both hold names to it, so a results file from elsewhere cannot name a path outside its folder.

#include <charconv>
#include <string>
#include <string_view>

#include "study/common/printable.hpp"

namespace study {

/// Shortest text that reads back to the same double ("0.6", not "0.59999999999999998"; "1e+05").
inline std::string shortest_decimal(double x) {
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, x).ptr;
  return std::string(buf, end);
}

/// A value as a scan's point names write it: the shortest decimal, '.' as 'p', '-' as 'm', no '+' ("m1em05").
inline std::string value_name(double x) {
  std::string out;
  for (const char c : shortest_decimal(x))
    if (c == '.') out += 'p';
    else if (c == '-') out += 'm';
    else if (c != '+') out += c;
  return out;
}

inline constexpr std::size_t max_name_length = 64;
/// A name made from a study's name and a suffix or prefix (a plot: "history-STUDY-cost-1"): within the file
/// system's 255 bytes with room for its temporary and extension.
inline constexpr std::size_t max_derived_length = 200;

/// The longest line of free text a spec or table may hold (a title, a summary, a source): a heading, not a page.
inline constexpr std::size_t max_text_length = 300;

/// Why `text` is not one line of free text of at most max_text_length bytes; "" when it is.
inline std::string text_problem(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return "holds a line break or another control character: one line of text";
  if (text.size() > max_text_length)
    return "is " + std::to_string(text.size()) + " bytes long; at most " + std::to_string(max_text_length) + " (one line)";
  return "";
}

/// Why `name` is not a valid file name by the grammar above; "" when it is.  `limit`: its longest (a derived name's
/// is max_derived_length).
inline std::string name_problem(std::string_view name, std::size_t limit = max_name_length) {
  if (name.empty()) return "is empty";
  if (name.size() > limit)
    return "is " + std::to_string(name.size()) + " characters long (at most " + std::to_string(limit) + ")";
  if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string_view::npos)
    return "must be lowercase letters, digits, '-' or '_' (it names the output folder)";
  if (name.front() == '-' || name.front() == '_') return "must start with a lowercase letter or a digit";
  if (name == "plots") return "is the name of the report's folder of plots: give the study another name";
  return "";
}

}  // namespace study
