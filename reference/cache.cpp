#include "reference/cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <boost/crc.hpp>
#include <boost/uuid/detail/sha1.hpp>

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

std::string sha1_hex(const std::string& text) {
  boost::uuids::detail::sha1 sha;
  sha.process_bytes(text.data(), text.size());
  boost::uuids::detail::sha1::digest_type digest;
  sha.get_digest(digest);
  char buf[41];
  for (int i = 0; i < 5; ++i) std::snprintf(buf + 8 * i, 9, "%08x", digest[i]);
  return buf;
}

std::filesystem::path file_for(const std::filesystem::path& dir, const std::string& key) {
  return dir / (sha1_hex(key) + ".json");
}

std::optional<nlohmann::json> load(const std::filesystem::path& dir, const std::string& key, std::string* why_not) {
  auto reject = [&](const std::string& why) -> std::optional<nlohmann::json> {
    if (why_not) *why_not = why;
    return std::nullopt;
  };
  const auto path = file_for(dir, key);
  std::ifstream in(path, std::ios::binary);
  if (!in) return reject("no cache file");
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json file;
  try {
    file = nlohmann::json::parse(text.str());
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
  if (ec) throw std::runtime_error("cannot create the reference cache directory " + dir.string() + ": " + ec.message());
  const nlohmann::json file{{"format", format_version}, {"key", key}, {"checksum", crc32_hex(payload.dump())},
                            {"payload", payload}};
  // Unique per process and thread, in the same directory so that rename is atomic.
  static std::atomic<unsigned> counter{0};
  std::ostringstream tmp_name;
  tmp_name << "." << sha1_hex(key).substr(0, 12) << ".tmp." << ::getpid() << "." << std::this_thread::get_id() << "."
           << counter++;
  const auto target = file_for(dir, key), tmp = dir / tmp_name.str();
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << file.dump(indent) << '\n';
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error("cannot write the reference cache file " + tmp.string());
    }
  }
  std::filesystem::rename(tmp, target, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("cannot move the reference cache file into place at " + target.string() + ": " + ec.message());
  }
}

}  // namespace reference::cache
