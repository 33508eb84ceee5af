// Mapping units of several pages (docs/virtual-pages.md) in the timed drive: a write smaller
// than the unit waits for the read of the unit's other pages (read-modify-write), an aligned
// unit-sized write does not.
#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

TEST_CASE("a sub-unit random write is slower than an aligned one by about the RMW read", "[timing][vpage]") {
  // 4 dies on 4 channels; the same drive with 4 KiB units and with 16 KiB units (one virtual
  // page over the 4 dies).
  const DriveConfig pages = drive_from_yaml(drive_yaml("4", "1", "32", "50us", "100MB/s", "3Gbps"));
  const DriveConfig units =
      drive_from_yaml(drive_yaml("4", "1", "32", "50us", "100MB/s", "3Gbps", "0.25", "  mapping_unit: 16KiB\n"));
  const ScenarioSpec s = scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                                   job_phase("rand4k", RwMode::kRandWrite, 4096, 1, bytes(64 * 4096)),
                                   job_phase("rand16k", RwMode::kRandWrite, 16384, 1, bytes(64 * 16384))});
  ScenarioRunner a("pages", s, pages);
  ScenarioRunner b("units", s, units);
  sc_core::sc_start();
  REQUIRE(a.finished());
  REQUIRE(b.finished());
  const PhaseResult& page4k = a.results()[2];
  const PhaseResult& unit4k = b.results()[2];
  const PhaseResult& unit16k = b.results()[3];
  REQUIRE(unit4k.io.writes == 64);
  // Every 4 KiB write lands in a unit on flash: one read-modify-write each, none for aligned
  // unit-sized writes, and none with 4 KiB units.
  CHECK(unit4k.rmw_reads() == unit4k.io.writes);
  CHECK(unit16k.rmw_reads() == 0);
  CHECK(page4k.rmw_reads() == 0);
  // The RMW reads the 3 other pages, one per die on its own channel, in parallel: the write
  // waits one page read (command cycles, tR, 4 KiB over a 100 MB/s bus).
  const double read_ps = 200e3 + 50e6 + 4096.0 * 1e12 / 100e6;
  const double min_gap = double(unit4k.io.latency()->min()) - double(page4k.io.latency()->min());
  const double mean_gap = unit4k.io.latency()->mean() - page4k.io.latency()->mean();
  CAPTURE(read_ps, min_gap, mean_gap, unit4k.io.latency()->mean(), page4k.io.latency()->mean(),
          unit16k.io.latency()->mean());
  CHECK(min_gap > 0.9 * read_ps);
  CHECK(min_gap < 1.1 * read_ps);
  CHECK(mean_gap > 0.9 * read_ps);
  // An aligned unit-sized write pays no read: it differs from a 4 KiB write on the 4 KiB-unit
  // drive only by the 12 KiB more on the link (well under a page read).
  CHECK(double(unit16k.io.latency()->min()) - double(page4k.io.latency()->min()) < 0.6 * read_ps);
  // Each virtual page program is 4 page programs on the flash.
  CHECK(unit16k.nand_units_programmed() >= unit16k.io.writes);
}

TEST_CASE("a drive of virtual pages puts the striper between controller and flash, with or without data",
          "[timing][vpage]") {
  const DriveConfig config =
      drive_from_yaml(drive_yaml("4", "1", "32", "50us", "100MB/s", "3Gbps", "0.25", "  mapping_unit: 16KiB\n"));
  Ssd data("data", config, true);  // ssdlab serve (test_serve_drive_kinds.cpp: its data across an image)
  CHECK(data.controller.page_store() != nullptr);
  Ssd timed("timed", config);
  for (const Ssd* ssd : {&data, &timed}) {
    CHECK(ssd->striped != nullptr);
    CHECK(ssd->controller.ftl().geometry().dies == 1);
    CHECK(ssd->flash.dies() == 4);
  }
}
