#pragma once
/// The engine's thread pool: items (references, and the runs that wait for them) on `jobs` std::jthreads, progress
/// reported from the calling thread.  The first exception stops the hand-out of new items and is rethrown once every thread has joined; it
/// is written and read under a mutex, never raced on (tests/study/test_parallel_tsan.cpp runs this under
/// ThreadSanitizer).  Results go to slots fixed before the run, so they do not depend on the number of threads.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace study {

/// Runs work(i) for every item i < after.size() on max(1, jobs) threads, handed out in `order` (positions: the first
/// startable one first), where item i may start only once item after[i] is done (none: at once; a spec's runs wait
/// for its reference, while the other references go on).  progress(done, last started item, or none) is called on
/// this thread about every 100 ms and once at the end; stop() (a signal's flag) is asked before each item: when it is
/// true no new item starts.  Rethrows the first exception an item threw; its followers never start.
template <class Work, class Progress, class Stop>
void parallel_for_after(const std::vector<std::size_t>& order, const std::vector<std::size_t>& after, int jobs, Work&& work,
                        Progress&& progress, Stop&& stop) {
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  const std::size_t count = after.size();
  std::mutex m;  // guards everything below but `done`
  std::condition_variable ready, finished;
  std::vector<std::size_t> startable;              // positions in `order`, a min-heap: the earliest first
  std::vector<std::vector<std::size_t>> waiting(count);  // item -> positions waiting for it
  for (std::size_t k = 0; k < order.size(); ++k)
    if (after[order[k]] == none) startable.push_back(k);
    else waiting[after[order[k]]].push_back(k);
  std::make_heap(startable.begin(), startable.end(), std::greater<>());
  std::size_t handed = 0, last = none, running = 0;
  std::atomic<std::size_t> done{0};
  bool failed = false;
  std::exception_ptr error;
  {
    std::vector<std::jthread> threads;
    const int n = std::max(1, jobs);
    for (int j = 0; j < n; ++j)
      threads.emplace_back([&] {
        while (true) {
          std::size_t item = none;
          {
            std::unique_lock lock(m);
            // Nothing startable while others run: one of them may free some.  Nothing running either: the rest are
            // waiting for an item that failed or was never handed (a stop): none will start.
            ready.wait(lock, [&] { return failed || stop() || handed == count || !startable.empty() || running == 0; });
            if (failed || stop() || startable.empty()) break;
            std::pop_heap(startable.begin(), startable.end(), std::greater<>());
            item = order[startable.back()], startable.pop_back(), ++handed, ++running, last = item;
          }
          try {
            work(item);
          } catch (...) {
            std::lock_guard lock(m);
            if (!error) error = std::current_exception();
            failed = true;
          }
          {
            std::lock_guard lock(m);
            --running;
            for (std::size_t k : waiting[item]) startable.push_back(k), std::push_heap(startable.begin(), startable.end(), std::greater<>());
            waiting[item].clear();
            ++done;
          }
          ready.notify_all();
          finished.notify_all();
        }
        ready.notify_all();
        std::lock_guard lock(m);
        finished.notify_all();
      });
    std::size_t shown = none;
    while (true) {
      const std::size_t d = done.load();
      std::size_t started;
      bool over;
      {
        std::lock_guard lock(m);
        started = last, over = failed || d >= count || (running == 0 && startable.empty() && handed < count);
      }
      if (d != shown) progress(d, started);
      shown = d;
      if (over || stop()) break;
      std::unique_lock lock(m);
      finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return done.load() >= count || failed; });
    }
    {
      std::lock_guard lock(m);  // wakes threads waiting for items that will not come (a stop)
    }
    ready.notify_all();
  }  // every thread joins here
  std::lock_guard lock(m);
  if (error) std::rethrow_exception(error);
}

}  // namespace study
