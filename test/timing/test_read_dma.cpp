// Read data from DRAM through the controller's DMA (controller.read_dma_rate, docs/sata-link.md):
// a read of never-written LBAs, or of data read ahead, waits bytes / rate before the link takes
// it; data read from flash goes to the link as each page is read, as without the rate.
#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "host/sata/sata_wire.h"
#include "precondition_support.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

struct Run {
  DriveConfig config;
  ReadLog reads;
  std::unique_ptr<ScenarioRunner> runner;
  // QD1 sequential reads of `bs` bytes, `n` of them, on a clean drive or one filled first.
  Run(const char* name, const std::string& extra, std::uint32_t bs, std::uint32_t n, bool filled) {
    config = drive_from_yaml(drive_yaml("4", "4", "32", "50us", "200MB/s", "3Gbps", "0.25", extra));
    PhaseSpec p = job_phase("reads", RwMode::kRead, bs, 1, percent(100));
    p.job.io_size = bytes(std::uint64_t(n) * bs);
    p.job.io_size_set = true;
    std::vector<PhaseSpec> phases = {erase_phase()};
    if (filled) phases.push_back(fast_precondition(100, 0, 1));
    phases.push_back(p);
    runner = std::make_unique<ScenarioRunner>(name, scenario(phases), config);
    runner->ssd.add_probe(reads);
  }
};

// One queued read of `bytes` on the wire: command, data, completion.
Picos wire_ps(const DriveConfig& c, std::uint32_t bytes) {
  const SataWire wire(c.host.sata_line_bps, c.host.link_round_trip_dwords);
  return wire.time(Fis{FisKind::kCommand}) +
         wire.time(Fis{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, bytes / 512, bytes}) +
         wire.time(Fis{FisKind::kSetDeviceBits});
}

}  // namespace

TEST_CASE("Read DMA: never-written and read-ahead data wait bytes / rate before the link, flash data does not",
          "[timing][read_dma]") {
  const std::uint32_t n = 200;
  const std::string rate = "  read_dma_rate: 1GB/s\n";
  Run clean("dma_clean", rate, 128 * 1024, 50, false);
  Run clean_off("dma_clean_off", "", 128 * 1024, 50, false);
  Run mapped("dma_mapped", rate, 4096, n, true);
  Run mapped_off("dma_mapped_off", "", 4096, n, true);
  Run ahead("dma_ahead", rate + "  read_ahead: {depth: 256KiB, trigger: 2}\n", 4096, n, true);
  run_to_end(
      {clean.runner.get(), clean_off.runner.get(), mapped.runner.get(), mapped_off.runner.get(), ahead.runner.get()});
  const DriveConfig& c = clean.config;
  REQUIRE(c.controller.read_dma_bytes_per_s == 1000000000ull);
  const Picos host = c.host.ahci_command_ps + c.host.ahci_completion_ps + c.controller.firmware_cost_ps;
  // 1 GB/s: 1000 ps a byte, exactly.
  const Picos dma_128k = 128 * 1024 * 1000ull, dma_4k = 4096 * 1000ull;

  // Never-written LBAs: zeros from DRAM, each command adapter + firmware + DMA + wire, exactly.
  REQUIRE(clean.reads.done.size() == 50);
  REQUIRE(clean_off.reads.done.size() == 50);
  for (std::size_t i = 0; i < 50; ++i) {
    const IoRequest& r = clean.reads.done[i];
    INFO("command " << i);
    CHECK(r.completed_ps - r.issued_ps == host + dma_128k + wire_ps(c, 128 * 1024));
    CHECK(r.anatomy[Part::kReadDma] == dma_128k);
    CHECK(r.anatomy.total() == r.completed_ps - r.issued_ps);
    const IoRequest& o = clean_off.reads.done[i];
    CHECK(o.completed_ps - o.issued_ps == host + wire_ps(c, 128 * 1024));
    CHECK(o.anatomy[Part::kReadDma] == 0);
  }
  CHECK(clean.runner->ssd.controller.stats().read_units_unmapped == 50 * 32);

  // Data read from flash: the same latency with the rate as without, no DMA part.
  REQUIRE(mapped.reads.done.size() == n);
  REQUIRE(mapped_off.reads.done.size() == n);
  const Picos flash = c.nand.t_cmd_ps + c.nand.t_read_ps[0] + transfer_picos(4096, c.nand.bus_bytes_per_s * 8);
  for (std::size_t i = 0; i < n; ++i) {
    INFO("command " << i);
    CHECK(mapped.reads.done[i].completed_ps - mapped.reads.done[i].issued_ps == host + flash + wire_ps(c, 4096));
    CHECK(mapped_off.reads.done[i].completed_ps - mapped_off.reads.done[i].issued_ps ==
          host + flash + wire_ps(c, 4096));
    CHECK(mapped.reads.done[i].anatomy[Part::kReadDma] == 0);
  }
  CHECK(mapped.runner->ssd.controller.stats().read_units_from_nand == n);

  // Read ahead into DRAM: past the stream's start, each command adapter + firmware + DMA + wire.
  REQUIRE(ahead.reads.done.size() == n);
  for (std::size_t i = 64; i < n; ++i) {
    const IoRequest& r = ahead.reads.done[i];
    INFO("command " << i);
    CHECK(r.completed_ps - r.issued_ps == host + dma_4k + wire_ps(c, 4096));
    CHECK(r.anatomy[Part::kReadDma] == dma_4k);
    CHECK(r.anatomy.total() == r.completed_ps - r.issued_ps);
  }
}
