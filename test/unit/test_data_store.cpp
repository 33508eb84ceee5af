// The bytes of a data-carrying drive: reads follow the mapping (zeros, buffer slot, flash) and a
// write that covers a unit in part is merged with the unit's old contents.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "controller/ftl/data_store.h"
#include "controller/ftl/ftl.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

struct Rig {
  Ftl ftl{small_drive(1, 1, 32, 32)};
  std::uint32_t unit = ftl.geometry().unit_bytes;
  std::uint32_t unit_sectors = unit / kSectorBytes;
  DataStore data{ftl.geometry(), 8};
  std::vector<std::uint8_t> host;
  CommandQueue commands;

  // A write command of `sectors` from `lba`, its data all `fill`.
  Command& write(std::uint8_t tag, Lba lba, std::uint32_t sectors, std::uint8_t fill) {
    host.assign(std::size_t(sectors) * kSectorBytes, fill);
    Command& c = commands.open(tag);
    c.op = AtaCommand::kWriteFpdma;
    c.lba = lba;
    c.sectors = sectors;
    c.host_data = host.data();
    c.map_units(unit);
    return c;
  }
  std::vector<std::uint8_t> unit_of(Lpn lpn) const {
    std::vector<std::uint8_t> out(unit, 0xee);
    data.fill_unit(ftl, lpn, out.data());
    return out;
  }
};

}  // namespace

TEST_CASE("data follows the mapping from buffer to flash", "[data_store]") {
  Rig r;
  CHECK(r.unit_of(3) == std::vector<std::uint8_t>(r.unit, 0));  // unmapped: zeros
  const Command& c = r.write(1, 3 * r.unit_sectors, r.unit_sectors, 0x5a);
  r.data.write_slot(r.ftl, c, 3, 6);
  r.ftl.write_to_buffer(3, 6);
  CHECK(r.unit_of(3) == std::vector<std::uint8_t>(r.unit, 0x5a));
  // Programmed: the FTL maps it to flash and the page holds the slot's bytes.
  OpList ops;
  const Lpn lpn = 3;
  REQUIRE(r.ftl.place(0, &lpn, 1, 0, ops));
  r.data.programmed(r.ftl.plan_read(3).unit, 6);
  CHECK(r.unit_of(3) == std::vector<std::uint8_t>(r.unit, 0x5a));
}

TEST_CASE("a partial write merges with the old contents", "[data_store]") {
  Rig r;
  const Command& whole = r.write(1, 0, r.unit_sectors, 0x11);
  r.data.write_slot(r.ftl, whole, 0, 2);
  r.ftl.write_to_buffer(0, 2);
  const Command& part = r.write(2, 1, 2, 0x22);  // sectors 1 and 2 of unit 0
  r.data.write_slot(r.ftl, part, 0, 5);
  r.ftl.write_to_buffer(0, 5);
  const std::vector<std::uint8_t> got = r.unit_of(0);
  for (std::uint32_t b = 0; b < r.unit; ++b) {
    const std::uint8_t want = b >= kSectorBytes && b < 3 * kSectorBytes ? 0x22 : 0x11;
    if (got[b] != want) FAIL("byte " << b << " is " << int(got[b]));
  }
  // A read of sectors 2..3 gets the merged bytes.
  std::vector<std::uint8_t> out(2 * kSectorBytes, 0);
  Command read;
  read.lba = 2;
  read.sectors = 2;
  read.host_data = out.data();
  read.map_units(r.unit);
  r.data.copy_read(r.ftl, read);
  CHECK(out[0] == 0x22);
  CHECK(out[kSectorBytes] == 0x11);
}
