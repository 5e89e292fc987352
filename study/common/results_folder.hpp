#pragma once
/// What makes a folder a results folder, and who may write it.  `study run` writes a marker file into every
/// results folder it publishes; its --out must be new, empty, or such a folder (one written before the marker
/// existed is known by its results.json), never a folder of the user's own files, which publishing would replace.
/// One process at a time writes a given folder: an advisory lock (flock(2)) on a file beside it, taken before any
/// work, released when the process ends however it ends (the kernel drops the lock with the last descriptor).

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "study/common/atomic_file.hpp"
#include "study/common/interrupt.hpp"
#include "study/common/printable.hpp"

namespace study {

/// The marker `study run` writes into each results folder (an empty folder's first file, so to speak).
inline constexpr const char* results_marker = ".study-results";
inline constexpr const char* results_marker_text =
    "This folder was written by `study run` and is replaced whole by the next run into it: keep your own files elsewhere.\n";

/// Whether `dir` is a results folder: it holds the marker, or (written before the marker existed, or by `study
/// bench` alone) nothing but what a run or a bench writes there: results.json, REPORT.md, plots/, bench.json, and
/// study folders holding runs.csv.  `foreign` gets the first entry that is none of those.
inline bool is_results_folder(const std::filesystem::path& dir, std::string* foreign = nullptr) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  if (fs::exists(dir / results_marker, ec)) return true;
  bool any = false;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    std::error_code e2;
    const bool ours = name == "results.json" || name == "REPORT.md" || name == "bench.json" ||
                      (fs::is_directory(e.symlink_status(e2)) && (name == "plots" || fs::exists(e.path() / "runs.csv", e2)));
    if (!ours) {
      if (foreign) *foreign = name;
      return false;
    }
    any = true;
  }
  return any && !ec;
}

/// Whether `dir` is a report rendered outside its results (`study report --out`): REPORT.md and plots/ in it, which
/// the next report there replaces whole.  A results folder is not one (is_results_folder).
inline bool is_report_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / "REPORT.md", ec) && std::filesystem::is_directory(dir / "plots", ec) &&
         !std::filesystem::exists(dir / "results.json", ec) && !std::filesystem::exists(dir / results_marker, ec);
}

/// Why `dir` cannot be a run's output folder (it exists and holds files that are not a run's results); "" when it
/// is new, empty, or a results folder.
inline std::string results_folder_problem(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return "";
  if (!fs::is_directory(dir, ec)) return "is not a folder";
  const bool empty = fs::is_empty(dir, ec);
  if (ec) return "cannot be read (" + ec.message() + ")";
  std::string foreign;
  if (empty || is_results_folder(dir, &foreign)) return "";
  return "holds '" + printable(foreign) + "', and is not a results folder (no " + results_marker + " in it, nor only what a "
         "run writes), and a run's results replace their folder whole; give a new or empty folder, or move your files";
}

/// The results folder that holds `path` (a folder above it), or "" when none does.
inline std::filesystem::path results_folder_above(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
  for (fs::path up = p.parent_path(); !up.empty(); up = up.parent_path()) {
    if (fs::exists(up / results_marker, ec) || (fs::exists(up / "results.json", ec) && is_results_folder(up))) return up;
    if (up == up.parent_path()) break;
  }
  return {};
}

/// An exclusive lock on writing `target` (a results or pages folder): a file ".NAME.lock" beside it, holding the
/// pid of the process that has it.  When another process has it: `wait` false throws WriteError naming the holder
/// (a run, which could otherwise compute for an hour and then find the folder taken); `wait` true says so on
/// standard error and tries again every 0.1 s until it gets it or a signal stops it (a report takes seconds).
class FolderLock {
 public:
  FolderLock(const std::filesystem::path& target, bool wait) {
    namespace fs = std::filesystem;
    fs::path t = fs::absolute(target).lexically_normal();
    if (t.filename().empty()) t = t.parent_path();
    std::error_code ec;
    fs::create_directories(t.parent_path(), ec);
    if (ec) throw WriteError("cannot create " + t.parent_path().string() + ": " + ec.message());
    path_ = t.parent_path() / ("." + t.filename().string() + ".lock");
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0 && errno == EACCES) fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);  // another user's: flock works
    if (fd_ < 0) throw WriteError("cannot open the lock file " + path_.string() + ": " + std::strerror(errno));
    for (bool said = false; ::flock(fd_, LOCK_EX | LOCK_NB) != 0;) {
      const int err = errno;
      if (err != EWOULDBLOCK || !wait) {
        const std::string holder = holder_text();
        ::close(fd_);
        fd_ = -1;
        if (err != EWOULDBLOCK) throw WriteError("cannot lock " + path_.string() + ": " + std::strerror(err));
        throw WriteError("another study process" + holder + " is writing " + t.string() + " now (its lock: " + path_.string() +
                         "); wait for it to finish, or give another folder");
      }
      if (!said) std::cerr << "study: waiting for another study process" << holder_text() << " writing " << t.string() << "\n";
      said = true;
      try {
        stop_if_interrupted();
      } catch (...) {
        ::close(fd_);
        fd_ = -1;
        throw;
      }
      ::usleep(100000);
    }
    const std::string pid = std::to_string(::getpid());
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
      // The pid only makes the message of a second process clearer: the lock holds without it.
    }
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock; the file stays (removing it would race with a waiting process)
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  /// " (pid N)" of the process holding the lock, as it wrote it; "" when unknown.
  std::string holder_text() const {
    char buf[24] = {};
    const ssize_t got = ::pread(fd_, buf, sizeof buf - 1, 0);
    std::string pid = got > 0 ? std::string(buf, static_cast<std::size_t>(got)) : std::string();
    return !pid.empty() && pid.find_first_not_of("0123456789") == std::string::npos ? " (pid " + pid + ")" : "";
  }

  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace study
