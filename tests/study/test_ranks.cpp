// What the leader says of the ranks (study/ranks/): busy and idle time from the work log, worked by hand.
#include <catch2/catch.hpp>

#include "study/ranks/ranks.hpp"
#include "study/spec/spec.hpp"

TEST_CASE("each rank's busy and idle time: its items' seconds against its threads over the phases' wall time", "[ranks]") {
  study::WorkLog log;
  log.walls = {2.0, 1.0};                         // 3 s of work on the leader's clock
  log.ranks = {{"node0", 2, 4}, {"node1", 1, 0}, {"node2", 1, 1}};
  log.items = {{"references", "a", 1, 0, 1.5}, {"runs", "b", 1, 0, 2.5}, {"runs", "c", 1, 1, 2.7}};
  // rank 0: 2 threads x 3 s = 6 s, busy 4 s, idle 2 s = 33 %; rank 1: 3 s, busy 2.7 s, idle 0.3 s = 10 %;
  // rank 2: nothing ran there, idle 3 s = 100 %.
  CHECK(study::ranks::busy_summary(log) ==
        "rank 0 (node0, 2 threads): busy 4.0 s, idle 2.0 s (33 %), 2 items\n"
        "rank 1 (node1, 1 thread): busy 2.7 s, idle 0.3 s (10 %), 1 item\n"
        "rank 2 (node2, 1 thread): busy 0.0 s, idle 3.0 s (100 %), 0 items\n");
  // Two ranks of 2 threads on a host of 2 cores: their busy time counts the waits for a core, and the summary says so.
  log.ranks = {{"small", 2, 2}, {"small", 2, 2}};
  CHECK(study::ranks::busy_summary(log) ==
        "rank 0 (small, 2 threads): busy 4.0 s, idle 2.0 s (33 %), 2 items\n"
        "rank 1 (small, 2 threads): busy 2.7 s, idle 3.3 s (55 %), 1 item\n"
        "note: small ran 4 threads on 2 cores: busy time there includes waiting for a core\n");
}

TEST_CASE("errors keep their kind and exit status across ranks", "[ranks]") {
  CHECK(study::ranks::error_kind(study::SpecError("x")) == "spec");
  CHECK(study::ranks::error_kind(study::RankFailure("x")) == "rank");
  CHECK(study::ranks::error_kind(std::runtime_error("x")) == "other");
  CHECK(study::ranks::error_status("spec") == 2);
  CHECK(study::ranks::error_status("reference") == 1);
  CHECK(study::ranks::error_status("write") == 1);
  CHECK(study::ranks::error_status("rank") == 1);
  CHECK(study::ranks::error_status("other") == 2);
}
