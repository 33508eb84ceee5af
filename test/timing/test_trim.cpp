#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {
PhaseSpec trim_all() {
  PhaseSpec p;
  p.name = "trim";
  p.kind = PhaseKind::kTrim;
  p.trim.mode = TrimMode::kAll;
  return p;
}
}  // namespace

TEST_CASE("TRIM unmaps without programming, trimmed reads cost no flash, and a drive without TRIM rejects it",
          "[timing][trim]") {
  const std::string yaml = drive_yaml("2", "2", "64", "50us", "100MB/s", "3Gbps");
  const DriveConfig with_trim = drive_from_yaml(yaml);
  DriveConfig without_trim = with_trim;
  without_trim.controller.trim = false;
  const ScenarioSpec s =
      scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)), trim_all(),
                job_phase("read", RwMode::kRandRead, 4096, 1, percent(100), kPicosPerSec / 20)});
  ScenarioRunner a("trim", s, with_trim);
  ScenarioRunner b("notrim", s, without_trim);
  sc_core::sc_start();
  REQUIRE(a.finished());
  REQUIRE(b.finished());
  const Ftl& ftl_a = a.ssd.controller.ftl();
  const Ftl& ftl_b = b.ssd.controller.ftl();
  // Trimmed: nothing valid left, and the TRIM itself programmed nothing.
  std::uint64_t valid_a = 0, valid_b = 0;
  for (std::uint32_t blk = 0; blk < ftl_a.geometry().blocks; ++blk) {
    valid_a += ftl_a.valid_units(blk);
    valid_b += ftl_b.valid_units(blk);
  }
  CHECK(valid_a == 0);
  CHECK(a.results()[2].nand_units_programmed() == 0);
  CHECK(a.results()[2].io.trims > 0);
  CHECK(a.results()[2].io.errors == 0);
  // Rejected: every TRIM command completes with an error and the data stays mapped.
  CHECK(b.results()[2].io.errors > 0);
  CHECK(b.results()[2].io.trims == 0);
  CHECK(valid_b == ftl_b.user_units());
  // A read of a trimmed LBA is answered without a flash read: link + firmware only.
  const double trimmed_read = a.results()[3].io.latency()->mean();
  const double mapped_read = b.results()[3].io.latency()->mean();
  CAPTURE(trimmed_read, mapped_read);
  CHECK(trimmed_read < mapped_read - 50.0 * kPicosPerUs);  // tR (50 us) + transfer saved
  CHECK(ftl_a.check_invariants().empty());
}

TEST_CASE("idle-time GC runs only while the host is away and a returning command waits for little", "[timing][idle]") {
  std::string yaml = drive_yaml("2", "2", "64", "50us", "100MB/s", "3Gbps", "0.25",
                                "  gc:\n    idle_delay: 10ms\n    idle_free_blocks: 1000\n");
  const DriveConfig config = drive_from_yaml(yaml);
  PhaseSpec age = job_phase("age", RwMode::kRandWrite, 4096, 32, percent(100));
  age.job.io_size = percent(300);
  age.job.io_size_set = true;
  PhaseSpec idle;
  idle.name = "idle";
  idle.kind = PhaseKind::kIdle;
  idle.idle_ps = 5 * kPicosPerSec;
  const ScenarioSpec s =
      scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)), age, idle,
                job_phase("read", RwMode::kRandRead, 4096, 1, percent(100), kPicosPerSec / 20)});
  ScenarioRunner run("idle", s, config);
  sc_core::sc_start();
  REQUIRE(run.finished());
  const PhaseResult& idle_result = run.results()[3];
  const PhaseResult& read = run.results()[4];
  CAPTURE(idle_result.background_gc_ops(), idle_result.free_blocks_end(), run.results()[2].free_blocks_end(),
          read.io.latency()->max());
  CHECK(idle_result.background_gc_ops() > 0);
  CHECK(idle_result.free_blocks_end() > run.results()[2].free_blocks_end());
  CHECK(read.background_gc_ops() == 0);  // the host is back: no new GC work is issued
  // The first read waits at most for the GC step already queued on its die (a read, a
  // program and an erase at most: 50 + 900 + 2000 us plus transfers).
  CHECK(read.io.latency()->max() < 3500 * kPicosPerUs);
}
