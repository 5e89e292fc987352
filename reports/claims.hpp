#pragma once
/// The seeds' claims (shared/seeds/), each tested by an experiment of the default study and judged by a stated
/// criterion; the verdict is computed from the results, never typed in (internal to reports/).

#include <string>
#include <vector>

#include "study/reader/model.hpp"

namespace report {

struct Claim {
  std::string seed, quote, experiment, evidence, criterion, verdict;  ///< verdict: holds, does not hold, partly, not measured
  std::string plot;                                                    ///< the plot that shows the evidence ("" if none)
};

std::vector<Claim> evaluate_claims(const Results& res);

}  // namespace report
