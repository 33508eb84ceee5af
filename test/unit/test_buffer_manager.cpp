// Write-buffer admission and flushing: room for a write (the spare unit, reservations), strict
// arrival order, flush staging of live slots, program records and when a page may go part full.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "controller/ftl/buffer_manager.h"
#include "controller/ftl/ftl.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// A drive with 4 mapping units per page, a 16-unit buffer and the controller's bookkeeping.
struct Rig {
  DriveConfig config = small_drive(2, 1, 32, 32, 16384);
  Ftl ftl{config};
  std::uint32_t upp = ftl.geometry().units_per_page;
  BufferManager buf{16, upp, CommandQueue::kMaxTags};
  CommandQueue commands;
  std::vector<std::uint32_t> dropped;

  // Command `tag` writes `lpns` into the buffer, as data_arrived does.
  void write(std::uint8_t tag, std::vector<Lpn> lpns, bool write_through = false) {
    Command& c = commands.open(tag);
    c.op = AtaCommand::kWriteFpdma;
    c.units = static_cast<std::uint32_t>(lpns.size());
    c.write_through = write_through;
    for (Lpn lpn : lpns) ftl.write_to_buffer(lpn, buf.accept(lpn, commands.owner(tag)));
  }
  auto drop() {
    return [this](std::uint32_t slot) {
      dropped.push_back(slot);
      buf.release(slot);
    };
  }
};

}  // namespace

TEST_CASE("room for a write leaves the spare unit to commands larger than the buffer", "[buffer]") {
  BufferManager buf(8, 4, 32);
  CHECK(buf.capacity() == 9);
  CHECK(buf.room_for(1) == 8);  // the configured size
  CHECK(buf.room_for(8) == 8);
  CHECK(buf.room_for(9) == 9);  // only a command of more units than configured gets the spare
  // Reservations count against every later write.
  CHECK_FALSE(buf.wait(1, 5));
  CHECK(buf.grant(5));
  CHECK(buf.reserved() == 5);
  CHECK(buf.room_for(4) == 3);
  buf.unreserve(5);
  CHECK(buf.room_for(4) == 8);
}

TEST_CASE("buffer grants go in strict arrival order", "[buffer]") {
  BufferManager buf(8, 4, 32);
  CHECK_FALSE(buf.wait(1, 6));
  CHECK(buf.grant(6));
  CHECK(buf.wait(2, 4));  // 2 slots left: has to wait
  CHECK(buf.wait(3, 1));  // would fit, but others wait before it
  CHECK(buf.first_waiter() == 2);
  CHECK_FALSE(buf.grant(4));  // the head does not fit: nobody is granted
  CHECK(buf.first_waiter() == 2);
  buf.unreserve(6);  // its data arrived and went to flash, say
  CHECK(buf.grant(4));
  CHECK(buf.first_waiter() == 3);
  CHECK(buf.grant(1));
  CHECK_FALSE(buf.waiting());
}

TEST_CASE("flush staging takes live slots and drops superseded ones", "[buffer]") {
  Rig r;
  r.write(1, {10, 11, 12});
  r.write(2, {11, 20, 21});  // 11 again: its first slot is superseded
  CHECK(r.buf.dirty() == 6);
  r.buf.gather(r.ftl, r.drop());
  CHECK(r.buf.staged() == r.upp);
  CHECK(r.dropped.size() == 1);
  CHECK(r.buf.lpn(r.dropped[0]) == 11);
  // Trimmed after staging: restage drops it and lists the rest.
  r.ftl.trim(12);
  const std::uint32_t kept = r.buf.restage(r.ftl, r.drop());
  CHECK(kept == r.upp - 1);
  CHECK(r.dropped.size() == 2);
  const std::vector<Lpn> lpns(r.buf.staged_lpns(), r.buf.staged_lpns() + kept);
  CHECK(lpns == std::vector<Lpn>{10, 11, 20});
}

TEST_CASE("a program record holds its slots until the program is done", "[buffer]") {
  Rig r;
  r.write(1, {0, 1, 2, 3});
  r.buf.gather(r.ftl, r.drop());
  const std::uint32_t kept = r.buf.restage(r.ftl, r.drop());
  const std::uint32_t record = r.buf.next_record();
  std::vector<std::uint32_t> slots;
  for (std::uint32_t i = 0; i < kept; ++i) slots.push_back(r.buf.staged_slot(i));
  r.buf.programmed();
  CHECK(r.buf.stage_empty());
  CHECK(r.buf.programs() == 1);
  CHECK_FALSE(r.buf.clean());
  CHECK(r.buf.next_record() != record);  // in use
  r.buf.program_done(record, r.drop());
  CHECK(r.dropped == slots);
  CHECK(r.buf.programs() == 0);
  CHECK(r.buf.clean());
  CHECK(r.buf.next_record() == record);
}

TEST_CASE("a page goes part full only when someone waits for it", "[buffer]") {
  Rig r;
  r.write(1, {0, 1});
  r.buf.gather(r.ftl, r.drop());
  REQUIRE(r.buf.staged() == 2);
  CHECK_FALSE(r.buf.partial_flush_allowed(false, r.commands));
  CHECK(r.buf.partial_flush_allowed(true, r.commands));  // write cache off, draining, FLUSH CACHE
  SECTION("a write-through command owns a staged slot") {
    Rig w;
    w.write(1, {0, 1}, true);
    w.buf.gather(w.ftl, w.drop());
    CHECK(w.buf.partial_flush_allowed(false, w.commands));
    // Once that command completed, its slots hold no one back.
    w.commands.close(1);
    CHECK_FALSE(w.buf.partial_flush_allowed(false, w.commands));
  }
  SECTION("a waiting write can get room from nothing else") {
    Command& big = r.commands.open(5);
    big.units = 16;
    CHECK(r.buf.wait(5, big.units));  // 15 slots free, the spare not its: room for 14
    CHECK(r.buf.partial_flush_allowed(false, r.commands));
  }
}
