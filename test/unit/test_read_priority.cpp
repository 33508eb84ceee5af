// The flash scheduler's hold rules (controller.scheduler.read_priority,
// gc.background.preemptible): which ops a host read overtakes at a die, that a die's programs
// and erases keep their order, that held work is not starved, and that with the rules off
// nothing is held.
#include <catch2/catch.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "base/config/config_loader.h"
#include "controller/sched/flash_scheduler.h"

using namespace ssdlab;

namespace {

// One die as the controller drives it (DeviceController::submit_ops and flash_done): ops the
// scheduler admits join the die's FIFO; when the op in progress completes, the scheduler may
// release a held op to the die. Each op is named by its cookie; `executed` is the die's order.
struct OneDie {
  FlashScheduler sched;
  std::deque<NandOp> die;  // front: in progress
  std::vector<std::uint32_t> executed;

  explicit OneDie(FlashScheduler::HoldRules rules) : sched(1, rules) {}
  void submit(NandOpKind kind, OpOrigin origin, std::uint32_t name, bool background = false) {
    NandOp op;
    op.kind = kind;
    op.origin = origin;
    op.cookie = name;
    sched.submitted(0);
    if (!sched.holds() || sched.admit(op, background)) die.push_back(op);
  }
  void complete_one() {
    REQUIRE_FALSE(die.empty());
    executed.push_back(die.front().cookie);
    die.pop_front();
    sched.completed(0);
    NandOp next;
    if (sched.holds() && sched.release(0, next)) die.push_back(next);
  }
  void run_all() {
    while (!die.empty()) complete_one();
  }
};

FlashScheduler::HoldRules rules(bool background, ReadPriority priority) {
  FlashScheduler::HoldRules r;
  r.background = background;
  r.priority = priority;
  return r;
}

// A GC step: a copy read, its program and the victim's erase (names 1, 2, 3), then a host read (9).
void gc_step_then_read(OneDie& d, bool background) {
  d.submit(NandOpKind::kRead, OpOrigin::kGc, 1, background);
  d.submit(NandOpKind::kProgram, OpOrigin::kGc, 2, background);
  d.submit(NandOpKind::kErase, OpOrigin::kGc, 3, background);
  d.submit(NandOpKind::kRead, OpOrigin::kHost, 9);
}

}  // namespace

TEST_CASE("with the hold rules off every op goes to its die in submission order", "[sched][priority]") {
  OneDie d(rules(false, ReadPriority::kOff));
  CHECK_FALSE(d.sched.holds());
  gc_step_then_read(d, true);
  CHECK(d.die.size() == 4);
  d.run_all();
  CHECK(d.executed == std::vector<std::uint32_t>{1, 2, 3, 9});
  CHECK(d.sched.outstanding() == 0);
}

TEST_CASE("a host read overtakes queued GC work with read priority over GC", "[sched][priority]") {
  OneDie d(rules(false, ReadPriority::kOverGc));
  gc_step_then_read(d, false);
  // The copy read went to the idle die; the program and the erase are held; the read is queued
  // behind the copy read only (it is never interrupted).
  CHECK(d.die.size() == 2);
  CHECK(d.sched.held(0) == 2);
  CHECK(d.sched.queued(0) == 4);
  d.run_all();
  CHECK(d.executed == std::vector<std::uint32_t>{1, 9, 2, 3});
  CHECK(d.sched.held(0) == 0);
  CHECK(d.sched.outstanding() == 0);
}

TEST_CASE("preemptible background GC yields to host reads and foreground GC does not", "[sched][priority]") {
  SECTION("background") {
    OneDie d(rules(true, ReadPriority::kOff));
    gc_step_then_read(d, true);
    d.run_all();
    CHECK(d.executed == std::vector<std::uint32_t>{1, 9, 2, 3});
  }
  SECTION("foreground GC keeps its place") {
    OneDie d(rules(true, ReadPriority::kOff));
    gc_step_then_read(d, false);
    d.run_all();
    CHECK(d.executed == std::vector<std::uint32_t>{1, 2, 3, 9});
  }
}

TEST_CASE("host programs keep their place behind held GC work unless read priority is over all", "[sched][priority]") {
  SECTION("over_gc: a program after held GC work is held too") {
    OneDie d(rules(false, ReadPriority::kOverGc));
    d.submit(NandOpKind::kRead, OpOrigin::kGc, 1);
    d.submit(NandOpKind::kErase, OpOrigin::kGc, 2);
    d.submit(NandOpKind::kProgram, OpOrigin::kHost, 3);  // may be the erased block's first page
    d.submit(NandOpKind::kRead, OpOrigin::kHost, 9);
    d.run_all();
    CHECK(d.executed == std::vector<std::uint32_t>{1, 9, 2, 3});
  }
  SECTION("over_gc: a program queued at a busy die before any GC work is not held") {
    OneDie d(rules(false, ReadPriority::kOverGc));
    d.submit(NandOpKind::kProgram, OpOrigin::kHost, 1);
    d.submit(NandOpKind::kProgram, OpOrigin::kHost, 2);
    d.submit(NandOpKind::kRead, OpOrigin::kHost, 9);
    CHECK(d.sched.held(0) == 0);
    d.run_all();
    CHECK(d.executed == std::vector<std::uint32_t>{1, 2, 9});
  }
  SECTION("over_all: the read overtakes the queued program") {
    OneDie d(rules(false, ReadPriority::kOverAll));
    d.submit(NandOpKind::kProgram, OpOrigin::kHost, 1);
    d.submit(NandOpKind::kProgram, OpOrigin::kHost, 2);
    d.submit(NandOpKind::kRead, OpOrigin::kMap, 8);  // a translation-page read
    d.submit(NandOpKind::kRead, OpOrigin::kHost, 9);
    d.run_all();
    CHECK(d.executed == std::vector<std::uint32_t>{1, 8, 9, 2});
  }
}

TEST_CASE("held work is overtaken by a bounded number of reads and is never starved", "[sched][priority]") {
  OneDie d(rules(false, ReadPriority::kOverGc));
  d.submit(NandOpKind::kRead, OpOrigin::kGc, 1);     // on the die
  d.submit(NandOpKind::kProgram, OpOrigin::kGc, 2);  // held
  const std::uint32_t reads = FlashScheduler::kMaxOvertakes + 3;
  for (std::uint32_t i = 0; i < reads; ++i) d.submit(NandOpKind::kRead, OpOrigin::kHost, 100 + i);
  // The first kMaxOvertakes reads went ahead; the rest queue behind the held program.
  CHECK(d.sched.held(0) == 1 + reads - FlashScheduler::kMaxOvertakes);
  d.run_all();
  REQUIRE(d.executed.size() == 2 + reads);
  CHECK(d.executed[0] == 1);
  CHECK(d.executed[1 + FlashScheduler::kMaxOvertakes] == 2);  // after exactly the bounded overtakes
  for (std::uint32_t i = 0; i < reads; ++i) {
    const std::size_t at = i < FlashScheduler::kMaxOvertakes ? 1 + i : 2 + i;
    CHECK(d.executed[at] == 100 + i);  // reads keep their own order
  }
  CHECK(d.sched.outstanding() == 0);
}

TEST_CASE("an idle die takes holdable work at once", "[sched][priority]") {
  OneDie d(rules(true, ReadPriority::kOverAll));
  d.submit(NandOpKind::kErase, OpOrigin::kGc, 1, true);
  CHECK(d.die.size() == 1);
  CHECK(d.sched.held(0) == 0);
  d.complete_one();
  d.submit(NandOpKind::kProgram, OpOrigin::kHost, 2);
  CHECK(d.die.size() == 1);
  d.run_all();
  CHECK(d.executed == std::vector<std::uint32_t>{1, 2});
}

namespace {
const std::string kDrive =
    "name: t\n"
    "nand: {channels: 1, dies_per_channel: 2, blocks_per_plane: 64, pages_per_block: 64, page_size: 4KiB,\n"
    "       cell: MLC, t_read: 50us, t_prog: {lsb: 250us, msb: 900us}, t_erase: 2ms, bus_rate: 100MB/s}\n"
    "controller:\n"
    "  write_buffer: 1MiB\n"
    "  op: 0.25\n";
}  // namespace

TEST_CASE("the hold-rule keys default to today's order and name themselves in errors", "[sched][priority][config]") {
  const DriveConfig plain = parse_drive_config(kDrive, "t.yaml");
  CHECK_FALSE(plain.controller.gc.background_preemptible);
  CHECK(plain.controller.scheduler.read_priority == ReadPriority::kOff);
  CHECK_FALSE(FlashScheduler(2, SchedulerHoldRules::of(plain.controller)).holds());
  const DriveConfig set = parse_drive_config(
      kDrive + "  scheduler: {read_priority: over_all}\n  gc: {background: {preemptible: true}}\n", "t.yaml");
  CHECK(set.controller.gc.background_preemptible);
  CHECK(set.controller.scheduler.read_priority == ReadPriority::kOverAll);
  CHECK(std::string(to_string(set.controller.scheduler.read_priority)) == "over_all");
  CHECK(FlashScheduler(2, SchedulerHoldRules::of(set.controller)).holds());
  try {
    parse_drive_config(kDrive + "  scheduler: {read_priority: reads}\n", "t.yaml");
    FAIL("no error");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("t.yaml:7") != std::string::npos);
    CHECK(what.find("controller.scheduler.read_priority") != std::string::npos);
    CHECK(what.find("over_gc") != std::string::npos);
  }
}
