#include "reference/cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>

#include <boost/crc.hpp>
#include "study/common/digest.hpp"

namespace reference::cache {
namespace {

std::string crc32_hex(const std::string& text) {
  boost::crc_32_type crc;
  crc.process_bytes(text.data(), text.size());
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", crc.checksum());
  return buf;
}

}  // namespace

std::string digest_hex(const std::string& text) { return study::digest_hex(text); }

namespace {

/// The whole content of a regular file, or nullopt: a FIFO, a device, a folder or a link under the cache's name is
/// never read (opened without blocking or following, checked with fstat before the first read); `foreign` is set,
/// and nothing read, when another user owns it.
std::optional<std::string> read_regular(const std::filesystem::path& path, bool& foreign) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> text;
  foreign = ::fstat(fd, &st) == 0 && st.st_uid != ::geteuid();
  if (!foreign && S_ISREG(st.st_mode)) {
    text.emplace();
    char buf[65536];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) != 0;) {
      if (n < 0) {
        if (errno == EINTR) continue;
        text.reset();
        break;
      }
      text->append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return text;
}

}  // namespace

std::string folder_problem(const std::filesystem::path& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) return {};  // not there yet: made by this user when stored
  if (S_ISLNK(st.st_mode)) {
    // A link the user made to a folder of their own is theirs to make; one into another user's folder is not trusted.
    if (::stat(dir.c_str(), &st) != 0) return dir.string() + " is a symbolic link to nothing";
  }
  if (!S_ISDIR(st.st_mode)) return dir.string() + " is not a folder";
  if (st.st_uid != ::geteuid())
    return dir.string() + " belongs to another user (uid " + std::to_string(st.st_uid) + "): its entries are not trusted, "
           "and none is written there; give a cache folder of your own (--cache-dir, $STUDY_CACHE_DIR)";
  return {};
}

namespace {

/// Warns once per process that the cache cannot be written, and goes on without it.
void warn_unwritable(const std::string& what) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    std::fprintf(stderr, "study: warning: %s; going on without writing the cache (results are unaffected)\n", what.c_str());
}

}  // namespace

std::filesystem::path file_for(const std::filesystem::path& dir, const std::string& key) {
  return dir / (digest_hex(key) + ".json");
}

std::optional<nlohmann::json> load(const std::filesystem::path& dir, const std::string& key, std::string* why_not) {
  auto reject = [&](const std::string& why) -> std::optional<nlohmann::json> {
    if (why_not) *why_not = why;
    return std::nullopt;
  };
  const auto path = file_for(dir, key);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return reject("no cache file");
  // Trusted only when this user wrote it, in a folder this user owns: the checksum is no seal (anyone can recompute
  // it), and a folder of a shared temporary directory is anyone's to plant entries in.  A process of the same user
  // (or root) can still forge one: that is no boundary this tool can draw.
  if (const std::string why = folder_problem(dir); !why.empty()) return reject(why);
  bool foreign = false;
  const std::optional<std::string> text = read_regular(path, foreign);
  if (foreign) return reject(path.string() + " belongs to another user (ignored: a cache entry is trusted only when this user wrote it)");
  if (!text) return reject(path.string() + " is not a regular file (ignored)");
  nlohmann::json file;
  try {
    file = nlohmann::json::parse(*text);
  } catch (const std::exception&) {
    return reject(path.string() + " is not valid JSON (truncated or corrupt)");
  }
  if (!file.is_object() || !file.contains("format") || !file.contains("key") || !file.contains("checksum") ||
      !file.contains("payload"))
    return reject(path.string() + " is not a reference cache file");
  if (file["format"] != format_version) return reject(path.string() + " has another format version");
  if (file["key"] != key) return reject(path.string() + " belongs to another request");
  if (file["checksum"] != crc32_hex(file["payload"].dump())) return reject(path.string() + " fails its checksum");
  return file["payload"];
}

void store(const std::filesystem::path& dir, const std::string& key, const nlohmann::json& payload, int indent) {
  std::error_code ec;
  if (const std::string why = folder_problem(dir); !why.empty()) return warn_unwritable(why);
  std::filesystem::create_directories(dir, ec);
  if (ec) return warn_unwritable("cannot create the cache folder " + dir.string() + " (" + ec.message() + ")");
  if (const std::string why = folder_problem(dir); !why.empty()) return warn_unwritable(why);  // made by another meanwhile
  const nlohmann::json file{{"format", format_version}, {"key", key}, {"checksum", crc32_hex(payload.dump())},
                            {"payload", payload}};
  // Unique per process and thread, in the same directory so that rename is atomic.
  static std::atomic<unsigned> counter{0};
  std::ostringstream tmp_name;
  tmp_name << "." << digest_hex(key).substr(0, 12) << ".tmp." << ::getpid() << "." << std::this_thread::get_id() << "."
           << counter++;
  const auto target = file_for(dir, key), tmp = dir / tmp_name.str();
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << file.dump(indent) << '\n';
    out.close();  // close(2) can report what the writes did not (a full device, a quota)
    if (!out) {
      const std::string why = std::strerror(errno);
      std::filesystem::remove(tmp, ec);
      return warn_unwritable("cannot write the cache file " + tmp.string() + " (" + why + ")");
    }
  }
  // Never over a special file or a folder of that name (rename would replace a FIFO; a folder would make it fail).
  if (std::filesystem::exists(target, ec) && !std::filesystem::is_regular_file(target, ec)) {
    std::filesystem::remove(tmp, ec);
    return warn_unwritable(target.string() + " is not a regular file");
  }
  std::filesystem::rename(tmp, target, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return warn_unwritable("cannot move the cache file into place at " + target.string() + " (" + ec.message() + ")");
  }
}

}  // namespace reference::cache
