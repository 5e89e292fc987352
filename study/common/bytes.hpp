#pragma once
/// Bytes as text, for estimates and limits in messages.

#include <string>

#include <fmt/format.h>

namespace study {

/// "1.6 GB", "350 MB", "12 kB", "512 bytes" (powers of 1000, as --max-memory's units).
inline std::string bytes_text(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3g} MB", bytes / 1e6);
  if (bytes >= 1e3) return fmt::format("{:.3g} kB", bytes / 1e3);
  return fmt::format("{:.0f} bytes", bytes);
}

}  // namespace study
