// Drive config limits: one YAML document, allocation sizes bounded by the drive, cross-field
// errors naming every key, allocation failures, malformed text (test_config.cpp: the rest).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/config/config_loader.h"
#include "base/config/drive_memory.h"
#include "config_test_support.h"

using namespace ssdlab;
using namespace ssdlab::config_test;

TEST_CASE("a drive config holds one YAML document", "[config][limits]") {
  // Everything after a document marker used to be ignored, even an invalid SATA rate.
  // (The error is at the second document's first line, just after the marker.)
  CHECK(error_of(kBase + "---\nhost: {sata: 99Gbps}\n") ==
        "x.yaml:17: a second YAML document starts here (after a '---' or '...' line); a drive "
        "config holds one document");
  CHECK(error_of(kBase + "...\nhost: {sata: 99Gbps}\n") ==
        "x.yaml:17: a second YAML document starts here (after a '---' or '...' line); a drive "
        "config holds one document");
  // Empty documents after a marker hold nothing that could be ignored.
  CHECK_NOTHROW(parse(kBase + "---\n# nothing\n"));
  // A syntax error after the marker is reported, not skipped.
  CHECK_THAT(error_of(kBase + "...\nhost: {sata: [3Gbps\n"),
             Catch::StartsWith("x.yaml:") && Catch::Contains("syntax error"));
  // A leading "---" and a closing "..." are one document.
  CHECK_NOTHROW(parse("---\n" + kBase + "...\n"));
  // An override value is one document too.
  CHECK_THAT(error_of(kBase, {"controller.op=0.2\n---\n0.5"}),
             Catch::StartsWith("override 'controller.op=0.2\n---\n0.5': controller.op:") &&
                 Catch::Contains("second YAML document"));
}

TEST_CASE("sizes that size allocations are bounded by the drive", "[config][limits]") {
  // 1TiB of write buffer on a 1 GiB drive used to be accepted (and `serve` died of bad_alloc).
  CHECK_THAT(error_of(kBase, {"controller.write_buffer=1TiB"}),
             Catch::StartsWith("override 'controller.write_buffer=1TiB': controller.write_buffer: "
                               "must not exceed the user capacity (") &&
                 Catch::Contains("got 1TiB"));
  CHECK_THAT(error_of(with("write_buffer: 8MiB", "write_buffer: 64GiB")),
             Catch::StartsWith("x.yaml:14: controller.write_buffer: must not exceed the user capacity"));
  // The largest buffer the bound allows still loads.
  const DriveConfig full = parse(kBase, {"controller.capacity=512MiB", "controller.write_buffer=512MiB"});
  CHECK(full.controller.write_buffer_bytes == full.controller.user_bytes);
  CHECK(full.controller.max_transfer_bytes == 32ULL << 20);
  // The mapping cache is at most the whole mapping table's worth of flash: the raw capacity.
  CHECK_THAT(error_of(kBase + "  mapping_cache: 1TiB\n"),
             Catch::StartsWith("x.yaml:16: controller.mapping_cache: must not exceed the raw capacity (1GiB)"));
  CHECK(parse(kBase + "  mapping_cache: 1GiB\n").controller.mapping_cache_bytes == kRaw);
}

TEST_CASE("cross-field errors name every key involved and blame the override", "[config][limits]") {
  // The issue: a geometry made too large by -p was blamed on the file's mapping_unit line.
  const std::string message = error_of(kBase, {"nand.blocks_per_plane=4000000"});
  CHECK_THAT(message, Catch::StartsWith("override 'nand.blocks_per_plane=4000000': controller.mapping_unit: "
                                        "geometry too large for 31-bit unit addresses"));
  CHECK_THAT(message, Catch::Contains("nand.blocks_per_plane from override 'nand.blocks_per_plane=4000000'"));
  CHECK_THAT(message, Catch::Contains("nand.channels at x.yaml:3"));
  CHECK_THAT(message, Catch::Contains("nand.page_size at x.yaml:7"));
  CHECK_THAT(message, Catch::Contains("controller.mapping_unit (default)"));
  // Without an override the error stays at the key's own line and still lists the others.
  CHECK_THAT(error_of(kBase + "  max_transfer: 16MiB\n"),
             Catch::StartsWith("x.yaml:16: controller.max_transfer: must not exceed the write buffer") &&
                 Catch::Contains("controller.write_buffer at x.yaml:14"));
  // An override of the other key moves the blame to it.
  CHECK_THAT(error_of(kBase + "  max_transfer: 8MiB\n", {"controller.write_buffer=4MiB"}),
             Catch::StartsWith("override 'controller.write_buffer=4MiB': controller.max_transfer: "
                               "must not exceed the write buffer (4MiB)") &&
                 Catch::Contains("controller.max_transfer at x.yaml:16") &&
                 Catch::Contains("controller.write_buffer from override 'controller.write_buffer=4MiB'"));
  CHECK_THAT(error_of(kBase + "  gc: {free_blocks_low: 3}\n", {"controller.gc.free_blocks_high=3"}),
             Catch::StartsWith("override 'controller.gc.free_blocks_high=3': controller.gc.free_blocks_high:") &&
                 Catch::Contains("controller.gc.free_blocks_low at x.yaml:16"));
  CHECK_THAT(error_of(kBase, {"nand.page_size=6KiB"}),
             Catch::StartsWith("override 'nand.page_size=6KiB': controller.mapping_unit: the default 4KiB "
                               "does not divide nand.page_size (6KiB)"));
  CHECK_THAT(error_of(kBase, {"nand.blocks_per_plane=8"}),
             Catch::StartsWith("override 'nand.blocks_per_plane=8': controller.op: not enough spare blocks"));
}

TEST_CASE("an allocation failure at set-up names what was allocated and the keys that sized it", "[config][limits]") {
  // A buffer as large as the bound allows, on a drive that keeps data (`serve`).
  const DriveConfig buffered = parse(kBase, {"controller.capacity=512MiB", "controller.write_buffer=512MiB"});
  CHECK_THAT(allocation_failure_message(buffered, true, "ssdlab serve"),
             Catch::StartsWith("out of memory for drive 'test' (x.yaml) in ssdlab serve: its largest set-up "
                               "allocations are write buffer data 512.0 MiB, sized by controller.write_buffer"));
  // A geometry that passes validation but needs gigabytes of mapping tables.
  const DriveConfig huge = parse(kBase, {"nand.blocks_per_plane=1000000"});
  const std::string message = allocation_failure_message(huge, false, "ssdlab run");
  CHECK_THAT(message, Catch::Contains("its largest set-up allocations are L2P mapping table (4 bytes per user "
                                      "mapping unit) 7.1 GiB, sized by controller.op or controller.capacity"));
  CHECK_THAT(message, Catch::Contains("nand.blocks_per_plane"));
  // The wrapper turns std::bad_alloc into that error and lets everything else through.
  CHECK_THROWS_WITH(with_named_allocations(huge, false, "ssdlab run", []() -> int { throw std::bad_alloc(); }),
                    message);
  CHECK_THROWS_AS(with_named_allocations(huge, false, "ssdlab run", []() -> int { throw std::runtime_error("x"); }),
                  std::runtime_error);
  CHECK(with_named_allocations(huge, false, "ssdlab run", [] { return 7; }) == 7);
}

// Found by fuzz_drive_config (see also the scenario test): yaml-cpp's LoadAll hangs on this.
TEST_CASE("a stray comma in a drive config is an error and not a hang", "[config][limits]") {
  CHECK_THAT(error_of("name: x\n , b): f\n"), Catch::StartsWith("x.yaml:") && Catch::Contains("syntax error"));
  CHECK_THAT(error_of(","), Catch::StartsWith("x.yaml:") && Catch::Contains("syntax error"));
  CHECK_THAT(error_of(kBase, {"controller.op=,"}), Catch::StartsWith("override 'controller.op=,': controller.op:"));
}

// Found by fuzz_drive_config: a name with a byte that is not UTF-8 loaded, but the effective
// config wrote it as U+FFFD, so it did not load back to the same config (and JSON reports
// cannot hold it). Text values must be UTF-8.
TEST_CASE("text values must be valid UTF-8", "[config][limits]") {
  CHECK(error_of(with("name: test", "name: \xc0test")) ==
        "x.yaml:1: name: expected UTF-8 text, got the byte 0xc0 at offset 0");
  CHECK(error_of(kBase + "description: \"ok \xe2\x82\"\n") ==
        "x.yaml:16: description: expected UTF-8 text, got the byte 0xe2 at offset 3");
  const DriveConfig utf8 = parse(with("name: test", "name: \"t\xc3\xa9st \xe2\x82\xac\""));
  CHECK(utf8.name == "t\xc3\xa9st \xe2\x82\xac");
  CHECK(parse_drive_config(effective_config_yaml(utf8), "e.yaml").name == utf8.name);
}

// Found by fuzz_drive_config: an override of one page type's timing in a config without
// nand.cell threw yaml-cpp's InvalidNode (a bare "invalid node; first invalid key" message)
// instead of the missing-key error.
TEST_CASE("a per-type timing override on a config without a cell reports the missing cell", "[config][limits]") {
  const std::string no_cell = with("  cell: MLC\n", "");
  CHECK(error_of(no_cell, {"nand.t_read.msb=70us"}) == "x.yaml:2: nand.cell: required key missing");
  CHECK(error_of(no_cell, {"nand.t_prog.lsb=70us"}) == "x.yaml:2: nand.cell: required key missing");
}
