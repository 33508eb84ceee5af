// Ftl::save / Ftl::load (the mapping half of `ssdlab serve --image`): an aged FTL restored
// into a fresh one is the same FTL, and goes on behaving identically.
#include <catch2/catch.hpp>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/core/rng.h"
#include "controller/ftl/ftl.h"
#include "image_test_support.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::FtlDriver;
using ssdlab::test::image_of;
using ssdlab::test::small_drive;

namespace {

// Random overwrites and trims, one page of distinct LPNs at a time.
void age(Ftl& ftl, FtlDriver& driver, Rng& rng, std::uint64_t pages) {
  const std::uint32_t upp = ftl.geometry().units_per_page;
  std::vector<Lpn> page(upp);
  for (std::uint64_t i = 0; i < pages; ++i) {
    for (std::uint32_t k = 0; k < upp; ++k) {
      Lpn lpn;
      bool dup;
      do {
        lpn = static_cast<Lpn>(rng.below(ftl.user_units()));
        dup = false;
        for (std::uint32_t j = 0; j < k; ++j) dup |= page[j] == lpn;
      } while (dup);
      page[k] = lpn;
    }
    driver.write_page(page.data(), upp);
    if (i % 7 == 0) ftl.trim(static_cast<Lpn>(rng.below(ftl.user_units())));
  }
}

void require_same(const Ftl& a, const Ftl& b) {
  const Geometry& g = a.geometry();
  for (Lpn lpn = 0; lpn < a.user_units(); ++lpn) REQUIRE(a.lookup(lpn) == b.lookup(lpn));
  for (std::uint32_t blk = 0; blk < g.blocks; ++blk) {
    REQUIRE(a.valid_units(blk) == b.valid_units(blk));
    REQUIRE(a.erase_count(blk) == b.erase_count(blk));
    REQUIRE(a.is_closed(blk) == b.is_closed(blk));
  }
  for (std::uint32_t die = 0; die < g.dies; ++die) {
    REQUIRE(a.free_blocks(die) == b.free_blocks(die));
    REQUIRE(a.active_victim(die) == b.active_victim(die));
    REQUIRE(a.next_victim(die) == b.next_victim(die));
  }
  const FtlStats& sa = a.stats();
  const FtlStats& sb = b.stats();
  CHECK(sa.host_units_written == sb.host_units_written);
  CHECK(sa.nand_units_programmed() == sb.nand_units_programmed());
  CHECK(sa.gc_erases == sb.gc_erases);
  CHECK(sa.units_trimmed == sb.units_trimmed);
  CHECK(a.free_blocks_total() == b.free_blocks_total());
  CHECK(b.check_invariants().empty());
  CHECK(image_of(a) == image_of(b));
}

bool same_ops(const OpList& a, const OpList& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind || a[i].origin != b[i].origin || a[i].die != b[i].die || a[i].block != b[i].block ||
        a[i].page != b[i].page || a[i].bytes != b[i].bytes) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("an aged FTL saved and loaded into a fresh one is the same FTL", "[ftl][image]") {
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo);
  const std::uint32_t page_bytes = GENERATE(4096u, 16384u);
  CAPTURE(to_string(policy), page_bytes);
  const DriveConfig config = small_drive(2, 2, 32, 32, page_bytes, 0.15, policy);
  Ftl ftl(config);
  FtlDriver driver(ftl);
  Rng rng(99);
  age(ftl, driver, rng, 3 * std::uint64_t(ftl.user_units()) / ftl.geometry().units_per_page + 17);
  REQUIRE(ftl.stats().gc_erases > 0);  // aged for real
  REQUIRE(ftl.check_invariants().empty());

  const std::string image = image_of(ftl);
  Ftl restored(config);
  std::istringstream in(image);
  restored.load(in);
  require_same(ftl, restored);

  // Both go on identically: same placements, same GC work, same final state.
  FtlDriver driver_a(ftl), driver_b(restored);
  Rng rng_a(5), rng_b(5);
  const std::uint32_t upp = ftl.geometry().units_per_page;
  std::vector<Lpn> page(upp);
  for (int i = 0; i < 3000; ++i) {
    age(ftl, driver_a, rng_a, 1);
    age(restored, driver_b, rng_b, 1);
    REQUIRE(same_ops(driver_a.ops(), driver_b.ops()));
  }
  require_same(ftl, restored);
}

TEST_CASE("FTL image: buffered entries and a victim in progress survive", "[ftl][image]") {
  const DriveConfig config = small_drive(1, 2, 32, 32, 16384, 0.2);
  Ftl ftl(config);
  FtlDriver driver(ftl);
  Rng rng(1);
  // Age until some die is in the middle of collecting a victim.
  int guard = 0;
  auto any_victim = [&] {
    for (std::uint32_t die = 0; die < ftl.geometry().dies; ++die) {
      if (ftl.active_victim(die) >= 0) return true;
    }
    return false;
  };
  age(ftl, driver, rng, ftl.user_units());
  while (!any_victim() && ++guard < 100000) age(ftl, driver, rng, 1);
  REQUIRE(any_victim());
  ftl.write_to_buffer(3, 7);  // newest data of LPN 3 sits in buffer slot 7
  Ftl restored(config);
  std::istringstream in(image_of(ftl));
  restored.load(in);
  require_same(ftl, restored);
  CHECK(Ftl::is_buffered(restored.lookup(3)));
  CHECK(Ftl::buffer_slot(restored.lookup(3)) == 7);
}

TEST_CASE("FTL image: another geometry or a damaged stream is refused", "[ftl][image]") {
  const DriveConfig config = small_drive();
  Ftl ftl(config);
  FtlDriver driver(ftl);
  Rng rng(2);
  age(ftl, driver, rng, 500);
  const std::string image = image_of(ftl);
  const std::string before = image_of(ftl);

  SECTION("other geometry") {
    Ftl other(small_drive(2, 2, 64, 32));
    std::istringstream in(image);
    CHECK_THROWS_WITH(other.load(in), Catch::Contains("blocks per die"));
    CHECK(other.check_invariants().empty());
  }
  SECTION("other GC policy") {
    Ftl other(small_drive(2, 2, 32, 32, 4096, 0.25, GcPolicyKind::kFifo));
    std::istringstream in(image);
    CHECK_THROWS_WITH(other.load(in), Catch::Contains("GC policy"));
  }
  SECTION("truncated") {
    Ftl other(config);
    std::istringstream in(image.substr(0, image.size() / 2));
    CHECK_THROWS_AS(other.load(in), std::runtime_error);
    CHECK(other.check_invariants().empty());
    CHECK(other.free_blocks_total() == other.geometry().blocks);  // untouched
  }
  SECTION("not an image") {
    Ftl other(config);
    std::istringstream in(std::string(4096, 'x'));
    CHECK_THROWS_WITH(other.load(in), Catch::Contains("not an ssdlab FTL image"));
  }
  SECTION("a flipped mapping entry") {
    std::string bad = image;
    Lpn mapped = 0;
    while (ftl.lookup(mapped) == kUnmapped) ++mapped;
    const std::size_t entry = ssdlab::test::section_of(image, "L2P ").payload + 4 * std::size_t(mapped);
    bad[entry] = static_cast<char>(bad[entry] ^ 0x01);
    Ftl other(config);
    std::istringstream in(bad);
    CHECK_THROWS_AS(other.load(in), std::runtime_error);
    CHECK(other.free_blocks_total() == other.geometry().blocks);
  }
  CHECK(image_of(ftl) == before);
}
