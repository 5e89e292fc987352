#pragma once
/// Work spread over processes: the engine's phases (references, then runs) handed out item by item to the ranks of an
/// MPI launch (study/ranks/), each item's result sent back to rank 0, the leader, as bytes and written into the slot
/// the same item fills in one process.  So the results are the same bytes for any number of ranks and threads.

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace study {

/// A rank that stopped without a word (killed, crashed) or failed: the run fails, naming it and its work.
struct RankFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One phase of the engine's work, as the processes share it.
struct Phase {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::string name;       ///< "references", "runs": what progress says
  std::size_t count = 0;  ///< items
  std::vector<std::size_t> order;  ///< the order they are handed out in, longest first (empty: index order)
  /// Item i may start once item after[i] is done (none: at once), and a rank that runs it needs after[i]'s bytes
  /// (a run needs its spec's reference); empty: no item waits.
  std::vector<std::size_t> after;
  std::function<void(std::size_t)> work;                      ///< item i on this process, on any of its threads
  std::function<std::string(std::size_t)> pack;               ///< on the rank that ran item i: what it wrote, as bytes
  std::function<void(std::size_t, std::string_view)> unpack;  ///< on the leader: item i's bytes into its slots
  std::function<std::string(std::size_t)> describe;           ///< what progress and a failure say of item i
  /// On the leader's main thread, once per item as it completes: which rank ran it, in how many seconds.
  std::function<void(std::size_t, int rank, double seconds)> done;
  /// On the leader's main thread: (done, total, what is running).
  std::function<void(std::size_t, std::size_t, const std::string&)> progress;
};

/// The processes a study is spread over (study/ranks/mpi.cpp); the engine runs on every one of them.
class Spread {
 public:
  virtual ~Spread() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  bool leader() const { return rank() == 0; }
  /// Before any work: every rank must have planned the same work (`plan`, a digest) with the same build on the same
  /// kind of machine (`machine`: what decides a run's bits); throws SpecError naming the first rank that differs.
  virtual void agree(const std::string& plan, const std::string& machine) = 0;
  /// Runs every item of the phase over every rank, `jobs` threads each; returns when each is done (on the leader: its
  /// bytes unpacked).  An item a rank runs whose `after` item another rank ran is preceded there by that item's
  /// bytes, unpacked.  Throws the first error of any rank, Interrupted, or RankFailure.
  virtual void run(const Phase& phase, int jobs) = 0;
};

/// What each rank did: the hosts and threads, and every item's rank and seconds (the summary's busy and idle time,
/// `study run --task-log`).
struct WorkLog {
  struct Item {
    std::string phase, what;
    double cost = 0;  ///< the plan's estimate (steps x evaluations), relative
    int rank = 0;
    double seconds = 0;
  };
  struct Rank {
    std::string host;
    int threads = 1;
    int cores = 0;  ///< the cores of its host (0: not known)
  };
  std::vector<Item> items;
  std::vector<Rank> ranks;      ///< index: rank
  std::vector<double> walls;    ///< each phase's wall time on the leader, in the order run
};

}  // namespace study
