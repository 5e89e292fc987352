#pragma once
/// Writing results: DIR/results.json and DIR/<study>/{runs,orders,samples,energy_long,stability}.csv.
/// Every file is written to a temporary name and renamed into place: an interrupted or failed write leaves
/// the previous file (or none), never half of one.  Numbers are printed with 17 significant digits: the same
/// results give the same bytes.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/results/results.hpp"
#include "study/common/schema.hpp"

namespace study {

/// Facts about this build and machine recorded with the results.
struct Meta {
  std::string compiler, flags, cpu, revision, date;
  int jobs = 1;
  double elapsed_seconds = 0;
};

/// The build's source revision (cmake/revision.cmake, generated at build time).
const char* source_revision();
/// Compiler, flags, CPU, source revision, date (UTC).
Meta collect_meta();

/// The results document (what results.json holds).
nlohmann::ordered_json to_json(const std::vector<StudyResult>& results, const Meta& meta);

/// Writes results.json and the CSV tables under dir.
void write_results(const std::filesystem::path& dir, const std::vector<StudyResult>& results, const Meta& meta);

}  // namespace study
