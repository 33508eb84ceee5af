// Drive config loading: values, defaults, derived capacity, every error kind, overrides and
// the effective config round trip.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/config/config_loader.h"
#include "base/config/drive_memory.h"
#include "config_test_support.h"

using namespace ssdlab;
using namespace ssdlab::config_test;

namespace {

void check_same(const DriveConfig& a, const DriveConfig& b) {
  CHECK(a.name == b.name);
  CHECK(a.description == b.description);
  CHECK(a.source_path == b.source_path);
  CHECK(a.nand.channels == b.nand.channels);
  CHECK(a.nand.dies_per_channel == b.nand.dies_per_channel);
  CHECK(a.nand.planes_per_die == b.nand.planes_per_die);
  CHECK(a.nand.blocks_per_plane == b.nand.blocks_per_plane);
  CHECK(a.nand.pages_per_block == b.nand.pages_per_block);
  CHECK(a.nand.page_size_bytes == b.nand.page_size_bytes);
  CHECK(a.nand.cell == b.nand.cell);
  CHECK(a.nand.t_read_ps == b.nand.t_read_ps);
  CHECK(a.nand.t_prog_ps == b.nand.t_prog_ps);
  CHECK(a.nand.t_erase_ps == b.nand.t_erase_ps);
  CHECK(a.nand.bus_bytes_per_s == b.nand.bus_bytes_per_s);
  CHECK(a.nand.t_cmd_ps == b.nand.t_cmd_ps);
  CHECK(a.controller.queue_depth == b.controller.queue_depth);
  CHECK(a.controller.firmware_cost_ps == b.controller.firmware_cost_ps);
  CHECK(a.controller.firmware_write_cost_ps == b.controller.firmware_write_cost_ps);
  CHECK(a.controller.firmware_gc_cost_ps == b.controller.firmware_gc_cost_ps);
  CHECK(a.controller.write_buffer_bytes == b.controller.write_buffer_bytes);
  CHECK(a.controller.write_cache == b.controller.write_cache);
  CHECK(a.controller.op == b.controller.op);  // bit-exact
  CHECK(a.controller.user_bytes == b.controller.user_bytes);
  CHECK(a.controller.mapping_unit_bytes == b.controller.mapping_unit_bytes);
  CHECK(a.controller.max_transfer_bytes == b.controller.max_transfer_bytes);
  CHECK(a.controller.gc.policy == b.controller.gc.policy);
  CHECK(a.controller.gc.free_blocks_low == b.controller.gc.free_blocks_low);
  CHECK(a.controller.gc.free_blocks_high == b.controller.gc.free_blocks_high);
  CHECK(a.controller.gc.idle_delay_ps == b.controller.gc.idle_delay_ps);
  CHECK(a.controller.gc.idle_free_blocks == b.controller.gc.idle_free_blocks);
  CHECK(a.controller.trim == b.controller.trim);
  CHECK(a.controller.mapping_cache_bytes == b.controller.mapping_cache_bytes);
  CHECK(a.host.sata_line_bps == b.host.sata_line_bps);
  CHECK(a.host.ncq_tags == b.host.ncq_tags);
}

void check_round_trip(const DriveConfig& config) {
  const std::string yaml = effective_config_yaml(config);
  INFO(yaml);
  const DriveConfig again = parse_drive_config(yaml, config.source_path);
  check_same(config, again);
  CHECK(effective_config_yaml(again) == yaml);
}

const std::string kDefaultPath = std::string(SSDLAB_SOURCE_DIR) + "/configs/default.yaml";

}  // namespace

TEST_CASE("configs/default.yaml loads with the documented values", "[config]") {
  const DriveConfig c = load_drive_config(kDefaultPath);
  CHECK(c.name == "default");
  CHECK(c.source_path == kDefaultPath);
  CHECK(c.nand.dies() == 16);
  CHECK(c.nand.planes_per_die == 2);
  CHECK(c.nand.blocks_per_die() == 256);
  CHECK(c.nand.pages_per_block == 64);
  CHECK(c.nand.page_size_bytes == 4096);
  CHECK(c.nand.raw_bytes() == kRaw);
  CHECK(c.nand.cell == CellType::kMlc);
  CHECK(c.nand.t_read_ps == std::array<Picos, 3>{50 * kPicosPerUs, 50 * kPicosPerUs, 0});
  // MT29F32G08CBABA: 900 us typical as the mean of the two page types, erase 3 ms typ.
  CHECK(c.nand.t_prog_ps == std::array<Picos, 3>{390 * kPicosPerUs, 1410 * kPicosPerUs, 0});
  CHECK(c.nand.t_erase_ps == 3 * kPicosPerMs);
  CHECK(c.nand.bus_bytes_per_s == 40000000);    // ONFI asynchronous mode 4: 25 ns a byte
  CHECK(c.nand.t_cmd_ps == 175 * kPicosPerNs);  // 7 cycles of 25 ns
  CHECK(c.nand.endurance_pe == 5000);
  CHECK(c.controller.queue_depth == 32);
  // The X25-M G2's firmware, calibrated on its fresh ratings (configs/intel-x25m-g2.yaml).
  CHECK(c.controller.firmware_cost_ps == 28600 * kPicosPerNs);
  CHECK(c.controller.firmware_write_cost_ps == 49200 * kPicosPerNs);
  CHECK(c.controller.firmware_write_unit_cost_ps == 38500 * kPicosPerNs);
  CHECK(c.controller.write_buffer_bytes == 1ULL << 20);
  CHECK(c.controller.write_cache);
  CHECK(c.controller.op == 0.07);
  CHECK(c.controller.user_bytes == 998576128);  // floor(1 GiB * 0.93) down to 4 KiB
  CHECK(c.controller.mapping_unit_bytes == 4096);
  CHECK(c.controller.max_transfer_bytes == 1ULL << 20);
  CHECK(c.controller.gc.policy == GcPolicyKind::kGreedy);
  CHECK(c.controller.gc.free_blocks_low == 2);
  CHECK(c.controller.gc.free_blocks_high == 3);
  CHECK(c.host.sata_line_bps == 3000000000ULL);
  CHECK(c.host.ncq_tags == 32);
}

TEST_CASE("optional keys take their defaults", "[config]") {
  const DriveConfig c = parse(kBase);
  CHECK(c.description.empty());
  CHECK(c.source_path == "x.yaml");
  CHECK(c.nand.planes_per_die == 1);
  CHECK(c.nand.t_cmd_ps == 0);
  CHECK(c.controller.queue_depth == 32);
  CHECK(c.controller.firmware_cost_ps == 0);
  CHECK(c.controller.write_cache);
  CHECK(c.controller.mapping_unit_bytes == 4096);
  CHECK(c.controller.max_transfer_bytes == 8ULL << 20);  // the default is capped by the 8MiB buffer
  CHECK(c.controller.trim);
  CHECK(c.controller.gc.policy == GcPolicyKind::kGreedy);
  CHECK(c.controller.gc.free_blocks_low == 2);
  CHECK(c.controller.gc.free_blocks_high == 3);
  CHECK(c.controller.gc.idle_delay_ps == 100 * kPicosPerMs);
  CHECK(c.controller.gc.idle_free_blocks == 0);
  CHECK(c.controller.mapping_cache_bytes == 0);
  const DriveConfig idle =
      parse(kBase + "  trim: false\n  mapping_cache: 1MiB\n  gc:\n    idle_delay: 1s\n    idle_free_blocks: 6\n");
  CHECK(idle.controller.mapping_cache_bytes == 1 << 20);
  CHECK(parse(kBase + "  firmware_write_cost: 250us\n").controller.firmware_write_cost_ps == 250 * kPicosPerUs);
  CHECK(parse(kBase + "  firmware_gc_cost: 20us\n").controller.firmware_gc_cost_ps == 20 * kPicosPerUs);
  CHECK(c.controller.read_dma_bytes_per_s == 0);
  CHECK(parse(kBase + "  read_dma_rate: 1.14GB/s\n").controller.read_dma_bytes_per_s == 1140000000ull);
  CHECK_THAT(error_of(kBase + "  read_dma_rate: fast\n"), Catch::Contains("controller.read_dma_rate"));
  CHECK_THAT(error_of(kBase + "  mapping_cache: 1KiB\n"),
             Catch::StartsWith(
                 "x.yaml:16: controller.mapping_cache: must hold at least one translation page (4KiB) or be 0 for "
                 "the whole table, got 1KiB; keys involved:"));
  CHECK_FALSE(idle.controller.trim);
  CHECK(idle.controller.gc.idle_delay_ps == kPicosPerSec);
  CHECK(idle.controller.gc.idle_free_blocks == 6);
  check_round_trip(idle);
  CHECK(c.host.sata_line_bps == 3000000000ULL);
  CHECK(c.host.ncq_tags == 32);
}

TEST_CASE("page timings: one value for all page types or one per type of the cell", "[config]") {
  const DriveConfig slc =
      parse(with("  t_prog: {lsb: 250us, msb: 900us}", "  t_prog: 200us", with("cell: MLC", "cell: slc")));
  CHECK(slc.nand.cell == CellType::kSlc);
  CHECK(slc.nand.t_prog_ps == std::array<Picos, 3>{200 * kPicosPerUs, 0, 0});
  CHECK(slc.nand.t_read_ps == std::array<Picos, 3>{50 * kPicosPerUs, 0, 0});

  const DriveConfig tlc = parse(with("  t_prog: {lsb: 250us, msb: 900us}", "  t_prog: {lsb: 1ms, csb: 2ms, msb: 3ms}",
                                     with("cell: MLC", "cell: TLC")));
  CHECK(tlc.nand.t_prog_ps == std::array<Picos, 3>{kPicosPerMs, 2 * kPicosPerMs, 3 * kPicosPerMs});
  CHECK(tlc.nand.t_read_ps[2] == 50 * kPicosPerUs);

  CHECK(error_of(with("msb: 900us}", "csb: 1ms, msb: 900us}")) ==
        "x.yaml:10: nand.t_prog.csb: MLC cells have no csb pages (expected lsb, msb)");
  CHECK(error_of(with("{lsb: 250us, msb: 900us}", "{lsb: 250us}")) ==
        "x.yaml:10: nand.t_prog.msb: required key missing");
  CHECK(error_of(with("msb: 900us}", "mbs: 900us}")) ==
        "x.yaml:10: nand.t_prog.mbs: unknown key (did you mean 'msb'?)");
  CHECK_THAT(error_of(with("t_read: 50us", "t_read: [50us]")),
             Catch::StartsWith("x.yaml:9: nand.t_read: expected a duration or a map"));
  CHECK(error_of(with("cell: MLC", "cell: QLC")) == "x.yaml:8: nand.cell: expected SLC, MLC or TLC, got 'QLC'");
}

TEST_CASE("unknown keys are reported with line, key path and a suggestion", "[config]") {
  CHECK(error_of(with("  channels: 4", "  chanels: 4")) ==
        "x.yaml:3: nand.chanels: unknown key (did you mean 'channels'?)");
  CHECK(error_of(with("  op: 0.07", "  op: 0.07\n  colour: red")) == "x.yaml:16: controller.colour: unknown key");
  CHECK(error_of("nmae: x\n" + kBase.substr(kBase.find('\n') + 1)) ==
        "x.yaml:1: nmae: unknown key (did you mean 'name'?)");
  CHECK(error_of(kBase + "controller:\n  op: 0.1\n") == "x.yaml:16: controller: duplicate key");
}

TEST_CASE("missing required keys are reported at the line of their map", "[config]") {
  CHECK(error_of(with("  page_size: 4KiB\n", "")) == "x.yaml:2: nand.page_size: required key missing");
  CHECK(error_of(with("  write_buffer: 8MiB\n", "")) == "x.yaml:13: controller.write_buffer: required key missing");
  CHECK(error_of(with("name: test\n", "")) == "x.yaml:1: name: required key missing");
  CHECK(error_of("name: x\n") == "x.yaml:1: nand: required key missing");
  CHECK(error_of(with("  cell: MLC", "  cell:")) == "x.yaml:8: nand.cell: expected a string, got nothing");
}

TEST_CASE("integer keys are range checked", "[config]") {
  CHECK(error_of(with("channels: 4", "channels: 0")) == "x.yaml:3: nand.channels: must be >= 1, got 0");
  CHECK(error_of(with("dies_per_channel: 4", "dies_per_channel: -2")) ==
        "x.yaml:4: nand.dies_per_channel: must be >= 1, got -2");
  CHECK(error_of(with("pages_per_block: 128", "pages_per_block: 65537")) ==
        "x.yaml:6: nand.pages_per_block: must be between 1 and 65536, got 65537");
  CHECK(error_of(kBase + "  queue_depth: 33\n") ==
        "x.yaml:16: controller.queue_depth: must be between 1 and 32, got 33");
}

TEST_CASE("values of the wrong type are rejected naming the key", "[config]") {
  CHECK(error_of(with("channels: 4", "channels: abc")) == "x.yaml:3: nand.channels: expected an integer, got 'abc'");
  CHECK(error_of(with("channels: 4", "channels: 1.5")) == "x.yaml:3: nand.channels: expected an integer, got '1.5'");
  CHECK(error_of(with("channels: 4", "channels: [1, 2]")) ==
        "x.yaml:3: nand.channels: expected an integer, got a list");
  CHECK(error_of(with("page_size: 4KiB", "page_size: {a: 1}")) ==
        "x.yaml:7: nand.page_size: expected a size, got a map");
  CHECK(error_of(kBase + "  write_cache: maybe\n") ==
        "x.yaml:16: controller.write_cache: expected true or false, got 'maybe'");
  CHECK(error_of(with("op: 0.07", "op: lots")) == "x.yaml:15: controller.op: expected a number, got 'lots'");
  CHECK(error_of(kBase + "host: 4\n") == "x.yaml:16: host: expected a map, got '4'");
  CHECK(error_of("- a\n- b\n") == "x.yaml:1: expected a map, got a list");
}

TEST_CASE("bad units are rejected with the accepted units", "[config]") {
  const std::string message = error_of(with("t_erase: 2ms", "t_erase: 2 msec"));
  CHECK_THAT(message, Catch::StartsWith("x.yaml:11: nand.t_erase: invalid duration \"2 msec\""));
  CHECK_THAT(message, Catch::Contains("ps, ns, us, ms, s, min, h"));
  CHECK_THAT(error_of(with("t_erase: 2ms", "t_erase: 2")),
             Catch::StartsWith("x.yaml:11: nand.t_erase: invalid duration \"2\": a unit is required"));
  CHECK(error_of(with("t_erase: 2ms", "t_erase: 0")) == "x.yaml:11: nand.t_erase: must be > 0");
  CHECK_THAT(error_of(with("bus_rate: 100MB/s", "bus_rate: 100MB")),
             Catch::StartsWith("x.yaml:12: nand.bus_rate: invalid data rate \"100MB\""));
  CHECK(error_of(with("bus_rate: 100MB/s", "bus_rate: 0B/s")) == "x.yaml:12: nand.bus_rate: must be > 0");
  CHECK(error_of(with("page_size: 4KiB", "page_size: 1000B")) ==
        "x.yaml:7: nand.page_size: must be a multiple of 512 bytes (at least 512B), got 1000B");
}

TEST_CASE("op must be a fraction at least 0 and below 1", "[config]") {
  CHECK(error_of(with("op: 0.07", "op: 1")) == "x.yaml:15: controller.op: must be >= 0 and < 1, got 1");
  CHECK(error_of(with("op: 0.07", "op: -0.1")) == "x.yaml:15: controller.op: must be >= 0 and < 1, got -0.1");
  CHECK(error_of(with("op: 0.07", "op: .nan")) == "x.yaml:15: controller.op: expected a number, got '.nan'");
}

TEST_CASE("exactly one of op and capacity is given", "[config]") {
  CHECK(error_of(kBase + "  capacity: 512MiB\n") ==
        "x.yaml:16: controller.capacity: give either controller.op or controller.capacity, not both");
  CHECK_THAT(error_of(with("  op: 0.07\n", "")),
             Catch::StartsWith("x.yaml:13: controller.op: required key missing: give either "
                               "controller.op (spare fraction) or controller.capacity"));
}

TEST_CASE("capacity sets user bytes exactly and derives op", "[config]") {
  const DriveConfig c = parse(with("op: 0.07", "capacity: 512MiB"));
  CHECK(c.controller.user_bytes == 512ULL << 20);
  CHECK(c.controller.op == 0.5);
  const DriveConfig odd = parse(with("op: 0.07", "capacity: 1000000512"));
  CHECK(odd.controller.user_bytes == 1000000512);  // not a whole mapping unit: kept
  CHECK(error_of(with("op: 0.07", "capacity: 1000000001")) ==
        "x.yaml:15: controller.capacity: capacity 1000000001 is not a whole number of 512-byte "
        "sectors");
  CHECK_THAT(error_of(with("op: 0.07", "capacity: 2GiB")),
             Catch::StartsWith(
                 "x.yaml:15: controller.capacity: capacity 2GiB exceeds the raw capacity (1GiB); keys involved:"));
  CHECK(error_of(with("op: 0.07", "capacity: 0")) == "x.yaml:15: controller.capacity: must be > 0");
}

TEST_CASE("op derives user bytes rounded down to a mapping unit", "[config]") {
  CHECK(parse(with("op: 0.07", "op: 0.28")).controller.user_bytes == 773091328);
  CHECK(parse(with("op: 0.07", "op: 0.5")).controller.user_bytes == kRaw / 2);
  const DriveConfig big_unit = parse(kBase + "  mapping_unit: 2KiB\n", {"nand.page_size=8KiB", "controller.op=0.1"});
  CHECK(big_unit.controller.user_bytes % 2048 == 0);
  CHECK(big_unit.controller.mapping_unit_bytes == 2048);
}

TEST_CASE("op too small for GC spares names the key and the minimum op", "[config]") {
  const std::string message = error_of(with("op: 0.07", "op: 0.01"));
  CHECK_THAT(message, Catch::StartsWith("x.yaml:15: controller.op: not enough spare blocks for "
                                        "garbage collection: 20 spare blocks (1 per die)"));
  CHECK_THAT(message, Catch::Contains("free_blocks_high + 2 = 5"));
  CHECK_THAT(message, Catch::Contains("op >= 0.0391"));
  CHECK_THAT(message, Catch::Contains("capacity <= 984MiB"));
  CHECK_NOTHROW(parse(with("op: 0.07", "op: 0.0391")));
  CHECK_THAT(error_of(with("op: 0.07", "op: 0.039")), Catch::Contains("not enough spare"));
  CHECK_NOTHROW(parse(with("op: 0.07", "capacity: 984MiB")));
  CHECK_THAT(error_of(with("op: 0.07", "capacity: 1GiB")),
             Catch::StartsWith("x.yaml:15: controller.capacity: not enough spare blocks"));
  CHECK_THAT(error_of(kBase + "  gc: {free_blocks_low: 100, free_blocks_high: 200}\n"),
             Catch::Contains("more than its 128 blocks"));
}

TEST_CASE("GC thresholds must not be inverted", "[config]") {
  CHECK_THAT(error_of(kBase + "  gc:\n    free_blocks_low: 4\n    free_blocks_high: 2\n"),
             Catch::StartsWith("x.yaml:18: controller.gc.free_blocks_high: thresholds inverted: free_blocks_high (2) "
                               "must be greater than free_blocks_low (4); keys involved:"));
  CHECK_THAT(error_of(kBase + "  gc:\n    free_blocks_low: 3\n"),
             Catch::StartsWith("x.yaml:16: controller.gc.free_blocks_high: thresholds inverted: free_blocks_high (3) "
                               "must be greater than free_blocks_low (3); keys involved:"));
  CHECK(error_of(kBase + "  gc: {policy: greedyy}\n") ==
        "x.yaml:16: controller.gc.policy: expected greedy, cost_benefit, fifo, random or d_choice, got 'greedyy' "
        "(did you mean 'greedy'?)");
  CHECK(parse(kBase + "  gc: {policy: cost_benefit}\n").controller.gc.policy == GcPolicyKind::kCostBenefit);
}

TEST_CASE("random and d-choice GC policies and the GC write placement are read and checked", "[config]") {
  const DriveConfig d = parse(kBase);
  CHECK(d.controller.gc.d_choices == 4);
  CHECK(d.controller.gc.seed == 1);
  CHECK(d.controller.gc.destination == GcDestination::kSeparate);
  const DriveConfig c = parse(kBase + "  gc: {policy: d_choice, d_choices: 128, seed: 9, destination: shared}\n");
  CHECK(c.controller.gc.policy == GcPolicyKind::kDChoice);
  CHECK(c.controller.gc.d_choices == 128);
  CHECK(c.controller.gc.seed == 9);
  CHECK(c.controller.gc.destination == GcDestination::kShared);
  CHECK(parse(kBase + "  gc: {policy: random}\n").controller.gc.policy == GcPolicyKind::kRandom);
  CHECK(error_of(kBase + "  gc: {policy: dchoice}\n") ==
        "x.yaml:16: controller.gc.policy: expected greedy, cost_benefit, fifo, random or d_choice, got 'dchoice' "
        "(did you mean 'd_choice'?)");
  CHECK(error_of(kBase + "  gc: {destination: own}\n") ==
        "x.yaml:16: controller.gc.destination: expected separate or shared, got 'own'");
  CHECK_THAT(error_of(kBase + "  gc: {d_choices: 0}\n"),
             Catch::StartsWith("x.yaml:16: controller.gc.d_choices: must be"));
  // A die of 128 blocks: a sample of 129 names the key, the blocks involved and what fits.
  CHECK_THAT(error_of(kBase + "  gc:\n    policy: d_choice\n    d_choices: 129\n"),
             Catch::StartsWith("x.yaml:18: controller.gc.d_choices: samples more blocks than a die has: d_choices 129, "
                               "but a die has 128 blocks (use 1..128); keys involved:") &&
                 Catch::Contains("nand.blocks_per_plane"));
  CHECK_THAT(error_of(kBase, {"controller.gc.policy=d_choice", "controller.gc.d_choices=1000"}),
             Catch::Contains("controller.gc.d_choices: samples more blocks than a die has") &&
                 Catch::Contains("(use 1..128)"));
  // Only d-choice samples d blocks: the key is then not checked against the geometry.
  CHECK(parse(kBase + "  gc: {d_choices: 1000}\n").controller.gc.d_choices == 1000);
}

TEST_CASE("host SATA rate and NCQ tags are checked", "[config]") {
  CHECK(parse(kBase + "host: {sata: 1.5Gbps, ncq_tags: 1}\n").host.sata_line_bps == 1500000000ULL);
  CHECK(parse(kBase + "host: {sata: 6Gbps}\n").host.sata_line_bps == 6000000000ULL);
  CHECK(error_of(kBase + "host:\n  sata: 2Gbps\n") ==
        "x.yaml:17: host.sata: must be 1.5Gbps, 3Gbps or 6Gbps, got 2Gbps");
  CHECK(error_of(kBase + "host:\n  ncq_tags: 0\n") == "x.yaml:17: host.ncq_tags: must be between 1 and 32, got 0");
  CHECK(error_of(kBase + "host:\n  ncq_tags: 33\n") == "x.yaml:17: host.ncq_tags: must be between 1 and 32, got 33");
}

TEST_CASE("mapping unit, write buffer and max transfer are checked", "[config]") {
  CHECK_THAT(error_of(with("page_size: 4KiB", "page_size: 6KiB"), {"controller.mapping_unit=4KiB"}),
             Catch::Contains("controller.mapping_unit: 4KiB does not divide "
                             "nand.page_size (6KiB); nearest that fit: 2KiB (a divisor"));
  CHECK_THAT(error_of(with("page_size: 4KiB", "page_size: 6KiB"), {"controller.mapping_unit=8KiB"}),
             Catch::Contains("controller.mapping_unit: 8KiB is not a whole number of pages of nand.page_size (6KiB); "
                             "nearest that fit: 2KiB (a divisor"));
  CHECK(error_of(kBase + "  mapping_unit: 3KiB\n") ==
        "x.yaml:16: controller.mapping_unit: must be a power of two and a multiple of 512 bytes, "
        "got 3KiB");
  CHECK_THAT(error_of(with("page_size: 4KiB", "page_size: 2KiB",
                           with("dies_per_channel: 4", "dies_per_channel: 1", with("channels: 4", "channels: 1")))),
             Catch::StartsWith("x.yaml:13: controller.mapping_unit: the default 4KiB is 2 pages, one per die of a "
                               "stripe group, which do not tile the 1 dies (1 channels x 1); nearest that fit: 2KiB "));
  CHECK_THAT(
      error_of(with("write_buffer: 8MiB", "write_buffer: 2KiB")),
      Catch::StartsWith(
          "x.yaml:14: controller.write_buffer: must hold at least one NAND page (4KiB), got 2KiB; keys involved:"));
  CHECK_THAT(error_of(with("write_buffer: 8MiB", "write_buffer: 10KiB")),
             Catch::StartsWith("x.yaml:14: controller.write_buffer: must be a multiple of the mapping unit (4KiB), got "
                               "10KiB; keys involved:"));
  CHECK(error_of(kBase + "  max_transfer: 64MiB\n") ==
        "x.yaml:16: controller.max_transfer: must be a multiple of 512 bytes between 512B and "
        "32MiB, got 64MiB");
  CHECK(parse(kBase + "  max_transfer: 128KiB\n").controller.max_transfer_bytes == 131072);
  CHECK_THAT(
      error_of(kBase + "  max_transfer: 16MiB\n"),
      Catch::StartsWith(
          "x.yaml:16: controller.max_transfer: must not exceed the write buffer (8MiB), got 16MiB; keys involved:"));
}

TEST_CASE("geometries beyond 31-bit unit addresses are rejected", "[config]") {
  const std::string huge = with(
      "blocks_per_plane: 128", "blocks_per_plane: 4096",
      with("channels: 4", "channels: 64",
           with("dies_per_channel: 4", "dies_per_channel: 64", with("pages_per_block: 128", "pages_per_block: 256"))));
  const std::string message = error_of(huge);
  CHECK_THAT(message, Catch::StartsWith("x.yaml:13: controller.mapping_unit: geometry too large "
                                        "for 31-bit unit addresses"));
  CHECK_THAT(message, Catch::Contains("use a larger mapping_unit"));
}

TEST_CASE("YAML syntax errors and unreadable files are config errors", "[config]") {
  const std::string message = error_of(with("channels: 4", "channels: [4"));
  CHECK_THAT(message, Catch::StartsWith("x.yaml:") && Catch::Contains("syntax error"));
  CHECK_THAT(message, Catch::Contains("syntax error"));
  CHECK_THROWS_WITH(load_drive_config("/nonexistent/drive.yaml"), "/nonexistent/drive.yaml: cannot open");
  CHECK_THROWS_WITH(load_drive_config(SSDLAB_SOURCE_DIR),
                    std::string(SSDLAB_SOURCE_DIR) +
                        ": not a regular file (a directory); a drive config, scenario or fio job file must be one");
}

TEST_CASE("overrides change values before validation", "[config]") {
  const DriveConfig c =
      parse(kBase, {"controller.op=0.28", "nand.t_prog.msb=1ms", "controller.gc.policy=fifo", "host.sata=6Gbps"});
  CHECK(c.controller.op == 0.28);
  CHECK(c.controller.user_bytes == 773091328);
  CHECK(c.nand.t_prog_ps[0] == 250 * kPicosPerUs);
  CHECK(c.nand.t_prog_ps[1] == kPicosPerMs);
  CHECK(c.controller.gc.policy == GcPolicyKind::kFifo);
  CHECK(c.host.sata_line_bps == 6000000000ULL);
  // One timing for every page type, then one type changed.
  const DriveConfig r = parse(kBase, {"nand.t_read.msb=70us"});
  CHECK(r.nand.t_read_ps == std::array<Picos, 3>{50 * kPicosPerUs, 70 * kPicosPerUs, 0});
  // Later overrides win; a flow map replaces a whole section.
  CHECK(parse(kBase, {"controller.op=0.2", "controller.op=0.5"}).controller.user_bytes == kRaw / 2);
  CHECK(parse(kBase, {"controller.gc={policy: fifo, free_blocks_high: 4}"}).controller.gc.free_blocks_high == 4);
}

TEST_CASE("overriding op drops capacity and vice versa", "[config]") {
  const DriveConfig to_capacity = parse(kBase, {"controller.capacity=512MiB"});
  CHECK(to_capacity.controller.user_bytes == 512ULL << 20);
  CHECK(to_capacity.controller.op == 0.5);
  const std::string capacity_file = with("op: 0.07", "capacity: 512MiB");
  const DriveConfig to_op = parse(capacity_file, {"controller.op=0.28"});
  CHECK(to_op.controller.op == 0.28);
  CHECK(to_op.controller.user_bytes == 773091328);
}

TEST_CASE("override errors name the override", "[config]") {
  CHECK(error_of(kBase, {"nand.foo=1"}) == "override 'nand.foo=1': nand.foo: unknown key");
  CHECK(error_of(kBase, {"nand.chanels=4"}) ==
        "override 'nand.chanels=4': nand.chanels: unknown key (did you mean 'channels'?)");
  CHECK(error_of(kBase, {"x.y=z"}) == "override 'x.y=z': x.y: unknown key");
  CHECK(error_of(kBase, {"controller.op"}) == "override 'controller.op': expected key.path=value");
  CHECK(error_of(kBase, {"controller.op=1.5"}) ==
        "override 'controller.op=1.5': controller.op: must be >= 0 and < 1, got 1.5");
  CHECK(error_of(kBase, {"nand.channels=abc"}) ==
        "override 'nand.channels=abc': nand.channels: expected an integer, got 'abc'");
  CHECK(error_of(kBase, {"nand.t_prog.msb=1"}) ==
        "override 'nand.t_prog.msb=1': nand.t_prog.msb: invalid duration \"1\": a unit is "
        "required (a bare number is ambiguous) (accepted units: ps, ns, us, ms, s, min, h)");
  CHECK_THAT(error_of(kBase, {"nand.cell=[MLC"}),
             Catch::StartsWith("override 'nand.cell=[MLC': nand.cell: syntax error"));
  // A value from the file keeps its own line when an override splits it per page type.
  CHECK_THAT(error_of(with("t_read: 50us", "t_read: 50xs"), {"nand.t_read.msb=70us"}),
             Catch::StartsWith("x.yaml:9: nand.t_read.lsb: invalid duration \"50xs\""));
}

TEST_CASE("effective config round trips default.yaml", "[config]") {
  const DriveConfig c = load_drive_config(kDefaultPath);
  const std::string yaml = effective_config_yaml(c);
  CHECK_THAT(yaml, Catch::StartsWith("# effective config of default, generated by ssdlab\n"));
  CHECK_THAT(yaml, Catch::Contains("  op: 0.07\n"));
  CHECK_THAT(yaml, Catch::Contains("  t_prog: {lsb: 390us, msb: 1.41ms}\n"));
  CHECK_THAT(yaml, Catch::Contains("  firmware_cost: 28.6us\n"));
  CHECK_THAT(yaml, Catch::Contains("  write_buffer: 1MiB\n"));
  check_round_trip(c);
}

TEST_CASE("effective config round trips overridden and unusual configs", "[config]") {
  check_round_trip(load_drive_config(
      kDefaultPath, {"controller.capacity=500000256", "nand.t_read.msb=70us", "controller.gc.policy=cost_benefit",
                     "host.sata=1.5Gbps", "controller.write_cache=false", "controller.max_transfer=1MiB",
                     "nand.t_cmd=0", "host.ncq_tags=1", "controller.queue_depth=1"}));
  const DriveConfig capacity = parse(kBase, {"controller.capacity=500000256"});
  CHECK_THAT(effective_config_yaml(capacity), Catch::Contains("  capacity: 500000256B\n"));
  check_round_trip(capacity);
  check_round_trip(parse(kBase, {"controller.capacity=512MiB"}));
  check_round_trip(parse(kBase, {"controller.op=0.123456789012345"}));
  check_round_trip(parse(kBase, {"controller.op=0.5"}));
  const std::string tlc =
      with("  t_prog: {lsb: 250us, msb: 900us}", "  t_prog: {lsb: 1ms, csb: 2ms, msb: 3.5ms}",
           with("cell: MLC", "cell: tlc",
                with("name: test", "name: \"odd: 'name' \\\"x\\\"\"\ndescription: \"two\\nlines\"")));
  const DriveConfig odd = parse(tlc);
  CHECK(odd.name == "odd: 'name' \"x\"");
  check_round_trip(odd);
}

// ---- Issue 10: inputs that were silently ignored, accepted although unbuildable, or blamed on
// the wrong key.

TEST_CASE("a mapping unit of k pages is a virtual page over k dies and must tile the dies", "[config][vpage]") {
  // 16 dies, 4 KiB pages: 2, 4, 8 or 16 pages.
  for (const char* unit : {"8KiB", "16KiB", "32KiB", "64KiB"}) {
    const DriveConfig c = parse(kBase + "  mapping_unit: " + unit + "\n");
    CHECK(c.controller.user_bytes % c.controller.mapping_unit_bytes == 0);
  }
  CHECK(parse(kBase + "  mapping_unit: 16KiB\n").controller.mapping_unit_bytes == 16384);
  // More pages than a virtual page holds.
  CHECK_THAT(error_of(kBase + "  mapping_unit: 128KiB\n"),
             Catch::StartsWith("x.yaml:16: controller.mapping_unit: 128KiB is 32 pages: a virtual page holds a power "
                               "of two of at most 16; nearest that fit: 64KiB (16 pages) (a divisor of nand.page_size "
                               "4KiB, or k pages, k a power of two <= 16 dividing the 16 dies); keys involved: "
                               "controller.mapping_unit at x.yaml:16, nand.page_size at x.yaml:7, nand.channels at "
                               "x.yaml:3, nand.dies_per_channel at x.yaml:4"));
  // 12 dies: 8 pages do not tile them; 4 and 16... only 2, 4 (and 1) divide 12.
  CHECK_THAT(error_of(with("channels: 4", "channels: 3"), {"controller.mapping_unit=32KiB"}),
             Catch::Contains("controller.mapping_unit: 32KiB is 8 pages, one per "
                             "die of a stripe group, which do not tile the 12 dies (3 channels x 4); nearest that "
                             "fit: 16KiB (4 pages) (a divisor"));
  CHECK_THAT(error_of(with("channels: 4", "channels: 3"), {"controller.mapping_unit=64KiB"}),
             Catch::Contains("nearest that fit: 16KiB (4 pages) (a divisor"));
  // The hybrid FTL maps one page per unit.
  CHECK_THAT(error_of(kBase + "  mapping_unit: 16KiB\n  ftl: hybrid\n"),
             Catch::Contains("controller.ftl: hybrid maps one mapping unit per page: mapping_unit (16KiB) must "
                             "equal nand.page_size (4KiB)"));
  // The buffer holds whole units.
  CHECK_THAT(error_of(with("write_buffer: 8MiB", "write_buffer: 24KiB"), {"controller.mapping_unit=16KiB"}),
             Catch::Contains("controller.write_buffer: must be a multiple of the mapping unit (16KiB), got 24KiB"));
}

TEST_CASE("bit-error and ECC keys: off by default, round trip, and a codeword larger than a page refused",
          "[config][bit_errors]") {
  const DriveConfig d = load_drive_config(kDefaultPath);
  CHECK_FALSE(d.nand.errors.enabled);
  CHECK(d.nand.errors.retry_levels == 0);
  CHECK(d.controller.ecc.bits == 15);
  CHECK(d.controller.ecc.codeword_bytes == 512);
  CHECK(d.flash_config().t_decode_ps == 0);  // no decode time while the flash never errs
  const DriveConfig on =
      load_drive_config(kDefaultPath, {"nand.errors.enabled=true", "nand.errors.retry_levels=8",
                                       "nand.errors.scale=2.5", "nand.errors.retry_gain=0.25", "controller.ecc.bits=24",
                                       "controller.ecc.codeword=1KiB", "controller.ecc.decode=2us"});
  CHECK(on.flash_config().t_decode_ps == 2 * kPicosPerUs);
  CHECK(on.nand.errors.retry_gain == 0.25);
  check_round_trip(on);
  CHECK(error_of(kBase, {"controller.ecc.codeword=8KiB"}) ==
        "override 'controller.ecc.codeword=8KiB': controller.ecc.codeword: an ECC codeword (8KiB) must fit in a page "
        "(4KiB); keys involved: controller.ecc.codeword from override 'controller.ecc.codeword=8KiB', nand.page_size "
        "at x.yaml:7");
  CHECK_THAT(error_of(kBase, {"nand.errors.retry_gain=1.5"}), Catch::Contains("nand.errors.retry_gain"));
  CHECK_THAT(error_of(kBase, {"nand.errors.enabeld=true"}), Catch::Contains("did you mean 'enabled'"));
}
