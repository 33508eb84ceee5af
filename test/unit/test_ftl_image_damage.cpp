// FTL images whose state is impossible although every field is in range: Ftl::load must refuse
// them and leave the FTL as it was. (Each once loaded without complaint and crashed or broke the
// invariants on the next writes.) Offsets follow Ftl::save's layout.
#include <catch2/catch.hpp>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "controller/ftl/ftl.h"
#include "model/core/rng.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {
// Byte offset of die `die`'s state record (see Ftl::save).
std::size_t die_offset(const Ftl& ftl, std::uint32_t die, bool fifo) {
  const Geometry& g = ftl.geometry();
  std::size_t off = 64;
  off += 8 + 4 * std::size_t(ftl.user_units());
  off += 8 + 4 * std::size_t(g.total_units);
  off += 2 * (8 + 4 * std::size_t(g.blocks)) + (8 + 8 * std::size_t(g.blocks)) + (8 + std::size_t(g.blocks));
  for (std::uint32_t d = 0; d < die; ++d) {
    off += 8 + 4 + 8 + 4 + (8 + 4 * std::size_t(g.blocks_per_die)) + 4 + 4 +
           (8 + (fifo ? 4 * std::size_t(g.blocks_per_die) : 0)) + 4 + 4 + 8 + 4 + 8 + 8 + 8;
  }
  return off;
}
template <class T>
void poke(std::string& s, std::size_t off, T v) { std::memcpy(&s[off], &v, sizeof v); }
template <class T>
T peek(const std::string& s, std::size_t off) { T v; std::memcpy(&v, &s[off], sizeof v); return v; }
// Offsets inside a die record.
constexpr std::size_t kHostBlock = 0, kFreeRing = 24;
std::size_t victim_off(const Ftl& ftl, bool fifo) {
  const Geometry& g = ftl.geometry();
  return kFreeRing + 8 + 4 * std::size_t(g.blocks_per_die) + 4 + 4 + 8 + (fifo ? 4 * std::size_t(g.blocks_per_die) : 0) + 4 + 4;
}
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
// Loads `img` into a fresh FTL of `config`: it must be refused, and the FTL left untouched.
void require_refused(const DriveConfig& config, const std::string& img, const char* what) {
  Ftl ftl(config);
  std::istringstream in(img);
  CHECK_THROWS_WITH(ftl.load(in), Catch::Contains(what));
  CHECK(ftl.check_invariants().empty());
  CHECK(ftl.free_blocks_total() == ftl.geometry().blocks);
}
}  // namespace


TEST_CASE("FTL image: a free ring naming a block twice is refused", "[ftl][image]") {
  const DriveConfig config = small_drive(1, 1, 32, 32, 4096, 0.25);
  Ftl fresh(config);
  std::string img = image_of(fresh);
  const std::size_t ring = die_offset(fresh, 0, false) + kFreeRing + 8;
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
  const std::size_t v = die_offset(aged, 0, false) + victim_off(aged, false);
  REQUIRE(peek<std::int64_t>(img, v) == -1);
  poke<std::int64_t>(img, v, closed);
  poke<std::uint32_t>(img, v + 8, 0);   // victim_page
  poke<std::uint64_t>(img, v + 12, 1);  // valid at start
  poke<std::uint64_t>(img, v + 20, 1);  // invalid at start
  require_refused(w.config, img, "not open");
}

TEST_CASE("FTL image: an open host block that is a closed block is refused", "[ftl][image]") {
  Written w(6, 1);
  const Ftl& aged = w.ftl;
  const std::int64_t closed = first_closed(aged, false);
  REQUIRE(closed >= 0);
  std::string img = image_of(aged);
  const std::size_t h = die_offset(aged, 0, false) + kHostBlock;
  poke<std::int64_t>(img, h, closed);
  poke<std::uint32_t>(img, h + 8, 0);
  require_refused(w.config, img, "not open");
}

TEST_CASE("FTL image: a victim-index hint above a non-empty bucket is refused", "[ftl][image]") {
  Written w(8, 2);
  const Ftl& aged = w.ftl;
  REQUIRE(aged.next_victim(0) >= 0);
  std::string img = image_of(aged);
  const std::size_t hint = img.size() - 8 - 4 * aged.geometry().dies;  // die 0's hint, before the end marker
  poke<std::uint32_t>(img, hint, aged.geometry().units_per_block + 1);
  require_refused(w.config, img, "hint");
}
