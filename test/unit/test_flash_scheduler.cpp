// The flash scheduler: die choice round robin over the dies with room, and per-die queue limits.
#include <catch2/catch.hpp>

#include <cstdint>

#include "controller/sched/flash_scheduler.h"

using namespace ssdlab;

namespace {
const auto any_die = [](std::uint32_t) { return true; };
}

TEST_CASE("host pages go round robin over the dies", "[sched]") {
  FlashScheduler s(4);
  for (std::uint32_t round = 0; round < 3; ++round) {
    for (std::uint32_t want = 0; want < 4; ++want) {
      const std::int64_t die = s.pick_die(any_die);
      CHECK(die == want);
      s.placed_on(static_cast<std::uint32_t>(die));
    }
  }
  // A die the FTL refuses is skipped; the order goes on after the die used.
  s.placed_on(1);
  CHECK(s.pick_die([](std::uint32_t d) { return d != 2; }) == 3);
  CHECK(s.pick_die([](std::uint32_t) { return false; }) == -1);
}

TEST_CASE("a die with a full queue is offered no host page", "[sched]") {
  FlashScheduler s(3);
  for (std::uint32_t i = 0; i < FlashScheduler::kMaxQueuedOpsPerDie; ++i) {
    CHECK(s.has_room(0));
    s.submitted(0);
  }
  CHECK_FALSE(s.has_room(0));
  CHECK(s.queued(0) == FlashScheduler::kMaxQueuedOpsPerDie);
  CHECK(s.pick_die(any_die) == 1);
  // More ops may still be queued on it (GC work), and it gets room back only below the limit.
  s.submitted(0);
  s.completed(0);
  CHECK_FALSE(s.has_room(0));
  s.completed(0);
  CHECK(s.has_room(0));
  CHECK(s.pick_die(any_die) == 0);
}

TEST_CASE("the scheduler counts outstanding operations", "[sched]") {
  FlashScheduler s(2);
  CHECK(s.outstanding() == 0);
  s.submitted(1);
  s.submitted(1);
  s.submitted(0);
  CHECK(s.outstanding() == 3);
  CHECK(s.queued(1) == 2);
  s.completed(1);
  s.completed(0);
  s.completed(1);
  CHECK(s.outstanding() == 0);
  for (std::uint32_t d = 0; d < 2; ++d) {
    for (std::uint32_t i = 0; i < FlashScheduler::kMaxQueuedOpsPerDie; ++i) s.submitted(d);
  }
  CHECK(s.pick_die(any_die) == -1);
}
