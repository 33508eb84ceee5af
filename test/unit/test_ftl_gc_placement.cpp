// GC write placement (controller.gc.destination) and the sampled victim policies (random,
// d-choice) on a whole FTL: what the blocks end up holding, the reserve that keeps GC from
// running out of blocks, seeds, and drive images.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "controller/ftl/ftl.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::fill_sequentially;
using ssdlab::test::FtlDriver;
using ssdlab::test::image_of;
using ssdlab::test::small_drive;

namespace {

DriveConfig placement_drive(GcDestination destination, GcPolicyKind policy = GcPolicyKind::kGreedy,
                            std::uint32_t page_bytes = 4096, double op = 0.15, std::uint32_t blocks = 32) {
  DriveConfig c = small_drive(2, 2, blocks, 32, page_bytes, op, policy);
  c.controller.gc.destination = destination;
  c.controller.gc.d_choices = 3;
  return c;
}

// What each block holds since its last erase: units the host wrote and units GC relocated.
struct BlockContents : FtlListener {
  explicit BlockContents(const Ftl& ftl) : ftl(ftl), host(ftl.geometry().blocks, 0), gc(ftl.geometry().blocks, 0) {}
  void relocated(Lpn, Pua, Pua to) override { ++gc[ftl.geometry().block_of_unit(to)]; }
  void erased(std::uint32_t block) override { host[block] = gc[block] = 0; }
  // After the host's page of `lpns` was placed: where each now lives.
  void host_wrote(const Lpn* lpns, std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t e = ftl.lookup(lpns[i]);
      if (e != kUnmapped && !Ftl::is_buffered(e)) ++host[ftl.geometry().block_of_unit(e)];
    }
  }
  std::uint32_t mixed_blocks() const {
    std::uint32_t n = 0;
    for (std::size_t b = 0; b < host.size(); ++b) n += host[b] > 0 && gc[b] > 0;
    return n;
  }
  const Ftl& ftl;
  std::vector<std::uint32_t> host, gc;
};

// One page of distinct random LPNs.
void random_page(const Ftl& ftl, Rng& rng, std::vector<Lpn>& page) {
  for (std::size_t k = 0; k < page.size(); ++k) {
    Lpn lpn;
    do {
      lpn = static_cast<Lpn>(rng.below(ftl.user_units()));
    } while (std::find(page.begin(), page.begin() + std::ptrdiff_t(k), lpn) != page.begin() + std::ptrdiff_t(k));
    page[k] = lpn;
  }
}

}  // namespace

TEST_CASE("shared GC placement puts GC copies and host units in the same block and separate never does",
          "[ftl][gc][placement]") {
  for (const GcDestination destination : {GcDestination::kSeparate, GcDestination::kShared}) {
    CAPTURE(to_string(destination));
    Ftl ftl(placement_drive(destination));
    BlockContents contents(ftl);
    ftl.set_listener(&contents);
    FtlDriver driver(ftl);
    Rng rng(8);
    std::uint32_t mixed_seen = 0;
    for (std::uint64_t i = 0; i < 4 * std::uint64_t(ftl.user_units()); ++i) {
      const auto lpn = static_cast<Lpn>(i < ftl.user_units() ? i : rng.below(ftl.user_units()));
      driver.write(lpn);
      contents.host_wrote(&lpn, 1);
      const std::uint32_t mixed = contents.mixed_blocks();
      if (destination == GcDestination::kSeparate) REQUIRE(mixed == 0);
      mixed_seen = std::max(mixed_seen, mixed);
    }
    REQUIRE(ftl.stats().gc_units_copied > 0);
    REQUIRE(ftl.check_invariants().empty());
    if (destination == GcDestination::kShared) {
      CHECK(mixed_seen > 0);
      // GC has no block of its own: nearly every block it wrote into holds host units too.
      std::uint32_t gc_blocks = 0;
      for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) gc_blocks += contents.gc[b] > 0;
      CHECK(2 * contents.mixed_blocks() > gc_blocks);
    }
  }
}

TEST_CASE("shared GC placement keeps a free block for GC under low spare, idle GC and whole victims",
          "[ftl][gc][placement]") {
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo,
                               GcPolicyKind::kRandom, GcPolicyKind::kDChoice);
  const std::uint32_t page_bytes = GENERATE(4096u, 16384u);
  CAPTURE(to_string(policy), page_bytes);
  // 8.5 % spare over 64 blocks a die, about the least the loader accepts (free_blocks_high + 2
  // spare blocks a die): the free pool sits at its low mark all the time.
  Ftl ftl(placement_drive(GcDestination::kShared, policy, page_bytes, 0.085, 64));
  FtlDriver driver(ftl);
  fill_sequentially(ftl, driver);
  Rng rng(1234);
  std::vector<Lpn> page(ftl.geometry().units_per_page);
  OpList ops;
  for (int i = 0; i < 100000; ++i) {
    random_page(ftl, rng, page);
    driver.write_page(page.data(), static_cast<std::uint32_t>(page.size()));
    const std::uint32_t die = static_cast<std::uint32_t>(rng.below(ftl.geometry().dies));
    if (i % 7 == 0) ftl.trim(static_cast<Lpn>(rng.below(ftl.user_units())));
    ops.clear();
    if (i % 11 == 0) ftl.background_collect(die, 6, 8, ops);
    if (i % 997 == 0) ftl.collect_one(die, ops);
    if (i % 5000 == 0) REQUIRE(ftl.check_invariants().empty());
  }
  REQUIRE(ftl.check_invariants().empty());
  CHECK(ftl.stats().gc_units_copied > 0);
}

TEST_CASE("random and d-choice FTLs of one seed make the same drive and of another seed another",
          "[ftl][gc][placement]") {
  const auto run = [](GcPolicyKind policy, std::uint64_t seed) {
    DriveConfig c = placement_drive(GcDestination::kSeparate, policy);
    c.controller.gc.seed = seed;
    Ftl ftl(c);
    FtlDriver driver(ftl);
    fill_sequentially(ftl, driver);
    Rng rng(5);
    for (std::uint64_t i = 0; i < 2 * std::uint64_t(ftl.user_units()); ++i) {
      driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    }
    REQUIRE(ftl.check_invariants().empty());
    return image_of(ftl);
  };
  for (const GcPolicyKind policy : {GcPolicyKind::kRandom, GcPolicyKind::kDChoice}) {
    CAPTURE(to_string(policy));
    CHECK(run(policy, 11) == run(policy, 11));
    CHECK(run(policy, 11) != run(policy, 12));
  }
}

TEST_CASE("random and d-choice drive images load and the loaded drive goes on consistently", "[ftl][gc][image]") {
  for (const GcPolicyKind policy : {GcPolicyKind::kRandom, GcPolicyKind::kDChoice}) {
    for (const GcDestination destination : {GcDestination::kSeparate, GcDestination::kShared}) {
      CAPTURE(to_string(policy), to_string(destination));
      const DriveConfig c = placement_drive(destination, policy, 16384);
      Ftl ftl(c);
      FtlDriver driver(ftl);
      fill_sequentially(ftl, driver);
      Rng rng(3);
      std::vector<Lpn> page(ftl.geometry().units_per_page);
      for (std::uint64_t i = 0; i < std::uint64_t(ftl.user_units()); ++i) {
        random_page(ftl, rng, page);
        driver.write_page(page.data(), static_cast<std::uint32_t>(page.size()));
      }
      const std::string image = image_of(ftl);
      Ftl loaded(c);
      std::istringstream in(image);
      loaded.load(in);
      CHECK(image_of(loaded) == image);
      FtlDriver more(loaded);
      for (int i = 0; i < 20000; ++i) {
        random_page(loaded, rng, page);
        more.write_page(page.data(), static_cast<std::uint32_t>(page.size()));
      }
      CHECK(loaded.check_invariants().empty());
    }
  }
}
