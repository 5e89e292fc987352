// A program linking the installed engine: it finds the shipped data through the package (no STUDY_DATA_DIR, and
// nothing beside it), and reads every shipped spec.
#include <cstdio>

#include "study/spec/spec.hpp"

int main() {
  const auto files = study::shipped_specs();
  std::size_t integrators = 0;
  for (const auto& f : files) integrators += study::load_spec(f).integrators.size();
  std::printf("%zu shipped specs, %zu integrators, from %s\n", files.size(), integrators, study::data_dir().c_str());
}
