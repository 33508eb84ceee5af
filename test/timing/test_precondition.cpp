#include <catch2/catch.hpp>

#include "model/sim/scenario_runner.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

TEST_CASE("fast preconditioning leaves the FTL exactly as the simulated writes do", "[timing][precondition]") {
  // One die and a one-page buffer: the simulated path then makes the same placement decisions
  // as the fast path (nothing to choose between, nothing coalesced in the buffer).
  std::string yaml = drive_yaml("1", "1", "64", "50us", "100MB/s", "3Gbps", "0.2");
  yaml.replace(yaml.find("write_buffer: 1MiB"), 18, "write_buffer: 4KiB");
  yaml.replace(yaml.find("max_transfer: 1MiB"), 18, "max_transfer: 4KiB");
  const DriveConfig config = drive_from_yaml(yaml);
  PhaseSpec fill = job_phase("fill", RwMode::kWrite, 4096, 1, percent(100));
  PhaseSpec overwrite = job_phase("overwrite", RwMode::kRandWrite, 4096, 1, percent(100));
  overwrite.job.io_size = percent(250);
  overwrite.job.io_size_set = true;
  overwrite.job.randseed = 77;
  overwrite.job.randseed_set = true;
  PhaseSpec fast;
  fast.name = "precondition";
  fast.kind = PhaseKind::kPrecondition;
  fast.precondition.fill_percent = 100;
  fast.precondition.random_percent = 250;
  fast.precondition.seed = 77;
  fast.precondition.seed_set = true;
  ScenarioRunner slow("slow", scenario({erase_phase(), fill, overwrite}), config);
  ScenarioRunner quick("fast", scenario({erase_phase(), fast}), config);
  sc_core::sc_start();
  REQUIRE(slow.finished());
  REQUIRE(quick.finished());
  const Ftl& a = slow.ssd.controller.ftl();
  const Ftl& b = quick.ssd.controller.ftl();
  REQUIRE(a.stats().gc_erases > 0);  // GC ran: the comparison covers its decisions too
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
  // And the fast path took no simulated time.
  CHECK(quick.results()[1].seconds() == 0.0);
}
