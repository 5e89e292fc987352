#pragma once
/// The work limit of a request's reference solves (--max-work), shared across solves and threads.

#include <atomic>
#include <memory>

namespace reference {

/// Weighted work left for reference solves, shared by every solve of a request (both solves of each reference, the
/// references of every study, on any thread): each force evaluation takes `per_evaluation` from it, and a solve
/// that finds it spent fails.  The estimate before the solves can be low (close encounters of N bodies take many
/// times the steps of an orbit); this holds the limit anyway.  `left` null: unbounded.
struct WorkBudget {
  std::shared_ptr<std::atomic<double>> left;
  double per_evaluation = 1;
  /// Takes one evaluation's work; false when none was left.
  bool take() const { return !left || left->fetch_sub(per_evaluation, std::memory_order_relaxed) >= per_evaluation; }
};

}  // namespace reference
