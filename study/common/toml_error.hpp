#pragma once
/// A TOML syntax error as a user can act on it: what most likely went wrong, in plain words, then the parser's own
/// text (toml++ reports what it saw at a character, which is often not where the mistake is: a bare 1/3 is
/// "expected ... saw '/'", an unclosed string is a text about control characters).

#include <cctype>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace study {
namespace toml_detail {

/// Line `n` (from 1) of text, without its line break.
inline std::string_view line_of(std::string_view text, std::size_t n) {
  std::size_t begin = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const auto nl = text.find('\n', begin);
    if (nl == std::string_view::npos) return {};
    begin = nl + 1;
  }
  auto end = text.find('\n', begin);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(begin, end - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

/// The line's text outside strings and comments, each string replaced by one space; `open` is set when a string
/// is still open at the end of the line (a missing closing quote).
inline std::string outside_strings(std::string_view line, bool& open) {
  std::string out;
  open = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == '\\' && quote == '"') ++i;
      else if (c == quote) quote = 0, out += ' ';
      continue;
    }
    if (c == '#') break;
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    out += c;
  }
  open = quote != 0;
  return out;
}

inline bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// The first bare ratio ("1/3", "-2.5/7") in code outside strings; "" when there is none.
inline std::string bare_ratio(const std::string& code) {
  for (std::size_t slash = code.find('/'); slash != std::string::npos; slash = code.find('/', slash + 1)) {
    std::size_t a = slash, b = slash + 1;
    while (a > 0 && code[a - 1] == ' ') --a;
    const std::size_t num_end = a;
    // A number's characters, an exponent's sign too (1e-3): the ratio proposed is the one written.
    auto in_number = [&](std::size_t i) {
      const char c = code[i];
      return digit(c) || c == '.' || c == '_' || c == 'e' || c == 'E' || ((c == '-' || c == '+') && i > 0 && (code[i - 1] == 'e' || code[i - 1] == 'E'));
    };
    while (a > 0 && in_number(a - 1)) --a;
    if (a > 0 && (code[a - 1] == '-' || code[a - 1] == '+')) --a;
    while (b < code.size() && code[b] == ' ') ++b;
    const std::size_t den = b;
    while (b < code.size() && in_number(b)) ++b;
    if (a < num_end && digit(code[num_end - 1]) && b > den && digit(code[den])) {
      std::string r;
      for (char c : code.substr(a, b - a))
        if (c != ' ') r += c;
      return r;
    }
  }
  return "";
}

/// The value of "key = value" when it is a bare word TOML does not know (kepler, rk4): text that needs quotes.
inline std::string bare_word(const std::string& code) {
  const auto eq = code.find('=');
  if (eq == std::string::npos) return "";
  std::size_t a = eq + 1;
  while (a < code.size() && (code[a] == ' ' || code[a] == '\t')) ++a;
  std::size_t b = a;
  while (b < code.size() && !std::isspace(static_cast<unsigned char>(code[b])) && code[b] != ',' && code[b] != ']' && code[b] != '}') ++b;
  const std::string word = code.substr(a, b - a);
  if (word.empty() || !std::isalpha(static_cast<unsigned char>(word.front()))) return "";
  for (const char* known : {"true", "false", "inf", "nan"})
    if (word == known) return "";
  return word;
}

}  // namespace toml_detail

/// What most likely went wrong at a TOML syntax error, in plain words ("" when no rule recognises it).
inline std::string toml_hint(const toml::parse_error& e, std::string_view text) {
  using namespace toml_detail;
  const std::size_t line_no = e.source().begin.line;
  const std::string_view line = line_of(text, line_no);
  bool open = false;
  const std::string code = outside_strings(line, open);
  const std::string_view what = e.description();
  if (what.find("redefin") != std::string_view::npos) return "a key or table is given twice; give each once";
  if (line.find("\"\"\"") != std::string_view::npos || line.find("\'\'\'") != std::string_view::npos) return "";  // multi-line strings: no guess
  if (const std::string r = bare_ratio(code); !r.empty())
    return "write ratios as strings: \"" + r + "\": TOML has no fractions, and a quoted ratio is read exactly";
  if (open) return "a string is not closed: a quote is missing at the end of line " + std::to_string(line_no);
  if (const std::string w = bare_word(code); !w.empty())
    return "text values are quoted: \"" + w + "\", not " + w;
  return "";
}

/// "FILE:LINE: not valid TOML: <what most likely went wrong> (the TOML parser: <its text>)".
inline std::string toml_error(const toml::parse_error& e, std::string_view text, const std::string& file) {
  const std::string hint = toml_hint(e, text);
  std::string m = file + ":" + std::to_string(e.source().begin.line) + ": not valid TOML: ";
  if (hint.empty()) return m + std::string(e.description());
  return m + hint + " (the TOML parser: " + std::string(e.description()) + ")";
}

}  // namespace study
