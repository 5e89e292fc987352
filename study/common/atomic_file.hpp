#pragma once
/// Whole-file writes that are never seen half-done: a temporary file in the same directory, then rename(2).

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace study {

/// An output that could not be written or published (a full device, a file size limit, a rename that failed): the
/// command fails with exit status 1, as a failure of the machine, not of its input (2).  (An output folder that is not
/// writable at all is refused before any work, exit 2: study/cli/options.cpp.)
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Why `path` may not be replaced by an output file, or "" when it may: only a regular file (or nothing) is ever
/// replaced, for a device (/dev/stdout, /dev/full), a FIFO or a link named as the output would become a plain
/// file (as root, even under /dev).
inline std::string replace_problem(const std::filesystem::path& path) {
  std::error_code ec;
  const auto existing = std::filesystem::symlink_status(path, ec);
  if (!std::filesystem::exists(existing) || std::filesystem::is_regular_file(existing)) return {};
  return path.string() + ": is not a regular file (a link, a FIFO, a device or a folder is never replaced); give the path of a file";
}

/// Writes text to path atomically (creates the directory).  Throws std::runtime_error naming the path.
inline void write_atomic(const std::filesystem::path& path, const std::string& text) {
  if (const std::string why = replace_problem(path); !why.empty()) throw std::runtime_error(why);
  std::error_code ec;
  if (!path.parent_path().empty()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw WriteError("cannot create " + path.parent_path().string() + ": " + ec.message());
  // Appended piecewise: GCC 12's "." + std::string&& trips a false -Wrestrict (GCC bug 105329).
  std::string name(".");
  name += path.filename().string();
  name += ".tmp.";
  name += std::to_string(::getpid());
  static std::atomic<unsigned> counter{0};  // unique per process and call: two threads never share a temporary
  name += '.';
  name += std::to_string(counter++);
  const auto tmp = path.parent_path() / name;
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();  // close(2) can report what the writes did not (a full device, a quota)
    if (!out) {
      const std::string why = errno ? std::strerror(errno) : "write failed";
      std::filesystem::remove(tmp, ec);
      throw WriteError("cannot write " + path.string() + " (" + why + ")");
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw WriteError("cannot move " + tmp.string() + " to " + path.string() + ": " + ec.message());
  }
}

}  // namespace study
