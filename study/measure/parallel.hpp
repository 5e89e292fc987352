#pragma once
/// The engine's thread pool: `count` independent tasks on `jobs` std::jthreads, progress reported from the calling
/// thread.  The first exception stops the hand-out of new tasks and is rethrown once every thread has joined; it
/// is written and read under a mutex, never raced on (tests/study/test_parallel_tsan.cpp runs this under
/// ThreadSanitizer).  Results go to slots fixed before the run, so they do not depend on the number of threads.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace study {

/// Runs work(i) for every i < count on max(1, jobs) threads.  progress(done, started) is called on this thread
/// about every 100 ms and once at the end; stop() (a signal's flag) is asked before each task: when it is true no
/// new task starts.  Rethrows the first exception a task threw.
template <class Work, class Progress, class Stop>
void parallel_for(std::size_t count, int jobs, Work&& work, Progress&& progress, Stop&& stop) {
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // guarded by `m`
  std::mutex m;
  std::condition_variable finished;
  std::size_t shown = static_cast<std::size_t>(-1);
  {
    std::vector<std::jthread> threads;
    const int n = std::max(1, jobs);
    threads.reserve(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j)
      threads.emplace_back([&] {
        while (!failed.load() && !stop()) {
          const std::size_t i = next++;
          if (i >= count) break;
          try {
            work(i);
          } catch (...) {
            std::lock_guard lock(m);
            if (!error) error = std::current_exception();
            failed = true;
          }
          if (++done == count) {
            std::lock_guard lock(m);  // the waiter checks the predicate under the same lock: no lost wake-up
            finished.notify_all();
          }
        }
        std::lock_guard lock(m);
        finished.notify_all();  // a thread that stopped early (failure, stop) wakes the waiter too
      });
    while (true) {
      const std::size_t d = done.load();
      if (d != shown) progress(d, std::min(next.load(), count));
      shown = d;
      if (d >= count || failed.load() || stop()) break;
      std::unique_lock lock(m);
      finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return done.load() >= count || failed.load(); });
    }
  }  // every thread joins here
  if (done.load() != shown) progress(done.load(), std::min(next.load(), count));
  std::lock_guard lock(m);
  if (error) std::rethrow_exception(error);
}

}  // namespace study
