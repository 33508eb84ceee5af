// Ftl::plan_read: where an LPN's newest data is, through writes, flushes and TRIM.
#include <catch2/catch.hpp>

#include <cstdint>

#include "controller/ftl/ftl.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

TEST_CASE("a read plan follows an LPN from unmapped to buffer to flash", "[read_plan]") {
  Ftl ftl{small_drive(2, 2, 32, 32, 16384)};
  const Geometry& g = ftl.geometry();
  const Lpn lpn = 42;
  CHECK(ftl.plan_read(lpn).unmapped());

  ftl.write_to_buffer(lpn, 7);
  ReadPlan plan = ftl.plan_read(lpn);
  CHECK(plan.in_buffer());
  CHECK(plan.slot == 7);
  ftl.write_to_buffer(lpn, 0);  // a newer write: slot 0 is not "no slot"
  CHECK(ftl.plan_read(lpn).in_buffer());
  CHECK(ftl.plan_read(lpn).slot == 0);

  OpList ops;
  const std::uint32_t die = 3;
  REQUIRE(ftl.place(die, &lpn, 1, 0, ops));
  plan = ftl.plan_read(lpn);
  REQUIRE(plan.on_flash());
  CHECK(plan.unit == ftl.lookup(lpn));
  CHECK(plan.die == die);
  CHECK(plan.block == g.block_of_unit(plan.unit));
  CHECK(plan.page == g.page_of_unit(plan.unit));
  // The program the FTL asked for wrote that very page.
  const NandOp& program = ops.back();
  CHECK(program.kind == NandOpKind::kProgram);
  CHECK(program.die == plan.die);
  CHECK(program.block == plan.block);
  CHECK(program.page == plan.page);

  ftl.trim(lpn);
  CHECK(ftl.plan_read(lpn).unmapped());
}

TEST_CASE("units of one page plan reads of the same page", "[read_plan]") {
  Ftl ftl{small_drive(1, 1, 32, 32, 16384)};
  FtlDriver drv{ftl};
  const Lpn page[4] = {8, 9, 10, 11};
  drv.write_page(page, 4);
  const ReadPlan first = ftl.plan_read(8);
  for (Lpn l : page) {
    const ReadPlan p = ftl.plan_read(l);
    CHECK(p.on_flash());
    CHECK(p.block == first.block);
    CHECK(p.page == first.page);
    CHECK(p.unit == first.unit + (l - 8));
  }
}
