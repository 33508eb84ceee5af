// Cache read (nand.cache_read, docs/planes.md "Cache read"): every read's data-out follows a slot
// of one t_cmd; a read that is next on its die by the time that slot begins issues its command
// there (READ CACHE RANDOM, 00h-31h) and starts its tR at the slot's end, while the page before it
// goes out; otherwise the slot is READ CACHE END (3Fh). Every read that follows a read on the die
// is checked to the picosecond, with and without the cache, through random reads at QD32 (nearly
// all cached), 128 KiB sequential reads (32 pages on the one die, in a row) and QD1 reads (none
// cached: each is submitted after the one before it ended); once more with a tR shorter than the
// data-out, so that a cached read's tR ends before it starts. Every command's anatomy adds up.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "app/run/scenario_runner.h"
#include "precondition_support.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// One channel, one die: nothing but the die's own ops on its bus. Filled first (no GC).
struct ReadRun {
  DriveConfig config;
  OpLog log;
  CommandLog commands;
  std::unique_ptr<ScenarioRunner> runner;
  ReadRun(const char* name, bool cache, const char* t_read = "50us") {
    std::string yaml = drive_yaml("1", "1", "32", t_read, "100MB/s", "3Gbps", "0.25");
    const std::string cmd = "  t_cmd: 200ns\n";
    yaml.replace(yaml.find(cmd), cmd.size(), cmd + "  cache_read: " + (cache ? "true" : "false") + "\n");
    config = drive_from_yaml(yaml);
    runner = std::make_unique<ScenarioRunner>(
        name,
        scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                  job_phase("randread_qd32", RwMode::kRandRead, 4096, 32, percent(100), 20 * kPicosPerMs),
                  job_phase("seqread_128k", RwMode::kRead, 128 * 1024, 4, bytes(8 << 20)),
                  job_phase("randread_qd1", RwMode::kRandRead, 4096, 1, percent(100), 5 * kPicosPerMs)}),
        config);
    runner->ssd.add_probe(log);
    runner->ssd.add_probe(commands);
  }
};

}  // namespace

TEST_CASE("Cache read: a read next on its die starts its tR in the slot before the page ahead of it goes out",
          "[timing][cache_read]") {
  // `hidden`: tR 20 us, shorter than a page's 41 us data-out: a cached read's tR ends before it starts.
  ReadRun on("cache_on", true), off("cache_off", false), hidden("cache_hidden", true, "20us");
  run_to_end({on.runner.get(), off.runner.get(), hidden.runner.get()});
  REQUIRE(on.config.nand.cache_read);
  REQUIRE_FALSE(off.config.nand.cache_read);
  const NandConfig& n = on.config.nand;
  const Picos cmd = n.t_cmd_ps;
  const Picos out = transfer_picos(n.page_size_bytes, n.bus_bytes_per_s * 8);  // a 4 KiB page

  for (ReadRun* r : {&on, &off, &hidden}) {
    const bool cache = r != &off;
    const Picos t_r = r->config.nand.t_read_ps[0];
    REQUIRE(r->config.nand.t_read_ps[1] == t_r);
    INFO((cache ? "cache read" : "no cache read") << ", tR " << t_r << " ps");
    std::uint64_t pairs = 0, cached = 0, overlapped = 0;
    const std::vector<OpLog::Entry>& ops = r->log.ops;
    REQUIRE(ops.size() > 1000);
    for (std::size_t i = 1; i < ops.size(); ++i) {
      const OpLog::Entry& prev = ops[i - 1];
      const OpLog::Entry& cur = ops[i];
      REQUIRE(cur.t.started >= prev.t.finished);  // the die reports one op at a time
      if (cur.op.kind != NandOpKind::kRead) continue;
      INFO("op " << i << " page " << cur.op.page << " submitted " << cur.t.submitted);
      REQUIRE(cur.op.bytes == n.page_size_bytes);
      const Picos slot = cache ? cmd : 0;  // READ CACHE END or the next read's command
      const bool behind_read = prev.op.kind == NandOpKind::kRead;
      // The slot of the read before it begins at its out_bus_start; a read submitted by then takes it.
      if (cache && behind_read && cur.t.submitted <= prev.t.out_bus_start) {
        ++cached;
        CHECK(cur.t.started == prev.t.finished);
        CHECK(cur.t.cmd_bus_start == prev.t.out_bus_start);
        CHECK(cur.t.array_start == prev.t.out_bus_start + cmd);
        CHECK(cur.t.array_end == cur.t.array_start + t_r);
        CHECK(cur.t.out_bus_start == std::max(cur.t.array_end, prev.t.finished));
        if (cur.t.array_end <= prev.t.finished) ++overlapped;  // the whole tR hidden
      } else {
        CHECK(cur.t.started == std::max(prev.t.finished, cur.t.submitted));
        CHECK(cur.t.cmd_bus_start == cur.t.started);
        CHECK(cur.t.array_start == cur.t.started + cmd);
        CHECK(cur.t.array_end == cur.t.array_start + t_r);
        CHECK(cur.t.out_bus_start == cur.t.array_end);
      }
      CHECK(cur.t.out_end == cur.t.out_bus_start + slot + out);
      CHECK(cur.t.finished == cur.t.out_end);
      if (behind_read) ++pairs;
    }
    CHECK(pairs > 1000);
    if (r == &on) {
      CHECK(cached > pairs / 2);
      CHECK(overlapped == 0);  // tR 50 us is longer than a page's 41 us data-out here
    } else if (r == &hidden) {
      CHECK(cached > pairs / 2);
      CHECK(overlapped > pairs / 2);  // tR 20 us: hidden whole under the page ahead's data-out
    } else {
      CHECK(cached == 0);
    }
    // Every command's parts add up to its latency, a cached read's tR before its start included
    // (its wait behind the read ahead); with the tR hidden, reads at QD32 spend no time in `array`.
    std::uint64_t reads = 0, no_array = 0;
    for (const IoRequest& c : r->commands.done) {
      CHECK(c.anatomy.total() == c.completed_ps - c.issued_ps);
      if (c.command != AtaCommand::kReadFpdma) continue;
      ++reads;
      no_array += c.anatomy[Part::kArray] == 0;
    }
    CHECK(reads > 300);
    if (r == &hidden) CHECK(no_array > reads / 2);
  }
  // Random reads at QD32: a read every cmd + tR + out without the cache, every cmd + tR with it
  // (the data-out hidden under the next tR); at QD1 nothing is cached, the slot costs one t_cmd.
  const auto iops = [](const ReadRun& r, std::size_t phase) { return r.runner->results().at(phase).iops(); };
  const double us = 1e-6 / double(kPicosPerUs);
  const Picos t_r = n.t_read_ps[0];
  CHECK(iops(off, 2) == Approx(1 / (double(cmd + t_r + out) * us)).epsilon(0.01));
  CHECK(iops(on, 2) == Approx(1 / (double(cmd + t_r) * us)).epsilon(0.01));
  CHECK(iops(hidden, 2) == Approx(1 / (double(cmd + out) * us)).epsilon(0.01));  // the bus's pace
  CHECK(iops(on, 4) < iops(off, 4));
  CHECK(iops(on, 4) > iops(off, 4) * 0.99);
  // 128 KiB reads: 32 pages back to back on the die, the first of each command's not cached.
  CHECK(iops(on, 3) > iops(off, 3) * 1.5);
}
