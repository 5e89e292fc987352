#pragma once
/// Reading a user's input file (a spec, a methods file, a baseline, results, standard input): what kind of file it
/// is, so that a FIFO or a device is never read (the read would block, or never end), and a size limit, so that a
/// huge or endless input (`study run - < /dev/zero`) is refused after a few MiB instead of filling the memory.

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>

#include "study/common/interrupt.hpp"

namespace study {

/// The most bytes read from a spec, a methods file, a baseline or standard input (the largest shipped file is tens
/// of KiB; Feagin's order-14 table is 20 KiB).
inline constexpr std::size_t max_input_bytes = std::size_t{4} << 20;

enum class FileKind { missing, unreadable, folder, special, regular };

/// What `path` is, links followed (a FIFO, a device or a socket is `special`; `unreadable`: its folder cannot be
/// searched, `why` says why).
inline FileKind file_kind(const std::filesystem::path& path, std::error_code* why = nullptr) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (st.type() == std::filesystem::file_type::not_found) return FileKind::missing;
  if (ec) {
    if (why) *why = ec;
    return FileKind::unreadable;
  }
  if (st.type() == std::filesystem::file_type::directory) return FileKind::folder;
  return st.type() == std::filesystem::file_type::regular ? FileKind::regular : FileKind::special;
}

/// The text a `file_kind` guard gives for a `special` file.
inline std::string not_regular(const std::filesystem::path& path) {
  return path.string() + ": is not a regular file (a FIFO, a device or a socket is never read)";
}

/// All of `in`, or nullopt when it holds more than `limit` bytes (read in chunks: an endless input stops there).
inline std::optional<std::string> read_at_most(std::istream& in, std::size_t limit = max_input_bytes) {
  std::string text;
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limit) return std::nullopt;
  }
  return text;
}

/// All of standard input, or nullopt when it holds more than `limit` bytes.  It waits for input in slices of 0.1 s,
/// asking the interrupt flag between them: read(2) on an idle terminal or pipe is restarted after a signal handler
/// returns, so a command waiting there would not answer Ctrl-C or SIGTERM.
inline std::optional<std::string> read_stdin_at_most(std::size_t limit = max_input_bytes) {
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    stop_if_interrupted();
    pollfd waiting{STDIN_FILENO, POLLIN, 0};
    const int ready = ::poll(&waiting, 1, 100);
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    const ssize_t n = ready < 0 ? -1 : ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw std::runtime_error(std::string("<stdin>: cannot read standard input (") + std::strerror(errno) + ")");
    }
    if (n == 0) return text;
    text.append(chunk, static_cast<std::size_t>(n));
    if (text.size() > limit) return std::nullopt;
  }
}

/// "at most 4 MiB": for the message that refuses a larger input.
inline std::string input_limit_text() { return "at most " + std::to_string(max_input_bytes >> 20) + " MiB"; }

/// The text of the input file `path` (a `what`: "spec file"), or an Error naming the file: `when_missing` follows
/// "PATH: " when there is no such file; a folder, a FIFO, a device or more than max_input_bytes is refused unread.
template <class Error>
std::string read_input_file(const std::filesystem::path& path, const std::string& what, const std::string& when_missing) {
  std::error_code why;
  switch (file_kind(path, &why)) {
    case FileKind::missing: throw Error(path.string() + ": " + when_missing);
    case FileKind::unreadable: throw Error(path.string() + ": cannot read this " + what + " (" + why.message() + ")");
    case FileKind::folder: throw Error(path.string() + ": is a folder, not a " + what);
    case FileKind::special: throw Error(not_regular(path));
    case FileKind::regular: break;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot read this " + what + " (" + std::strerror(errno) + ")");
  std::optional<std::string> text = read_at_most(in);
  if (!text) throw Error(path.string() + ": is larger than a " + what + " may be (" + input_limit_text() + ")");
  return std::move(*text);
}

}  // namespace study
