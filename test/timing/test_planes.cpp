// Multi-plane operations (nand.planes_per_die > 1, docs/planes.md): the FTL's page is a page on
// each plane, so a program takes each plane's command and data cycles in turn and one tPROG, a
// read of both planes two commands, one tR and both data-outs, an erase one tBERS; a read of one
// unit addresses one plane.
#include <catch2/catch.hpp>

#include <vector>

#include "app/run/scale.h"
#include "app/run/scenario_runner.h"
#include "base/config/config_loader.h"
#include "base/config/geometry.h"
#include "host/io_request.h"
#include "host/sata/sata_wire.h"
#include "precondition_support.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// One channel of two dies of `planes` planes (32 blocks each) of `page` pages.
DriveConfig plane_drive(const std::string& planes, const std::string& page, const std::string& bus = "100MB/s",
                        const std::string& sata = "3Gbps") {
  std::string yaml = drive_yaml("1", "2", "32", "50us", bus, sata, "0.25");
  const std::string dies = "  dies_per_channel: 2\n";
  yaml.replace(yaml.find(dies), dies.size(), dies + "  planes_per_die: " + planes + "\n");
  const std::string page_line = "  page_size: 4KiB\n";
  yaml.replace(yaml.find(page_line), page_line.size(), "  page_size: " + page + "\n");
  return drive_from_yaml(yaml);
}

// Sequential 8 KiB writes over the drive, 8 KiB and 4 KiB reads, then random 4 KiB overwrites
// (twice the drive: GC erases).
ScenarioSpec plane_scenario() {
  PhaseSpec reads8 = job_phase("reads8", RwMode::kRead, 8192, 1, percent(100));
  PhaseSpec reads4 = job_phase("reads4", RwMode::kRandRead, 4096, 1, percent(100));
  reads4.job.io_size = bytes(400 * 4096);
  reads4.job.io_size_set = true;
  PhaseSpec over = job_phase("overwrite", RwMode::kRandWrite, 4096, 4, percent(100));
  over.job.io_size = percent(200);
  over.job.io_size_set = true;
  return scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 8192, 4, percent(100)), reads8, reads4, over});
}

}  // namespace

TEST_CASE("Planes: a two-plane program takes one tPROG and both planes' transfers, a read one tR, an erase one tBERS",
          "[timing][planes]") {
  const DriveConfig c = plane_drive("2", "4KiB");
  REQUIRE(c.nand.planes_per_die == 2);
  OpLog log;
  ScenarioRunner runner("planes", plane_scenario(), c);
  runner.ssd.add_probe(log);
  sc_core::sc_start();
  INFO(runner.error());
  REQUIRE(runner.finished());

  const Picos cmd = c.nand.t_cmd_ps;
  const auto bus = [&](std::uint32_t bytes) { return transfer_picos(bytes, c.nand.bus_bytes_per_s * 8); };
  std::uint64_t programs = 0, pair_reads = 0, plane_reads = 0, erases = 0;
  for (const OpLog::Entry& e : log.ops) {
    const NandOp& op = e.op;
    const OpTiming& t = e.t;
    INFO("op kind " << int(op.kind) << " die " << op.die << " block " << op.block << " page " << op.page << " bytes "
                    << op.bytes);
    const Picos array = t.array_end - t.array_start;
    const Picos in_cycles = t.array_start - t.cmd_bus_start;
    switch (op.kind) {
      case NandOpKind::kProgram:
        // The FTL's page is a page on each plane: every program is a two-plane one.
        CHECK(op.bytes == 2 * 4096);
        CHECK(in_cycles == 2 * cmd + bus(8192));
        CHECK(array == c.nand.t_prog_ps[op.page % 2]);  // one tPROG, of the pages' type
        ++programs;
        break;
      case NandOpKind::kRead:
        CHECK(array == c.nand.t_read_ps[op.page % 2]);  // one tR
        if (op.bytes > 4096) {
          CHECK(in_cycles == 2 * cmd);
          CHECK(t.out_end - t.out_bus_start == bus(op.bytes));  // both planes' data, one after the other
          ++pair_reads;
        } else {
          CHECK(in_cycles == cmd);  // one unit: one plane
          CHECK(t.out_end - t.out_bus_start == bus(op.bytes));
          ++plane_reads;
        }
        break;
      case NandOpKind::kErase:
        CHECK(in_cycles == 2 * cmd);
        CHECK(array == c.nand.t_erase_ps);  // one tBERS for the block on each plane
        ++erases;
        break;
    }
  }
  CHECK(programs > 0);
  CHECK(pair_reads > 0);
  CHECK(plane_reads > 0);
  CHECK(erases > 0);
  const ControllerStats& s = runner.ssd.controller.stats();
  CHECK(s.read_units_from_nand > 0);
}

namespace {

// QD1 reads of one two-plane page (2 x 8 KiB) each, over a filled drive: each command's latency
// and its flash ops.
struct PlaneReads {
  DriveConfig config;
  OpLog ops;
  ReadLog reads;
  std::unique_ptr<ScenarioRunner> runner;
  PlaneReads(const char* name, const std::string& bus, const std::string& sata, std::uint32_t n)
      : config(plane_drive("2", "8KiB", bus, sata)) {
    PhaseSpec p = job_phase("reads", RwMode::kRead, 16384, 1, percent(100));
    p.job.io_size = bytes(std::uint64_t(n) * 16384);
    p.job.io_size_set = true;
    runner = std::make_unique<ScenarioRunner>(name, scenario({erase_phase(), fast_precondition(100, 0, 1), p}), config);
    runner->ssd.add_probe(ops);
    runner->ssd.add_probe(reads);
  }
};

}  // namespace

TEST_CASE("Planes: a host read of two planes goes to the link plane by plane, the first page at its data-out's end",
          "[timing][planes]") {
  const std::uint32_t n = 100;
  // The bus slower than the link (8 KiB: 81.92 us out, ~27 us on a 3 Gb/s wire): the first page's
  // Data FISes go while the second page comes out; only the second's are on the critical path.
  PlaneReads bus_bound("planes_bus_bound", "100MB/s", "3Gbps", n);
  // The link slower (8 KiB: 20.48 us out, ~55 us on a 1.5 Gb/s wire): the pages follow each other
  // on the wire from the first one's data-out.
  PlaneReads link_bound("planes_link_bound", "400MB/s", "1.5Gbps", n);
  run_to_end({bus_bound.runner.get(), link_bound.runner.get()});

  for (PlaneReads* r : {&bus_bound, &link_bound}) {
    const DriveConfig& c = r->config;
    const bool bus_slower = r == &bus_bound;
    INFO((bus_slower ? "bus-bound" : "link-bound"));
    const SataWire wire(c.host.sata_line_bps, c.host.link_round_trip_dwords);
    // A command's data in pieces opens with one DMA Setup (sata_wire.h): the second page has none.
    const auto data = [&](std::uint32_t b, bool dma_setup = true) {
      return wire.time(Fis{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, b / 512, b}, dma_setup);
    };
    const auto bus = [&](std::uint32_t b) { return transfer_picos(b, c.nand.bus_bytes_per_s * 8); };
    const Picos host = c.host.ahci_command_ps + c.host.ahci_completion_ps + c.controller.firmware_cost_ps;
    const Picos flash = 2 * c.nand.t_cmd_ps + c.nand.t_read_ps[0];  // two planes' commands, one tR
    REQUIRE(bus_slower == (bus(8192) > data(8192)));
    // Each command is one two-plane read of both pages.
    std::uint64_t reads = 0;
    for (const OpLog::Entry& e : r->ops.ops) {
      if (e.op.kind != NandOpKind::kRead || e.op.origin != OpOrigin::kHost) continue;
      CHECK(e.op.bytes == 16384);
      CHECK(e.t.out_end - e.t.out_bus_start == bus(16384));  // the die's data-out is both pages
      ++reads;
    }
    CHECK(reads == n);
    REQUIRE(r->reads.done.size() == n);
    const Picos expected = host + wire.time(Fis{FisKind::kCommand}) + flash + bus(8192) +
                           (bus_slower ? bus(8192) : data(8192)) + data(8192, false) +
                           wire.time(Fis{FisKind::kSetDeviceBits});
    // Before the handover: all 16 KiB after both data-outs.
    const Picos whole = host + wire.time(Fis{FisKind::kCommand}) + flash + bus(16384) + data(16384) +
                        wire.time(Fis{FisKind::kSetDeviceBits});
    CHECK(expected < whole);
    for (std::size_t i = 0; i < n; ++i) {
      const IoRequest& q = r->reads.done[i];
      INFO("command " << i);
      CHECK(q.completed_ps - q.issued_ps == expected);
      CHECK(q.anatomy.total() == q.completed_ps - q.issued_ps);
      CHECK(q.anatomy[Part::kArray] == c.nand.t_read_ps[0]);
    }
  }
}

TEST_CASE("Planes: a scaled-down multi-plane drive keeps the GC spare it needs", "[planes][scale]") {
  // --scale shrinks blocks_per_plane; on a multi-plane drive the FTL's blocks of a die are
  // blocks_per_plane (one block of each plane), so the minimum is not divided by the planes.
  const std::string path = std::string(SSDLAB_SOURCE_DIR) + "/configs/crucial-m4.yaml";
  const DriveConfig full = load_drive_config(path);
  REQUIRE(full.nand.planes_per_die == 2);
  for (double f : {0.02, 0.001}) {
    INFO("scale " << f);
    const ScalePlan plan = plan_scale(full, f);
    DriveConfig scaled;
    REQUIRE_NOTHROW(scaled = load_drive_config(path, {plan.blocks_override}));
    CHECK(scaled.nand.blocks_per_plane < full.nand.blocks_per_plane);
    CHECK(Geometry::from(scaled).blocks_per_die == scaled.nand.blocks_per_plane);
  }
}
