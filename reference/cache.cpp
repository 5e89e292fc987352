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
#include <xxhash.h>

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

std::string digest_hex(const std::string& text) {
  const XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64), static_cast<unsigned long long>(h.low64));
  return buf;
}

namespace {

/// The whole content of a regular file, or nullopt: a FIFO, a device or a folder under the cache's name is never
/// read (opened without blocking, checked with fstat before the first read).
std::optional<std::string> read_regular(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
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
  const std::optional<std::string> text = read_regular(path);
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
  std::filesystem::create_directories(dir, ec);
  if (ec) return warn_unwritable("cannot create the cache folder " + dir.string() + " (" + ec.message() + ")");
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
