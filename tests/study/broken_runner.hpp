#pragma once
/// The deliberately broken methods' tasks (tests/study/broken_methods.hpp), compiled once (broken_runner.cpp) for the
/// gate test's program and the held-out corpus.

#include <string>
#include <string_view>

#include "study/measure/runners.hpp"

namespace broken {

/// The breakage `name`: the id of the method it stands in for, and its tasks' runner; an empty id where the name is
/// unknown.
struct Breakage {
  std::string id;
  study::TaskRunner run;
};
Breakage breakage(std::string_view name);

}  // namespace broken
