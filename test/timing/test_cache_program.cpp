// Cache program (nand.cache_program, docs/planes.md "Cache program"): a die's next program takes
// its command and data cycles into the cache register while the program before it is in its
// tPROG, and its own tPROG starts when that one ends. Every program that follows a program on
// the die is checked to the picosecond, with and without the cache, through sequential writes
// and random overwrites with GC (host programs behind GC jobs included).
#include <catch2/catch.hpp>

#include <vector>

#include "app/run/scenario_runner.h"
#include "precondition_support.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// One channel, one die: nothing but the die's own ops on its bus.
struct CacheRun {
  DriveConfig config;
  OpLog log;
  std::unique_ptr<ScenarioRunner> runner;
  CacheRun(const char* name, bool cache) {
    std::string yaml = drive_yaml("1", "1", "32", "50us", "100MB/s", "3Gbps", "0.25");
    const std::string cmd = "  t_cmd: 200ns\n";
    yaml.replace(yaml.find(cmd), cmd.size(), cmd + "  cache_program: " + (cache ? "true" : "false") + "\n");
    config = drive_from_yaml(yaml);
    PhaseSpec over = job_phase("overwrite", RwMode::kRandWrite, 4096, 8, percent(100));
    over.job.io_size = percent(200);
    over.job.io_size_set = true;
    runner = std::make_unique<ScenarioRunner>(
        name, scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 4096, 32, percent(100)), over}), config);
    runner->ssd.add_probe(log);
  }
};

}  // namespace

TEST_CASE("Cache program: the next program's cycles go during the tPROG before it, its tPROG right after",
          "[timing][cache_program]") {
  CacheRun on("cache_on", true), off("cache_off", false);
  run_to_end({on.runner.get(), off.runner.get()});
  REQUIRE(on.config.nand.cache_program);
  REQUIRE_FALSE(off.config.nand.cache_program);
  const NandConfig& n = on.config.nand;
  const Picos in = n.t_cmd_ps + transfer_picos(n.page_size_bytes, n.bus_bytes_per_s * 8);  // command and data

  for (CacheRun* r : {&on, &off}) {
    const bool cache = r == &on;
    INFO((cache ? "cache program" : "no cache program"));
    std::uint64_t pairs = 0, overlapped = 0, after_gc = 0;
    const std::vector<OpLog::Entry>& ops = r->log.ops;
    REQUIRE(ops.size() > 1000);
    for (std::size_t i = 1; i < ops.size(); ++i) {
      const OpLog::Entry& prev = ops[i - 1];
      const OpLog::Entry& cur = ops[i];
      REQUIRE(cur.t.started >= prev.t.finished);  // one op at a time on the die
      if (prev.op.kind != NandOpKind::kProgram || cur.op.kind != NandOpKind::kProgram) continue;
      INFO("op " << i << " origin " << int(cur.op.origin) << " page " << cur.op.page);
      Picos expected;
      if (cache) {
        // Its cycles from the later of its submission and the previous program's array start.
        const Picos loaded = std::max(cur.t.submitted, prev.t.array_start) + in;
        expected = std::max(prev.t.array_end, loaded);
        if (loaded <= prev.t.array_end) ++overlapped;
      } else {
        expected = std::max(prev.t.finished, cur.t.submitted) + in;
      }
      CHECK(cur.t.array_start == expected);
      CHECK(cur.t.array_end - cur.t.array_start == n.t_prog_ps[cur.op.page % 2]);
      ++pairs;
      if (prev.op.origin == OpOrigin::kGc) ++after_gc;
    }
    CHECK(pairs > 1000);
    CHECK(after_gc > 0);  // host programs behind a GC copy's program (the end of a GC job)
    if (cache) CHECK(overlapped > pairs / 2);
  }
  // The cache hides the cycles of the fill's programs: the fill runs faster, by at most their share.
  const PhaseResult& fill_on = on.runner->results().at(1);
  const PhaseResult& fill_off = off.runner->results().at(1);
  const double t_on = double(fill_on.sim_end_ps - fill_on.sim_start_ps);
  const double t_off = double(fill_off.sim_end_ps - fill_off.sim_start_ps);
  CHECK(t_on < t_off);
  const double pair = double(n.t_prog_ps[0] + n.t_prog_ps[1]);
  CHECK(t_on > t_off * pair / (pair + 2 * double(in)) * 0.999);
}
