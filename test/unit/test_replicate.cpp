// Fast aging by replication (controller/ftl/precondition.h, Ftl::replicate): a sequential fill
// replicates to exactly the drive's own fill; a random overwrite to a state that matches
// simulated aging; where it does not apply it says why and simulates.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::small_drive;

namespace {

// 16 dies of 128 blocks x 64 pages of 8 KiB (2 units a page), 10 % spare; user units a multiple
// of 16 dies x 2 units, so that every split leaves no LPN over.
DriveConfig replica_drive(GcPolicyKind policy = GcPolicyKind::kGreedy) {
  DriveConfig c = small_drive(4, 4, 128, 64, 8192, 0.10, policy);
  c.controller.user_bytes = c.controller.user_bytes / (32 * 4096) * (32 * 4096);
  return c;
}

PreconditionSpec spec_of(double fill, double random, PreconditionMethod method, std::uint32_t group = 0) {
  PreconditionSpec s;
  s.fill_percent = fill;
  s.random_percent = random;
  s.seed = 5;
  s.method = method;
  s.group_dies = group;
  return s;
}

double mean_valid(const PreconditionResult& r) {
  double blocks = 0, units = 0;
  for (std::size_t v = 0; v < r.valid_histogram.size(); ++v) {
    blocks += double(r.valid_histogram[v]);
    units += double(v) * double(r.valid_histogram[v]);
  }
  return blocks > 0 ? units / blocks : 0;
}

// WAF of `writes` further random unit writes, untimed.
double waf_of_next(Ftl& ftl, std::uint64_t writes, std::uint64_t seed) {
  const FtlStats before = ftl.stats();
  PageWriter writer(ftl);
  Rng rng(seed);
  for (std::uint64_t i = 0; i < writes; ++i) writer.write(static_cast<Lpn>(rng.below(ftl.user_units())));
  writer.flush();
  const FtlStats& after = ftl.stats();
  return double(after.nand_units_programmed() - before.nand_units_programmed()) /
         double(after.host_units_written - before.host_units_written);
}

}  // namespace

TEST_CASE("a sequential fill aged by replication is exactly the drive's own sequential fill", "[ftl][replicate]") {
  const DriveConfig config = replica_drive();
  for (const std::uint32_t group : {1u, 2u, 4u, 8u}) {
    for (const double fill : {100.0, 37.5}) {
      Ftl simulated(config), replicated(config);
      const PreconditionResult a = precondition(simulated, spec_of(fill, 0, PreconditionMethod::kSimulate));
      const PreconditionResult b = precondition(replicated, spec_of(fill, 0, PreconditionMethod::kReplicate, group));
      INFO("group of " << group << " dies, fill " << fill << " %");
      CHECK(a.replicas == 1);
      CHECK(b.replicas == 16 / group);
      CHECK(b.group_dies == group);
      CHECK(a.units_written == b.units_written);
      CHECK(replicated.check_invariants().empty());
      const Geometry& g = simulated.geometry();
      std::uint64_t different = 0;
      for (Lpn lpn = 0; lpn < simulated.user_units(); ++lpn)
        different += simulated.lookup(lpn) != replicated.lookup(lpn);
      CHECK(different == 0);
      for (std::uint32_t b2 = 0; b2 < g.blocks; ++b2) {
        if (simulated.valid_units(b2) != replicated.valid_units(b2)) {
          FAIL("block " << b2 << ": " << simulated.valid_units(b2) << " vs " << replicated.valid_units(b2));
        }
      }
      for (std::uint32_t die = 0; die < g.dies; ++die) CHECK(simulated.free_blocks(die) == replicated.free_blocks(die));
      CHECK(a.valid_histogram == b.valid_histogram);
    }
  }
}

TEST_CASE("a random overwrite aged by replication matches simulated aging within 2 %", "[ftl][replicate]") {
  const DriveConfig config = replica_drive();
  Ftl simulated(config), replicated(config);
  const PreconditionResult a = precondition(simulated, spec_of(100, 200, PreconditionMethod::kSimulate));
  const PreconditionResult b = precondition(replicated, spec_of(100, 200, PreconditionMethod::kReplicate));
  REQUIRE(replicated.check_invariants().empty());
  CHECK(b.replicas == 2);
  CHECK(b.group_dies == 8);
  CHECK(a.simulated_because.empty());
  // The writes asked for, give or take the staggering: copies r = 0, 1 are taken (r - 1) blocks per
  // group die from them (a block of 8 dies: 8 x 128 units), half a block short on average.
  const std::int64_t block_of_group = 8 * std::int64_t(simulated.geometry().units_per_block);
  const std::int64_t asked = std::int64_t(a.units_written);
  CHECK(std::int64_t(b.units_written) >= asked - block_of_group - 8);
  CHECK(std::int64_t(b.units_written) <= asked + 8);
  // GC ran many times over: a real steady state, not a fill.
  REQUIRE(simulated.stats().gc_erases > 4 * simulated.geometry().blocks);
  const double copied_a = double(simulated.stats().gc_units_copied) / double(simulated.stats().host_units_written);
  const double copied_b = double(replicated.stats().gc_units_copied) / double(replicated.stats().host_units_written);
  CHECK(copied_b == Approx(copied_a).epsilon(0.02));
  CHECK(mean_valid(b) == Approx(mean_valid(a)).epsilon(0.02));
  CHECK(double(b.free_blocks) == Approx(double(a.free_blocks)).margin(0.02 * double(simulated.geometry().blocks)));
  // The next writes (2x the drive) cost the same.
  const std::uint64_t next = 2 * std::uint64_t(simulated.user_units());
  const double waf_a = waf_of_next(simulated, next, 77);
  const double waf_b = waf_of_next(replicated, next, 77);
  CHECK(waf_a > 2.0);
  CHECK(waf_b == Approx(waf_a).epsilon(0.02));
  CHECK(replicated.check_invariants().empty());
}

TEST_CASE("replication keeps every GC policy's victim lists and FIFO order consistent", "[ftl][replicate]") {
  for (const GcPolicyKind policy :
       {GcPolicyKind::kFifo, GcPolicyKind::kCostBenefit, GcPolicyKind::kDChoice, GcPolicyKind::kRandom}) {
    const DriveConfig config = replica_drive(policy);
    Ftl simulated(config), replicated(config);
    precondition(simulated, spec_of(100, 150, PreconditionMethod::kSimulate));
    precondition(replicated, spec_of(100, 150, PreconditionMethod::kReplicate));
    INFO("policy " << int(policy));
    REQUIRE(replicated.check_invariants().empty());
    const std::uint64_t next = simulated.user_units();
    const double waf_a = waf_of_next(simulated, next, 3);
    const double waf_b = waf_of_next(replicated, next, 3);
    CHECK(waf_b == Approx(waf_a).epsilon(0.03));
    CHECK(replicated.check_invariants().empty());
  }
}

TEST_CASE("replication says why it does not apply and the drive is aged by simulation", "[ftl][replicate]") {
  {  // small drive, automatic choice: simulated, every figure as before
    const DriveConfig config = replica_drive();
    Ftl a(config), b(config);
    PreconditionSpec s = spec_of(100, 100, PreconditionMethod::kAuto);
    const PreconditionResult r = precondition(a, s);
    CHECK(r.replicas == 1);
    CHECK(r.simulated_because.find("2^24") != std::string::npos);
    precondition(b, spec_of(100, 100, PreconditionMethod::kSimulate));
    std::ostringstream sa, sb;
    a.save(sa);
    b.save(sb);
    CHECK(sa.str() == sb.str());
  }
  {  // the drive holds data already
    const DriveConfig config = replica_drive();
    Ftl ftl(config);
    precondition(ftl, spec_of(10, 0, PreconditionMethod::kSimulate));
    CHECK_THROWS_WITH(precondition(ftl, spec_of(100, 100, PreconditionMethod::kReplicate)),
                      Catch::Contains("already holds data"));
    const PreconditionResult r = precondition(ftl, spec_of(100, 0, PreconditionMethod::kAuto));
    CHECK(r.simulated_because == "the drive already holds data");
  }
  {  // a group that does not divide the dies
    const DriveConfig config = replica_drive();
    Ftl ftl(config);
    CHECK_THROWS_WITH(precondition(ftl, spec_of(100, 100, PreconditionMethod::kReplicate, 3)),
                      Catch::Contains("does not divide"));
    CHECK(ftl.free_blocks_total() == ftl.geometry().blocks);  // nothing written
  }
  {  // striped relocation and the hybrid FTL
    DriveConfig striped = replica_drive();
    striped.controller.gc.relocation = GcRelocation::kStriped;
    Ftl s(striped);
    CHECK_THROWS_WITH(precondition(s, spec_of(100, 100, PreconditionMethod::kReplicate)), Catch::Contains("striped"));
    DriveConfig hybrid = small_drive(4, 4, 128, 64, 4096, 0.10);
    hybrid.controller.ftl = FtlScheme::kHybrid;
    Ftl h(hybrid);
    CHECK_THROWS_WITH(precondition(h, spec_of(100, 0, PreconditionMethod::kReplicate)), Catch::Contains("hybrid"));
  }
  {  // a limited mapping cache (a listener on every page placed)
    struct Counter : PagePlacedListener {
      std::uint64_t pages = 0;
      void page_placed(const Lpn*, std::uint32_t) override { ++pages; }
    } counter;
    const DriveConfig config = replica_drive();
    Ftl ftl(config);
    const PreconditionResult r = precondition(ftl, spec_of(100, 0, PreconditionMethod::kAuto), &counter);
    CHECK(r.simulated_because.find("mapping cache") != std::string::npos);
    CHECK(counter.pages == (ftl.user_units() + 1) / 2);
  }
}

TEST_CASE("replication of a drive whose mapping unit is a virtual page over two dies", "[ftl][replicate]") {
  DriveConfig config = small_drive(4, 4, 128, 64, 4096, 0.10);
  config.controller.mapping_unit_bytes = 8192;  // k = 2: the FTL sees 8 die pairs
  config.controller.user_bytes = config.controller.user_bytes / (16 * 8192) * (16 * 8192);
  Ftl simulated(config), replicated(config);
  REQUIRE(simulated.geometry().dies == 8);
  REQUIRE(simulated.geometry().pages_per_unit == 2);
  precondition(simulated, spec_of(100, 0, PreconditionMethod::kSimulate));
  const PreconditionResult r = precondition(replicated, spec_of(100, 0, PreconditionMethod::kReplicate, 2));
  CHECK(r.replicas == 4);
  REQUIRE(replicated.check_invariants().empty());
  std::uint64_t different = 0;
  for (Lpn lpn = 0; lpn < simulated.user_units(); ++lpn) different += simulated.lookup(lpn) != replicated.lookup(lpn);
  CHECK(different == 0);
  Ftl aged(config);
  precondition(aged, spec_of(100, 200, PreconditionMethod::kReplicate, 2));
  CHECK(aged.check_invariants().empty());
  CHECK(aged.stats().gc_erases > aged.geometry().blocks);
}

TEST_CASE("on a 4-die drive, groups of 1 and 2 dies give simulation's valid-count distribution", "[ftl][replicate]") {
  DriveConfig config = small_drive(2, 2, 128, 64, 8192, 0.10);
  config.controller.user_bytes = config.controller.user_bytes / (32 * 4096) * (32 * 4096);
  Ftl simulated(config);
  const PreconditionResult a = precondition(simulated, spec_of(100, 200, PreconditionMethod::kSimulate));
  for (const std::uint32_t group : {1u, 2u}) {
    INFO("group of " << group << " dies");
    Ftl replicated(config);
    const PreconditionResult b = precondition(replicated, spec_of(100, 200, PreconditionMethod::kReplicate, group));
    REQUIRE(replicated.check_invariants().empty());
    CHECK(b.replicas == 4 / group);
    REQUIRE(a.valid_histogram.size() == b.valid_histogram.size());
    CHECK(mean_valid(b) == Approx(mean_valid(a)).epsilon(0.01));
    CHECK(b.free_blocks == a.free_blocks);
    // Two-sample Kolmogorov-Smirnov distance of the closed blocks' valid counts, below its 5 %
    // critical value: the two states are draws from one distribution.
    double n = 0, m = 0;
    for (std::size_t v = 0; v < a.valid_histogram.size(); ++v) {
      n += double(a.valid_histogram[v]);
      m += double(b.valid_histogram[v]);
    }
    double ca = 0, cb = 0, ks = 0;
    for (std::size_t v = 0; v < a.valid_histogram.size(); ++v) {
      ca += double(a.valid_histogram[v]) / n;
      cb += double(b.valid_histogram[v]) / m;
      ks = std::max(ks, std::abs(ca - cb));
    }
    const double critical = 1.36 * std::sqrt((n + m) / (n * m));
    INFO("KS distance " << ks << ", 5 % critical value " << critical);
    CHECK(ks < critical);
  }
}
