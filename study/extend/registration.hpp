#pragma once
/// What every registration shares (study/extend.hpp): ids checked once, errors kept for study::cli_main to report
/// (exit 2) before any work, since a registration runs before main's own error handling.

#include <algorithm>
#include <string>
#include <string_view>

#include "study/registry/extensions.hpp"
#include "study/common/names.hpp"
#include "study/problems/all.hpp"
#include "study/registry/integrators.hpp"
#include "study/methods/library.hpp"

namespace study::extend_detail {

/// False, but only when instantiated: a static_assert that fires in a template's body alone.
template <class>
inline constexpr bool always_false = false;

/// A valid, unused id for a new integrator or problem of `kind`; else records why not and returns false.
inline bool claim_id(std::string_view id, std::string_view kind) {
  auto refuse = [&](const std::string& why) {
    extensions().errors.push_back(std::string(kind) + " '" + std::string(id) + "': " + why);
    return false;
  };
  if (id.empty() || id.size() > max_name_length || id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string_view::npos ||
      !(id[0] >= 'a' && id[0] <= 'z'))
    return refuse("an id is 1 to 64 lowercase letters, digits, '-' or '_', starting with a letter (it names rows of the "
                  "results)");
  if (kind == "integrator") {
    const auto ids = integrator_ids();
    if (std::find(ids.begin(), ids.end(), id) != ids.end())
      return refuse("an integrator of that id exists already (built in, or registered twice); give yours another id");
    try {
      if (tables::shipped_library().find(std::string(id)))
        return refuse("a shipped method table has that id (study list --integrators); give yours another id");
    } catch (const std::exception&) {
      // No shipped data here: the command that needs it says so.
    }
  } else {
    const auto ids = all_problem_ids();
    if (std::find(ids.begin(), ids.end(), id) != ids.end())
      return refuse("a problem of that id exists already (shipped, or registered twice); give yours another id");
  }
  return true;
}

/// Runs a registration; what it throws (a problem refusing its own default parameters, an info() that throws) is
/// kept for cli_main to report, since nothing around a registration would catch it.
template <class F>
void guarded(std::string_view what, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    extensions().errors.push_back(std::string(what) + ": " + e.what());
  }
}

}  // namespace study::extend_detail
