#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

#include "base/core/rng.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/p2l_table.h"
#include "controller/ftl/precondition.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::small_drive;

TEST_CASE("a spilled P2L table returns what was stored, through evictions and copies", "[ftl][p2l]") {
  const std::uint32_t upb = 64;
  const std::uint64_t units = 40 * upb;
  P2lTable memory(units, upb);
  P2lTable spilled(units, upb, /*memory_budget_bytes=*/0, /*cache_blocks=*/3);
  REQUIRE_FALSE(memory.spilled());
  REQUIRE(spilled.spilled());
  std::vector<Lpn> expected(units, P2lTable::kNoLpn);
  Rng rng(7);
  for (int i = 0; i < 20000; ++i) {
    const auto u = static_cast<Pua>(rng.below(units));
    if (rng.below(3) == 0) {
      REQUIRE(spilled.get(u) == expected[u]);
      continue;
    }
    const auto lpn = static_cast<Lpn>(rng.below(1u << 28));
    expected[u] = lpn;
    memory.set(u, lpn);
    spilled.set(u, lpn);
  }
  // Three cached blocks out of forty: almost every access went to the file.
  CHECK(spilled.block_loads() > 1000);
  CHECK(spilled.block_stores() > 1000);
  const P2lTable copy = spilled;
  std::vector<Lpn> from_memory(units), from_spill(units), from_copy(units);
  memory.read(0, units, from_memory.data());
  spilled.read(0, units, from_spill.data());
  copy.read(0, units, from_copy.data());
  CHECK(from_memory == expected);
  CHECK(from_spill == expected);
  CHECK(from_copy == expected);
  // The copy has its own file: changing it leaves the original alone.
  P2lTable changed = spilled;
  changed.set(5, 42);
  CHECK(changed.get(5) == 42);
  CHECK(spilled.get(5) == expected[5]);
}

TEST_CASE("an FTL whose P2L table is spilled ends in exactly the state of one that keeps it in memory", "[ftl][p2l]") {
  const DriveConfig config = small_drive(2, 2, 32, 32, 4096, 0.15);
  Ftl in_memory(config);
  Ftl spilled(config, /*p2l_memory_budget=*/0, /*p2l_cache_blocks=*/8);  // 128 blocks
  PreconditionSpec spec;
  spec.fill_percent = 100;
  spec.random_percent = 300;  // GC collects every block several times over
  spec.seed = 11;
  precondition(in_memory, spec);
  precondition(spilled, spec);
  CHECK(spilled.stats().gc_erases > 0);
  CHECK(spilled.p2l().spilled());
  CHECK(spilled.p2l().block_loads() > spilled.stats().gc_erases);  // victims came back from the file
  CHECK(spilled.check_invariants().empty());
  std::ostringstream a, b;
  in_memory.save(a);
  spilled.save(b);
  CHECK(a.str() == b.str());  // the whole state, P2L included, byte for byte
}
