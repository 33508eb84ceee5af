// The USB 2.0 bridge (host.link: usb2, host/usb/usb_bridge.h, docs/usb.md): bulk-only commands one
// at a time, each phase timed as its transactions in 125/13 us slots, the host's turnaround
// between phases, the SATA hop behind the bridge non-queued.
#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "host/sata/sata_wire.h"
#include "host/usb/usb_wire.h"
#include "precondition_support.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// n transactions of 125/13 us each, rounded up to the picosecond once per transfer.
Picos slots(std::uint64_t n) { return (n * 125000000 + 12) / 13; }

struct Commands : Probe {
  std::vector<IoRequest> done;
  std::vector<std::pair<Picos, Picos>> to_host;  // data FISes to the host on the SATA wire
  std::vector<Fis> fises;
  void command_done(const IoRequest& r) override { done.push_back(r); }
  void fis(const Fis& f, Picos start, Picos end) override {
    fises.push_back(f);
    if (f.kind == FisKind::kDataToHost) to_host.emplace_back(start, end);
  }
};

PhaseSpec sized(const char* name, RwMode rw, std::uint64_t bs, std::uint64_t commands) {
  PhaseSpec p = job_phase(name, rw, bs, 1, percent(100));
  p.job.io_size = bytes(commands * bs);
  p.job.io_size_set = true;
  return p;
}

}  // namespace

TEST_CASE("USB bridge: the wire's transactions and slots are the USB 2.0 high-speed bulk figures", "[timing][usb]") {
  CHECK(UsbWire::transactions(31) == 1);  // a CBW
  CHECK(UsbWire::transactions(13) == 1);  // a CSW
  CHECK(UsbWire::transactions(0) == 1);   // a zero-length packet
  CHECK(UsbWire::transactions(512) == 1);
  CHECK(UsbWire::transactions(513) == 2);
  CHECK(UsbWire::transactions(65536) == 128);
  CHECK(UsbWire::picos_for(13) == 125000000);  // 13 packets a microframe
  CHECK(UsbWire::picos_for(1) == 9615385);     // 125/13 us, rounded up
  CHECK(UsbWire::max_bytes_per_s() == Approx(53248000.0));
  const Picos t = 125000000;
  CHECK(UsbWire::command_ps(65536, t) == slots(1) + t + slots(128) + t + slots(1) + t);
  CHECK(UsbWire::command_ps(0, t) == slots(1) + t + slots(1) + t);
}

TEST_CASE(
    "USB bridge: 64 KiB writes and reads at QD1 each take the hand-counted bulk-only command when the drive keeps up",
    "[timing][usb]") {
  // Eight dies, 4 KiB pages at 100 MB/s on two channels: a page's data reaches the bridge well
  // within the host's 125 us turnaround, and the drive sends its pages faster than USB takes them.
  const DriveConfig config = drive_from_yaml(drive_yaml("2", "4", "32", "50us", "100MB/s", "3Gbps") + "  link: usb2\n");
  REQUIRE(config.host.link == HostLink::kUsb2);
  const Picos t = config.host.usb_turnaround_ps;
  REQUIRE(t == 125000000);
  Commands log;
  ScenarioRunner runner(
      "usb_qd1",
      scenario({erase_phase(), sized("write", RwMode::kWrite, 65536, 16), sized("read", RwMode::kRead, 65536, 16)}),
      config);
  runner.ssd.add_probe(log);
  run_to_end({&runner});
  REQUIRE(log.done.size() == 32);
  // A write: CBW, turnaround, the 64 KiB as one OUT transfer of 128 packets, turnaround, CSW
  // (the drive had the data in its buffer by then), turnaround.
  const Picos write = slots(1) + t + slots(128) + t + slots(1) + t;
  // A read: its data goes on the bus page by page as the drive sends it (16 IN transfers of 8
  // packets, back to back: the first page was at the bridge before the turnaround ended).
  const Picos read = slots(1) + t + 16 * slots(8) + t + slots(1) + t;
  Picos prev_end = 0;
  for (const IoRequest& r : log.done) {
    INFO((r.command == AtaCommand::kWriteFpdma ? "write" : "read") << " at " << r.issued_ps);
    CHECK(r.completed_ps - r.issued_ps == (r.command == AtaCommand::kWriteFpdma ? write : read));
    CHECK(r.issued_ps >= prev_end);  // one command at a time
    prev_end = r.completed_ps;
    CHECK(r.anatomy.total() == r.completed_ps - r.issued_ps);
    CHECK(r.anatomy[Part::kHostAdapter] == 0);  // no AHCI adapter
    CHECK(r.anatomy[Part::kUsb] >= slots(1) + 2 * t + slots(1));
  }
  // The SATA hop carried non-queued commands: no DMA Setup, Register FIS completions.
  const SataWire wire(config.host.sata_line_bps, config.host.link_round_trip_dwords);
  const std::uint64_t per_command = wire.dwords(Fis{FisKind::kCommand}) +
                                    wire.dwords(Fis{FisKind::kSetDeviceBits, 0, AtaCommand::kDataSetManagement});
  const std::uint64_t writes = 16 * (per_command + 8 * (wire.frame_dwords(1) + 2048 + wire.frame_dwords(1)));
  const std::uint64_t reads = 16 * (per_command + 16 * (wire.frame_dwords(1) + 1024));
  CHECK(runner.ssd.link.stats().wire_dwords == writes + reads);
  REQUIRE(runner.ssd.usb);
  CHECK(runner.ssd.usb->stats().commands == 32);
  CHECK(runner.ssd.usb->stats().transactions == 16 * (1 + 128 + 1) + 16 * (1 + 16 * 8 + 1));
  const IoStats& io = runner.results().back().io;
  CHECK(io.read_bytes == 16 * 65536);
}

TEST_CASE("USB bridge: a read's data waits on the bus for the drive's first frame when the drive is slower",
          "[timing][usb]") {
  // One die of 16 KiB pages, tR 400 us: a page reaches the bridge long after the turnaround, in
  // two 8 KiB Data FISes; its 32 packets go once the first of them has crossed (the bridge
  // forwards a frame at a time, not the whole transfer).
  std::string yaml = drive_yaml("1", "1", "32", "400us", "100MB/s", "3Gbps") + "  link: usb2\n";
  yaml.replace(yaml.find("page_size: 4KiB"), 15, "page_size: 16KiB");
  const DriveConfig config = drive_from_yaml(yaml);
  REQUIRE(config.nand.page_size_bytes == 16384);
  const Picos t = config.host.usb_turnaround_ps;
  Commands log;
  ScenarioRunner runner(
      "usb_slow", scenario({erase_phase(), fast_precondition(100, 0, 1), sized("read", RwMode::kRandRead, 16384, 20)}),
      config);
  runner.ssd.add_probe(log);
  run_to_end({&runner});
  REQUIRE(log.done.size() == 20);
  REQUIRE(log.to_host.size() == 20);
  const SataWire wire(config.host.sata_line_bps, config.host.link_round_trip_dwords);
  const Picos frame = wire.picos(wire.frame_dwords(1) + 2048);  // an 8 KiB Data FIS
  for (std::size_t i = 0; i < log.done.size(); ++i) {
    const IoRequest& r = log.done[i];
    const auto [start, end] = log.to_host[i];
    CHECK(end - start == wire.picos(2 * (wire.frame_dwords(1) + 2048)));  // two frames, no DMA Setup
    const Picos cbw_end = r.issued_ps + slots(1);
    REQUIRE(start + frame > cbw_end + t);  // the drive is the slower
    const Picos data_end = start + frame + slots(32);
    CHECK(r.completed_ps == data_end + t + slots(1) + t);
    CHECK(r.anatomy.total() == r.completed_ps - r.issued_ps);
    CHECK(r.anatomy[Part::kArray] == 400000000);
  }
}
