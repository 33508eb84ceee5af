// The SLC cache (controller.slc_cache) on the FTL alone, without SystemC: host blocks opened in
// SLC mode (LSB pages only) up to the cache's size, then full blocks; a dynamic cache only while
// the die has free blocks to spare; folding in idle time and by GC, every mapped unit kept;
// the configuration's refusals.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <sstream>
#include <vector>

#include "base/core/rng.h"
#include "config_test_support.h"
#include "controller/ftl/ftl.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::FtlDriver;
using ssdlab::test::small_drive;

namespace {

// 4 dies x 64 blocks x 32 pages of one 4 KiB unit (MLC: an SLC-mode block holds 16), 25 % spare;
// `blocks` SLC-mode blocks per die.
DriveConfig slc_drive(SlcCacheMode mode, std::uint32_t blocks = 4) {
  DriveConfig c = small_drive(2, 2, 64, 32, 4096, 0.25);
  c.controller.slc_cache.mode = mode;
  c.controller.slc_cache.size_bytes = std::uint64_t(blocks) * 4 * 16 * 4096;
  return c;
}

// The program ops in `ops`.
std::vector<NandOp> programs(const OpList& ops) {
  std::vector<NandOp> out;
  for (const NandOp& op : ops)
    if (op.kind == NandOpKind::kProgram) out.push_back(op);
  return out;
}

}  // namespace

TEST_CASE("SLC cache: host blocks open in SLC mode up to the size, programmed on LSB pages only, then full blocks",
          "[slc_cache]") {
  Ftl ftl(slc_drive(SlcCacheMode::kStatic, 4));
  const Geometry& g = ftl.geometry();
  REQUIRE(ftl.slc_cache());
  REQUIRE(ftl.slc_limit() == 4);
  FtlDriver driver(ftl);
  std::set<std::uint32_t> slc_blocks, mlc_blocks;
  Lpn lpn = 0;
  // The cache holds 4 dies x 4 blocks x 16 pages: the first 256 pages are SLC-mode programs.
  for (; lpn < 4 * 4 * 16; ++lpn) {
    driver.write(lpn);
    const std::vector<NandOp> progs = programs(driver.ops());
    REQUIRE(progs.size() == 1);
    CHECK(progs[0].page % 2 == 0);  // an LSB page: the LSB program time
    CHECK(ftl.is_slc(progs[0].block));
    slc_blocks.insert(progs[0].block);
  }
  CHECK(slc_blocks.size() == 16);
  CHECK(ftl.stats().slc_units_written == 256);
  CHECK(ftl.stats().slc_blocks_opened == 16);
  for (std::uint32_t die = 0; die < g.dies; ++die) CHECK(ftl.slc_blocks(die) == 4);
  // Full: the next blocks are full blocks, every page programmed in order.
  std::vector<std::uint32_t> pages;
  for (; lpn < 256 + 4 * 32; ++lpn) {
    driver.write(lpn);
    const NandOp op = programs(driver.ops()).at(0);
    CHECK_FALSE(ftl.is_slc(op.block));
    mlc_blocks.insert(op.block);
    if (op.die == 0) pages.push_back(op.page);
  }
  CHECK(mlc_blocks.size() == 4);
  REQUIRE(pages.size() == 32);
  for (std::uint32_t p = 0; p < 32; ++p) CHECK(pages[p] == p);
  CHECK(ftl.stats().slc_units_written == 256);
  CHECK(ftl.check_invariants().empty());
}

TEST_CASE("SLC cache: idle folding moves every closed SLC-mode block into full blocks, keeping every unit",
          "[slc_cache]") {
  Ftl ftl(slc_drive(SlcCacheMode::kStatic, 4));
  const Geometry& g = ftl.geometry();
  FtlDriver driver(ftl);
  // 3 SLC-mode blocks filled on each die, and 2 pages of its 4th.
  const Lpn written = 4 * (3 * 16 + 2);
  for (Lpn lpn = 0; lpn < written; ++lpn) driver.write(lpn);
  // Overwrite a quarter (12 or 13 pages per die: the 4th block stays open): the folds copy only
  // what is still valid.
  for (Lpn lpn = 0; lpn < written; lpn += 4) driver.write(lpn);
  REQUIRE(ftl.slc_blocks_total() == 16);
  const std::uint64_t copied_before = ftl.stats().gc_units_copied;
  std::uint64_t valid_in_closed = 0;
  for (std::uint32_t die = 0; die < g.dies; ++die) {
    for (std::int64_t b = ftl.fold_candidate(die); b >= 0;) {
      valid_in_closed += ftl.valid_units(static_cast<std::uint32_t>(b));
      break;
    }
  }
  CHECK(valid_in_closed > 0);
  OpList ops;
  std::uint32_t steps = 0;
  for (std::uint32_t die = 0; die < g.dies; ++die) {
    while (ftl.background_collect(die, 0, g.units_per_page, ops)) {
      REQUIRE(++steps < 10000);
      for (const NandOp& op : ops)
        if (op.kind == NandOpKind::kProgram) CHECK_FALSE(ftl.is_slc(op.block));  // folded into full blocks
      ops.clear();
    }
  }
  // Only each die's open host block stays in the cache; the others were folded and erased.
  for (std::uint32_t die = 0; die < g.dies; ++die) CHECK(ftl.slc_blocks(die) == 1);
  CHECK(ftl.stats().slc_folds == 12);
  CHECK(ftl.stats().slc_fold_units == ftl.stats().gc_units_copied - copied_before);
  CHECK(ftl.stats().slc_fold_units > 0);
  CHECK(ftl.check_invariants().empty());
  for (Lpn lpn = 0; lpn < written; ++lpn) CHECK(FtlCore::on_flash(ftl.lookup(lpn)));
  // The cache takes new blocks again: the next SLC-mode blocks open.
  const std::uint64_t opened = ftl.stats().slc_blocks_opened;
  for (Lpn lpn = written; lpn < written + 4 * 16; ++lpn) driver.write(lpn);
  CHECK(ftl.stats().slc_blocks_opened > opened);
  CHECK(ftl.check_invariants().empty());
}

TEST_CASE("SLC cache: without idle_fold, background steps leave the cache alone", "[slc_cache]") {
  DriveConfig c = slc_drive(SlcCacheMode::kStatic, 4);
  c.controller.slc_cache.idle_fold = false;
  Ftl ftl(c);
  FtlDriver driver(ftl);
  for (Lpn lpn = 0; lpn < 4 * 3 * 16; ++lpn) driver.write(lpn);
  OpList ops;
  for (std::uint32_t die = 0; die < 4; ++die) CHECK_FALSE(ftl.background_collect(die, 0, 1, ops));
  CHECK(ops.empty());
  CHECK(ftl.stats().slc_folds == 0);
}

TEST_CASE("SLC cache: a dynamic cache opens SLC-mode blocks only with free blocks to spare, a static one always",
          "[slc_cache]") {
  for (const SlcCacheMode mode : {SlcCacheMode::kDynamic, SlcCacheMode::kStatic}) {
    DriveConfig c = slc_drive(mode, 4);
    c.controller.gc.free_blocks_high = 8;
    c.controller.gc.free_blocks_low = 6;
    Ftl ftl(c);
    FtlDriver driver(ftl);
    // Fill the drive without the cache's help on the way: random overwrites then leave the free
    // pools near GC's thresholds.
    Rng rng(11);
    for (std::uint64_t i = 0; i < 8 * std::uint64_t(ftl.user_units()); ++i)
      driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    CHECK(ftl.check_invariants().empty());
    const std::uint64_t opened = ftl.stats().slc_blocks_opened;
    for (std::uint64_t i = 0; i < 2 * std::uint64_t(ftl.user_units()); ++i)
      driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    INFO("mode " << to_string(mode));
    if (mode == SlcCacheMode::kDynamic) {
      // At steady state the dies hover below free_blocks_high: no block to spare for the cache.
      CHECK(ftl.stats().slc_blocks_opened - opened < 4);
    } else {
      // GC collects the cache's blocks (half their pages unused: a good victim) and the host
      // opens new ones: the cache stays in use.
      CHECK(ftl.stats().slc_blocks_opened - opened > 40);
      CHECK(ftl.stats().slc_folds > 40);
    }
    CHECK(ftl.check_invariants().empty());
  }
}

TEST_CASE("SLC cache: random overwrites with the cache never lose a mapped unit, and folds count in WAF",
          "[slc_cache]") {
  Ftl ftl(slc_drive(SlcCacheMode::kStatic, 6));
  FtlDriver driver(ftl);
  ssdlab::test::fill_sequentially(ftl, driver);
  Rng rng(5);
  std::vector<std::uint32_t> last(ftl.user_units(), 0);  // nothing to compare but the mapping: checked below
  for (int round = 0; round < 10; ++round) {
    for (std::uint32_t i = 0; i < 30000; ++i) driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    // Idle folding between bursts, as the controller's idle timer does.
    OpList ops;
    for (std::uint32_t die = 0; die < 4; ++die)
      for (int s = 0; s < 2000 && ftl.background_collect(die, 0, 1, ops); ++s) ops.clear();
    REQUIRE(ftl.check_invariants().empty());
  }
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) REQUIRE(FtlCore::on_flash(ftl.lookup(lpn)));
  const FtlStats& s = ftl.stats();
  CHECK(s.slc_folds > 0);
  CHECK(s.slc_fold_units <= s.gc_units_copied);
  CHECK(s.nand_units_programmed() == s.host_units_programmed + s.gc_units_copied + s.pad_units);
}

TEST_CASE("SLC cache: secure erase empties it, and a drive whose cache holds blocks refuses an image", "[slc_cache]") {
  Ftl ftl(slc_drive(SlcCacheMode::kStatic, 4));
  FtlDriver driver(ftl);
  for (Lpn lpn = 0; lpn < 40; ++lpn) driver.write(lpn);
  REQUIRE(ftl.slc_blocks_total() > 0);
  std::ostringstream out;
  CHECK_THROWS_WITH(ftl.save(out), Catch::Contains("controller.slc_cache"));
  ftl.secure_erase();
  CHECK(ftl.slc_blocks_total() == 0);
  CHECK(ftl.check_invariants().empty());
  // An image of the empty drive loads, and the cache fills again from there.
  const std::string image = ssdlab::test::image_of(ftl);
  Ftl other(slc_drive(SlcCacheMode::kStatic, 4));
  std::istringstream in(image);
  other.load(in);
  FtlDriver again(other);
  for (Lpn lpn = 0; lpn < 40; ++lpn) again.write(lpn);
  CHECK(other.slc_blocks_total() > 0);
  CHECK(other.check_invariants().empty());
}

TEST_CASE("SLC cache: the configuration refuses what it cannot be, naming the key", "[slc_cache][config]") {
  using namespace ssdlab::config_test;
  const std::string on = kBase + "  slc_cache: {mode: static, size: 16MiB}\n";
  const DriveConfig c = parse(on);
  CHECK(c.controller.slc_cache.mode == SlcCacheMode::kStatic);
  CHECK(c.controller.slc_cache.size_bytes == 16ULL << 20);
  CHECK(c.controller.slc_cache.idle_fold);
  CHECK(error_of(with("cell: MLC", "cell: SLC", with("{lsb: 250us, msb: 900us}", "250us", on))) ==
        "x.yaml:16: controller.slc_cache.mode: an SLC cache programs MLC or TLC blocks one bit per cell; the NAND is "
        "already SLC: use mode: off; keys involved: controller.slc_cache.mode at x.yaml:16, nand.cell at x.yaml:8");
  CHECK_THAT(error_of(kBase + "  slc_cache: {mode: dynamic}\n"),
             Catch::Contains("controller.slc_cache.size") && Catch::Contains("must be above 0"));
  CHECK_THAT(error_of(kBase + "  slc_cache: {mode: static, size: 16MiB}\n  gc: {destination: shared}\n"),
             Catch::Contains("controller.slc_cache.mode") && Catch::Contains("destination: shared"));
  CHECK_THAT(error_of(kBase + "  slc_cache: {mode: static, size: 16MiB}\n  ftl: hybrid\n"),
             Catch::Contains("controller.slc_cache.mode") && Catch::Contains("hybrid"));
  // 7 % spare leaves 8 blocks per die, GC needs 5: 16 MiB (4 SLC-mode blocks of 256 KiB per die,
  // 2 beyond their data when full) fits; a static 128 MiB (32 per die, 16 beyond) does not, a
  // dynamic one (only free blocks) does.
  CHECK_THAT(error_of(kBase + "  slc_cache: {mode: static, size: 128MiB}\n"),
             Catch::Contains("controller.slc_cache.size") && Catch::Contains("beyond its data"));
  CHECK(parse(kBase + "  slc_cache: {mode: dynamic, size: 128MiB}\n").controller.slc_cache.size_bytes == 128ULL << 20);
  CHECK_THAT(error_of(kBase + "  slc_cache: {mode: dynamic, size: 1GiB}\n"),
             Catch::Contains("controller.slc_cache.size") && Catch::Contains("more than a die's 128 blocks"));
  CHECK_THAT(error_of(kBase + "  slc_cache: {mode: sometimes, size: 1MiB}\n"),
             Catch::Contains("controller.slc_cache.mode"));
}
