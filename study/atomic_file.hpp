#pragma once
/// Whole-file writes that are never seen half-done: a temporary file in the same directory, then rename(2).

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace study {

/// Writes text to path atomically (creates the directory).  Throws std::runtime_error naming the path.
inline void write_atomic(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  if (!path.parent_path().empty()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw std::runtime_error("cannot create " + path.parent_path().string() + ": " + ec.message());
  // Appended piecewise: GCC 12's "." + std::string&& trips a false -Wrestrict (GCC bug 105329).
  std::string name(".");
  name += path.filename().string();
  name += ".tmp.";
  name += std::to_string(::getpid());
  const auto tmp = path.parent_path() / name;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error("cannot write " + tmp.string());
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("cannot move " + tmp.string() + " to " + path.string() + ": " + ec.message());
  }
}

}  // namespace study
