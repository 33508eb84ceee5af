// Idle-time GC on a drive with several mapping units per page: a victim holding less than a
// page of invalid data frees nothing (its last GC page is padded by as much), so idle time must
// stop there instead of erasing for ever; one with a page or more is still collected.
#include <catch2/catch.hpp>

#include <vector>

#include "controller/ftl/ftl.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

struct Filled {
  Ftl ftl{small_drive(1, 1, 32, 32, 16384, 0.25)};  // 4 units per page, 128 per block
  FtlDriver drv{ftl};
  Filled() {
    const std::uint32_t upp = ftl.geometry().units_per_page;
    std::vector<Lpn> page(upp);
    for (Lpn l = 0; l + upp <= ftl.user_units(); l += upp) {
      for (std::uint32_t i = 0; i < upp; ++i) page[i] = l + i;
      drv.write_page(page.data(), upp);
    }
  }
  // Idle GC steps until it reports nothing to do (at most `limit`).
  std::uint64_t idle_steps(std::uint64_t limit) {
    const std::uint32_t upp = ftl.geometry().units_per_page;
    OpList ops;
    std::uint64_t steps = 0;
    while (steps < limit) {
      ops.clear();
      if (!ftl.background_collect(0, ftl.geometry().blocks_per_die, upp, ops)) break;
      ++steps;
    }
    return steps;
  }
};

}  // namespace

TEST_CASE("idle GC stops when the best victim frees less than a page", "[ftl][gc][idle]") {
  Filled f;
  f.drv.write(5);  // one invalid unit in the first block
  const std::uint64_t erases = f.ftl.stats().erases;
  const std::uint64_t steps = f.idle_steps(200000);
  CAPTURE(steps, f.ftl.stats().erases - erases);
  CHECK(steps < 1000);
  CHECK(f.ftl.check_invariants().empty());
}

TEST_CASE("idle GC still collects a victim with a page or more of invalid data", "[ftl][gc][idle]") {
  Filled f;
  const std::uint32_t upp = f.ftl.geometry().units_per_page;
  std::vector<Lpn> page(upp);
  for (std::uint32_t i = 0; i < upp; ++i) page[i] = 8 + i;  // a whole page's worth of the first block
  f.drv.write_page(page.data(), upp);
  const std::uint64_t copied = f.ftl.stats().gc_units_copied;
  const std::uint64_t steps = f.idle_steps(200000);
  CAPTURE(steps);
  CHECK(steps > 0);
  CHECK(steps < 1000);
  CHECK(f.ftl.stats().gc_units_copied > copied);
  CHECK(f.ftl.check_invariants().empty());
}
