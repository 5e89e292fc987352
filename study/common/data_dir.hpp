#pragma once
/// Where the shipped data lives (specs/, profiles/, methods/): found at run time, never through a path compiled
/// in, so that a build tree, an installed tree, or a copy of either moved elsewhere all work.
///
/// Looked up in this order:
///   1. $STUDY_DATA_DIR, when set (it must hold specs/, profiles/ and methods/);
///   2. the folder a program linking the engine names (set_data_dir_hint; a consumer of the installed package
///      gets its share folder through ODE_ACCURACY_HARNESS_DATA_DIR, below);
///   3. beside the running program: EXE_DIR/../share/ode_accuracy_harness in an installed tree; in a build folder
///      BUILD/share/ode_accuracy_harness, a link to the source tree's study/ made at configure time, seen from
///      the program (EXE_DIR/share/...) and from the tests (EXE_DIR/../share/...).

#include <filesystem>
#include <stdexcept>

#include "study/common/printable.hpp"

namespace study {

/// The data could not be found: the message says where it looked and what to set.
struct DataDirError : study::EchoError {  // its message echoes input: printable
  using study::EchoError::EchoError;
};

/// The folder that holds specs/, profiles/ and methods/; DataDirError when there is none.
const std::filesystem::path& data_dir();

/// Where to look before the program's own folder (call before data_dir() is first used): a consumer's program
/// that links the engine names the installed package's share folder.
void set_data_dir_hint(const std::filesystem::path& dir);

#ifdef ODE_ACCURACY_HARNESS_DATA_DIR
/// A program built against the installed package (find_package defines ODE_ACCURACY_HARNESS_DATA_DIR on
/// ode_accuracy_harness::engine) names its share folder before main() runs.
inline const bool data_dir_hint_set = (set_data_dir_hint(ODE_ACCURACY_HARNESS_DATA_DIR), true);
#endif

/// The installed tree's name for the data folder under PREFIX/share.
inline constexpr const char* data_dir_name = "ode_accuracy_harness";

}  // namespace study
