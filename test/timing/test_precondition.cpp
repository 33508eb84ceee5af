#include <catch2/catch.hpp>

#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// One die and a one-page buffer: the simulated path then makes the same placement decisions
// as the fast path (nothing to choose between, nothing coalesced in the buffer).
DriveConfig one_die_drive(const std::string& blocks, const std::string& extra_controller = "") {
  std::string yaml = drive_yaml("1", "1", blocks, "50us", "100MB/s", "3Gbps", "0.2", extra_controller);
  yaml.replace(yaml.find("write_buffer: 1MiB"), 18, "write_buffer: 4KiB");
  yaml.replace(yaml.find("max_transfer: 1MiB"), 18, "max_transfer: 4KiB");
  return drive_from_yaml(yaml);
}

PhaseSpec random_reads(Picos runtime_ps = 0) {
  PhaseSpec read = job_phase("randread", RwMode::kRandRead, 4096, 32, percent(100), runtime_ps);
  read.job.randseed = 5;
  read.job.randseed_set = true;
  return read;
}

void require_same_ftl(const Ftl& a, const Ftl& b) {
  CHECK(a.check_invariants().empty());
  CHECK(b.check_invariants().empty());
  for (Lpn lpn = 0; lpn < a.user_units(); ++lpn) REQUIRE(a.lookup(lpn) == b.lookup(lpn));
  for (std::uint32_t blk = 0; blk < a.geometry().blocks; ++blk) {
    REQUIRE(a.valid_units(blk) == b.valid_units(blk));
    REQUIRE(a.erase_count(blk) == b.erase_count(blk));
  }
  CHECK(a.free_blocks_total() == b.free_blocks_total());
  CHECK(a.stats().gc_units_copied == b.stats().gc_units_copied);
  CHECK(a.stats().nand_units_programmed() == b.stats().nand_units_programmed());
}

// What the mapping cache holds: its pages in LRU order and each page's cached/dirty/on-flash bits.
struct CacheState {
  std::vector<std::uint64_t> lru;
  std::vector<int> flags;
  bool operator==(const CacheState& o) const { return lru == o.lru && flags == o.flags; }
};

CacheState cache_state(const MappingCache& cache) {
  CacheState s{cache.lru_order(), {}};
  for (std::uint64_t page = 0; page < cache.pages(); ++page) {
    s.flags.push_back(int(cache.cached(page)) | int(cache.dirty(page)) << 1 | int(cache.on_flash(page)) << 2);
  }
  return s;
}

// The cache state right after the phase named `phase` (before the next one changes it).
void snapshot_after(ScenarioRunner& run, const std::string& phase, CacheState& out) {
  run.on_phase_done = [&run, phase, &out](const PhaseResult& r) {
    if (r.name == phase) out = cache_state(run.ssd.controller.mapping_cache());
  };
}

}  // namespace

static void check_same_as_simulated(bool random_map) {
  const DriveConfig config = one_die_drive("64");
  ScenarioRunner slow("slow", scenario(simulated_precondition(250, 77, random_map)), config);
  ScenarioRunner quick("fast", scenario({erase_phase(), fast_precondition(100, 250, 77, random_map)}), config);
  run_to_end({&slow, &quick});
  REQUIRE(slow.ssd.controller.ftl().stats().gc_erases > 0);  // GC ran: the comparison covers its decisions too
  require_same_ftl(slow.ssd.controller.ftl(), quick.ssd.controller.ftl());
  // And the fast path took no simulated time.
  CHECK(quick.results()[1].seconds() == 0.0);
}

TEST_CASE("fast preconditioning leaves the FTL exactly as the simulated writes do", "[timing][precondition]") {
  // The default: independent draws, as a randwrite job with norandommap.
  check_same_as_simulated(false);
}

TEST_CASE("fast preconditioning with random_map leaves the FTL exactly as a randwrite job with fio's random map",
          "[timing][precondition]") {
  check_same_as_simulated(true);
}

TEST_CASE("fast preconditioning leaves a limited mapping cache as the simulated writes do",
          "[timing][precondition][mapping_cache]") {
  // 7 translation pages of 1024 entries, 2 of them cached. (The overwrite is a whole number of
  // passes: a job rounds a share of the drive up to whole requests, the fast path down.)
  const DriveConfig config = one_die_drive("128", "  mapping_cache: 8KiB\n");
  std::vector<PhaseSpec> slow_phases = simulated_precondition(200, 77);
  slow_phases.push_back(random_reads());
  ScenarioRunner slow("slow", scenario(slow_phases), config);
  ScenarioRunner quick("fast", scenario({erase_phase(), fast_precondition(100, 200, 77), random_reads()}), config);
  CacheState slow_cache, fast_cache;
  snapshot_after(slow, "overwrite", slow_cache);
  snapshot_after(quick, "precondition", fast_cache);
  run_to_end({&slow, &quick});
  REQUIRE_FALSE(slow.ssd.controller.mapping_cache().unlimited());
  require_same_ftl(slow.ssd.controller.ftl(), quick.ssd.controller.ftl());
  // The cache after the writes: the same translation pages cached, in the same order, the
  // same ones dirty and on flash.
  REQUIRE(slow_cache.flags.size() > 2 * slow_cache.lru.size());
  CHECK(slow_cache.lru == fast_cache.lru);
  CHECK(slow_cache.flags == fast_cache.flags);
  // The translation-page traffic of the writes is the fill's, counted there and nowhere else.
  const std::vector<PhaseResult>& s = slow.results();
  const std::vector<PhaseResult>& q = quick.results();
  REQUIRE(s[1].map_writes() + s[2].map_writes() > 0);
  CHECK(q[1].map_reads() == s[1].map_reads() + s[2].map_reads());
  CHECK(q[1].map_writes() == s[1].map_writes() + s[2].map_writes());
  CHECK(q[1].seconds() == 0.0);
  // The reads after it: every LPN once, the same cache traffic, much the same time.
  const PhaseResult& slow_read = s[3];
  const PhaseResult& fast_read = q[2];
  CHECK(fast_read.io.reads == slow_read.io.reads);
  REQUIRE(slow_read.map_reads() > slow_read.io.reads / 2);  // the small cache is felt
  CHECK(fast_read.map_reads() == slow_read.map_reads());
  CHECK(fast_read.map_writes() == slow_read.map_writes());
  CHECK(fast_read.seconds() == Approx(slow_read.seconds()).epsilon(0.05));
  CHECK(fast_read.io.latency()->mean() == Approx(slow_read.io.latency()->mean()).epsilon(0.05));
  CHECK(fast_read.die_utilisation() == Approx(slow_read.die_utilisation()).epsilon(0.05));
}

TEST_CASE("a timed read phase after fast preconditioning through a small mapping cache runs for its runtime",
          "[timing][precondition][mapping_cache]") {
  // Several dies: the fast path's placement is equivalent to the simulated one, not identical.
  const DriveConfig config =
      drive_from_yaml(drive_yaml("2", "2", "64", "50us", "100MB/s", "3Gbps", "0.2", "  mapping_cache: 8KiB\n"));
  const Picos runtime = 200 * kPicosPerSec / 1000;
  const auto [slow_read, fast_read] = after_both_preconditions(config, 200, 3, random_reads(runtime));
  REQUIRE(slow_read.map_reads() > slow_read.io.reads / 2);  // the small cache is felt
  // Nothing left queued by the fast path: the phase ends with its runtime (the last requests
  // in flight complete after it) and does runtime x IOPS reads, as after simulated writes.
  CHECK(fast_read.seconds() < 1.1 * double(runtime) / double(kPicosPerSec));
  CHECK(double(fast_read.io.reads) == Approx(double(slow_read.io.reads)).epsilon(0.1));
  CHECK(fast_read.io.latency()->mean() == Approx(slow_read.io.latency()->mean()).epsilon(0.1));
  CHECK(double(fast_read.map_reads()) == Approx(double(slow_read.map_reads())).epsilon(0.1));
  CHECK(fast_read.map_writes() <= config.controller.mapping_cache_bytes / config.nand.page_size_bytes);
  CHECK(fast_read.die_utilisation() == Approx(slow_read.die_utilisation()).epsilon(0.1));
}

TEST_CASE("after fast and simulated preconditioning on several dies the next random writes show the same WAF and IOPS",
          "[timing][precondition]") {
  const DriveConfig config = drive_from_yaml(drive_yaml("2", "2", "128", "50us", "200MB/s", "6Gbps", "0.125"));
  PhaseSpec next = job_phase("next", RwMode::kRandWrite, 4096, 32, percent(100));
  next.job.io_size = percent(100);
  next.job.io_size_set = true;
  next.job.norandommap = true;
  next.job.randseed = 9;
  next.job.randseed_set = true;
  const auto [slow_next, fast_next] = after_both_preconditions(config, 200, 5, next);
  REQUIRE(slow_next.gc_erases() > 100);
  CHECK(fast_next.waf() == Approx(slow_next.waf()).epsilon(0.02));
  CHECK(fast_next.iops() == Approx(slow_next.iops()).epsilon(0.03));
}
