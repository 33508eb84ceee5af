// Mapping units of k > 1 flash pages (controller/ftl/virtual_page.h, docs/virtual-pages.md):
// the FTL works on die groups and virtual pages, VirtualPageStriper turns each of its
// operations into page operations on the group's dies.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <vector>

#include "base/core/rng.h"
#include "controller/ftl/virtual_page.h"
#include "test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

constexpr std::uint32_t kPage = 4096;

// A drive of `channels` x `dies_per_channel` dies with mapping units of `k` pages.
DriveConfig vpage_drive(std::uint32_t k, std::uint32_t channels = 4, std::uint32_t dies_per_channel = 1,
                        std::uint32_t blocks = 32, std::uint32_t pages = 32) {
  DriveConfig c = small_drive(channels, dies_per_channel, blocks, pages, kPage);
  c.controller.mapping_unit_bytes = k * kPage;
  c.controller.user_bytes = c.controller.user_bytes / (k * kPage) * (k * kPage);
  return c;
}

struct Counts {
  std::uint32_t reads = 0, programs = 0, erases = 0;
  std::map<NandOpKind, std::vector<std::uint32_t>> dies;  // per kind, the dies in op order
};

// The flash operations of `ops`, each expanded, finished at once (in reverse order: any order
// works), and checked to give back its FTL op exactly once.
Counts expand_all(VirtualPageStriper& striper, const OpList& ops) {
  Counts n;
  for (const NandOp& op : ops) {
    std::vector<NandOp> flash;
    striper.expand(op, flash);
    std::uint32_t completed = 0;
    for (auto it = flash.rbegin(); it != flash.rend(); ++it) {
      const NandOp& f = *it;
      CHECK(f.page == (op.page & vpage::kPageMask));
      CHECK(f.kind == op.kind);
      CHECK(f.origin == op.origin);
      CHECK(f.die / striper.pages_per_unit() == op.die);
      NandOp back;
      if (striper.finish(f, back)) {
        ++completed;
        CHECK(back.die == op.die);
        CHECK(back.block == op.block);
        CHECK(back.cookie == op.cookie);
      }
      n.dies[f.kind].push_back(f.die);
      n.reads += f.kind == NandOpKind::kRead;
      n.programs += f.kind == NandOpKind::kProgram;
      n.erases += f.kind == NandOpKind::kErase;
    }
    CHECK(completed == 1);
  }
  return n;
}

}  // namespace

TEST_CASE("virtual page geometry: the FTL sees die groups and one unit per virtual page", "[vpage]") {
  const Geometry g = Geometry::from(vpage_drive(4, 4, 2));
  CHECK(g.pages_per_unit == 4);
  CHECK(g.dies == 2);
  CHECK(g.page_bytes == 4 * kPage);
  CHECK(g.unit_bytes == 4 * kPage);
  CHECK(g.units_per_page == 1);
  const Geometry plain = Geometry::from(small_drive(4, 2));
  CHECK(plain.pages_per_unit == 1);
  CHECK(plain.dies == 8);
  CHECK(plain.page_bytes == kPage);
}

TEST_CASE("virtual page: an aligned unit-sized write programs k pages on k dies and reads none", "[vpage]") {
  const DriveConfig c = vpage_drive(4, 4, 2);  // 8 dies: 2 groups of 4
  Ftl ftl(c);
  FtlDriver driver(ftl);
  VirtualPageStriper striper(ftl.geometry(), kPage);
  driver.write(7);
  const Counts n = expand_all(striper, driver.ops());
  CHECK(n.programs == 4);
  CHECK(n.reads == 0);
  CHECK(n.erases == 0);
  std::vector<std::uint32_t> dies = n.dies.at(NandOpKind::kProgram);
  std::sort(dies.begin(), dies.end());
  CHECK(dies == std::vector<std::uint32_t>{0, 1, 2, 3});  // the first group, one page each
  std::vector<NandOp> flash;
  striper.expand(driver.ops().front(), flash);
  for (const NandOp& f : flash) {
    CHECK(f.bytes == kPage);
    CHECK(f.block == f.die * ftl.geometry().blocks_per_die);  // block 0 of each die
    NandOp back;
    striper.finish(f, back);
  }
  CHECK(striper.in_flight() == 0);
  CHECK(ftl.map_bytes() == std::uint64_t(ftl.user_units()) * 4);
  CHECK(ftl.user_units() == c.controller.user_bytes / (4 * kPage));  // a quarter of the 4 KiB map
}

TEST_CASE("virtual page: a 4 KiB write into a 16 KiB unit reads the 3 other pages and programs 4", "[vpage]") {
  Ftl ftl(vpage_drive(4));
  const Geometry& g = ftl.geometry();
  FtlDriver driver(ftl);
  VirtualPageStriper striper(g, kPage);
  driver.write(3);  // unit 3 is on flash
  const std::uint64_t unit = 3ull * g.unit_bytes;
  // The write covers the unit's second page: the read-modify-write reads pages 0, 2 and 3.
  const std::uint32_t mask = vpage::uncovered(g, 3, unit + kPage, unit + 2 * kPage);
  CHECK(mask == 0b1101);
  const ReadPlan plan = ftl.plan_read(3);
  REQUIRE(plan.on_flash());
  OpList rmw;
  append_op(rmw, NandOpKind::kRead, OpOrigin::kHost, plan.die, plan.block, vpage::with_mask(plan.page, mask),
            g.unit_bytes, 0);
  const Counts reads = expand_all(striper, rmw);
  CHECK(reads.reads == 3);
  CHECK(reads.dies.at(NandOpKind::kRead) == std::vector<std::uint32_t>{3, 2, 0});  // finished in reverse
  driver.write(3);                                                                 // the merged unit, programmed whole
  const Counts programs = expand_all(striper, driver.ops());
  CHECK(programs.programs == 4);
  CHECK(programs.reads == 0);
  // Other write shapes: one covering the whole unit reads nothing; a 512-byte write reads all 4
  // pages (the page it touches only in part too); one of the last two pages reads the first two.
  CHECK(vpage::uncovered(g, 3, unit, unit + g.unit_bytes) == 0);
  CHECK(vpage::uncovered(g, 3, unit + 512, unit + 1024) == 0b1111);
  CHECK(vpage::uncovered(g, 3, unit - 4096, unit + 2 * kPage) == 0b1100);
  CHECK(vpage::uncovered(g, 3, unit + 2 * kPage, unit + 8 * kPage) == 0b0011);
  // A read reads the pages holding its bytes only (0: all of them).
  CHECK(vpage::touched(g, 3, unit + 2 * kPage, unit + 3 * kPage) == 0b0100);
  CHECK(vpage::touched(g, 3, unit + kPage - 512, unit + kPage + 512) == 0b0011);
  CHECK(vpage::touched(g, 3, unit, unit + g.unit_bytes) == 0);
  CHECK(vpage::touched(g, 3, unit - kPage, unit + kPage) == 0b0001);
  CHECK(vpage::touched(g, 3, unit + 3 * kPage, unit + 9 * kPage) == 0b1000);
}

TEST_CASE("virtual page: GC relocates whole units and erases all k blocks of a virtual block", "[vpage]") {
  Ftl ftl(vpage_drive(2, 2, 2, 16, 16));  // 4 dies in 2 groups, small blocks: GC soon
  const Geometry& g = ftl.geometry();
  FtlDriver driver(ftl);
  VirtualPageStriper striper(g, kPage);
  fill_sequentially(ftl, driver);
  Rng rng(5);
  std::uint64_t gc_reads = 0, gc_programs = 0, flash_programs = 0, flash_erases = 0, gc_flash_reads = 0;
  for (int i = 0; i < 20000; ++i) {
    driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    for (const NandOp& op : driver.ops()) {
      if (op.origin != OpOrigin::kGc) continue;
      if (op.kind == NandOpKind::kRead) {
        ++gc_reads;
        CHECK(op.bytes == g.unit_bytes);  // one unit a virtual page: every GC read is a whole unit
      }
      gc_programs += op.kind == NandOpKind::kProgram;
    }
    const Counts n = expand_all(striper, driver.ops());
    flash_programs += n.programs;
    flash_erases += n.erases;
    gc_flash_reads += n.reads;  // only GC reads here
  }
  REQUIRE(ftl.stats().gc_units_copied > 0);
  CHECK(gc_reads == ftl.stats().gc_units_copied);  // each relocated unit read once, whole
  CHECK(gc_programs == ftl.stats().gc_units_copied);
  CHECK(gc_flash_reads == 2 * gc_reads);
  CHECK(flash_programs == 2 * ftl.stats().pages_programmed - 2 * (ftl.user_units()));  // the fill was not expanded
  CHECK(flash_erases == 2 * ftl.stats().gc_erases);
  CHECK(ftl.check_invariants().empty());
  CHECK(striper.in_flight() == 0);
}

TEST_CASE("virtual page: invariants hold after many random overwrites and TRIMs", "[vpage]") {
  Ftl ftl(vpage_drive(4, 4, 2, 24, 16));
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(11);
  for (int i = 0; i < 200000; ++i) {
    const auto lpn = static_cast<Lpn>(rng.below(ftl.user_units()));
    if (rng.below(8) == 0) {
      ftl.trim(lpn);
    } else {
      driver.write(lpn);
    }
    if (i % 50000 == 0) REQUIRE(ftl.check_invariants().empty());
  }
  CHECK(ftl.check_invariants().empty());
  CHECK(ftl.stats().units_trimmed > 0);
  CHECK(ftl.stats().gc_erases > 0);
}

TEST_CASE("virtual page striper: translation-page and masked ops reach single pages", "[vpage]") {
  const Geometry g = Geometry::from(vpage_drive(4, 4, 2));
  VirtualPageStriper striper(g, kPage);
  std::vector<NandOp> flash;
  NandOp map{NandOpKind::kProgram,        OpOrigin::kMap, 1,          g.first_block_of_die(1) + 5,
             vpage::with_mask(0, 0b0100), kPage,          kOpTimedBit};
  striper.expand(map, flash);
  REQUIRE(flash.size() == 1);
  CHECK(flash[0].die == 6);  // group 1 is dies 4..7
  CHECK(flash[0].block == 6 * g.blocks_per_die + 5);
  CHECK(flash[0].bytes == kPage);
  CHECK(flash[0].page == 0);
  CHECK((flash[0].cookie & kOpTimedBit) != 0);  // the die keeps the timing asked for
  NandOp back;
  CHECK(striper.finish(flash[0], back));
  CHECK(back.page == 0);
  CHECK(back.die == 1);
  CHECK_THROWS_AS(striper.finish(flash[0], back), std::logic_error);  // not twice
}
