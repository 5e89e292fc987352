#pragma once
/// What every registration shares (study/extend.hpp): ids checked once, errors kept for study::cli_main to report
/// (exit 2) before any work, since a registration runs before main's own error handling.

#include <algorithm>
#include <string>
#include <string_view>

#include "study/extensions.hpp"
#include "study/problems/all.hpp"
#include "study/registry.hpp"

namespace study::extend_detail {

/// A valid, unused id for a new integrator or problem of `kind`; else records why not and returns false.
inline bool claim_id(std::string_view id, std::string_view kind) {
  auto refuse = [&](const std::string& why) {
    extensions().errors.push_back(std::string(kind) + " '" + std::string(id) + "': " + why);
    return false;
  };
  if (id.empty() || id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string_view::npos ||
      !(id[0] >= 'a' && id[0] <= 'z'))
    return refuse("an id is lowercase letters, digits, '-' or '_', starting with a letter (it names rows of the results)");
  if (kind == "integrator") {
    const auto ids = integrator_ids();
    if (std::find(ids.begin(), ids.end(), id) != ids.end())
      return refuse("an integrator of that id exists already (built in, or registered twice); give yours another id");
  } else {
    const auto ids = all_problem_ids();
    if (std::find(ids.begin(), ids.end(), id) != ids.end())
      return refuse("a problem of that id exists already (shipped, or registered twice); give yours another id");
  }
  return true;
}

}  // namespace study::extend_detail
