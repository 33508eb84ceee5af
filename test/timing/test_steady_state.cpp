#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

ScenarioSpec fresh_then_steady() {
  PhaseSpec fresh = job_phase("fresh_randwrite", RwMode::kRandWrite, 4096, 32, percent(100));
  fresh.job.io_size = percent(20);  // fits in the free blocks of a fresh drive: no GC
  fresh.job.io_size_set = true;
  PhaseSpec precondition = job_phase("precondition", RwMode::kRandWrite, 4096, 32, percent(100));
  precondition.job.io_size = percent(200);
  precondition.job.io_size_set = true;
  PhaseSpec steady = job_phase("steady_randwrite", RwMode::kRandWrite, 4096, 32, percent(100));
  steady.job.io_size = percent(100);
  steady.job.io_size_set = true;
  return scenario(
      {erase_phase(), fresh, job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)), precondition, steady});
}

}  // namespace

TEST_CASE("steady-state random writes are several times slower than fresh, and WAF rises as OP shrinks",
          "[timing][steady]") {
  // Two drives that differ only in over-provisioning, simulated side by side.
  const DriveConfig op7 = drive_from_yaml(drive_yaml("2", "2", "128", "50us", "100MB/s", "3Gbps", "0.07"));
  const DriveConfig op28 = drive_from_yaml(drive_yaml("2", "2", "128", "50us", "100MB/s", "3Gbps", "0.28"));
  ScenarioRunner run7("op7", fresh_then_steady(), op7);
  ScenarioRunner run28("op28", fresh_then_steady(), op28);
  sc_core::sc_start();
  REQUIRE(run7.error().empty());
  REQUIRE(run28.error().empty());
  REQUIRE(run7.finished());
  REQUIRE(run28.finished());
  const PhaseResult& fresh7 = run7.results()[1];
  const PhaseResult& steady7 = run7.results()[4];
  const PhaseResult& steady28 = run28.results()[4];
  CAPTURE(fresh7.iops(), steady7.iops(), steady28.iops(), fresh7.waf(), steady7.waf(), steady28.waf());
  CHECK(fresh7.gc_erases() == 0);
  CHECK(fresh7.gc_units_copied() == 0);
  CHECK(fresh7.waf() <= 1.0);  // below 1 when an LBA is rewritten while still in the buffer
  CHECK(fresh7.iops() > 3 * steady7.iops());
  CHECK(steady7.gc_units_copied() > 0);
  CHECK(steady7.waf() > 1.5 * steady28.waf());
  CHECK(steady28.waf() > 1.0);
  CHECK(steady28.iops() > steady7.iops());
  // Drive-level invariants still hold after all of it.
  CHECK(run7.ssd.controller.ftl().check_invariants().empty());
  CHECK(run28.ssd.controller.ftl().check_invariants().empty());
}
