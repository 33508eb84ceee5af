// Wear levelling (controller.wear_leveling) on the FTL alone, without SystemC: the cold-block
// bookkeeping of static wear levelling (ColdBlocks), dynamic's least-erased-first allocation, and
// the P/E spread under millions of writes to a tenth of the drive: unbounded without static wear levelling,
// bounded with it, every mapped unit kept and its copies counted in WAF.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <vector>

#include "controller/ftl/ftl.h"
#include "controller/gc/wear_leveler.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::FtlDriver;
using ssdlab::test::small_drive;

namespace {

DriveConfig wear_drive(WearLeveling mode, std::uint32_t threshold = 40, GcPolicyKind policy = GcPolicyKind::kGreedy) {
  // 4 dies x 64 blocks x 32 pages of one 4 KiB unit; 25 % spare.
  DriveConfig c = small_drive(2, 2, 64, 32, 4096, 0.25, policy);
  c.controller.wear.mode = mode;
  c.controller.wear.threshold = threshold;
  return c;
}

// Erase counts of a die's blocks: the spread (most minus least erased).
std::uint32_t spread(const Ftl& ftl) {
  const Geometry& g = ftl.geometry();
  std::uint32_t worst = 0;
  for (std::uint32_t die = 0; die < g.dies; ++die) {
    std::uint32_t lo = ~0u, hi = 0;
    for (std::uint32_t i = 0; i < g.blocks_per_die; ++i) {
      const std::uint32_t e = ftl.erase_count(g.first_block_of_die(die) + i);
      lo = std::min(lo, e);
      hi = std::max(hi, e);
    }
    worst = std::max(worst, hi - lo);
  }
  return worst;
}

// Fills the drive once, then writes `writes` units at random over the first tenth of the LPNs:
// the rest, never rewritten, is the cold data only static wear levelling moves. Returns the
// largest spread of a die at each of `checkpoints` points.
std::vector<std::uint32_t> skewed_writes(Ftl& ftl, std::uint64_t writes, std::uint32_t checkpoints,
                                         std::uint64_t seed = 7) {
  FtlDriver driver(ftl);
  ssdlab::test::fill_sequentially(ftl, driver);
  Rng rng(seed);
  const std::uint32_t hot = ftl.user_units() / 10;
  std::vector<std::uint32_t> seen;
  for (std::uint32_t c = 0; c < checkpoints; ++c) {
    for (std::uint64_t i = 0; i < writes / checkpoints; ++i) driver.write(static_cast<Lpn>(rng.below(hot)));
    seen.push_back(spread(ftl));
  }
  return seen;
}

// Each block a page's ops opened (a program at page 0, in planning order), with the die's blocks
// still free and not erased later in the same ops: the pool the block was taken from, less the
// blocks taken after it, plus none erased after it. `f(op, free_erase_counts)`.
template <class F>
void for_each_opened_block(const Ftl& ftl, const OpList& ops, const F& f) {
  const Geometry& g = ftl.geometry();
  std::vector<std::uint32_t> pool;
  for (std::size_t k = 0; k < ops.size(); ++k) {
    const NandOp& op = ops[k];
    if (op.kind != NandOpKind::kProgram || op.page != 0) continue;
    const auto erased_after = [&](std::uint32_t block) {
      return std::any_of(ops.begin() + std::ptrdiff_t(k), ops.end(),
                         [block](const NandOp& e) { return e.kind == NandOpKind::kErase && e.block == block; });
    };
    if (erased_after(op.block)) continue;
    pool.clear();
    for (std::uint32_t j = 0; j < g.blocks_per_die; ++j) {
      const std::uint32_t b = g.first_block_of_die(op.die) + j;
      if (ftl.is_free(b) && !erased_after(b)) pool.push_back(ftl.erase_count(b));
    }
    f(op, pool);
  }
}

}  // namespace

TEST_CASE("ColdBlocks names the least-erased closed block only past the threshold", "[wear]") {
  std::vector<std::uint32_t> erases(8, 0);
  std::vector<bool> closed(8, false);
  const auto current = [&](std::uint32_t b, std::uint32_t e) { return closed[b] && erases[b] == e; };
  ColdBlocks cold(true, 1, 8, 10);
  const auto close = [&](std::uint32_t b) {
    closed[b] = true;
    cold.closed(0, b, erases[b], current);
  };
  const auto erase = [&](std::uint32_t b) {
    closed[b] = false;
    cold.erased(0, ++erases[b]);
  };
  for (std::uint32_t b = 0; b < 8; ++b) close(b);
  CHECK(cold.lagging(0, current) == ColdBlocks::kNone);  // all at 0 erases
  // Block 5 is erased and closed again 11 times: the others lag it by 11 > 10.
  for (int i = 0; i < 11; ++i) {
    erase(5);
    close(5);
  }
  CHECK(cold.max_erases(0) == 11);
  CHECK(cold.lagging(0, current) == 0);  // the lowest-numbered of the least erased
  // Block 0 goes (GC took it): the next cold one, and its stale entry is dropped.
  closed[0] = false;
  CHECK(cold.lagging(0, current) == 1);
  // Exactly at the threshold is not past it.
  for (std::uint32_t b = 0; b < 8; ++b) {
    if (b == 5) continue;
    while (erases[b] < 1) {
      closed[b] = false;
      erases[b] = 1;
      close(b);
    }
  }
  CHECK(cold.lagging(0, current) == ColdBlocks::kNone);  // 11 - 1 = 10, not more
  // Thousands of closes keep the heap at most twice the die's blocks (compaction).
  for (int i = 0; i < 5000; ++i) {
    const std::uint32_t b = static_cast<std::uint32_t>(i % 8);
    erase(b);
    close(b);
    REQUIRE(cold.held(0) <= 2 * 8 + 1);
  }
  ColdBlocks off(false, 1, 8, 10);
  off.closed(0, 3, 0, current);
  off.erased(0, 50);
  CHECK(off.lagging(0, current) == ColdBlocks::kNone);
  CHECK(off.held(0) == 0);
}

TEST_CASE("dynamic wear levelling: the host opens a die's least-erased free block, GC its most-erased", "[wear]") {
  DriveConfig c = wear_drive(WearLeveling::kDynamic);
  Ftl ftl(c);
  FtlDriver driver(ftl);
  ssdlab::test::fill_sequentially(ftl, driver);
  Rng rng(3);
  std::uint32_t opened = 0, unequal = 0, host_opened = 0, gc_opened = 0;
  for (int i = 0; i < 200000; ++i) {
    const auto lpn = static_cast<Lpn>(rng.below(100) < 90 ? rng.below(200) : rng.below(ftl.user_units()));
    driver.write(lpn);
    // No block left free has fewer erases than one the host opened, or more than one GC opened.
    for_each_opened_block(ftl, driver.ops(), [&](const NandOp& op, const std::vector<std::uint32_t>& pool) {
      ++opened;
      const bool host = op.origin == OpOrigin::kHost;
      (host ? host_opened : gc_opened) += 1;
      const std::uint32_t mine = ftl.erase_count(op.block);
      for (const std::uint32_t e : pool) {
        if (host) {
          REQUIRE(mine <= e);
        } else {
          REQUIRE(mine >= e);
        }
      }
      unequal += std::any_of(pool.begin(), pool.end(), [mine](std::uint32_t e) { return e != mine; });
    });
    if (i % 50000 == 0) REQUIRE(ftl.check_invariants().empty());
  }
  CHECK(opened > 1000);
  CHECK(host_opened > 100);
  CHECK(gc_opened > 100);
  CHECK(unequal > 100);  // the choice mattered: the pool held blocks of different counts
  REQUIRE(ftl.check_invariants().empty());
}

TEST_CASE("without static wear levelling the P/E spread grows with skewed writes, with it it stays bounded", "[wear]") {
  constexpr std::uint64_t kWrites = 3000000;
  constexpr std::uint32_t kThreshold = 40;
  Ftl none(wear_drive(WearLeveling::kNone, kThreshold));
  Ftl dynamic(wear_drive(WearLeveling::kDynamic, kThreshold));
  Ftl stat(wear_drive(WearLeveling::kStatic, kThreshold));
  const std::vector<std::uint32_t> a = skewed_writes(none, kWrites, 3);
  const std::vector<std::uint32_t> b = skewed_writes(dynamic, kWrites, 3);
  const std::vector<std::uint32_t> s = skewed_writes(stat, kWrites, 3);
  INFO("none " << a[0] << " " << a[1] << " " << a[2] << "; dynamic " << b[0] << " " << b[1] << " " << b[2]
               << "; static " << s[0] << " " << s[1] << " " << s[2]);
  // Unbounded: it grows with the writes, past several thresholds and still growing at the end.
  CHECK(a[2] > 5 * kThreshold);
  CHECK(a[2] > a[1]);
  CHECK(a[1] > a[0]);
  CHECK(b[2] > 5 * kThreshold);  // dynamic alone cannot move cold data either
  CHECK(b[2] > b[1]);
  // Bounded: within the threshold plus the erases a die makes while one migration waits for
  // its turn (every other victim), at every checkpoint.
  for (const std::uint32_t x : s) CHECK(x <= kThreshold + 8);
  REQUIRE(none.check_invariants().empty());
  REQUIRE(stat.check_invariants().empty());
  // Static's copies are counted, as GC copies and in WAF; the others make none.
  CHECK(stat.stats().wl_victims > 0);
  CHECK(stat.stats().wl_units_copied > 0);
  CHECK(stat.stats().gc_units_copied > none.stats().gc_units_copied);
  CHECK(none.stats().wl_victims == 0);
  CHECK(dynamic.stats().wl_victims == 0);
  // The drive's wear summary agrees with a count of its own.
  const WearSummary& w = stat.wear();
  std::uint32_t lo = ~0u, hi = 0;
  for (std::uint32_t blk = 0; blk < stat.geometry().blocks; ++blk) {
    lo = std::min(lo, stat.erase_count(blk));
    hi = std::max(hi, stat.erase_count(blk));
  }
  CHECK(w.min == lo);
  CHECK(w.max == hi);
  CHECK(w.mean == Approx(double(stat.stats().erases) / stat.geometry().blocks).epsilon(1e-9));
  CHECK(w.endurance == 10000);  // MLC's default rating
}

TEST_CASE("static wear levelling never loses a mapped unit and repeats exactly", "[wear]") {
  Ftl a(wear_drive(WearLeveling::kStatic, 20, GcPolicyKind::kCostBenefit));
  Ftl b(wear_drive(WearLeveling::kStatic, 20, GcPolicyKind::kCostBenefit));
  skewed_writes(a, 400000, 4, 11);
  skewed_writes(b, 400000, 4, 11);
  REQUIRE(a.check_invariants().empty());
  CHECK(a.stats().wl_victims > 0);
  CHECK(ssdlab::test::image_of(a) == ssdlab::test::image_of(b));
  // Every LPN maps somewhere (the drive was filled; nothing was trimmed).
  for (Lpn lpn = 0; lpn < a.user_units(); ++lpn) REQUIRE(a.lookup(lpn) != kUnmapped);
  // An image of it loads into a drive that carries on exactly as the original.
  Ftl c(wear_drive(WearLeveling::kStatic, 20, GcPolicyKind::kCostBenefit));
  {
    std::istringstream in(ssdlab::test::image_of(a));
    c.load(in);
  }
  FtlDriver da(a), dc(c);
  Rng ra(5), rc(5);
  for (int i = 0; i < 100000; ++i) {
    da.write(static_cast<Lpn>(ra.below(a.user_units() / 10)));
    dc.write(static_cast<Lpn>(rc.below(c.user_units() / 10)));
  }
  REQUIRE(c.check_invariants().empty());
  CHECK(c.stats().wl_victims > 0);
  CHECK(ssdlab::test::image_of(c) == ssdlab::test::image_of(a));
  // The erase-count summary kept erase by erase agrees with the loaded drive's, rebuilt from its
  // counts, and survives a secure erase (every used block erased once more).
  CHECK(c.wear().min == a.wear().min);
  CHECK(c.wear().max == a.wear().max);
  CHECK(c.wear().mean == a.wear().mean);
  const std::uint32_t max_before = a.wear().max;
  a.secure_erase();
  std::uint32_t lo = ~0u, hi = 0;
  double sum = 0;
  for (std::uint32_t b = 0; b < a.geometry().blocks; ++b) {
    lo = std::min(lo, a.erase_count(b));
    hi = std::max(hi, a.erase_count(b));
    sum += a.erase_count(b);
  }
  CHECK(a.wear().min == lo);
  CHECK(a.wear().max == hi);
  CHECK(hi >= max_before);
  CHECK(a.wear().mean == Approx(sum / a.geometry().blocks).epsilon(1e-12));
}

TEST_CASE("dynamic wear levelling with a shared GC destination opens the least-erased block for the host's block",
          "[wear]") {
  DriveConfig c = wear_drive(WearLeveling::kDynamic);
  c.controller.gc.destination = GcDestination::kShared;
  Ftl ftl(c);
  FtlDriver driver(ftl);
  ssdlab::test::fill_sequentially(ftl, driver);
  Rng rng(9);
  std::uint32_t by_gc = 0;
  for (int i = 0; i < 100000; ++i) {
    driver.write(static_cast<Lpn>(rng.below(100) < 90 ? rng.below(200) : rng.below(ftl.user_units())));
    // One block for both: whoever opens it (GC's copies, mostly), the least-erased.
    for_each_opened_block(ftl, driver.ops(), [&](const NandOp& op, const std::vector<std::uint32_t>& pool) {
      by_gc += op.origin == OpOrigin::kGc;
      for (const std::uint32_t e : pool) REQUIRE(ftl.erase_count(op.block) <= e);
    });
  }
  CHECK(by_gc > 100);
  REQUIRE(ftl.check_invariants().empty());
}

TEST_CASE("a static drive's image loads whenever it is saved, also just after a cold block was chosen", "[wear]") {
  Ftl a(wear_drive(WearLeveling::kStatic, 20));
  FtlDriver driver(a);
  ssdlab::test::fill_sequentially(a, driver);
  Rng rng(13);
  std::uint32_t loaded = 0;
  for (int i = 0; i < 300000 && loaded < 20; ++i) {
    const std::uint64_t before = a.stats().wl_victims;
    driver.write(static_cast<Lpn>(rng.below(a.user_units() / 10)));
    if (a.stats().wl_victims == before) continue;
    // A cold block was just chosen: its copies may wait for the die's next host page.
    Ftl b(wear_drive(WearLeveling::kStatic, 20));
    std::istringstream in(ssdlab::test::image_of(a));
    REQUIRE_NOTHROW(b.load(in));
    REQUIRE(ssdlab::test::image_of(b) == ssdlab::test::image_of(a));
    ++loaded;
  }
  CHECK(loaded == 20);
}

TEST_CASE("aging by replication keeps the wear-levelling mode and the endurance", "[wear]") {
  for (const WearLeveling mode : {WearLeveling::kNone, WearLeveling::kDynamic, WearLeveling::kStatic}) {
    DriveConfig c = wear_drive(mode, 33);
    c.nand.endurance_pe = 3000;
    const Ftl drive(c);
    const Ftl group = drive.die_group(2, drive.user_units() / 2);
    CHECK(group.static_wear_levelling() == (mode == WearLeveling::kStatic));
    CHECK(group.wear().endurance == 3000);
  }
}

TEST_CASE("an image with an impossible erase count is refused, naming the block", "[wear]") {
  Ftl a(wear_drive(WearLeveling::kNone));
  std::string image = ssdlab::test::image_of(a);
  // The ERAS table's first entry, made absurd; checksums off to reach the range check (with them
  // on, the checksum refuses it first).
  const std::size_t at = image.find("ERAS");
  REQUIRE(at != std::string::npos);
  Ftl b(wear_drive(WearLeveling::kNone));
  std::string bad = image;
  const std::uint32_t huge = 0xfffffff0u;
  const std::size_t first = at + 4 + 8;  // after the tag and the u64 length (ftl_image.h): block 0's count
  std::memcpy(&bad[first], &huge, 4);
  std::istringstream in(bad);
  FtlLoadOptions lax;
  lax.verify_checksums = false;
  try {
    b.load(in, lax);
    FAIL("loaded");
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(), Catch::Contains("erase count 4294967280 of block 0 is above 4194304"));
  }
}

TEST_CASE("static wear levelling is refused with FIFO and the hybrid FTL", "[wear]") {
  CHECK_THROWS_AS(Ftl(wear_drive(WearLeveling::kStatic, 40, GcPolicyKind::kFifo)), std::invalid_argument);
  CHECK_NOTHROW(Ftl(wear_drive(WearLeveling::kDynamic, 40, GcPolicyKind::kFifo)));
}
