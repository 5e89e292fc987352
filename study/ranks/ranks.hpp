#pragma once
/// A study over the ranks of an MPI launch (`mpirun -n N study run`, `srun study run`): rank 0, the leader, hands the
/// engine's items out (references, then runs, longest first) to every rank as its threads free up, runs its share,
/// and gathers each item's result bytes into the slots they fill in one process (study/plan/wire.hpp): the same
/// results, byte for byte, for any number of ranks and threads.  Built with MPI where CMake finds OpenMPI and
/// Boost.MPI (STUDY_WITH_MPI); without it, a launch of several processes is refused.

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "study/plan/spread.hpp"

namespace study::ranks {

/// How many processes an MPI launcher started together with this one (mpirun, mpiexec, srun), from the variables
/// each sets; 1 when none did.
long launched_processes();

/// This process's rank among them, from the same variables (0 when none says).
long launched_rank();
/// Whether the launcher itself is there to talk to (its PMIx server or PMI socket), not only its rank variables.
bool launcher_present();

/// Whether this build spreads studies over MPI ranks.
bool built_with_mpi();

/// The ranks of this launch, MPI started (null: one process, the study runs on its threads alone).  Throws SpecError
/// when launched as several processes by a build without MPI.  MPI is finalised when the last owner lets go.
class Ranks;
std::shared_ptr<Ranks> start();

/// The leader's end of the ranks: a Spread for the engine, and what the other ranks are told.
class Ranks : public Spread {
 public:
  /// On a rank other than the leader, an error before or outside the engine's phases (a spec this rank could not
  /// read): sent to the leader, which fails with it; this rank then exits without a message of its own.
  virtual void fail(const std::string& kind, const std::string& message) = 0;
  /// The threads a rank runs when --jobs is not given: the cores it may run on, shared with the ranks on its node.
  virtual int default_threads() const = 0;
  /// This rank's threads, said to the leader as the ranks agree (before run_studies).
  virtual void threads(int n) = 0;
  /// Every rank's host and threads (on the leader, after agree).
  virtual std::vector<WorkLog::Rank> members() const = 0;
  /// On the leader, when the engine is done: every rank has sent its last result, none is to be stopped.
  virtual void finish() = 0;
};

/// Each rank's busy and idle time over the phases of `log`, one line each: busy is the sum of its items' seconds,
/// idle the rest of its threads' time over the phases' wall time ("rank 1 (node7, 2 threads): busy 10.2 s, idle
/// 1.8 s (15 %), 120 items").
std::string busy_summary(const WorkLog& log);

/// Thrown on a rank other than the leader when the leader stopped the run (it failed, or was interrupted): the
/// leader says why, this rank exits quietly.
struct Released : std::runtime_error {
  Released() : std::runtime_error("released by rank 0") {}
};

/// The kind of an error as it travels between ranks ("spec", "reference", "write", "other"), and the exit status a
/// process gives it (study/cli/main.cpp's).
std::string error_kind(const std::exception& e);
int error_status(const std::string& kind);

}  // namespace study::ranks
