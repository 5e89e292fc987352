// The engine's thread pool (study/measure/parallel.hpp) under ThreadSanitizer: every task runs once with its result in
// its own slot, the first exception reaches the caller after every thread joined, a stop flag set from another
// thread stops the hand-out, and progress comes from the calling thread.  Built with -fsanitize=thread; a data
// race makes TSan fail the test (TSAN_OPTIONS=halt_on_error=1).  `--planted-race` runs a deliberately racy loop:
// a second ctest expects it to fail, so that this test is known to be able to fail.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "study/measure/parallel.hpp"

namespace {

int passed = 0, failed = 0;
void expect(bool ok, const char* what) {
  ok ? ++passed : ++failed;
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--planted-race") == 0) {  // the old pool's fault: an unguarded shared read
    std::exception_ptr error;
    std::thread t([&] { error = std::make_exception_ptr(std::runtime_error("x")); });
    const bool seen = static_cast<bool>(error);
    t.join();
    std::printf("planted race ran (%d)\n", seen);
    return 0;
  }
  const auto never = [] { return false; };
  for (int jobs : {1, 2, 8}) {
    std::vector<long> slot(1000, 0);
    std::atomic<int> calls{0};
    const auto main_id = std::this_thread::get_id();
    bool progress_on_main = true;
    std::size_t last_done = 0;
    study::parallel_for(
        slot.size(), jobs, [&](std::size_t i) { slot[i] = static_cast<long>(i) * static_cast<long>(i), ++calls; },
        [&](std::size_t done, std::size_t) { progress_on_main = progress_on_main && std::this_thread::get_id() == main_id, last_done = done; },
        never);
    long sum = 0;
    for (std::size_t i = 0; i < slot.size(); ++i) sum += slot[i] == static_cast<long>(i * i);
    expect(sum == 1000 && calls == 1000, "every task ran once, its result in its own slot");
    expect(progress_on_main && last_done == 1000, "progress is reported from the calling thread, ending at the count");
    std::string caught;
    std::atomic<int> after{0};
    try {
      study::parallel_for(
          200, jobs,
          [&](std::size_t i) {
            if (i == 17) throw std::runtime_error("task 17 failed");
            if (i > 100) ++after;
          },
          [](std::size_t, std::size_t) {}, never);
    } catch (const std::runtime_error& e) {
      caught = e.what();
    }
    expect(caught == "task 17 failed", "the first exception reaches the caller once every thread has joined");
    std::atomic<bool> flag{false};
    std::atomic<int> ran{0};
    study::parallel_for(
        100000, jobs,
        [&](std::size_t i) {
          ++ran;
          if (i == 10) flag = true;
        },
        [](std::size_t, std::size_t) {}, [&] { return flag.load(); });
    expect(ran < 100000, "a stop flag set by a task stops the hand-out of new tasks");
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
