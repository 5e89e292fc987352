#include "study/common/data_dir.hpp"

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace study {
namespace {

namespace fs = std::filesystem;

std::mutex lock;  // constant-initialized, as `found` is: usable from another file's static initializers
std::optional<fs::path> found;

/// Function-local: a consumer's static initializer (data_dir.hpp) may set it before this file's statics exist.
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
  if (const char* env = std::getenv("STUDY_DATA_DIR"); env && *env) {
    if (holds_data(env)) return fs::absolute(env);
    throw DataDirError(std::string("STUDY_DATA_DIR=") + env +
                       ": this folder does not hold specs/, profiles/ and methods/ (the installed one is "
                       "PREFIX/share/" + data_dir_name + "); unset it to use the data beside the program");
  }
  std::vector<fs::path> tried;
  if (!hint().empty()) {
    if (holds_data(hint())) return hint();
    tried.push_back(hint());
  }
  // Installed: BIN/../share/NAME.  A build folder: BUILD/share/NAME, a link to the source tree's study/ made at
  // configure time (CMakeLists.txt), seen from BUILD (study) or BUILD/tests (the tests).
  if (const fs::path dir = program_dir(); !dir.empty()) {
    fs::path up = dir;
    for (int level = 0; level < 3; ++level, up = up.parent_path()) {
      const fs::path candidate = up / "share" / data_dir_name;
      if (holds_data(candidate)) return candidate;
      tried.push_back(candidate);
      if (up == up.parent_path()) break;
    }
  }
  std::string where;
  for (const auto& t : tried) where += (where.empty() ? "" : ", ") + t.string();
  throw DataDirError("cannot find the shipped specs, profiles and methods (looked in " + (where.empty() ? "no folder" : where) +
                     "); set STUDY_DATA_DIR to the folder that holds specs/, profiles/ and methods/ (installed: PREFIX/share/" +
                     data_dir_name + ")");
}

}  // namespace

void set_data_dir_hint(const fs::path& dir) {
  const std::lock_guard<std::mutex> guard(lock);
  hint() = dir;
}

const fs::path& data_dir() {
  const std::lock_guard<std::mutex> guard(lock);
  if (!found) found = find();  // an error is thrown again at the next call
  return *found;
}

}  // namespace study
