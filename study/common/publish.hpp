#pragma once
/// Whole folders that are never seen half-written: a run or a report is built in a staging folder beside its
/// target (".NAME.tmp.PID.N", unique per process) and published with one rename(2) -- renameat2 RENAME_EXCHANGE
/// when the target exists, so that the target is at every instant either the old folder or the new one, whole.
/// After SIGKILL or a full disk the target is untouched and the staging folder is removed by the next run (on a
/// file system without RENAME_EXCHANGE, a kill between its two renames leaves the old folder aside: put back).

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "study/common/atomic_file.hpp"

namespace study {

class StagedFolder {
 public:
  /// A new, empty staging folder for `target` (removing the staging folders of processes that no longer run).
  /// Throws WriteError naming the folder when it cannot be made.
  explicit StagedFolder(const std::filesystem::path& target) : target_(std::filesystem::absolute(target).lexically_normal()) {
    namespace fs = std::filesystem;
    if (target_.filename().empty()) target_ = target_.parent_path();
    const fs::path parent = target_.parent_path();
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) throw WriteError("cannot create " + parent.string() + ": " + ec.message());
    remove_abandoned(parent);
    static std::atomic<unsigned> counter{0};
    staged_ = parent / (prefix() + std::to_string(::getpid()) + "." + std::to_string(counter++));
    fs::remove_all(staged_, ec);
    if (!fs::create_directory(staged_, ec) || ec)
      throw WriteError("cannot create " + staged_.string() + ": " + (ec ? ec.message() : "it exists"));
  }
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;
  ~StagedFolder() {
    if (published_) return;
    std::error_code ec;
    std::filesystem::remove_all(staged_, ec);
  }

  const std::filesystem::path& path() const { return staged_; }
  const std::filesystem::path& target() const { return target_; }

  /// Copies into the staging folder every entry of the current target that it does not have and that is not in
  /// `except` (the user's other files, bench.json), so that publishing replaces only what was regenerated.  `except`
  /// holds paths relative to the target ("plots", "kepler/REPORT.md"); folders are made with the modes they had.
  /// Symbolic links are carried as links (never followed), files as hard links (copies across devices), FIFOs
  /// and devices not at all; `stop()` is called between entries and throws to stop.
  template <class Stop>
  void carry_forward(const std::set<std::string>& except, Stop&& stop) const {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(target_, ec))) return;
    for (fs::recursive_directory_iterator it(target_, fs::directory_options::none, ec), end; !ec && it != end; it.increment(ec)) {
      stop();  // throws to stop
      std::error_code e;  // the iterator's own error code stays for the iteration
      const fs::path rel = it->path().lexically_relative(target_);
      if (except.count(rel.string())) {
        it.disable_recursion_pending();
        continue;
      }
      const fs::path to = staged_ / rel;
      const auto st = it->symlink_status(e);
      if (fs::exists(fs::symlink_status(to, e))) {  // regenerated: the new one whole, nothing of the old one
        it.disable_recursion_pending();
        continue;
      }
      e.clear();
      if (fs::is_symlink(st))  // a link where something is regenerated would take the write out of the folder
        for (const std::string& x : except)
          if (x.size() > rel.string().size() && x.compare(0, rel.string().size() + 1, rel.string() + "/") == 0)
            throw WriteError(it->path().string() + ": is a symbolic link, and " + x + " is written there: the folders "
                             "of an output are its own, never links (the write would leave " + target_.string() +
                             "); put the folder itself in its place");
      if (fs::is_symlink(st)) fs::copy_symlink(it->path(), to, e);
      else if (fs::is_directory(st)) fs::create_directory(to, it->path(), e);  // with its permissions
      else if (fs::is_regular_file(st)) {
        fs::create_hard_link(it->path(), to, e);
        if (e) e.clear(), fs::copy_file(it->path(), to, e);
      }
      if (e) throw WriteError("cannot carry " + it->path().string() + " into the new output: " + e.message());
    }
    if (ec) throw WriteError("cannot read " + target_.string() + ": " + ec.message());
  }
  void carry_forward(const std::set<std::string>& except) const {
    carry_forward(except, [] {});
  }
  /// Carries the target's top-level entries named in `names` only (a results folder is replaced whole but for
  /// them): carry_forward with every other top-level entry excepted.
  template <class Stop>
  void carry_only(const std::set<std::string>& names, Stop&& stop) const {
    namespace fs = std::filesystem;
    std::set<std::string> except;
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(target_, ec))) return;  // nothing to carry
    for (const auto& e : fs::directory_iterator(target_, ec))
      if (const std::string name = e.path().filename().string(); !names.count(name)) except.insert(name);
    if (ec) throw WriteError("cannot read " + target_.string() + ": " + ec.message());
    carry_forward(except, stop);
  }

  /// Puts the staging folder in the target's place with one rename; the old target is removed afterwards.
  void publish() {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(target_, ec)) {
      fs::rename(staged_, target_, ec);
      if (ec) throw WriteError("cannot move " + staged_.string() + " to " + target_.string() + ": " + ec.message());
      published_ = true;
      return;
    }
    if (!fs::is_directory(target_, ec)) throw WriteError(target_.string() + " is not a folder");
    if (::renameat2(AT_FDCWD, staged_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
      published_ = true;
      fs::remove_all(staged_, ec);  // now the old output
      return;
    }
    const int err = errno;
    if (err != EINVAL && err != ENOSYS && err != ENOTSUP)
      throw WriteError("cannot replace " + target_.string() + ": " + std::strerror(err));
    // A file system without RENAME_EXCHANGE: the old folder aside, the new one in, the old one removed.
    const fs::path old = target_.parent_path() / (prefix() + std::to_string(::getpid()) + ".old");
    fs::remove_all(old, ec);
    fs::rename(target_, old, ec);
    if (ec) throw WriteError("cannot move " + target_.string() + " aside: " + ec.message());
    fs::rename(staged_, target_, ec);
    if (ec) {
      std::error_code back;
      fs::rename(old, target_, back);
      throw WriteError("cannot move " + staged_.string() + " to " + target_.string() + ": " + ec.message());
    }
    published_ = true;
    fs::remove_all(old, ec);
  }

 private:
  std::string prefix() const {
    std::string p(1, '.');  // appended piecewise: "." + std::string&& trips GCC 12's false -Wrestrict (bug 105329)
    p += target_.filename().string();
    p += ".tmp.";
    return p;
  }

  /// Staging folders of this target left by processes that were killed.  A process killed between the two renames
  /// of the fallback publication left no target and the old folder aside (".NAME.tmp.PID.old"): it is put back.
  void remove_abandoned(const std::filesystem::path& parent) const {
    namespace fs = std::filesystem;
    std::error_code ec;
    const std::string p = prefix();
    for (const auto& e : fs::directory_iterator(parent, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(p, 0) != 0) continue;
      char* end = nullptr;
      const long pid = std::strtol(name.c_str() + p.size(), &end, 10);
      if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
      std::error_code missing;
      if (std::string_view(end) == ".old" && !fs::exists(fs::symlink_status(target_, missing))) {
        fs::rename(e.path(), target_, ec);
        if (!ec) continue;
      }
      fs::remove_all(e.path(), ec);
    }
  }

  std::filesystem::path target_, staged_;
  bool published_ = false;
};

}  // namespace study
