// The read spread (controller/sched/read_spread.h): how a host read's page reads fall on the
// dies, counted per command, and what it does to a sequential read: the same sequential reads
// are slower over data written at random (pages of a read share dies) than over data written
// in order (striped over the dies).
#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

struct Spread {
  std::uint64_t commands, pages, dies, busiest;
  double busiest_mean() const { return double(busiest) / double(commands); }
  double dies_mean() const { return double(dies) / double(commands); }
};

Spread spread(const PhaseResult& r) {
  return {r.controller("read_spread.commands"), r.controller("read_spread.pages"), r.controller("read_spread.dies"),
          r.controller("read_spread.busiest_die_pages")};
}

// Sums that hold for any layout: a command reads at least one page on at least one die, no more
// dies than pages, and its busiest die reads between one page and all of them.
void check_bounds(const Spread& s) {
  CHECK(s.commands <= s.dies);
  CHECK(s.dies <= s.pages);
  CHECK(s.commands <= s.busiest);
  CHECK(s.busiest <= s.pages);
}

}  // namespace

TEST_CASE("read spread: sequential reads of randomly written data share dies and run slower", "[timing][spread]") {
  // 8 dies on 4 channels, 4 KiB pages: a 32 KiB read is one page per die when striped.
  const DriveConfig config = drive_from_yaml(drive_yaml("4", "2", "32", "50us", "100MB/s", "3Gbps"));
  const std::uint64_t stripe = 8 * 4096;
  const ScenarioSpec in_order =
      scenario({erase_phase(), job_phase("seq_write", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                job_phase("seq_read", RwMode::kRead, stripe, 1, percent(100)),
                job_phase("rand_read", RwMode::kRandRead, 4096, 1, bytes(2000 * 4096))});
  const ScenarioSpec scattered =
      scenario({erase_phase(), job_phase("rand_write", RwMode::kRandWrite, 4096, 32, percent(100)),
                job_phase("seq_read", RwMode::kRead, stripe, 1, percent(100))});
  ScenarioRunner a("in_order", in_order, config);
  ScenarioRunner b("scattered", scattered, config);
  sc_core::sc_start();
  REQUIRE(a.finished());
  REQUIRE(b.finished());

  // One 4 KiB read: one page on one die, every time.
  const PhaseResult& rand_read = a.results()[3];
  const Spread single = spread(rand_read);
  CHECK(single.commands == rand_read.io.reads);
  CHECK(single.pages == single.commands);
  CHECK(single.dies == single.commands);
  CHECK(single.busiest == single.commands);

  const PhaseResult& ordered_read = a.results()[2];
  const PhaseResult& scattered_read = b.results()[2];
  const Spread o = spread(ordered_read), s = spread(scattered_read);
  check_bounds(o);
  check_bounds(s);
  // Every unit of the drive was written: each 32 KiB read is 8 page reads (4 KiB pages, one
  // unit each), and the counts are the controller's flash reads.
  CHECK(o.pages == 8 * o.commands);
  CHECK(s.pages == 8 * s.commands);
  CHECK(o.pages == ordered_read.controller("read_units.from_nand"));
  CAPTURE(o.dies_mean(), o.busiest_mean(), s.dies_mean(), s.busiest_mean(), ordered_read.read_mbps(),
          scattered_read.read_mbps());
  // Written in order, a stripe-sized read finds its pages on (nearly) as many dies; written at
  // random, pages of one read collide on dies (8 pages over 8 dies at random: about 5.3 dies,
  // the busiest reading about 2.5) and the read waits for them one after another.
  CHECK(o.dies_mean() > 7.0);
  CHECK(o.busiest_mean() < 1.3);
  CHECK(s.dies_mean() < 6.5);
  CHECK(s.busiest_mean() > 1.8);
  CHECK(scattered_read.read_mbps() < 0.9 * ordered_read.read_mbps());
}
