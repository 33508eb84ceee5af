// GC batches (nand/die.h, issue 28): untimed GC ops queued on a die run as one job, their
// completions reported together at its end while the controller would not act on them. Where no
// other die shares the bus (one die per channel), bookings made ahead change nothing, so a drive
// with batches gives exactly the results of one without: the late completions are invisible.
#include <catch2/catch.hpp>

#include <string>

#include "app/run/scenario_runner.h"
#include "base/time/timeline.h"
#include "phase_compare.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// The quickstart (fresh and steady-state random writes, sequential fill and reads, QD1/QD32
// random reads), scaled, on `config`; job seeds pinned so that a leading wait phase changes none.
void prepare(ScenarioSpec& spec, DriveConfig& config) {
  RunOptions options;
  options.scenario_path = std::string(SSDLAB_SOURCE_DIR) + "/scenarios/quickstart.yaml";
  options.scale = 0.05;
  prepare_run(options, spec, config);
  spec.sample_interval_ps = kPicosPerSec;  // few time-series rows over the wait
  for (std::size_t i = 0; i < spec.phases.size(); ++i) {
    PhaseSpec& p = spec.phases[i];
    if (p.kind == PhaseKind::kJob && !p.job.randseed_set) {
      p.job.randseed = spec.seed * 1000003ULL + i;
      p.job.randseed_set = true;
    }
    if (p.kind == PhaseKind::kPrecondition && !p.precondition.seed_set) {
      p.precondition.seed = spec.seed * 1000003ULL + i;
      p.precondition.seed_set = true;
    }
  }
}

// `spec` after a wait longer than `spec` runs (SystemC elaborates once per process: the second
// drive runs once the first has finished).
ScenarioSpec after_wait(const ScenarioSpec& spec, Picos wait_ps) {
  ScenarioSpec later = spec;
  PhaseSpec wait;
  wait.name = "wait_for_the_other";
  wait.kind = PhaseKind::kIdle;
  wait.idle_ps = wait_ps;
  later.phases.insert(later.phases.begin(), wait);
  return later;
}

}  // namespace

TEST_CASE(
    "gc batch: with one die per channel a drive gives the same results with GC batches as without, in fewer "
    "callbacks",
    "[gc_batch]") {
  ScenarioSpec spec;
  DriveConfig config;
  prepare(spec, config);
  config.nand.channels *= config.nand.dies_per_channel;  // the same dies, each on its own bus
  config.nand.dies_per_channel = 1;
  const Picos wait_ps = 20000 * kPicosPerSec;
  ScenarioRunner batched("batched", spec, config);
  ScenarioRunner single("single", after_wait(spec, wait_ps), config);
  single.ssd.flash.set_batch_depth(0);
  sc_core::sc_start();
  REQUIRE(batched.finished());
  REQUIRE(single.finished());
  REQUIRE(batched.results().back().sim_end_ps < wait_ps);

  const std::uint64_t copied = check_same_phases(batched.results(), single.results(), 1);
  REQUIRE(copied > 10000);  // GC ran: there was something to batch
  // The die's busy time per origin and op counts are reported as without batches.
  for (std::uint32_t d = 0; d < batched.ssd.flash.dies(); ++d) {
    const DieStats& p = batched.ssd.flash.die(d).stats();
    const DieStats& q = single.ssd.flash.die(d).stats();
    CAPTURE(d);
    CHECK(p.reads == q.reads);
    CHECK(p.programs == q.programs);
    CHECK(p.erases == q.erases);
    CHECK(p.busy_by_origin_ps == q.busy_by_origin_ps);
  }
  const double ratio = double(batched.ssd.timeline.callbacks()) / double(single.ssd.timeline.callbacks());
  CAPTURE(batched.ssd.timeline.callbacks(), single.ssd.timeline.callbacks());
  CHECK(ratio < 0.8);
}
