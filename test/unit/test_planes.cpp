// Multi-plane geometry (docs/planes.md): with P planes the FTL's block is the P blocks of one
// index and its page the P pages of one index, so the mapping, GC and write amplification of a
// die of P planes of 4 KiB pages are exactly those of a die of one plane of P x 4 KiB pages.
#include <catch2/catch.hpp>

#include "base/config/geometry.h"
#include "config_test_support.h"
#include "controller/ftl/ftl.h"
#include "test_support.h"

using namespace ssdlab;
using ssdlab::test::fill_sequentially;
using ssdlab::test::FtlDriver;
using ssdlab::test::small_drive;

TEST_CASE("Planes: the FTL's block and page span the planes", "[planes]") {
  DriveConfig c = small_drive(2, 2, 32, 32, 4096);
  c.nand.planes_per_die = 2;
  const Geometry g = Geometry::from(c);
  CHECK(g.planes == 2);
  CHECK(g.blocks_per_die == 32);  // block groups: one block on each plane
  CHECK(g.page_bytes == 8192);
  CHECK(g.plane_page_bytes == 4096);
  CHECK(g.units_per_page == 2);
  CHECK(g.units_per_block == 64);
  CHECK(g.total_units * g.unit_bytes == c.nand.raw_bytes());  // every flash page is used
  const Geometry one = Geometry::from(small_drive(2, 2, 32, 32, 4096));
  CHECK(one.planes == 1);
  CHECK(one.blocks_per_die == 32);
  CHECK(one.page_bytes == 4096);
}

TEST_CASE("Planes: write amplification of two planes of 4 KiB pages equals one plane of 8 KiB pages", "[planes][waf]") {
  const auto run = [](std::uint32_t planes, std::uint32_t page_bytes) {
    DriveConfig c = small_drive(2, 2, 64, 32, page_bytes, 0.12);
    c.nand.planes_per_die = planes;
    c.controller.user_bytes = static_cast<std::uint64_t>(double(c.nand.raw_bytes()) * 0.88) / 4096 * 4096;
    Ftl ftl(c);
    FtlDriver driver(ftl);
    fill_sequentially(ftl, driver);
    Rng rng(27);
    for (std::uint32_t i = 0; i < 4 * ftl.user_units(); ++i)
      driver.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    return ftl.stats();
  };
  const FtlStats two = run(2, 4096);
  const FtlStats one = run(1, 8192);
  CHECK(two.host_units_written == one.host_units_written);
  CHECK(two.nand_units_programmed() == one.nand_units_programmed());
  CHECK(two.gc_units_copied == one.gc_units_copied);
  CHECK(two.gc_erases == one.gc_erases);
  CHECK(two.gc_victims == one.gc_victims);
  CHECK(two.gc_erases > 0);
  const double waf = double(two.nand_units_programmed()) / double(two.host_units_written);
  CAPTURE(waf);
  CHECK(waf > 1.5);
}

TEST_CASE("Planes: the loader refuses what is not combined with multi-plane operations, naming the keys",
          "[planes][config]") {
  using ssdlab::config_test::error_of;
  using ssdlab::config_test::kBase;
  using ssdlab::config_test::parse;
  using ssdlab::config_test::with;
  // Twice the blocks per GC block: op 0.07 leaves too few of them (the loader says so), 0.1 does not.
  CHECK_THAT(error_of(with("  blocks_per_plane: 128\n", "  planes_per_die: 2\n  blocks_per_plane: 64\n")),
             Catch::Contains("not enough spare blocks") && Catch::Contains("nand.planes_per_die"));
  const std::string two = with("  op: 0.07\n", "  op: 0.1\n",
                               with("  blocks_per_plane: 128\n", "  planes_per_die: 2\n  blocks_per_plane: 64\n"));
  const DriveConfig c = parse(two);
  CHECK(c.nand.planes_per_die == 2);
  CHECK(c.nand.raw_bytes() == ssdlab::config_test::kRaw);
  CHECK_THAT(error_of(two + "  mapping_unit: 8KiB\n"), Catch::Contains("controller.mapping_unit") &&
                                                           Catch::Contains("multi-plane operations") &&
                                                           Catch::Contains("virtual pages over dies"));
  CHECK_THAT(error_of(two + "  ftl: hybrid\n"), Catch::Contains("controller.ftl") &&
                                                    Catch::Contains("multi-plane operations") &&
                                                    Catch::Contains("hybrid log-block map"));
  CHECK_THAT(error_of(two + "  slc_cache: {mode: dynamic, size: 8MiB}\n"),
             Catch::Contains("controller.slc_cache.mode") && Catch::Contains("multi-plane operations"));
  // The buffer holds one two-plane page.
  CHECK_THAT(error_of(with("  write_buffer: 8MiB\n", "  write_buffer: 4KiB\n", two)),
             Catch::Contains("controller.write_buffer") && Catch::Contains("2-plane page (8KiB)"));
  CHECK_THAT(error_of(with("  blocks_per_plane: 128\n", "  planes_per_die: 17\n  blocks_per_plane: 64\n")),
             Catch::Contains("nand.planes_per_die"));
  CHECK(parse(kBase).nand.planes_per_die == 1);
}
