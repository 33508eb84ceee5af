// Striped GC relocation (controller.gc.relocation: striped): GC pages of a victim's valid units go
// to the dies of a round-robin cursor. The FTL's invariants under millions of random overwrites
// with TRIM, the floor that keeps other dies' copies from their reserve, progress on the least
// spare the config allows, drive images, the config's refusal with a hybrid FTL, and the gate that
// holds a relocated program until its reads are done (controller/sched/relocation_gate.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "config_test_support.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/ftl_image.h"
#include "controller/sched/relocation_gate.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::fill_sequentially;
using ssdlab::test::FtlDriver;
using ssdlab::test::image_of;
using ssdlab::test::small_drive;

namespace {

DriveConfig striped_drive(GcDestination destination, std::uint32_t page_bytes = 4096, double op = 0.15,
                          GcPolicyKind policy = GcPolicyKind::kGreedy) {
  DriveConfig c = small_drive(2, 2, 32, 32, page_bytes, op, policy);
  c.controller.gc.destination = destination;
  c.controller.gc.relocation = GcRelocation::kStriped;
  return c;
}

// One page of distinct random LPNs.
void random_page(const Ftl& ftl, Rng& rng, std::vector<Lpn>& page) {
  for (std::size_t k = 0; k < page.size(); ++k) {
    Lpn lpn;
    do {
      lpn = static_cast<Lpn>(rng.below(ftl.user_units()));
    } while (std::find(page.begin(), page.begin() + std::ptrdiff_t(k), lpn) != page.begin() + std::ptrdiff_t(k));
    page[k] = lpn;
  }
}

// The ops of one placement: each names its own die; a cross-die GC program names the victim's
// die and left its destination at or above the floor of free blocks. Returns the cross-die ones.
std::uint32_t check_ops(const Ftl& ftl, const OpList& ops) {
  std::uint32_t cross = 0;
  for (const NandOp& op : ops) {
    REQUIRE(ftl.geometry().die_of_block(op.block) == op.die);
    const std::int64_t source = relocation_source(op);
    if (source < 0) continue;
    REQUIRE(source != std::int64_t(op.die));
    REQUIRE(source < std::int64_t(ftl.geometry().dies));
    ++cross;
  }
  for (const NandOp& op : ops) {
    if (relocation_source(op) >= 0) REQUIRE(ftl.free_blocks(op.die) >= ftl.foreign_copy_floor());
  }
  return cross;
}

}  // namespace

TEST_CASE("striped GC relocation keeps every invariant over millions of random overwrites with TRIM",
          "[ftl][gc][striped][invariants]") {
  const auto destination = GENERATE(GcDestination::kSeparate, GcDestination::kShared);
  const std::uint32_t page_bytes = GENERATE(4096u, 16384u);
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kDChoice);
  CAPTURE(to_string(destination), page_bytes, to_string(policy));
  Ftl ftl(striped_drive(destination, page_bytes, 0.15, policy));
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(42);
  const std::uint32_t upp = ftl.geometry().units_per_page;
  std::vector<Lpn> page(upp);
  std::uint64_t cross_programs = 0;
  const std::uint64_t writes = 2000000 / upp;  // two million unit overwrites
  for (std::uint64_t i = 0; i < writes; ++i) {
    random_page(ftl, rng, page);
    driver.write_page(page.data(), upp);
    cross_programs += check_ops(ftl, driver.ops());
    if (i % 5 == 0) ftl.trim(static_cast<Lpn>(rng.below(ftl.user_units())));
    if (i % 100000 == 0) REQUIRE(ftl.check_invariants().empty());
  }
  REQUIRE(ftl.check_invariants().empty());
  const FtlStats& s = ftl.stats();
  CHECK(s.gc_erases > 0);
  CHECK(cross_programs > 0);
  // Thresholds 2 / 3 on about 5 spare blocks a die: in this steady state of foreground GC the
  // dies sit near the floor (2), so most pages stay on their victim's die (the next test has room).
  CHECK(ftl.relocation().cross_die_units > 0);
  CHECK(ftl.relocation().own_die_fallbacks > 0);
  CHECK(ftl.relocation().cross_die_units <= s.gc_units_copied);
  std::uint64_t mapped = 0, valid = 0;
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) mapped += ftl.lookup(lpn) != kUnmapped;
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) valid += ftl.valid_units(b);
  CHECK(valid == mapped);
}

TEST_CASE("with free blocks to spare the cursor spreads a victim's pages over every die", "[ftl][gc][striped]") {
  // Half the drive written, then half of that overwritten: every die has blocks holding invalid
  // data and plenty of free blocks. Idle-time GC of die 0 alone: its GC pages go to the dies in
  // turn, three in four to another die.
  Ftl ftl(striped_drive(GcDestination::kSeparate));
  FtlDriver driver(ftl);
  const std::uint32_t half = ftl.user_units() / 2;
  for (Lpn lpn = 0; lpn < half; ++lpn) driver.write(lpn);
  for (Lpn lpn = 0; lpn < half; lpn += 2) driver.write(lpn);
  const std::uint32_t dies = ftl.geometry().dies;
  std::vector<std::uint64_t> pages_to(dies, 0);
  OpList ops;
  std::uint32_t steps = 0;
  for (; steps < 100000; ++steps) {
    ops.clear();
    if (!ftl.background_collect(0, ftl.geometry().blocks_per_die, 4, ops)) break;
    for (const NandOp& op : ops) {
      if (op.kind != NandOpKind::kProgram) continue;
      REQUIRE((op.die == 0) == (relocation_source(op) < 0));
      ++pages_to[op.die];
    }
  }
  REQUIRE(steps < 100000);  // it ends: nothing more worth collecting on die 0
  REQUIRE(ftl.check_invariants().empty());
  const std::uint64_t copied = ftl.stats().gc_units_copied;
  CAPTURE(copied, ftl.relocation().cross_die_units, ftl.relocation().own_die_fallbacks);
  REQUIRE(copied > 0);
  CHECK(ftl.relocation().own_die_fallbacks == 0);
  for (std::uint32_t d = 0; d < dies; ++d) {
    CAPTURE(d);
    CHECK(pages_to[d] + 1 >= pages_to[0]);  // round robin: each die within one page of the others
    CHECK(pages_to[d] <= pages_to[0] + 1);
  }
  CHECK(ftl.relocation().cross_die_units == copied - pages_to[0]);
}

TEST_CASE("in_die relocation never writes a copy to another die and keeps its counters at zero", "[ftl][gc][striped]") {
  DriveConfig config = striped_drive(GcDestination::kSeparate);
  config.controller.gc.relocation = GcRelocation::kInDie;
  Ftl ftl(config);
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(5);
  for (int i = 0; i < 50000; ++i) {
    driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    for (const NandOp& op : driver.ops()) REQUIRE(relocation_source(op) < 0);
  }
  CHECK(ftl.stats().gc_units_copied > 0);
  CHECK(ftl.relocation().cross_die_units == 0);
  CHECK(ftl.relocation().own_die_fallbacks == 0);
}

TEST_CASE("striped GC progresses on the least spare area the config allows", "[ftl][gc][striped]") {
  // The loader asks for free_blocks_high + 2 spare blocks per die: exactly that, the drive's
  // minimum (0 % OP is refused: the GC would have nowhere to write).
  const auto destination = GENERATE(GcDestination::kSeparate, GcDestination::kShared);
  CAPTURE(to_string(destination));
  DriveConfig config = striped_drive(destination);
  const std::uint64_t blocks = config.nand.blocks(), per_die = config.controller.gc.free_blocks_high + 2;
  const std::uint64_t block_bytes = std::uint64_t(config.nand.pages_per_block) * config.nand.page_size_bytes;
  config.controller.user_bytes = (blocks - per_die * config.nand.dies()) * block_bytes;
  config.controller.op = 1.0 - double(config.controller.user_bytes) / double(config.nand.raw_bytes());
  Ftl ftl(config);
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(11);
  for (std::uint64_t i = 0; i < 8 * std::uint64_t(ftl.user_units()); ++i) {
    driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));  // throws if no die could take it
    check_ops(ftl, driver.ops());
    if (i % 20000 == 0) REQUIRE(ftl.check_invariants().empty());
  }
  REQUIRE(ftl.check_invariants().empty());
  const FtlStats& s = ftl.stats();
  CHECK(s.host_units_programmed == s.host_units_written);
  CHECK(ftl.relocation().cross_die_units > 0);
  CHECK(ftl.relocation().own_die_fallbacks > 0);  // the floor was reached and respected
  // WAF on almost no spare is high but finite: GC really freed space, victim after victim.
  CHECK(s.gc_erases > ftl.geometry().blocks);
}

TEST_CASE("a striped drive's image resumes bit-identically and keeps the cursor", "[ftl][gc][striped][image]") {
  const DriveConfig config = striped_drive(GcDestination::kSeparate, 16384);
  Ftl a(config);
  FtlDriver da(a);
  fill_sequentially(a, da);
  Rng rng(9);
  std::vector<Lpn> page(a.geometry().units_per_page);
  for (int i = 0; i < 30001; ++i) {
    random_page(a, rng, page);
    da.write_page(page.data(), std::uint32_t(page.size()));
  }
  REQUIRE(a.relocation().cursor != 0);
  std::istringstream in(image_of(a));
  Ftl b(config);
  b.load(in);
  CHECK(b.relocation().cursor == a.relocation().cursor);
  CHECK(b.relocation().cross_die_units == a.relocation().cross_die_units);
  // The same writes from here on, each placed from die 0 on (fresh writers), give the same
  // state: the same cursor, the same ops.
  FtlDriver wa(a), wb(b);
  Rng ra(17), rb(17);
  for (int i = 0; i < 20000; ++i) {
    random_page(a, ra, page);
    wa.write_page(page.data(), std::uint32_t(page.size()));
    random_page(b, rb, page);
    wb.write_page(page.data(), std::uint32_t(page.size()));
    REQUIRE(wa.ops().size() == wb.ops().size());
    for (std::size_t k = 0; k < wa.ops().size(); ++k) {
      REQUIRE(wa.ops()[k].die == wb.ops()[k].die);
      REQUIRE(wa.ops()[k].block == wb.ops()[k].block);
      REQUIRE(wa.ops()[k].cookie == wb.ops()[k].cookie);
    }
  }
  CHECK(image_of(a) == image_of(b));
}

TEST_CASE("an image made with one relocation is refused by a drive with the other", "[ftl][gc][striped][image]") {
  DriveConfig in_die = striped_drive(GcDestination::kSeparate);
  in_die.controller.gc.relocation = GcRelocation::kInDie;
  const DriveConfig striped = striped_drive(GcDestination::kSeparate);
  Ftl a(in_die), b(striped);
  FtlDriver da(a), db(b);
  fill_sequentially(a, da);
  fill_sequentially(b, db);
  const std::string image_in_die = image_of(a), image_striped = image_of(b);
  CHECK(image_striped.size() > image_in_die.size());
  std::istringstream in1(image_in_die);
  CHECK_THROWS_WITH(b.load(in1), Catch::Contains("striped GC relocation"));
  std::istringstream in2(image_striped);
  CHECK_THROWS_AS(a.load(in2), ImageFormatError);
  CHECK(a.check_invariants().empty());
  CHECK(b.check_invariants().empty());
}

TEST_CASE("the config refuses striped relocation with a hybrid FTL and names the key", "[config][striped]") {
  using config_test::error_of;
  using config_test::kBase;
  const std::string striped = kBase + "  gc: {relocation: striped}\n";
  CHECK(error_of(striped) == "(no error)");
  CHECK(config_test::parse(striped).controller.gc.relocation == GcRelocation::kStriped);
  CHECK(config_test::parse(kBase).controller.gc.relocation == GcRelocation::kInDie);
  CHECK_THAT(error_of(striped + "  ftl: hybrid\n"),
             Catch::Contains("controller.gc.relocation") && Catch::Contains("hybrid"));
  CHECK_THAT(error_of(kBase + "  gc: {relocation: across}\n"), Catch::Contains("relocation"));
}

// ---- the gate: a relocated program waits for its source die's GC reads -------------------

namespace {
NandOp op_of(NandOpKind kind, OpOrigin origin, std::uint32_t die, std::uint32_t cookie = 0) {
  NandOp op;
  op.kind = kind;
  op.origin = origin;
  op.die = die;
  op.cookie = cookie;
  return op;
}
NandOp gc_read(std::uint32_t die) { return op_of(NandOpKind::kRead, OpOrigin::kGc, die); }
NandOp moved_program(std::uint32_t from, std::uint32_t to) {
  return op_of(NandOpKind::kProgram, OpOrigin::kGc, to, relocation_cookie(from));
}
}  // namespace

TEST_CASE("the relocation gate holds a program until the GC reads submitted before it on its source die are done",
          "[gate][striped]") {
  RelocationGate gate(4, true);
  std::vector<NandOp> released;
  const auto release = [&](const NandOp& op, bool) { released.push_back(op); };
  // Die 1 reads twice, then a program of those units goes to die 3 and one to die 2.
  CHECK_FALSE(gate.hold(gc_read(1), false));
  CHECK_FALSE(gate.hold(gc_read(1), false));
  CHECK(gate.hold(moved_program(1, 3), false));
  CHECK_FALSE(gate.hold(gc_read(1), false));  // a later read: the next program waits for it too
  CHECK(gate.hold(moved_program(1, 2), false));
  // Other ops pass: host ops, own-die GC programs, erases, another source's reads.
  CHECK_FALSE(gate.hold(op_of(NandOpKind::kProgram, OpOrigin::kHost, 1, 7), false));
  CHECK_FALSE(gate.hold(op_of(NandOpKind::kProgram, OpOrigin::kGc, 1), false));
  CHECK_FALSE(gate.hold(op_of(NandOpKind::kErase, OpOrigin::kGc, 1), false));
  CHECK(gate.held() == 2);
  gate.completed(op_of(NandOpKind::kRead, OpOrigin::kHost, 1, 3), release);  // a host read frees nothing
  gate.completed(gc_read(0), release);
  gate.completed(gc_read(1), release);
  CHECK(released.empty());
  gate.completed(gc_read(1), release);
  REQUIRE(released.size() == 1);
  CHECK(released[0].die == 3);
  gate.completed(gc_read(1), release);
  REQUIRE(released.size() == 2);
  CHECK(released[1].die == 2);
  CHECK(gate.held() == 0);
  // All reads done: a program whose units were read already goes at once.
  CHECK_FALSE(gate.hold(moved_program(1, 0), false));
}

TEST_CASE("the relocation gate keeps sources apart and hands back the background flag", "[gate][striped]") {
  RelocationGate gate(3, true);
  std::vector<std::pair<std::uint32_t, bool>> released;
  const auto release = [&](const NandOp& op, bool background) { released.push_back({op.die, background}); };
  CHECK_FALSE(gate.hold(gc_read(0), true));
  CHECK_FALSE(gate.hold(gc_read(2), false));
  CHECK(gate.hold(moved_program(0, 1), true));
  CHECK(gate.hold(moved_program(2, 0), false));
  gate.completed(gc_read(2), release);
  REQUIRE(released.size() == 1);
  CHECK(released[0] == std::make_pair(0u, false));
  gate.completed(gc_read(0), release);
  REQUIRE(released.size() == 2);
  CHECK(released[1] == std::make_pair(1u, true));
  // Off (in_die): nothing is held, nothing counted.
  RelocationGate off(3, false);
  CHECK_FALSE(off.on());
}
