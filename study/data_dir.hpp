#pragma once
/// Where the shipped data lives (specs/, profiles/, methods/): found at run time, never through a path compiled
/// in, so that a build tree, an installed tree, or a copy of either moved elsewhere all work.
///
/// Looked up in this order:
///   1. $STUDY_DATA_DIR, when set (it must hold specs/, profiles/ and methods/);
///   2. beside the running program: EXE_DIR/../share/ode_accuracy_harness (an installed tree), or the source
///      tree's study/ folder found from a build folder (EXE_DIR/.., EXE_DIR/../.., EXE_DIR/../../..);
///   3. the folder a consumer's build named (set_data_dir_hint: the installed package's share folder).

#include <filesystem>
#include <stdexcept>

namespace study {

/// The data could not be found: the message says where it looked and what to set.
struct DataDirError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The folder that holds specs/, profiles/ and methods/; DataDirError when there is none.
const std::filesystem::path& data_dir();

/// A last place to look (before data_dir() is first called): a consumer's program links the engine from an
/// installed package and names that package's share folder.
void set_data_dir_hint(const std::filesystem::path& dir);

/// The installed tree's name for the data folder under PREFIX/share.
inline constexpr const char* data_dir_name = "ode_accuracy_harness";

}  // namespace study
