// The SLC cache's timing (controller.slc_cache, docs/slc-cache.md): a host page programmed into
// an SLC-mode block takes the LSB program time, every one; once the cache is full the host's
// pages alternate LSB and MSB programs as without it; idle time folds the cache and the next
// writes are fast again.
#include <catch2/catch.hpp>

#include <vector>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// Every completed write command's record, in completion order.
struct WriteLog : Probe {
  std::vector<IoRequest> done;
  void command_done(const IoRequest& r) override {
    if (r.command == AtaCommand::kWriteFpdma) done.push_back(r);
  }
};

// One die, 64-page blocks (an SLC-mode block: 32 pages), write-through: a write's latency holds
// its program. `cache`: the controller.slc_cache lines.
DriveConfig one_die(const std::string& cache) {
  return drive_from_yaml(
      drive_yaml("1", "1", "32", "50us", "100MB/s", "3Gbps", "0.25", "  write_cache: false\n" + cache));
}

std::vector<Picos> latencies(const WriteLog& log) {
  std::vector<Picos> out;
  for (const IoRequest& r : log.done) out.push_back(r.completed_ps - r.issued_ps);
  return out;
}

}  // namespace

TEST_CASE("SLC cache: host pages in SLC mode take the LSB program time each, full blocks alternate LSB and MSB",
          "[slc_cache]") {
  // A static cache of one SLC-mode block (32 pages of 4 KiB); 64 QD1 writes, then idle, then 48.
  const DriveConfig with = one_die("  slc_cache: {mode: static, size: 128KiB}\n");
  const DriveConfig without = one_die("");
  PhaseSpec first = job_phase("first", RwMode::kWrite, 4096, 1, percent(100));
  first.job.io_size = bytes(64 * 4096);
  first.job.io_size_set = true;
  PhaseSpec again = job_phase("again", RwMode::kWrite, 4096, 1, percent(100));
  again.job.offset = bytes(64 * 4096);
  again.job.size = bytes(48 * 4096);
  again.job.io_size = bytes(48 * 4096);
  again.job.io_size_set = true;
  const ScenarioSpec s = scenario({erase_phase(), first, idle_phase(kPicosPerSec), again});
  ScenarioRunner cached("cached", s, with);
  ScenarioRunner plain("plain", s, without);
  WriteLog a, b;
  cached.ssd.add_probe(a);
  plain.ssd.add_probe(b);
  run_to_end({&cached, &plain});
  REQUIRE(cached.finished());
  REQUIRE(plain.finished());
  const std::vector<Picos> lat = latencies(a), ref = latencies(b);
  REQUIRE(lat.size() == 112);
  REQUIRE(ref.size() == 112);
  const Picos msb_more = with.nand.t_prog_ps[1] - with.nand.t_prog_ps[0];  // 650 us
  // Without the cache: page k of a block is an LSB page when k is even.
  const Picos lsb_write = ref[0];
  for (std::size_t k = 0; k < 64; ++k) {
    INFO("write " << k);
    CHECK(ref[k] == lsb_write + (k % 2 ? msb_more : 0));
  }
  // With it: the first 32 pages are the cache's, every one at the LSB time; then a full block.
  for (std::size_t k = 0; k < 64; ++k) {
    INFO("write " << k);
    CHECK(lat[k] == lsb_write + (k >= 32 && k % 2 ? msb_more : 0));
  }
  // The second phase: without the cache, the pages go on alternating. With it, the idle second
  // folded the cache's block (32 units copied, one erase); the host's open full block is filled
  // first (a block's mode is chosen when it opens), then the next block is the cache's again.
  for (std::size_t k = 64; k < 112; ++k) {
    INFO("write " << k);
    CHECK(ref[k] == lsb_write + (k % 2 ? msb_more : 0));
    CHECK(lat[k] == lsb_write + (k < 96 && k % 2 ? msb_more : 0));
  }
  const PhaseResult& idle = cached.results()[2];
  CHECK(idle.gc_erases() == 1);
  CHECK(idle.stats.count("drive.controller.ftl.slc.folds") == 1);
  CHECK(idle.stats.count("drive.controller.ftl.slc.fold_units") == 32);
  CHECK(plain.results()[2].gc_erases() == 0);
  CHECK(plain.results()[2].stats.catalogue().find("drive.controller.ftl.slc.folds") < 0);
  CHECK(cached.results()[1].stats.count("drive.controller.ftl.slc.units_written") == 32);
  CHECK(cached.results()[3].stats.count("drive.controller.ftl.slc.units_written") == 16);
}
