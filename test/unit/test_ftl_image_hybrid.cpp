// The hybrid log-block FTL in a drive image (section HYBR, controller/ftl/hybrid/hybrid_image.cpp):
// an aged FAST or BAST drive restored into a fresh one is the same drive and goes on merging
// identically; a state placement and merges cannot go on from is refused at load, and the drive
// that was to take it is left as it was. (Before the map was in the image, a hybrid image whose
// free pool named a block twice loaded, passed the invariant checks, and the next writes
// aborted in a merge: "hybrid FTL: erasing a block that holds valid units".)
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "base/core/rng.h"
#include "controller/ftl/ftl.h"
#include "test/unit/image_test_support.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

DriveConfig hybrid_drive(HybridScheme scheme, bool partial = true) {
  DriveConfig c = small_drive(2, 2, 32, 16, 4096, 0.25);
  c.controller.ftl = FtlScheme::kHybrid;
  c.controller.hybrid.scheme = scheme;
  c.controller.hybrid.log_blocks = 16;  // 4 per die
  c.controller.hybrid.partial_merge = partial;
  return c;
}

// Sequential runs (switch and partial merges), random overwrites (full merges) and trims.
void age(Ftl& ftl, FtlDriver& drv, std::uint64_t seed, std::uint64_t units) {
  Rng rng(seed);
  const std::uint32_t upb = ftl.geometry().units_per_block;
  for (std::uint64_t i = 0; i < units;) {
    if (rng.below(4) == 0) {  // a run of a whole or a part of a logical block, in order
      const std::uint32_t lbn = static_cast<std::uint32_t>(rng.below(ftl.hybrid()->logical_blocks()));
      const std::uint32_t len = 1 + static_cast<std::uint32_t>(rng.below(upb));
      for (std::uint32_t k = 0; k < len; ++k, ++i) {
        const std::uint64_t lpn = ftl.hybrid()->unit_of(lbn, k);
        if (lpn < ftl.user_units()) drv.write(static_cast<Lpn>(lpn));
      }
    } else {
      drv.write(static_cast<Lpn>(rng.below(ftl.user_units())));
      ++i;
    }
    if (rng.below(16) == 0) ftl.trim(static_cast<Lpn>(rng.below(ftl.user_units())));
  }
}

std::string load_into_fresh(const std::string& img, Ftl& ftl) {
  std::istringstream in(img);
  ftl.load(in);
  return ftl.check_invariants();
}

// Offsets in the HYBR payload (hybrid_image.cpp): a header of 3 u32, then per block its role
// (u8), owner (u32), next page (u32) and order flag (u8), then the dies' log lists.
struct HybridLayout {
  std::size_t payload = 0;
  std::uint32_t blocks = 0;
  std::size_t role(std::uint32_t b) const { return payload + 12 + b; }
  std::size_t owner(std::uint32_t b) const { return payload + 12 + blocks + 4 * std::size_t(b); }
  std::size_t next(std::uint32_t b) const { return payload + 12 + 5 * std::size_t(blocks) + 4 * std::size_t(b); }
  std::size_t in_order(std::uint32_t b) const { return payload + 12 + 9 * std::size_t(blocks) + b; }
  std::size_t dies() const { return payload + 12 + 10 * std::size_t(blocks); }
};
constexpr std::uint8_t kData = 1, kLog = 2;

HybridLayout layout_of(const std::string& img, const Ftl& ftl) {
  const ImageSection s = section_of(img, "HYBR");
  REQUIRE(s.payload > 0);
  return HybridLayout{s.payload, ftl.geometry().blocks};
}

// The first block of role `role` whose owner satisfies `pred` (-1 when none).
template <class Pred>
std::int64_t find_block(const std::string& img, const HybridLayout& at, std::uint8_t role, Pred pred) {
  for (std::uint32_t b = 0; b < at.blocks; ++b) {
    if (peek<std::uint8_t>(img, at.role(b)) == role && pred(b)) return b;
  }
  return -1;
}

}  // namespace

TEST_CASE("FTL image: a hybrid drive restored into a fresh one goes on merging exactly as the saved one",
          "[ftl][image][hybrid]") {
  for (const auto& [scheme, partial] : {std::pair{HybridScheme::kFast, true}, std::pair{HybridScheme::kBast, true},
                                        std::pair{HybridScheme::kBast, false}}) {
    CAPTURE(int(scheme), partial);
    const DriveConfig config = hybrid_drive(scheme, partial);
    Ftl a(config);
    FtlDriver da(a);
    age(a, da, 7, 3 * std::uint64_t(a.user_units()));
    const HybridStats s = a.hybrid()->stats();
    REQUIRE(s.full_merges > 0);
    REQUIRE(s.switch_merges + s.partial_merges > 0);
    REQUIRE(a.check_invariants().empty());
    const std::string img = image_of(a);

    Ftl b(config);
    FtlDriver db(b);
    REQUIRE(load_into_fresh(img, b).empty());
    CHECK(image_of(b) == img);
    CHECK(b.hybrid()->stats().full_merges == s.full_merges);
    // The same writes on both: the same merges, the same state.
    age(a, da, 8, 2 * std::uint64_t(a.user_units()));
    age(b, db, 8, 2 * std::uint64_t(b.user_units()));
    CHECK(a.check_invariants().empty());
    CHECK(b.check_invariants().empty());
    CHECK(image_of(b) == image_of(a));
    CHECK(b.hybrid()->stats().full_merges > s.full_merges);
  }
}

TEST_CASE("FTL image: a hybrid image whose free pool names a block twice is refused", "[ftl][image][hybrid]") {
  // Valid everywhere else: a fresh drive. Block 1 of die 0 lost, block 0 listed twice: two logs
  // would be opened on one block, and erasing one would erase the other's data.
  const DriveConfig config = hybrid_drive(HybridScheme::kFast);
  Ftl fresh(config);
  std::string img = image_of(fresh);
  const std::size_t ring = section_of(img, "DIE ", 0).payload + 72;  // the die record's free ring
  poke<std::uint32_t>(img, ring + 4, peek<std::uint32_t>(img, ring));
  require_refused(config, img, "twice");
}

// An aged hybrid drive and its image, to damage one field of.
struct Aged {
  DriveConfig config;
  Ftl ftl;
  FtlDriver drv;
  std::string img;
  HybridLayout at;
  Aged(HybridScheme scheme, std::uint64_t seed, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& last = {})
      : config(hybrid_drive(scheme)), ftl(config), drv(ftl) {
    age(ftl, drv, seed, 3 * std::uint64_t(ftl.user_units()));
    for (const auto& [lbn, offset] : last) drv.write(static_cast<Lpn>(ftl.hybrid()->unit_of(lbn, offset)));
    img = image_of(ftl);
    at = layout_of(img, ftl);
  }
  template <class Pred>
  std::uint32_t find(std::uint8_t role, Pred pred) const {
    const std::int64_t b = find_block(img, at, role, pred);
    REQUIRE(b >= 0);
    return static_cast<std::uint32_t>(b);
  }
};

TEST_CASE("FTL image: hybrid map states that merges cannot go on from are refused", "[ftl][image][hybrid]") {
  SECTION("BAST: a log marked as written in order that is not") {
    Aged a(HybridScheme::kBast, 3, {{0, 3}, {0, 1}});  // logical block 0's log: offsets 3, then 1
    const std::uint32_t log = a.find(kLog, [&](std::uint32_t b) {
      return peek<std::uint8_t>(a.img, a.at.in_order(b)) == 0 && peek<std::uint32_t>(a.img, a.at.next(b)) >= 2;
    });
    poke<std::uint8_t>(a.img, a.at.in_order(log), 1);
    require_refused(a.config, a.img, "written in order");
  }
  SECTION("FAST: the sequential log given another logical block of its die") {
    Aged a(HybridScheme::kFast, 4);
    const std::uint32_t sw = a.find(kLog, [&](std::uint32_t b) {
      return peek<std::uint32_t>(a.img, a.at.owner(b)) != HybridMap::kNone &&
             peek<std::uint32_t>(a.img, a.at.next(b)) > 0;
    });
    const std::uint32_t owner = peek<std::uint32_t>(a.img, a.at.owner(sw));
    const std::uint32_t dies = a.ftl.geometry().dies;
    poke<std::uint32_t>(a.img, a.at.owner(sw),
                        owner + dies < a.ftl.hybrid()->logical_blocks() ? owner + dies : owner - dies);
    require_refused(a.config, a.img, "logical block");
  }
  SECTION("a log whose write position is before a valid unit") {
    Aged a(HybridScheme::kFast, 5);
    const std::uint32_t log = a.find(kLog, [&](std::uint32_t b) { return a.ftl.valid_units(b) > 0; });
    poke<std::uint32_t>(a.img, a.at.next(log), 0);
    require_refused(a.config, a.img, "pages written");
  }
  SECTION("a data block of another die's logical block") {
    Aged a(HybridScheme::kBast, 6);
    const std::uint32_t data = a.find(kData, [](std::uint32_t) { return true; });
    // The neighbouring logical block lives on the next die; it may have a data block already.
    poke<std::uint32_t>(a.img, a.at.owner(data), peek<std::uint32_t>(a.img, a.at.owner(data)) ^ 1);
    require_refused(a.config, a.img, "logical block");
  }
  SECTION("a log listed twice") {
    Aged a(HybridScheme::kFast, 9);
    // Die 0's record: u32 sequential log, u32 n, n logs. Two or more random logs: the second
    // becomes the first again.
    const std::size_t die0 = a.at.dies();
    REQUIRE(peek<std::uint32_t>(a.img, die0 + 4) >= 2);
    poke<std::uint32_t>(a.img, die0 + 12, peek<std::uint32_t>(a.img, die0 + 8));
    require_refused(a.config, a.img, "log");
  }
  SECTION("an image of a page-mapped drive") {
    const DriveConfig config = hybrid_drive(HybridScheme::kFast);
    DriveConfig page = config;
    page.controller.ftl = FtlScheme::kPage;
    Ftl paged(page);
    Ftl ftl(config);
    std::istringstream in(image_of(paged));
    CHECK_THROWS_WITH(ftl.load(in), Catch::Contains("hybrid map"));
    CHECK(ftl.check_invariants().empty());
  }
}
