// Sequential read-ahead (controller.read_ahead, docs/read-ahead.md): a QD1 stream of reads on
// mapped data runs at the link's and firmware's pace with it, at tR + bus + link per command
// without it.
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
  CommandLog reads;
  std::unique_ptr<ScenarioRunner> runner;
  // `slow`: 4 dies on 2 buses of 100 MB/s, which read ahead slower than the link takes the data;
  // else 16 dies on 4 buses of 200 MB/s, which read ahead faster.
  Run(const char* name, const std::string& extra, RwMode rw, std::uint32_t n, bool slow = false) {
    config = slow ? drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps", "0.25", extra))
                  : drive_from_yaml(drive_yaml("4", "4", "32", "50us", "200MB/s", "3Gbps", "0.25", extra));
    PhaseSpec p = job_phase("reads", rw, 4096, 1, percent(100));
    p.job.io_size = bytes(std::uint64_t(n) * 4096);
    p.job.io_size_set = true;
    runner = std::make_unique<ScenarioRunner>(name, scenario({erase_phase(), fast_precondition(100, 0, 1), p}), config);
    runner->ssd.add_probe(reads);
  }
};

}  // namespace

TEST_CASE(
    "Read-ahead: QD1 sequential 4 KiB reads of mapped data take the link and firmware alone, without it tR + bus too",
    "[timing][read_ahead]") {
  const std::uint32_t n = 400;
  Run off("ra_off", "", RwMode::kRead, n);
  Run on("ra_on", "  read_ahead: {depth: 256KiB, trigger: 2}\n", RwMode::kRead, n);
  Run random("ra_random", "  read_ahead: {depth: 256KiB, trigger: 2}\n", RwMode::kRandRead, n);
  Run slow("ra_slow", "  read_ahead: {depth: 256KiB, trigger: 2}\n", RwMode::kRead, n, true);
  run_to_end({off.runner.get(), on.runner.get(), random.runner.get(), slow.runner.get()});
  REQUIRE(off.reads.done.size() == n);
  REQUIRE(on.reads.done.size() == n);
  REQUIRE(random.reads.done.size() == n);

  const DriveConfig& c = on.config;
  const SataWire wire(c.host.sata_line_bps, c.host.link_round_trip_dwords);
  const Picos link = wire.time(Fis{FisKind::kCommand}) +
                     wire.time(Fis{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, 8, 4096}) +
                     wire.time(Fis{FisKind::kSetDeviceBits});
  const Picos host = c.host.ahci_command_ps + c.host.ahci_completion_ps + c.controller.firmware_cost_ps;
  const Picos flash = c.nand.t_cmd_ps + c.nand.t_read_ps[0] + transfer_picos(4096, c.nand.bus_bytes_per_s * 8);
  // Without read-ahead every command reads its page: an idle die's tR and data-out.
  for (const IoRequest& r : off.reads.done) CHECK(r.completed_ps - r.issued_ps == host + link + flash);
  // With it, past the first commands (the stream starts with the second, the window fills in
  // a few commands' time), every command finds its unit in DRAM.
  std::uint32_t from_dram = 0;
  for (std::size_t i = 64; i < n; ++i) {
    const IoRequest& r = on.reads.done[i];
    INFO("command " << i);
    CHECK(r.completed_ps - r.issued_ps == host + link);
    CHECK(r.anatomy[Part::kArray] == 0);
    from_dram += r.completed_ps - r.issued_ps == host + link;
  }
  CHECK(from_dram == n - 64);
  // The first command reads its page as without read-ahead.
  CHECK(on.reads.done[0].completed_ps - on.reads.done[0].issued_ps == host + link + flash);
  // Every command's parts add up, those that joined a read in flight included.
  for (const IoRequest& r : on.reads.done) CHECK(r.anatomy.total() == r.completed_ps - r.issued_ps);
  const ControllerStats& s = on.runner->ssd.controller.stats();
  CHECK(s.read_ahead_units >= n - 2);
  CHECK(s.read_units_from_read_ahead >= n - 2);
  CHECK(s.read_units_from_nand <= 2);
  // A drive that reads ahead slower than the host reads: commands catch up with the window and
  // join its reads in flight, waiting less than a read of their own.
  REQUIRE(slow.reads.done.size() == n);
  const DriveConfig& sc = slow.config;
  const Picos slow_flash = sc.nand.t_cmd_ps + sc.nand.t_read_ps[0] + transfer_picos(4096, sc.nand.bus_bytes_per_s * 8);
  std::uint32_t joined = 0;
  for (std::size_t i = 2; i < n; ++i) {
    const IoRequest& r = slow.reads.done[i];
    const Picos latency = r.completed_ps - r.issued_ps;
    CHECK(r.anatomy.total() == latency);
    CHECK(latency >= host + link);
    CHECK(latency < host + link + slow_flash);
    joined += latency > host + link;
  }
  CHECK(joined > n / 10);
  CHECK(slow.runner->ssd.controller.stats().read_units_from_nand <= 2);
  // Random reads are no stream: nothing read ahead, every command as without it.
  CHECK(random.runner->ssd.controller.stats().read_ahead_units == 0);
  for (const IoRequest& r : random.reads.done) CHECK(r.completed_ps - r.issued_ps == host + link + flash);
}

TEST_CASE("Read-ahead on two-plane dies: a stream runs from DRAM, and its two-plane reads send no command data early",
          "[timing][read_ahead][planes]") {
  // Read-ahead's ops are timed host reads of a whole FTL page (both planes), as multi-plane host
  // reads are: the die reports their first plane's page early, and the controller must pass over
  // it (it has no command of its own; before the fix it was taken for command tag 32 + ...).
  const std::uint32_t n = 400;
  // 1 MiB: 128 read-ahead records of 8 KiB pages, numbers past the 32 command tags.
  std::string yaml =
      drive_yaml("4", "4", "32", "50us", "200MB/s", "3Gbps", "0.25", "  read_ahead: {depth: 1MiB, trigger: 2}\n");
  const std::string dies = "  dies_per_channel: 4\n";
  yaml.replace(yaml.find(dies), dies.size(), dies + "  planes_per_die: 2\n");
  DriveConfig config = drive_from_yaml(yaml);
  REQUIRE(config.nand.planes_per_die == 2);
  PhaseSpec p = job_phase("reads", RwMode::kRead, 4096, 1, percent(100));
  p.job.io_size = bytes(std::uint64_t(n) * 4096);
  p.job.io_size_set = true;
  CommandLog reads;
  ScenarioRunner runner("ra_planes", scenario({erase_phase(), fast_precondition(100, 0, 1), p}), config);
  runner.ssd.add_probe(reads);
  run_to_end({&runner});
  REQUIRE(reads.done.size() == n);
  const SataWire wire(config.host.sata_line_bps, config.host.link_round_trip_dwords);
  const Picos link = wire.time(Fis{FisKind::kCommand}) +
                     wire.time(Fis{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, 8, 4096}) +
                     wire.time(Fis{FisKind::kSetDeviceBits});
  const Picos host = config.host.ahci_command_ps + config.host.ahci_completion_ps + config.controller.firmware_cost_ps;
  for (std::size_t i = 0; i < n; ++i) {
    const IoRequest& r = reads.done[i];
    INFO("command " << i);
    CHECK_FALSE(r.error);
    CHECK(r.anatomy.total() == r.completed_ps - r.issued_ps);
    if (i >= 64) CHECK(r.completed_ps - r.issued_ps == host + link);
  }
  const ControllerStats& s = runner.ssd.controller.stats();
  CHECK(s.read_ahead_units >= n - 2);
  CHECK(s.read_units_from_nand <= 2);
}
