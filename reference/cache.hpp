#pragma once
/// The on-disk reference cache: one JSON file per request, named by the XXH3-128 digest of a canonical key text
/// (format version, solver, problem, every parameter, initial state, times, tolerances).  The file holds the
/// key itself and a CRC-32 of its payload: a corrupt, truncated or foreign file is detected and ignored,
/// never trusted.  Writes go to a unique temporary file in the same directory, then rename(2): readers see
/// the old file or the new one, never half of one, and two processes filling the same entry both succeed.

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace reference::cache {

inline constexpr int format_version = 2;  // 2: a study's reference is checked against the exact solution

/// The XXH3 128-bit digest of text, in hex (32 digits): cache file names and keys, not a security boundary.
std::string digest_hex(const std::string& text);

/// The payload stored under `key` in `dir`, if a sound file is there; `why_not` says why a file was rejected.
std::optional<nlohmann::json> load(const std::filesystem::path& dir, const std::string& key, std::string* why_not = nullptr);

/// Stores `payload` under `key` atomically (creates `dir`), indented by `indent` (-1: on one line, for large
/// payloads).  Throws std::runtime_error naming the path on failure.
void store(const std::filesystem::path& dir, const std::string& key, const nlohmann::json& payload, int indent = 1);

/// Why the cache folder `dir` is not to be trusted ("" when it is, or does not exist yet): not a folder, or another
/// user's (a link is followed: one the user made to a folder of their own is theirs).  Its entries are then neither
/// read nor written.
std::string folder_problem(const std::filesystem::path& dir);

/// The file a key maps to.
std::filesystem::path file_for(const std::filesystem::path& dir, const std::string& key);

}  // namespace reference::cache
