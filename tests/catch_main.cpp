// The unit tests' main: every run gets an empty home directory of its own and no cache settings from the caller,
// so a test that writes into the user's cache (~/.cache/ode-study) or home fails here instead of passing.  A
// read-only home would not show it when the tests run as root (CI does), so the home is checked to be empty.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

int main(int argc, char* argv[]) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "ode-study-home-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    std::cerr << "catch_main: cannot create a temporary home under " << fs::temp_directory_path() << "\n";
    return 2;
  }
  const fs::path home = pattern;
  ::chmod(home.c_str(), 0500);  // read-only: refused outright when not root
  ::setenv("HOME", home.c_str(), 1);
  ::unsetenv("STUDY_CACHE_DIR");
  ::unsetenv("XDG_CACHE_HOME");
  int rc = Catch::Session().run(argc, argv);
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(home, ec)) {
    std::cerr << "catch_main: a test wrote into the home directory: " << e.path() << "\n";
    rc = rc ? rc : 1;
  }
  ::chmod(home.c_str(), 0700);
  fs::remove_all(home, ec);
  return rc;
}
