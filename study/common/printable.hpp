#pragma once
/// Text from a user's input, made safe to echo: keys, names, values and file contents reach messages, and a
/// terminal would obey the control characters in them (an escape sequence recolours or clears it, a carriage
/// return overwrites the line, a NUL cuts the message short where it is printed as a C string).

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace study {

/// The longest run of non-blank characters echoed whole; a longer one (a million-digit coefficient, a file's
/// contents on one line) is shown by its two ends and its length.
inline constexpr std::size_t max_echoed_word = 200;

namespace printable_detail {

/// The first 64 and last 16 bytes of `shown` around "...[N bytes]..." (N: the input's length), cut between UTF-8
/// characters.
inline std::string ends_of(const std::string& shown, std::size_t input_length) {
  auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; };
  std::size_t head = 64, tail = shown.size() - 16;
  while (head > 0 && continuation(shown[head])) --head;
  while (tail < shown.size() && continuation(shown[tail])) ++tail;
  return shown.substr(0, head) + "...[" + std::to_string(input_length) + " bytes]..." + shown.substr(tail);
}

/// `text` with control characters shown as \xNN (line breaks and tabs kept when `keep_layout`), and every run of
/// non-blank characters longer than `max_word` once escaped shortened to its first 64 and last 16 bytes
/// ("777...[4000 bytes]...777", the input's length; cut between UTF-8 characters).
inline std::string escaped(std::string_view text, bool keep_layout, std::size_t max_word) {
  auto blank = [&](char c) { return c == ' ' || (keep_layout && (c == '\n' || c == '\t')); };
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (blank(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !blank(text[end])) ++end;
    std::string word;
    for (const char c : text.substr(i, end - i)) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f) {
        static constexpr char hex[] = "0123456789abcdef";
        word += "\\x";
        word += hex[u >> 4];
        word += hex[u & 15];
      } else {
        word += c;
      }
    }
    out += word.size() > max_word ? ends_of(word, end - i) : word;
    i = end;
  }
  return out;
}

}  // namespace printable_detail

/// A value from input (a key, a name, a title, a number as written) for a message: every control character shown as
/// \xNN (a NUL as \x00, a line break as \x0a), and a value longer than max_echoed_word once escaped shown by its
/// ends and its length.  Idempotent: printable(printable(s)) == printable(s).
inline std::string printable(std::string_view value) {
  const std::string shown = printable_detail::escaped(value, false, std::string::npos);
  return shown.size() > max_echoed_word ? printable_detail::ends_of(shown, value.size()) : shown;
}

/// A one-line message (every error of a spec or a methods file): as printable, but only its runs of non-blank
/// characters longer than max_echoed_word shortened.  Idempotent.
inline std::string printable_line(std::string_view message) {
  return printable_detail::escaped(message, false, max_echoed_word);
}

/// A whole message, for a terminal: as printable_line, but its line breaks and tabs kept.  Idempotent.
inline std::string printable_message(std::string_view message) {
  return printable_detail::escaped(message, true, max_echoed_word);
}

/// An error whose message echoes input: stored printable, so every place that prints it shows the same safe text.
struct EchoError : std::runtime_error {
  explicit EchoError(const std::string& what) : std::runtime_error(printable_message(what)) {}
  explicit EchoError(const char* what) : EchoError(std::string(what)) {}
};

/// An error of one line (a spec's, a methods file's): a line break echoed from input is shown as \x0a, so that no
/// input can print a line of its own ("PASS ...") under the program's name.
struct OneLineError : std::runtime_error {
  explicit OneLineError(const std::string& what) : std::runtime_error(printable_line(what)) {}
  explicit OneLineError(const char* what) : OneLineError(std::string(what)) {}
};

}  // namespace study
