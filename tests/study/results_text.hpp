#pragma once
// The results as results.json would hold them, without the timings (the one part that is not reproducible): what two
// runs of the same study must agree on, whatever the threads or ranks.
#include <string>
#include <vector>

#include "study/results/write.hpp"

namespace testing {

inline std::string without_timings(const std::vector<study::StudyResult>& results) {
  auto meta = study::collect_meta();
  meta.date = "fixed";
  auto j = study::to_json(results, meta);
  j["meta"].erase("elapsed_seconds");
  for (auto& s : j["studies"])
    for (auto& r : s["runs"]) r.erase("ns_per_step");
  for (auto& s : j["studies"])
    if (s.contains("adaptive"))
      for (auto& r : s["adaptive"]["runs"]) r.erase("seconds_min"), r.erase("seconds_median");
  return j.dump();
}

}  // namespace testing
