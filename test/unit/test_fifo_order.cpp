// FifoOrder, the FIFO GC policy's age order, against the ring it replaced: a list of closed
// blocks in close order, searched from the oldest for one with invalid data.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "controller/gc/fifo_order.h"

using ssdlab::FifoOrder;

namespace {

struct Reference {
  std::vector<std::uint32_t> closed;  // oldest first
  std::set<std::uint32_t> with_invalid;
  std::int64_t victim() const {
    for (std::uint32_t b : closed) {
      if (with_invalid.count(b)) return b;
    }
    return closed.empty() ? -1 : std::int64_t(closed.front());
  }
};

}  // namespace

TEST_CASE("FifoOrder picks the victims the closed-block ring picked", "[fifo_order]") {
  constexpr std::uint32_t kDies = 3, kBlocksPerDie = 40;
  FifoOrder order(kDies, kBlocksPerDie);
  std::vector<Reference> ref(kDies);
  std::vector<bool> is_closed(kDies * kBlocksPerDie, false), free_block(kDies * kBlocksPerDie, true);
  std::mt19937_64 rng(3);
  std::uint64_t victims = 0, fully_valid_victims = 0;
  for (int step = 0; step < 200000; ++step) {
    const auto die = static_cast<std::uint32_t>(rng() % kDies);
    Reference& r = ref[die];
    const std::uint32_t first = die * kBlocksPerDie;
    const unsigned action = static_cast<unsigned>(rng() % 10);
    if (action < 4) {  // close a free block, sometimes with invalid (padded) units already
      std::vector<std::uint32_t> free;
      for (std::uint32_t b = first; b < first + kBlocksPerDie; ++b) {
        if (free_block[b]) free.push_back(b);
      }
      if (free.empty()) continue;
      const std::uint32_t b = free[rng() % free.size()];
      const bool has_invalid = rng() % 10 == 0;
      order.closed(die, b, has_invalid);
      free_block[b] = false;
      is_closed[b] = true;
      r.closed.push_back(b);
      if (has_invalid) r.with_invalid.insert(b);
    } else if (action < 5) {  // a closed, fully valid block loses its first unit
      std::vector<std::uint32_t> full;
      for (std::uint32_t b : r.closed) {
        if (!r.with_invalid.count(b)) full.push_back(b);
      }
      if (full.empty()) continue;
      const std::uint32_t b = full[rng() % full.size()];
      order.first_invalid(die, b);
      r.with_invalid.insert(b);
    } else {  // GC takes the victim, erases it, and it becomes free
      const std::int64_t v = order.victim(die);
      REQUIRE(v == r.victim());
      if (v < 0) continue;
      const auto b = static_cast<std::uint32_t>(v);
      ++victims;
      fully_valid_victims += r.with_invalid.count(b) == 0;
      order.remove(die, b);
      r.closed.erase(std::find(r.closed.begin(), r.closed.end(), b));
      r.with_invalid.erase(b);
      is_closed[b] = false;
      free_block[b] = true;
    }
    REQUIRE(order.victim(die) == r.victim());
    REQUIRE(order.closed_count(die) == r.closed.size());
    if (step % 997 == 0) {
      REQUIRE(order.order(die) == r.closed);
      REQUIRE(order.check(die, [&](std::uint32_t b) { return r.with_invalid.count(b) != 0; }).empty());
    }
  }
  CHECK(victims > 10000);
  CHECK(fully_valid_victims > 100);  // the "nothing invalid anywhere" case came up too
}

TEST_CASE("FifoOrder refuses to remove anything but the victim, and check() sees a wrong mark", "[fifo_order]") {
  FifoOrder order(1, 8);
  order.closed(0, 2, false);
  order.closed(0, 5, false);
  order.closed(0, 1, false);
  CHECK(order.victim(0) == 2);  // nothing invalid: the oldest
  order.first_invalid(0, 1);
  CHECK(order.victim(0) == 1);  // the oldest with invalid data, past two fully valid ones
  CHECK_THROWS_WITH(order.remove(0, 2), Catch::Contains("out of order"));
  CHECK(order.check(0, [](std::uint32_t b) { return b == 1; }).empty());
  CHECK_FALSE(order.check(0, [](std::uint32_t b) { return b == 5; }).empty());
  order.remove(0, 1);
  CHECK(order.order(0) == std::vector<std::uint32_t>{2, 5});
  order.clear();
  CHECK(order.victim(0) == -1);
  CHECK(order.closed_count(0) == 0);
}
