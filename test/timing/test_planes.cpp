// Multi-plane operations (nand.planes_per_die > 1, docs/planes.md): the FTL's page is a page on
// each plane, so a program takes each plane's command and data cycles in turn and one tPROG, a
// read of both planes two commands, one tR and both data-outs, an erase one tBERS; a read of one
// unit addresses one plane.
#include <catch2/catch.hpp>

#include <vector>

#include "app/run/scenario_runner.h"
#include "precondition_support.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

struct OpLog : Probe {
  struct Entry {
    NandOp op;
    OpTiming t;
  };
  std::vector<Entry> ops;
  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t*, std::uint32_t) override {
    ops.push_back({op, t});
  }
};

// One channel of two dies of `planes` planes (32 blocks each) of `page` pages.
DriveConfig plane_drive(const std::string& planes, const std::string& page) {
  std::string yaml = drive_yaml("1", "2", "32", "50us", "100MB/s", "3Gbps", "0.25");
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
