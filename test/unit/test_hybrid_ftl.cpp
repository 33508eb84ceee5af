// The hybrid log-block FTL (controller/ftl/hybrid/hybrid_map.h) without SystemC: invariants
// under random overwrites and TRIM, each merge kind from a crafted pattern with its NAND
// operations counted, mapping-memory accounting, FAST against BAST, config checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "base/config/config_loader.h"
#include "controller/ftl/ftl.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::FtlDriver;
using ssdlab::test::small_drive;

namespace {

DriveConfig hybrid_drive(HybridScheme scheme, std::uint32_t log_blocks = 0, bool partial = true,
                         std::uint32_t blocks = 32, double op = 0.25) {
  DriveConfig c = small_drive(2, 2, blocks, 32, 4096, op);
  c.controller.ftl = FtlScheme::kHybrid;
  c.controller.hybrid.scheme = scheme;
  c.controller.hybrid.log_blocks = log_blocks;
  c.controller.hybrid.partial_merge = partial;
  return c;
}

struct OpCount {
  std::uint64_t reads = 0, programs = 0, erases = 0;
  void add(const OpList& ops) {
    for (const NandOp& op : ops) {
      reads += op.kind == NandOpKind::kRead;
      programs += op.kind == NandOpKind::kProgram;
      erases += op.kind == NandOpKind::kErase;
    }
  }
};

// Writes `lpns` one by one, counting the NAND operations they asked for.
OpCount write_all(FtlDriver& driver, const std::vector<Lpn>& lpns) {
  OpCount n;
  for (const Lpn lpn : lpns) {
    driver.write(lpn);
    n.add(driver.ops());
  }
  return n;
}

// The units of logical block `lbn`, in order.
std::vector<Lpn> block_units(const Ftl& ftl, std::uint32_t lbn) {
  std::vector<Lpn> out;
  for (std::uint32_t i = 0; i < ftl.geometry().units_per_block; ++i) out.push_back(Lpn(ftl.hybrid()->unit_of(lbn, i)));
  return out;
}

}  // namespace

TEST_CASE("hybrid FTL keeps its invariants under millions of random overwrites and trims", "[hybrid][invariants]") {
  const auto scheme = GENERATE(HybridScheme::kFast, HybridScheme::kBast);
  const bool partial = GENERATE(true, false);
  CAPTURE(to_string(scheme), partial);
  Ftl ftl(hybrid_drive(scheme, 0, partial));
  FtlDriver driver(ftl);
  const std::uint32_t units = ftl.user_units();
  std::vector<std::uint8_t> written(units, 0);  // what the host did last: 1 written, 0 trimmed or never
  Rng rng(7);
  constexpr std::uint64_t kOps = 2'000'000;
  for (std::uint64_t i = 0; i < kOps; ++i) {
    // Runs of in-order writes now and then (sequential logs, switch and partial merges), else random.
    const Lpn lpn = static_cast<Lpn>(rng.below(units));
    if (rng.below(16) == 0) {
      ftl.trim(lpn);
      written[lpn] = 0;
    } else if (rng.below(64) == 0) {
      for (const Lpn l : block_units(ftl, ftl.hybrid()->lbn_of(lpn))) {
        if (l >= units) break;
        driver.write(l);
        written[l] = 1;
      }
    } else {
      driver.write(lpn);
      written[lpn] = 1;
    }
    if (i % 250'000 == 0) REQUIRE(ftl.check_invariants().empty());
  }
  REQUIRE(ftl.check_invariants() == "");
  // Every LPN is readable where the map says, and only what the host last wrote is mapped.
  for (Lpn lpn = 0; lpn < units; ++lpn) {
    const ReadPlan plan = ftl.plan_read(lpn);
    REQUIRE(plan.on_flash() == (written[lpn] == 1));
    if (plan.on_flash()) REQUIRE(ftl.p2l().get(plan.unit) == lpn);
  }
  const HybridStats& s = ftl.hybrid()->stats();
  CHECK(s.full_merges > 0);
  CHECK(s.switch_merges > 0);
  if (partial) CHECK(s.partial_merges > 0);
  if (!partial) CHECK(s.partial_merges == 0);
  // Merges are the FTL's only copies and erases.
  CHECK(ftl.stats().gc_units_copied == s.merge_reads);
  CHECK(ftl.stats().gc_erases == s.merge_erases);
  CHECK(ftl.stats().nand_units_programmed() == ftl.stats().host_units_programmed + s.merge_reads);
}

TEST_CASE("a sequential block-sized rewrite is a switch merge: no copy and one erase", "[hybrid][merge]") {
  const auto scheme = GENERATE(HybridScheme::kFast, HybridScheme::kBast);
  CAPTURE(to_string(scheme));
  Ftl ftl(hybrid_drive(scheme));
  FtlDriver driver(ftl);
  const std::vector<Lpn> lbn0 = block_units(ftl, 0);
  const OpCount first = write_all(driver, lbn0);
  CHECK(first.reads == 0);
  CHECK(first.erases == 0);  // no old data block yet
  const std::uint32_t data = ftl.hybrid()->data_block(0);
  REQUIRE(data != HybridMap::kNone);
  const OpCount second = write_all(driver, lbn0);
  CHECK(second.reads == 0);
  CHECK(second.programs == lbn0.size());
  CHECK(second.erases == 1);
  CHECK(ftl.stats().gc_units_copied == 0);
  CHECK(ftl.hybrid()->stats().switch_merges == 2);
  CHECK(ftl.hybrid()->stats().full_merges == 0);
  CHECK(ftl.hybrid()->data_block(0) != data);
  CHECK(ftl.check_invariants().empty());
}

TEST_CASE("a log written in order from its first page is completed from the data block: a partial merge",
          "[hybrid][merge]") {
  const auto scheme = GENERATE(HybridScheme::kFast, HybridScheme::kBast);
  CAPTURE(to_string(scheme));
  Ftl ftl(hybrid_drive(scheme));
  FtlDriver driver(ftl);
  const std::uint32_t upb = ftl.geometry().units_per_block, dies = ftl.geometry().dies;
  write_all(driver, block_units(ftl, 0));  // lbn 0 has a data block (on die 0)
  std::vector<Lpn> half = block_units(ftl, 0);
  half.resize(upb / 2);
  write_all(driver, half);  // its log holds offsets 0 .. upb/2-1, in order
  // Push lbn 0's log out: fast by starting another sequential log on die 0, bast by giving
  // every other log slot of die 0 to other logical blocks until lbn 0's (the oldest) goes.
  OpCount merge;
  if (scheme == HybridScheme::kFast) {
    merge = write_all(driver, {Lpn(ftl.hybrid()->unit_of(dies, 0))});  // lbn `dies`: die 0
  } else {
    for (std::uint32_t i = 1; i <= ftl.hybrid()->logs_per_die(); ++i) {
      driver.write(Lpn(ftl.hybrid()->unit_of(i * dies, 0)));
      merge.add(driver.ops());
    }
  }
  CHECK(ftl.hybrid()->stats().partial_merges == 1);
  CHECK(ftl.hybrid()->stats().full_merges == 0);
  CHECK(merge.reads == upb / 2);  // the other half, from the old data block
  CHECK(merge.erases == 1);       // the old data block
  CHECK(ftl.stats().gc_units_copied == upb / 2);
  CHECK(ftl.check_invariants().empty());
}

TEST_CASE("a log written out of order is a full merge: every valid unit read and programmed", "[hybrid][merge]") {
  // bast: lbn 0's own log filled out of order, merged by the next write to lbn 0.
  Ftl ftl(hybrid_drive(HybridScheme::kBast));
  FtlDriver driver(ftl);
  const std::uint32_t upb = ftl.geometry().units_per_block;
  write_all(driver, block_units(ftl, 0));
  std::vector<Lpn> reversed = block_units(ftl, 0);
  std::reverse(reversed.begin(), reversed.end());
  const OpCount fill = write_all(driver, reversed);
  CHECK(fill.reads == 0);
  // The write of lbn 0's unit 3 finds the log full. Its own old copy was invalidated when it entered
  // the buffer: the merge gathers the other upb - 1 units, all from the log.
  const OpCount merge = write_all(driver, {Lpn(ftl.hybrid()->unit_of(0, 3))});
  CHECK(ftl.hybrid()->stats().full_merges == 1);
  CHECK(merge.reads == upb - 1);
  CHECK(merge.programs == upb);  // the gathered block and the host unit
  CHECK(merge.erases == 2);      // the old data block and the log
  CHECK(ftl.check_invariants().empty());
}

TEST_CASE("fast evicts its oldest random log with a full merge per logical block in it", "[hybrid][merge]") {
  Ftl ftl(hybrid_drive(HybridScheme::kFast));
  FtlDriver driver(ftl);
  const std::uint32_t upb = ftl.geometry().units_per_block, dies = ftl.geometry().dies;
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) driver.write(lpn);  // every die in order: switch merges
  const auto whole = [&](std::uint32_t lbn) { return ftl.hybrid()->unit_of(lbn, upb - 1) < ftl.user_units(); };
  const std::uint32_t lbns = ftl.hybrid()->logical_blocks();
  REQUIRE(ftl.hybrid()->stats().full_merges == 0);
  // Offsets 1.. of the whole logical blocks of die 0, offset by offset: random logs only, and
  // more distinct units than the log pool holds, so the oldest log is still valid when it goes.
  std::vector<Lpn> pattern;
  std::uint32_t die0_lbns = 0;
  for (std::uint32_t lbn = 0; lbn < lbns; lbn += dies) die0_lbns += whole(lbn);
  for (std::uint32_t offset = 1; offset < upb; ++offset)
    for (std::uint32_t lbn = 0; lbn < lbns; lbn += dies)
      if (whole(lbn)) pattern.push_back(Lpn(ftl.hybrid()->unit_of(lbn, offset)));
  const std::uint32_t random_logs = ftl.hybrid()->logs_per_die();  // no sequential log is open
  REQUIRE(pattern.size() > std::size_t(random_logs) * upb + 1);
  std::uint64_t written = 0;
  while (ftl.hybrid()->stats().full_merges == 0 && written < pattern.size()) driver.write(pattern[written++]);
  CHECK(written == std::uint64_t(random_logs) * upb + 1);  // the pool was full: the next log evicted the oldest
  const HybridStats& s = ftl.hybrid()->stats();
  // The victim holds the first upb writes: that many units of min(upb, die0_lbns) logical blocks.
  CHECK(s.full_merges == std::min(upb, die0_lbns));
  // Each merge gathers a whole logical block, less the unit being written (it waits in the buffer).
  CHECK(s.merge_reads == s.full_merges * upb - 1);
  CHECK(ftl.check_invariants().empty());
}

TEST_CASE("bast merges more often than fast on random writes", "[hybrid][merge]") {
  std::uint64_t merges[2] = {0, 0}, copies[2] = {0, 0};
  for (const HybridScheme scheme : {HybridScheme::kFast, HybridScheme::kBast}) {
    Ftl ftl(hybrid_drive(scheme, 0, true, 64));
    FtlDriver driver(ftl);
    for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) driver.write(lpn);
    const HybridStats start = ftl.hybrid()->stats();
    Rng rng(3);
    for (int i = 0; i < 200'000; ++i) driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    const int k = scheme == HybridScheme::kBast;
    merges[k] = ftl.hybrid()->stats().full_merges - start.full_merges;
    copies[k] = ftl.hybrid()->stats().merge_reads - start.merge_reads;
    CHECK(ftl.check_invariants().empty());
  }
  CAPTURE(merges[0], merges[1], copies[0], copies[1]);
  CHECK(merges[1] > merges[0]);
  CHECK(copies[1] > copies[0]);
}

TEST_CASE("hybrid mapping memory is the block map and the log-page maps", "[hybrid][memory]") {
  const DriveConfig page_config = small_drive();
  const Ftl page(page_config);
  CHECK(page.map_bytes() == 4 * std::uint64_t(page.user_units()));
  for (const HybridScheme scheme : {HybridScheme::kFast, HybridScheme::kBast}) {
    const Ftl ftl(hybrid_drive(scheme, 8));
    const Geometry& g = ftl.geometry();
    const std::uint64_t per_die = (ftl.user_units() + g.dies - 1) / g.dies;  // units are striped over the dies
    const std::uint64_t lbns = (per_die + g.units_per_block - 1) / g.units_per_block * g.dies;
    const std::uint64_t per_page = scheme == HybridScheme::kFast ? 4 : 2;
    CHECK(ftl.hybrid()->logs_per_die() == 2);
    CHECK(ftl.map_bytes() == 4 * lbns + 8 * (8 + per_page * g.units_per_block));
  }
  // The Vertex's geometry: the page map is 29 MB, a hybrid map with 512 logs well under 1 MB.
  const DriveConfig vertex = load_drive_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/vertex-30g.yaml",
                                               {"controller.ftl=hybrid", "controller.hybrid.log_blocks=512"});
  CHECK(Ftl(vertex).map_bytes() < 1'000'000);
  CHECK(Ftl(vertex).map_bytes() * 50 < 4 * std::uint64_t(vertex.controller.user_bytes / 4096));
}

TEST_CASE("hybrid config errors name the key and what would fit", "[hybrid][config]") {
  const std::string vertex = std::string(SSDLAB_SOURCE_DIR) + "/configs/vertex-30g.yaml";
  try {
    load_drive_config(vertex, {"controller.ftl=hybrid", "controller.hybrid.log_blocks=100000"});
    FAIL("no error");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("controller.hybrid.log_blocks") != std::string::npos);
    CHECK(what.find("use 64..") != std::string::npos);  // 2 per die for fast, 32 dies
  }
  try {
    load_drive_config(vertex,
                      {"controller.ftl=hybrid", "controller.hybrid.scheme=fast", "controller.hybrid.log_blocks=32"});
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("at least 2 log blocks per die") != std::string::npos);
  }
  CHECK_THROWS_WITH(load_drive_config(vertex, {"controller.ftl=hybrid", "controller.mapping_unit=2KiB"}),
                    Catch::Contains("controller.ftl") && Catch::Contains("must equal nand.page_size"));
  CHECK_NOTHROW(load_drive_config(
      vertex, {"controller.ftl=hybrid", "controller.hybrid.scheme=bast", "controller.hybrid.log_blocks=32"}));
}
