// The phases that change the drive without simulating time (fast preconditioning, secure
// erase, a mapping loaded from an image) must leave it as timed work would: nothing queued
// for the next phase to pay, a mapping cache that agrees with the mapping, idle-time GC
// as after the host's last command.
#include <catch2/catch.hpp>

#include <sstream>

#include "controller/ftl/precondition.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// 4 dies, 13 translation pages of 1024 entries, 2 of them cached.
DriveConfig small_cache_drive(const std::string& gc = "") {
  return drive_from_yaml(drive_yaml("2", "2", "64", "50us", "100MB/s", "3Gbps", "0.2", "  mapping_cache: 8KiB\n" + gc));
}

PhaseSpec read_all() {
  PhaseSpec read = job_phase("randread", RwMode::kRandRead, 4096, 32, percent(100));
  read.job.randseed = 5;
  read.job.randseed_set = true;
  return read;
}

}  // namespace

TEST_CASE("a secure erase after fast preconditioning leaves no flash work and a cold empty mapping cache",
          "[timing][precondition][mapping_cache]") {
  const DriveConfig config = small_cache_drive();
  ScenarioRunner run("run", scenario({erase_phase(), fast_precondition(100, 100, 11), erase_phase(), read_all()}),
                     config);
  run_to_end({&run});
  const PhaseResult& read = run.results()[3];
  REQUIRE(read.io.reads > 0);
  // Every LPN unmapped: reads are answered with zeros without touching flash, and no
  // translation page is on flash any more (nothing to read, nothing dirty to write back).
  CHECK(read.map_reads() == 0);
  CHECK(read.map_writes() == 0);
  CHECK(read.die_utilisation() == 0.0);
  const MappingCache& cache = run.ssd.controller.mapping_cache();
  for (std::uint64_t page = 0; page < cache.pages(); ++page) {
    INFO("translation page " << page);
    CHECK_FALSE(cache.dirty(page));
    CHECK_FALSE(cache.on_flash(page));
  }
}

TEST_CASE("a mapping loaded before the simulation starts is on flash for the mapping cache",
          "[timing][mapping_cache][image]") {
  const DriveConfig config = small_cache_drive();
  // The mapping of an aged drive, as `ssdlab serve --image` restores it.
  std::stringstream image;
  const std::uint64_t spec_seed = 4;
  {
    Ftl aged(config);
    PreconditionSpec spec;
    spec.random_percent = 100;
    spec.seed = spec_seed;
    precondition(aged, spec);
    aged.save(image);
  }
  ScenarioRunner loaded("loaded", scenario({read_all()}), config);
  loaded.ssd.control().untimed_ftl().load(image);
  // The same mapping reached by writing it: its translation pages went to flash as the cache
  // evicted them.
  ScenarioRunner written("written", scenario({erase_phase(), fast_precondition(100, 100, spec_seed), read_all()}),
                         config);
  run_to_end({&loaded, &written});
  const PhaseResult& a = loaded.results()[0];
  const PhaseResult& b = written.results()[2];
  REQUIRE(b.map_reads() > b.io.reads / 2);  // the small cache is felt
  // Every translation page holds mapped entries, none is cached: reading the whole drive
  // misses as often as on the written drive, and each miss reads its page from flash.
  const MappingCache& cache = loaded.ssd.controller.mapping_cache();
  for (std::uint64_t page = 0; page < cache.pages(); ++page) CHECK(cache.on_flash(page));
  const std::uint64_t cached = config.controller.mapping_cache_bytes / config.nand.page_size_bytes;
  CHECK(a.map_reads() >= b.map_reads());  // the written drive starts with pages cached
  CHECK(a.map_reads() <= b.map_reads() + cached);
  CHECK(a.map_writes() == 0);  // nothing was dirty
}

TEST_CASE("idle-time GC after fast preconditioning starts as after the host's last write",
          "[timing][precondition][idle_gc]") {
  const DriveConfig config = small_cache_drive("  gc: {idle_free_blocks: 8, idle_delay: 10ms}\n");
  const Picos idle = 2 * kPicosPerSec;
  const auto [slow_idle, fast_idle] = after_both_preconditions(config, 100, 11, idle_phase(idle));
  REQUIRE(slow_idle.gc_erases() > 0);  // the simulated drive collects while idle
  CHECK(fast_idle.gc_erases() > 0);
  CHECK(fast_idle.free_blocks_end() == slow_idle.free_blocks_end());
  // Its flash operations are its own: GC copies and erases and the translation pages they
  // touch, nothing left over from the preconditioning.
  CHECK(fast_idle.background_gc_ops() <= 2 * slow_idle.background_gc_ops());
}

TEST_CASE("an FTL aged through ftl before the simulation starts leaves no flash work behind",
          "[timing][precondition][mapping_cache]") {
  // As bench/ages its drives: the FTL written directly, GC relocations reaching the controller.
  const DriveConfig config = small_cache_drive();
  const Picos runtime = 200 * kPicosPerSec / 1000;
  PhaseSpec read = job_phase("randread", RwMode::kRandRead, 4096, 32, percent(100), runtime);
  ScenarioRunner aged("aged", scenario({read}), config);
  PreconditionSpec spec;
  spec.random_percent = 200;
  precondition(aged.ssd.control().untimed_ftl(), spec);
  REQUIRE(aged.ssd.controller.ftl().stats().gc_units_copied > 0);
  run_to_end({&aged});
  const PhaseResult& r = aged.results()[0];
  CHECK(r.seconds() < 1.1 * double(runtime) / double(kPicosPerSec));
  CHECK(r.map_reads() > r.io.reads / 2);  // the translation pages are on flash
}
