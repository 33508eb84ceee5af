// The hybrid log-block FTL in time: its merges are NAND operations on the die, queued ahead of
// the host program that caused them, so a write waiting behind a full merge shows it in its
// latency and in its anatomy's die_wait_gc part.
#include <catch2/catch.hpp>

#include <algorithm>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

struct WriteWaits : Probe {
  std::uint64_t writes = 0, gc_waited = 0, mismatches = 0;
  Picos max_latency = 0, max_gc_wait = 0;
  void command_done(const IoRequest& r) override {
    if (r.command != AtaCommand::kWriteFpdma) return;
    ++writes;
    const Anatomy& a = r.anatomy;
    if (a.total() != r.completed_ps - r.issued_ps) ++mismatches;
    gc_waited += a[Part::kDieWaitGc] > 0;
    max_gc_wait = std::max(max_gc_wait, a[Part::kDieWaitGc]);
    max_latency = std::max(max_latency, r.completed_ps - r.issued_ps);
  }
};

// One die, write-through, filled sequentially, then 4 KiB random writes at QD1.
DriveConfig drive(const std::string& ftl) {
  return drive_from_yaml(
      drive_yaml("1", "1", "32", "50us", "100MB/s", "3Gbps", "0.25", "  write_cache: false\n" + ftl));
}

ScenarioSpec random_writes() {
  return scenario({erase_phase(), fast_precondition(100, 0, 3),
                   job_phase("randwrite", RwMode::kRandWrite, 4096, 1, percent(100), kPicosPerSec / 4)});
}

}  // namespace

TEST_CASE("A write behind a hybrid full merge waits for it at the die: die_wait_gc and latency", "[timing][hybrid]") {
  const DriveConfig config = drive("  ftl: hybrid\n  hybrid: {scheme: bast}\n");
  WriteWaits bast, page;
  ScenarioRunner hybrid_run("hybrid", random_writes(), config);
  ScenarioRunner page_run("page", random_writes(), drive(""));
  hybrid_run.ssd.add_probe(bast);
  page_run.ssd.add_probe(page);
  run_to_end({&hybrid_run, &page_run});
  REQUIRE(bast.writes > 0);
  CHECK(bast.mismatches == 0);
  CHECK(bast.gc_waited > 0);
  // A full merge of a whole logical block (the drive is full: every unit valid, less the one
  // being written) reads and programs upb - 1 units and erases: at least this long on the die.
  const Picos upb = config.nand.pages_per_block;
  const Picos merge = (upb - 1) * (config.nand.t_read_ps[0] + config.nand.t_prog_ps[0]) + config.nand.t_erase_ps;
  CHECK(bast.max_gc_wait >= merge);
  CHECK(bast.max_latency >= bast.max_gc_wait);
  // Page mapping pays its GC as it goes: its worst write is far shorter.
  REQUIRE(page.writes > 0);
  CHECK(page.max_latency < merge);
  CHECK(page.max_latency * 4 < bast.max_latency);
}
