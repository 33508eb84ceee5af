// FTL images whose state is impossible although every field is in range: Ftl::load must refuse
// them and leave the FTL as it was. (Each once loaded without complaint and crashed or broke the
// invariants on the next writes.) Offsets follow Ftl::save's layout.
#include <catch2/catch.hpp>

#include <cstring>
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
// Payload offset of die `die`'s state record (see Ftl::save).
std::size_t die_offset(const std::string& img, std::uint32_t die) {
  const ImageSection s = section_of(img, "DIE ", die);
  REQUIRE(s.payload > 0);
  return s.payload;
}
// Offsets inside a die record.
constexpr std::size_t kHostBlock = 0, kClosedCount = 32, kVictim = 36, kFreeRing = 72;
// The one-die test drive after random unit writes.
struct Written {
  DriveConfig config = small_drive(1, 1, 32, 32, 4096, 0.25);
  Ftl ftl{config};
  FtlDriver drv{ftl};
  Rng rng;
  Written(std::uint64_t seed, std::uint64_t capacities) : rng(seed) { write(capacities * ftl.user_units()); }
  void write(std::uint64_t units) {
    for (std::uint64_t i = 0; i < units; ++i) drv.write(static_cast<Lpn>(rng.below(ftl.user_units())));
  }
};
// The first closed block (with `partly_valid`, one holding both valid and invalid units).
std::int64_t first_closed(const Ftl& ftl, bool partly_valid) {
  for (std::uint32_t b = 0; b < ftl.geometry().blocks; ++b) {
    const std::uint32_t v = ftl.valid_units(b);
    if (ftl.is_closed(b) && (!partly_valid || (v > 0 && v < ftl.geometry().units_per_block))) return b;
  }
  return -1;
}
}  // namespace

TEST_CASE("FTL image: a free ring naming a block twice is refused", "[ftl][image]") {
  const DriveConfig config = small_drive(1, 1, 32, 32, 4096, 0.25);
  Ftl fresh(config);
  std::string img = image_of(fresh);
  const std::size_t ring = die_offset(img, 0) + kFreeRing;
  // Free ring of a fresh die: 0,1,2,...  Make it 0,0,2,...: block 1 is lost, block 0 listed twice.
  poke<std::uint32_t>(img, ring + 4, peek<std::uint32_t>(img, ring));
  require_refused(config, img, "twice");
}

TEST_CASE("FTL image: a GC victim that is a closed block still in the victim index is refused", "[ftl][image]") {
  Written w(5, 2);
  const Ftl& aged = w.ftl;
  while (aged.active_victim(0) >= 0) w.write(1);  // no victim in progress
  const std::int64_t closed = first_closed(aged, true);
  REQUIRE(closed >= 0);
  std::string img = image_of(aged);
  const std::size_t v = die_offset(img, 0) + kVictim;
  REQUIRE(peek<std::int64_t>(img, v) == -1);
  poke<std::int64_t>(img, v, closed);
  const std::uint32_t upb = aged.geometry().units_per_block;
  poke<std::uint32_t>(img, v + 8, 0);         // victim_page
  poke<std::uint64_t>(img, v + 12, upb - 1);  // valid at start
  poke<std::uint64_t>(img, v + 20, 1);        // invalid at start
  poke<std::uint64_t>(img, v + 28, 0);        // credit
  require_refused(w.config, img, "not open");
}

TEST_CASE("FTL image: an open host block that is a closed block is refused", "[ftl][image]") {
  Written w(6, 1);
  const Ftl& aged = w.ftl;
  const std::int64_t closed = first_closed(aged, false);
  REQUIRE(closed >= 0);
  std::string img = image_of(aged);
  const std::size_t h = die_offset(img, 0) + kHostBlock;
  poke<std::int64_t>(img, h, closed);
  poke<std::uint32_t>(img, h + 8, 0);
  require_refused(w.config, img, "not open");
}

TEST_CASE("FTL image: a victim-index hint above a non-empty bucket is refused", "[ftl][image]") {
  Written w(8, 2);
  const Ftl& aged = w.ftl;
  REQUIRE(aged.next_victim(0) >= 0);
  std::string img = image_of(aged);
  // Die 0's hint: the last field of the victim index, before its checksum and the end marker.
  const std::size_t hint = img.size() - 8 - 8 - 4 * aged.geometry().dies;
  poke<std::uint32_t>(img, hint, aged.geometry().units_per_block + 1);
  require_refused(w.config, img, "hint");
}

TEST_CASE("FTL image: a greedy or cost-benefit image that names closed FIFO blocks is refused", "[ftl][image]") {
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit);
  CAPTURE(to_string(policy));
  const DriveConfig config = small_drive(1, 1, 32, 32, 4096, 0.25, policy);
  Ftl ftl(config);
  FtlDriver drv(ftl);
  Rng rng(3);
  for (std::uint64_t i = 0; i < 2 * std::uint64_t(ftl.user_units()); ++i)
    drv.write(static_cast<Lpn>(rng.below(ftl.user_units())));
  REQUIRE(first_closed(ftl, false) >= 0);
  std::string img = image_of(ftl);
  // The closed-block order is FIFO's alone: its count must be 0 here.
  const std::size_t closed = die_offset(img, 0) + kClosedCount;
  REQUIRE(peek<std::uint32_t>(img, closed) == 0);
  poke<std::uint32_t>(img, closed, 5);
  require_refused(config, img, "only FIFO GC keeps one");
}
