// The host interface layer: the NCQ command table and the firmware CPU's queue and cost model.
#include <catch2/catch.hpp>

#include "controller/hil/command_queue.h"
#include "controller/hil/firmware_cpu.h"

using namespace ssdlab;

TEST_CASE("command records get fresh serials and count commands in flight", "[hil]") {
  CommandQueue q;
  Command& a = q.open(3);
  a.units = 9;
  CHECK(a.active);
  Command& b = q.open(7);
  CHECK(b.serial > a.serial);
  CHECK(q.active() == 2);
  CHECK_FALSE(q.close(3));
  CHECK(q.close(7));
  CHECK(q.active() == 0);
  // A reopened tag starts from a clean record.
  Command& again = q.open(3);
  CHECK(again.units == 0);
  CHECK(again.serial > b.serial);
}

TEST_CASE("a slot owner names its command only while that command runs", "[hil]") {
  CommandQueue q;
  q.open(4);
  const SlotOwner first = q.owner(4);
  CHECK(q.running(first) == 4);
  q.close(4);
  CHECK(q.running(first) == -1);
  // The tag's next command does not inherit the old command's slots.
  q.open(4);
  CHECK(q.running(first) == -1);
  CHECK(q.running(q.owner(4)) == 4);
}

TEST_CASE("a command's mapping units cover its byte range", "[hil]") {
  Command c;
  c.lba = 7;  // byte 3584: inside unit 0 of 4096 bytes
  c.sectors = 2;
  c.map_units(4096);
  CHECK(c.first_lpn == 0);
  CHECK(c.units == 2);  // bytes 3584..4608 touch units 0 and 1
  c.lba = 8;
  c.sectors = 8;
  c.map_units(4096);
  CHECK(c.first_lpn == 1);
  CHECK(c.units == 1);
}

TEST_CASE("the firmware CPU runs commands one at a time in arrival order", "[hil]") {
  ControllerConfig ctl;
  FirmwareCpu cpu(ctl, 4);
  CHECK(cpu.arrive(2));
  CHECK(cpu.running() == 2);
  CHECK_FALSE(cpu.arrive(9));
  CHECK_FALSE(cpu.arrive(1));
  CHECK(cpu.next());
  CHECK(cpu.running() == 9);
  CHECK(cpu.next());
  CHECK(cpu.running() == 1);
  CHECK_FALSE(cpu.next());
  CHECK_FALSE(cpu.busy());
  CHECK(cpu.arrive(5));  // idle again: runs at once
}

TEST_CASE("firmware CPU work is booked back to back", "[hil]") {
  ControllerConfig ctl;
  ctl.firmware_cost_ps = 100;
  ctl.firmware_write_cost_ps = 30;
  ctl.firmware_gc_cost_ps = 7;
  FirmwareCpu cpu(ctl, 4);
  CHECK(cpu.cost(AtaCommand::kReadFpdma, 8, 1000) == ctl.firmware_cost_ps);
  // Booked at the same instant: starts when the first ends.
  CHECK(cpu.cost(AtaCommand::kWriteFpdma, 8, 1000) == 2 * ctl.firmware_cost_ps + ctl.firmware_write_cost_ps);
  // Long after: starts at once.
  CHECK(cpu.cost(AtaCommand::kFlushCache, 0, 10000) == ctl.firmware_cost_ps);
  // GC bookkeeping pushes the next command back.
  const Picos free_at = cpu.free_at();
  cpu.charge_gc(0, free_at);
  CHECK(cpu.free_at() == free_at);
  cpu.charge_gc(3, free_at - 50);
  CHECK(cpu.free_at() == free_at + 3 * ctl.firmware_gc_cost_ps);
  cpu.charge_gc(2, cpu.free_at() + 1000);  // an idle CPU starts the work now
  CHECK(cpu.free_at() == free_at + 3 * ctl.firmware_gc_cost_ps + 1000 + 2 * ctl.firmware_gc_cost_ps);
}

TEST_CASE("firmware CPU: a write costs more per mapping unit its data fills", "[hil]") {
  ControllerConfig ctl;
  ctl.firmware_cost_ps = 100;
  ctl.firmware_write_cost_ps = 30;
  ctl.firmware_write_unit_cost_ps = 11;
  ctl.mapping_unit_bytes = 4096;
  FirmwareCpu cpu(ctl, 4);
  Picos now = 0;
  const auto alone = [&](AtaCommand op, std::uint32_t sectors) {
    now = cpu.free_at() + 1000;  // the CPU idle: the delay is the work
    return cpu.cost(op, sectors, now);
  };
  CHECK(alone(AtaCommand::kWriteFpdma, 8) == 100 + 30 + 11);         // one 4 KiB unit
  CHECK(alone(AtaCommand::kWriteFpdma, 256) == 100 + 30 + 32 * 11);  // 128 KiB: 32 units
  CHECK(alone(AtaCommand::kWriteFpdma, 1) == 100 + 30 + 11);         // part of a unit fills one
  CHECK(alone(AtaCommand::kWriteFpdma, 9) == 100 + 30 + 2 * 11);
  CHECK(alone(AtaCommand::kReadFpdma, 256) == 100);  // reads and the rest: per command only
  CHECK(alone(AtaCommand::kDataSetManagement, 256) == 100);
}
