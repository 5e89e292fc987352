#pragma once
/// The XXH3 128-bit digest of a text, in hex (32 digits): cache file names and keys, a table's identity in results.json;
/// not a security boundary.  Header-only (XXH_INLINE_ALL): every layer may name a digest without a library of its own.

#include <cstdio>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace study {

inline std::string digest_hex(const std::string& text) {
  const XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64), static_cast<unsigned long long>(h.low64));
  return buf;
}

}  // namespace study
