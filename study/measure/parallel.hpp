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
#include <functional>
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

/// As parallel_for, over items 0 .. after.size() - 1 handed out in `order` (positions: the first startable one first),
/// where item i may start only once item after[i] is done (none: at once; a spec's runs wait for its reference, while
/// the other references go on).  progress(done, last started item, or none) as above.
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
