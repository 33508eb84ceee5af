// A host write that lands while GC holds the same LPN read from its victim, waiting to fill a
// GC page (possible with several mapping units per page), must win: the newer data stays the
// mapping, and GC's copy of the older data is dropped.
#include <catch2/catch.hpp>

#include <deque>
#include <unordered_map>
#include <vector>

#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

TEST_CASE("a host write is not undone by GC relocating the data it replaced", "[ftl][gc]") {
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo);
  CAPTURE(to_string(policy));
  Ftl ftl(small_drive(1, 2, 32, 16, 16384, 0.15, policy));  // 4 units per page
  const std::uint32_t upp = ftl.geometry().units_per_page;
  REQUIRE(upp == 4);
  Rng rng(7);
  // The controller's part: a buffer of (LPN, slot) in arrival order, flushed a page at a time.
  std::deque<std::pair<Lpn, std::uint32_t>> buffer;
  std::unordered_map<Lpn, std::uint32_t> newest;  // LPN -> slot of its newest write still buffered
  std::uint32_t next_slot = 0, die = 0;
  OpList ops;
  std::uint64_t lost = 0;
  for (int step = 0; step < 200000; ++step) {
    const auto lpn = static_cast<Lpn>(rng.below(ftl.user_units()));
    const std::uint32_t slot = next_slot++ % (1u << 20);
    ftl.write_to_buffer(lpn, slot);
    buffer.emplace_back(lpn, slot);
    newest[lpn] = slot;
    if (buffer.size() < 2 * upp) continue;
    // Place the oldest page's worth that is still current (superseded slots are dropped).
    std::vector<Lpn> page;
    while (page.size() < upp && !buffer.empty()) {
      const auto [l, s] = buffer.front();
      buffer.pop_front();
      const std::uint32_t e = ftl.lookup(l);
      const bool current = Ftl::is_buffered(e) && Ftl::buffer_slot(e) == s;
      const auto it = newest.find(l);
      if (it != newest.end() && it->second == s) {
        lost += !current;  // its newest write, yet the FTL no longer maps it to the buffer
        newest.erase(it);
        if (current) page.push_back(l);
      }
    }
    if (page.empty()) continue;
    for (std::uint32_t tries = 0; tries < ftl.geometry().dies && !ftl.can_place(die); ++tries) {
      die = (die + 1) % ftl.geometry().dies;
    }
    ops.clear();
    REQUIRE(ftl.place(die, page.data(), static_cast<std::uint32_t>(page.size()), 0, ops));
    die = (die + 1) % ftl.geometry().dies;
  }
  CHECK(ftl.stats().gc_units_copied > 10000);
  CHECK(lost == 0);
  CHECK(ftl.check_invariants().empty());
}
