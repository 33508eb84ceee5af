#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "controller/ftl/ftl.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::fill_sequentially;
using ssdlab::test::FtlDriver;
using ssdlab::test::small_drive;

namespace {

std::uint32_t min_closed_valid(const Ftl& ftl, std::uint32_t die) {
  const Geometry& g = ftl.geometry();
  std::uint32_t best = g.units_per_block + 1;
  for (std::uint32_t i = 0; i < g.blocks_per_die; ++i) {
    const std::uint32_t b = g.first_block_of_die(die) + i;
    if (ftl.is_closed(b)) best = std::min(best, ftl.valid_units(b));
  }
  return best;
}

}  // namespace

TEST_CASE("a fresh FTL maps nothing and holds its invariants", "[ftl]") {
  Ftl ftl(small_drive());
  CHECK(ftl.check_invariants().empty());
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) REQUIRE(ftl.lookup(lpn) == kUnmapped);
  CHECK(ftl.free_blocks_total() == ftl.geometry().blocks);
}

TEST_CASE("a sequential fill has a write amplification of exactly 1", "[ftl][waf]") {
  for (std::uint32_t page_bytes : {4096u, 16384u}) {
    Ftl ftl(small_drive(2, 2, 32, 32, page_bytes));
    FtlDriver driver(ftl);
    fill_sequentially(ftl, driver);
    const FtlStats& s = ftl.stats();
    CHECK(s.host_units_written == ftl.user_units());
    CHECK(s.gc_units_copied == 0);
    CHECK(s.nand_units_programmed() == s.host_units_written);
    // A second sequential pass overwrites whole blocks: victims hold nothing valid.
    fill_sequentially(ftl, driver);
    CHECK(ftl.stats().gc_units_copied == 0);
    CHECK(ftl.stats().nand_units_programmed() == ftl.stats().host_units_written);
    CHECK(ftl.stats().gc_erases > 0);
    CHECK(ftl.check_invariants().empty());
  }
}

TEST_CASE("millions of random overwrites keep every LPN mapped to exactly one valid unit", "[ftl][invariants]") {
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo,
                               GcPolicyKind::kRandom, GcPolicyKind::kDChoice);
  const auto destination = GENERATE(GcDestination::kSeparate, GcDestination::kShared);
  const std::uint32_t page_bytes = GENERATE(4096u, 16384u);
  CAPTURE(to_string(policy), to_string(destination), page_bytes);
  DriveConfig config = small_drive(2, 2, 32, 32, page_bytes, 0.15, policy);
  config.controller.gc.destination = destination;
  Ftl ftl(config);
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(42);
  const std::uint32_t upp = ftl.geometry().units_per_page;
  std::vector<Lpn> page(upp);
  const std::uint64_t writes = 2000000 / upp;  // two million unit overwrites
  for (std::uint64_t i = 0; i < writes; ++i) {
    for (std::uint32_t k = 0; k < upp; ++k) {
      Lpn lpn;
      do {
        lpn = static_cast<Lpn>(rng.below(ftl.user_units()));
      } while (std::find(page.begin(), page.begin() + k, lpn) != page.begin() + k);
      page[k] = lpn;
    }
    driver.write_page(page.data(), upp);
    if (i % 5 == 0) ftl.trim(static_cast<Lpn>(rng.below(ftl.user_units())));
    if (i % 100000 == 0) REQUIRE(ftl.check_invariants().empty());
  }
  REQUIRE(ftl.check_invariants().empty());
  const FtlStats& s = ftl.stats();
  CHECK(s.gc_units_copied > 0);  // the drive really was collected
  CHECK(s.gc_erases > 0);
  // Every LPN is mapped to a unit that holds it, or was trimmed; valid units = mapped LPNs.
  std::uint64_t mapped = 0;
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) mapped += ftl.lookup(lpn) != kUnmapped;
  std::uint64_t valid = 0;
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) valid += ftl.valid_units(b);
  CHECK(valid == mapped);
  CHECK(mapped > ftl.user_units() / 2);
  // Write amplification under uniform random overwrite at this spare factor is well above 1.
  CHECK(double(s.nand_units_programmed()) / double(s.host_units_written) > 1.2);
}

TEST_CASE("greedy GC picks a block with the fewest valid units", "[ftl][gc]") {
  Ftl ftl(small_drive(1, 2, 32, 32, 4096, 0.25, GcPolicyKind::kGreedy));
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(7);
  for (int round = 0; round < 2000; ++round) {
    driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    for (std::uint32_t die = 0; die < ftl.geometry().dies; ++die) {
      const std::int64_t chosen = ftl.next_victim(die);
      const std::uint32_t best = min_closed_valid(ftl, die);
      if (best > ftl.geometry().units_per_block) {
        REQUIRE(chosen == -1);
      } else {
        REQUIRE(chosen == std::int64_t(best));
      }
    }
  }
  // And collecting erases exactly such a block (once the victim in progress is finished).
  const std::uint32_t die = 0;
  OpList ops;
  for (int i = 0; i < 100 && ftl.active_victim(die) >= 0; ++i) REQUIRE(ftl.collect_one(die, ops));
  REQUIRE(ftl.active_victim(die) == -1);
  ops.clear();
  const std::uint32_t best = min_closed_valid(ftl, die);
  std::vector<std::uint32_t> erases_before;
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) erases_before.push_back(ftl.erase_count(b));
  std::vector<std::uint32_t> valid_before;
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) valid_before.push_back(ftl.valid_units(b));
  REQUIRE(ftl.collect_one(die, ops));
  std::uint32_t erased = 0;
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) {
    if (ftl.erase_count(b) != erases_before[b]) {
      ++erased;
      CHECK(valid_before[b] == best);
    }
  }
  CHECK(erased >= 1);
  CHECK(ftl.check_invariants().empty());
  // The ops: reads and programs for the copies, then the erase, all on the same die.
  REQUIRE_FALSE(ops.empty());
  CHECK(ops.back().kind == NandOpKind::kErase);
  for (const NandOp& op : ops) CHECK(op.die == die);
}

TEST_CASE("GC copies go to the victim's die and never lose data", "[ftl][gc]") {
  Ftl ftl(small_drive(2, 1, 16, 16, 4096, 0.3));
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(3);
  const std::uint64_t pages_before = ftl.stats().pages_programmed;
  std::uint64_t reads = 0, programs = 0, erases = 0;
  for (int i = 0; i < 20000; ++i) {
    driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    for (const NandOp& op : driver.ops()) {
      reads += op.kind == NandOpKind::kRead;
      programs += op.kind == NandOpKind::kProgram;
      erases += op.kind == NandOpKind::kErase;
      REQUIRE(ftl.geometry().die_of_block(op.block) == op.die);
    }
  }
  const FtlStats& s = ftl.stats();
  CHECK(reads == s.gc_units_copied);  // one unit per page here: a read per copied unit
  CHECK(erases == s.gc_erases);
  CHECK(programs == s.pages_programmed - pages_before);  // every program the FTL counts was issued
  CHECK(ftl.check_invariants().empty());
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) REQUIRE(ftl.lookup(lpn) != kUnmapped);
}

TEST_CASE("less over-provisioning means more write amplification", "[ftl][waf]") {
  auto waf_at = [](double op) {
    Ftl ftl(small_drive(2, 2, 64, 32, 4096, op));
    FtlDriver driver(ftl);
    fill_sequentially(ftl, driver);
    const FtlStats before = ftl.stats();
    Rng rng(11);
    for (std::uint32_t i = 0; i < 4 * ftl.user_units(); ++i)
      driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    const FtlStats& after = ftl.stats();
    return double(after.nand_units_programmed() - before.nand_units_programmed()) /
           double(after.host_units_written - before.host_units_written);
  };
  const double waf_low_op = waf_at(0.10);
  const double waf_high_op = waf_at(0.28);
  CAPTURE(waf_low_op, waf_high_op);
  CHECK(waf_low_op > waf_high_op * 1.5);
  CHECK(waf_high_op > 1.0);
}

TEST_CASE("trim unmaps without programming and frees GC work", "[ftl][trim]") {
  Ftl ftl(small_drive());
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  const FtlStats before = ftl.stats();
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) ftl.trim(lpn);
  CHECK(ftl.stats().pages_programmed == before.pages_programmed);
  CHECK(ftl.stats().units_trimmed == ftl.user_units());
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) REQUIRE(ftl.valid_units(b) == 0);
  // Rewriting after a full trim copies nothing.
  fill_sequentially(ftl, driver);
  CHECK(ftl.stats().gc_units_copied == 0);
  CHECK(ftl.check_invariants().empty());
}

TEST_CASE("secure erase forgets every mapping and erases used blocks", "[ftl]") {
  Ftl ftl(small_drive());
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  ftl.secure_erase();
  CHECK(ftl.check_invariants().empty());
  CHECK(ftl.free_blocks_total() == ftl.geometry().blocks);
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) REQUIRE(ftl.lookup(lpn) == kUnmapped);
  std::uint64_t erased = 0;
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) erased += ftl.erase_count(b);
  CHECK(erased > 0);
}

TEST_CASE("a page gathered for the FTL never holds one LPN twice: the newer write supersedes", "[ftl][precondition]") {
  Ftl ftl(small_drive(1, 2, 32, 16, 16384));  // 4 units per page
  PageWriter writer(ftl);
  for (const Lpn lpn : {5u, 7u, 5u, 9u, 11u}) writer.write(lpn);  // {7, 5, 9, 11}: one page
  writer.flush();
  CHECK(ftl.stats().host_units_programmed == 4);
  CHECK(ftl.stats().pad_units == 0);
  for (const Lpn lpn : {5u, 7u, 9u, 11u}) CHECK(ftl.lookup(lpn) != kUnmapped);
  CHECK(ftl.check_invariants().empty());
}
