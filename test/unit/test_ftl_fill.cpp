// The untimed sequential fill's fast path (Ftl::fill_fresh_pages through
// PageWriter::write_sequential) leaves byte for byte the state of the page-at-a-time path, and
// stops where that path would do anything else; an image read in place into a drive that maps
// nothing is the same drive as one read beside an aged drive's state, and a refused image leaves
// either as it was.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "base/core/rng.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/precondition.h"
#include "test/unit/image_test_support.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

std::string saved(const Ftl& ftl) {
  std::ostringstream out;
  ftl.save(out);
  return out.str();
}

struct Case {
  const char* name;
  DriveConfig config;
};

DriveConfig with_gc(DriveConfig c, std::uint32_t low, std::uint32_t high, GcDestination dest) {
  c.controller.gc.free_blocks_low = low;
  c.controller.gc.free_blocks_high = high;
  c.controller.gc.destination = dest;
  return c;
}

// Writes `count` LPNs from `first` on, before which `before` (LPNs) were written, both ways.
void require_same(const DriveConfig& config, std::uint64_t first, std::uint64_t count, const std::vector<Lpn>& before,
                  std::uint32_t start_die) {
  Ftl slow(config), fast(config);
  PageWriter a(slow), b(fast);
  a.start_at(start_die);
  b.start_at(start_die);
  for (const Lpn lpn : before) {
    a.write(lpn);
    b.write(lpn);
  }
  for (std::uint64_t lpn = first; lpn < first + count; ++lpn) a.write(static_cast<Lpn>(lpn));
  b.write_sequential(static_cast<Lpn>(first), count);
  CHECK(a.units_written() == b.units_written());
  CHECK(a.page_empty() == b.page_empty());
  CHECK(fast.check_invariants().empty());
  CHECK(saved(slow) == saved(fast));
  // The same drive from here on: where the next page goes, the victim lists, GC.
  Rng r1(7), r2(7);
  for (std::uint64_t i = 0; i < slow.user_units(); ++i) {
    a.write(static_cast<Lpn>(r1.below(slow.user_units())));
    b.write(static_cast<Lpn>(r2.below(fast.user_units())));
  }
  a.flush();
  b.flush();
  CHECK(slow.stats().gc_units_copied > 0);
  CHECK(saved(slow) == saved(fast));
}

// Random unit writes (and a trim every 7th) through the controller's placement.
void overwrite(Ftl& ftl, std::uint64_t seed, std::uint64_t units) {
  PageWriter writer(ftl);
  Rng rng(seed);
  for (std::uint64_t i = 0; i < units; ++i) {
    writer.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    if (i % 7 == 0) {
      writer.flush();
      ftl.trim(static_cast<Lpn>(rng.below(ftl.user_units())));
    }
  }
  writer.flush();
}

}  // namespace

TEST_CASE("a sequential fill's fast path leaves exactly the page-at-a-time path's state", "[ftl][fill]") {
  const Case cases[] = {
      {"4 dies, 1 unit a page, greedy", small_drive(2, 2, 32, 32, 4096, 0.25)},
      {"16 dies, 2 units a page, cost-benefit", small_drive(4, 4, 64, 16, 8192, 0.15, GcPolicyKind::kCostBenefit)},
      {"3 dies, 4 units a page, FIFO", small_drive(1, 3, 64, 8, 16384, 0.2, GcPolicyKind::kFifo)},
      {"shared GC destination", with_gc(small_drive(2, 2, 32, 16, 8192, 0.2), 2, 3, GcDestination::kShared)},
      // GC owed before the fill ends: the fast path stops and the general one goes on.
      {"GC during the fill", with_gc(small_drive(1, 2, 16, 16, 4096, 0.25), 6, 7, GcDestination::kSeparate)},
  };
  for (const Case& c : cases) {
    const std::uint64_t units = Ftl(c.config).user_units();
    const std::uint32_t upp = Geometry::from(c.config).units_per_page;
    INFO(c.name << ", " << units << " user units");
    SECTION(std::string(c.name) + ": whole drive") { require_same(c.config, 0, units, {}, 0); }
    SECTION(std::string(c.name) + ": 37.5 %, odd count, from die 1") {
      require_same(c.config, 0, units * 3 / 8 + 1, {}, 1);
    }
    SECTION(std::string(c.name) + ": after a part-filled page") {
      require_same(c.config, upp, units - upp, {static_cast<Lpn>(0)}, 0);
    }
    SECTION(std::string(c.name) + ": over LPNs already written") {
      // Mapped LPNs in the range: the fast path must not take them as fresh.
      std::vector<Lpn> before;
      for (std::uint32_t i = 0; i < 3 * upp; ++i) before.push_back(static_cast<Lpn>(units / 2 + i));
      require_same(c.config, 0, units, before, 0);
    }
  }
}

TEST_CASE("the fast path stops at the first page the general path would treat otherwise", "[ftl][fill]") {
  const DriveConfig config = with_gc(small_drive(1, 2, 16, 16, 4096, 0.25), 6, 7, GcDestination::kSeparate);
  Ftl ftl(config);
  std::uint32_t die = 0;
  const std::uint64_t pages = ftl.user_units();  // 1 unit a page
  const std::uint64_t placed = ftl.fill_fresh_pages(0, pages, die);
  CHECK(placed > 0);
  CHECK(placed < pages);                    // GC would be owed before the drive is full
  CHECK(ftl.stats().gc_units_copied == 0);  // and the fast path did none
  CHECK(ftl.check_invariants().empty());
  // A hybrid FTL is never filled this way.
  DriveConfig hybrid = small_drive(2, 2, 32, 32, 4096, 0.25);
  hybrid.controller.ftl = FtlScheme::kHybrid;
  Ftl h(hybrid);
  std::uint32_t d = 0;
  CHECK(h.fill_fresh_pages(0, 8, d) == 0);
}

TEST_CASE("an image read in place into an empty drive is the drive read beside an aged one", "[ftl][image][fill]") {
  const DriveConfig config = small_drive(2, 2, 32, 32, 8192, 0.2);
  for (const std::uint64_t budget : {P2lTable::kDefaultMemoryBudget, std::uint64_t(0)}) {  // 0: P2L spilled
    INFO("P2L memory budget " << budget);
    Ftl source(config, budget);
    overwrite(source, 3, 3 * source.user_units());
    const std::string image = saved(source);

    Ftl empty(config, budget), aged(config, budget);
    overwrite(aged, 4, 2 * aged.user_units());
    const std::string aged_before = saved(aged);
    {
      std::istringstream in(image);
      empty.load(in);  // in place
    }
    {
      std::istringstream in(image);
      aged.load(in);  // beside the old state
    }
    CHECK(saved(empty) == image);
    CHECK(saved(aged) == image);

    // Refused: a mapping entry pointed at a unit holding another LPN (in range, checksum off).
    std::string bad = image;
    Lpn mapped = 0;
    while (source.lookup(mapped) == kUnmapped) ++mapped;
    Lpn other_lpn = mapped + 1;
    while (source.lookup(other_lpn) == kUnmapped) ++other_lpn;
    poke<std::uint32_t>(bad, section_of(image, "L2P ").payload + 4 * std::size_t(mapped), source.lookup(other_lpn));
    FtlLoadOptions unchecked;
    unchecked.verify_checksums = false;
    Ftl fresh(config, budget);
    const std::string fresh_image = saved(fresh);
    {
      std::istringstream in(bad);
      CHECK_THROWS_WITH(fresh.load(in, unchecked), Catch::Contains("inconsistent state"));
    }
    CHECK(saved(fresh) == fresh_image);  // maps nothing again, every P2L entry empty
    Ftl aged2(config, budget);
    overwrite(aged2, 4, 2 * aged2.user_units());
    {
      std::istringstream in(bad);
      CHECK_THROWS_WITH(aged2.load(in, unchecked), Catch::Contains("inconsistent state"));
    }
    CHECK(saved(aged2) == aged_before);
    // Damage found by a checksum after the big tables were read in place.
    std::string flipped = image;
    const std::size_t vald = section_of(image, "VALD").payload;
    flipped[vald] = static_cast<char>(flipped[vald] ^ 0x40);
    {
      std::istringstream in(flipped);
      CHECK_THROWS_WITH(fresh.load(in), Catch::Contains("checksum mismatch"));
    }
    CHECK(saved(fresh) == fresh_image);
    // And the refused drives still take the good image.
    std::istringstream in(image);
    fresh.load(in);
    CHECK(saved(fresh) == image);
  }
}

TEST_CASE("auto preconditioning simulates a fill alone and replicates a random overwrite", "[ftl][fill][replicate]") {
  // 8 dies x 4096 blocks x 256 pages of 16 KiB: 2^25 units of 4 KiB, more than 2^24 for the user.
  const DriveConfig config = small_drive(2, 4, 4096, 256, 16384, 0.05);
  PreconditionSpec spec;
  spec.fill_percent = 100;
  spec.random_percent = 0;
  spec.method = PreconditionMethod::kAuto;
  Ftl filled(config);
  REQUIRE(filled.user_units() >= kReplicateMinUnits);
  const PreconditionResult fill = precondition(filled, spec);
  CHECK(fill.replicas == 1);
  CHECK(fill.simulated_because == kReplicateFillOnly);
  CHECK(replication_not_worth_it(fill.simulated_because));
  CHECK(fill.units_written == filled.user_units());
  CHECK(filled.stats().host_units_programmed == filled.user_units());
  spec.random_percent = 5;
  Ftl aged(config);
  const PreconditionResult overwrite = precondition(aged, spec);
  CHECK(overwrite.replicas > 1);
  CHECK(overwrite.simulated_because.empty());
}
