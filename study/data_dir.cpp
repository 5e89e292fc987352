#include "study/data_dir.hpp"

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace study {
namespace {

namespace fs = std::filesystem;

fs::path& hint() {
  static fs::path h;
  return h;
}

bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "specs", ec) && fs::is_directory(dir / "profiles", ec) && fs::is_directory(dir / "methods", ec);
}

/// The running program's folder (/proc/self/exe: the program itself, links resolved); empty when unknown.
fs::path program_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

fs::path find() {
  std::vector<fs::path> tried;
  if (const char* env = std::getenv("STUDY_DATA_DIR"); env && *env) {
    if (holds_data(env)) return fs::absolute(env);
    throw DataDirError(std::string("STUDY_DATA_DIR=") + env +
                       ": this folder does not hold specs/, profiles/ and methods/ (the installed one is "
                       "PREFIX/share/" + data_dir_name + "); unset it to use the data beside the program");
  }
  if (const fs::path dir = program_dir(); !dir.empty()) {
    fs::path up = dir;
    for (int level = 0; level < 4 && !up.empty(); ++level, up = up.parent_path()) {
      for (const fs::path& candidate : {up / "share" / data_dir_name, up / "study"}) {
        if (holds_data(candidate)) return candidate;
        tried.push_back(candidate);
      }
      if (up == up.parent_path()) break;
    }
  }
  if (!hint().empty()) {
    if (holds_data(hint())) return hint();
    tried.push_back(hint());
  }
  std::string where;
  for (const auto& t : tried) where += (where.empty() ? "" : ", ") + t.string();
  throw DataDirError("cannot find the shipped specs, profiles and methods (looked in " + (where.empty() ? "no folder" : where) +
                     "); set STUDY_DATA_DIR to the folder that holds specs/, profiles/ and methods/ (installed: PREFIX/share/" +
                     data_dir_name + ")");
}

}  // namespace

void set_data_dir_hint(const fs::path& dir) { hint() = dir; }

const fs::path& data_dir() {
  static std::once_flag once;
  static fs::path dir;
  std::call_once(once, [] { dir = find(); });  // an error is thrown again at the next call
  return dir;
}

}  // namespace study
