// Mapping-table traffic: translation-page reads on a miss (with the waiting command's ticket),
// write-backs of dirty pages, one access per translation page for a range, held data reads.
#include <catch2/catch.hpp>

#include <cstdint>

#include "controller/controller_stats.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/map_traffic.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// 4 dies; a translation page maps page_size / 4 = 1024 LPNs (6 pages); the cache holds 2.
struct Rig {
  DriveConfig config = [] {
    DriveConfig c = small_drive(2, 2, 64, 32);
    c.controller.mapping_cache_bytes = 2 * std::uint64_t(c.nand.page_size_bytes);
    return c;
  }();
  Ftl ftl{config};
  ControllerStats stats;
  MapTraffic map{ftl, config, stats};
  OpList ops;
  std::uint32_t epp = map.cache().entries_per_page();
  Rig() { REQUIRE(map.cache().pages() >= 4); }
  // A page never written back holds nothing to read: as if a mapping had been saved.
  void all_on_flash() {
    for (std::uint64_t p = 0; p < map.cache().pages(); ++p) map.cache().set_on_flash(p);
  }
};

}  // namespace

TEST_CASE("a mapping-cache miss reads the translation page with the ticket", "[map_traffic]") {
  Rig r;
  r.all_on_flash();
  REQUIRE_FALSE(r.map.unlimited());
  const Lpn lpn = 3 * r.epp + 5;  // translation page 3
  CHECK(r.map.access(lpn, false, OpTicket::map_read(9), r.ops));
  REQUIRE(r.ops.size() == 1);
  const NandOp& read = r.ops[0];
  CHECK(read.kind == NandOpKind::kRead);
  CHECK(read.origin == OpOrigin::kMap);
  CHECK(read.die == 3 % r.ftl.geometry().dies);
  CHECK(read.bytes == r.ftl.geometry().page_bytes);
  CHECK(OpTicket::of(read) == OpTicket::map_read(9));
  CHECK(r.stats.map_reads == 1);
  r.ops.clear();
  CHECK_FALSE(r.map.access(lpn + 1, false, OpTicket::map_read(9), r.ops));  // now cached
  CHECK(r.ops.empty());
}

TEST_CASE("evicting a dirty translation page writes it back", "[map_traffic]") {
  Rig r;
  r.all_on_flash();
  r.map.access(0, true, OpTicket::none(), r.ops);  // page 0 dirty
  r.map.access(r.epp, false, OpTicket::none(), r.ops);
  r.ops.clear();
  r.map.access(2 * r.epp, false, OpTicket::none(), r.ops);  // evicts page 0
  REQUIRE(r.ops.size() == 2);
  CHECK(r.ops[0].kind == NandOpKind::kProgram);
  CHECK(OpTicket::of(r.ops[0]).kind == OpTicket::Kind::kNone);
  CHECK(r.ops[1].kind == NandOpKind::kRead);
  CHECK(r.stats.map_writes == 1);
  CHECK(r.stats.map_reads == 3);
}

TEST_CASE("a never written translation page costs no read", "[map_traffic]") {
  Rig r;
  CHECK_FALSE(r.map.access(7, false, OpTicket::map_read(2), r.ops));
  CHECK(r.ops.empty());
  CHECK(r.stats.map_reads == 0);
}

TEST_CASE("a range touches each translation page once", "[map_traffic]") {
  Rig r;
  r.all_on_flash();
  // Two translation pages, many LPNs each: two reads.
  CHECK(r.map.lookup_range(r.epp - 10, 20, OpTicket::map_read(1), r.ops) == 2);
  CHECK(r.ops.size() == 2);
  r.ops.clear();
  r.map.update_range(r.epp - 10, r.epp + 10, r.ops);  // both cached now: updated, no traffic
  CHECK(r.ops.empty());
  CHECK(r.map.cache().dirty(0));
  CHECK(r.map.cache().dirty(1));
}

TEST_CASE("held data reads are released in order", "[map_traffic]") {
  Rig r;
  std::vector<NandOp>& held = r.map.deferred(4);
  held.push_back(NandOp{NandOpKind::kRead, OpOrigin::kHost, 1, 2, 3, 4096, 0});
  held.push_back(NandOp{NandOpKind::kRead, OpOrigin::kHost, 2, 5, 6, 4096, 0});
  r.ops.push_back(NandOp{});
  r.map.release_deferred(4, r.ops);
  REQUIRE(r.ops.size() == 3);
  CHECK(r.ops[1].die == 1);
  CHECK(r.ops[2].die == 2);
  CHECK(r.map.deferred(4).empty());
}

TEST_CASE("a loaded mapping puts its translation pages on flash", "[map_traffic]") {
  Rig r;
  FtlDriver drv{r.ftl};
  drv.write(5);                     // translation page 0
  drv.write(2 * r.epp + 1);         // translation page 2
  r.ftl.write_to_buffer(r.epp, 0);  // page 1: buffered only, nothing on flash
  r.map.mapping_loaded(r.ftl);
  CHECK(r.map.cache().on_flash(0));
  CHECK_FALSE(r.map.cache().on_flash(1));
  CHECK(r.map.cache().on_flash(2));
}
