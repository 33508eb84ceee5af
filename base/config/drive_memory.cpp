#include "base/config/drive_memory.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "base/core/units.h"

namespace ssdlab {
namespace {

const char* const kGeometryKeys =
    "nand.channels, nand.dies_per_channel, nand.planes_per_die, nand.blocks_per_plane, "
    "nand.pages_per_block, nand.page_size";
constexpr std::uint64_t kP2lMemoryBudget = std::uint64_t(512) << 20;  // P2lTable's default budget
constexpr std::uint64_t kBytesPerBlock = 32;  // valid and erase counts, age, state, victim index

std::string readable(std::uint64_t bytes) {
  const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace

std::vector<SizedAllocation> drive_allocations(const DriveConfig& c, bool keep_data) {
  const std::uint64_t unit = std::max<std::uint64_t>(1, c.controller.mapping_unit_bytes);
  const std::uint64_t user_units = c.controller.user_bytes / unit;
  const std::uint64_t raw_units = c.nand.raw_bytes() / unit;
  const std::uint64_t units_per_page = std::max<std::uint64_t>(1, c.nand.page_size_bytes / unit);
  const std::uint64_t buffer_units = c.controller.write_buffer_bytes / unit + 1;
  const std::string capacity_keys =
      std::string("controller.op or controller.capacity, controller.mapping_unit, ") + kGeometryKeys;
  std::vector<SizedAllocation> out = {
      {"L2P mapping table (4 bytes per user mapping unit)", capacity_keys, user_units * 4},
      {"P2L table in memory (4 bytes per physical mapping unit)",
       std::string("controller.mapping_unit, ") + kGeometryKeys, std::min(raw_units * 4, kP2lMemoryBudget)},
      {"per-block tables", kGeometryKeys, c.nand.blocks() * kBytesPerBlock},
      {"write buffer records", "controller.write_buffer, controller.mapping_unit, nand.page_size",
       buffer_units * units_per_page * 4},
  };
  if (keep_data) {
    out.push_back({"write buffer data", "controller.write_buffer", buffer_units * unit});
    out.push_back({"flash data index (8 bytes per block)", kGeometryKeys, c.nand.blocks() * 8});
  }
  std::sort(out.begin(), out.end(),
            [](const SizedAllocation& a, const SizedAllocation& b) { return a.bytes > b.bytes; });
  return out;
}

std::string allocation_failure_message(const DriveConfig& c, bool keep_data, const std::string& what) {
  const std::vector<SizedAllocation> all = drive_allocations(c, keep_data);
  std::string text = "out of memory for drive '" + c.name + "'";
  if (!c.source_path.empty()) text += " (" + c.source_path + ")";
  text += " in " + what + ": its largest set-up allocations are ";
  for (std::size_t i = 0; i < all.size() && i < 3; ++i)
    text += (i ? "; " : "") + all[i].what + " " + readable(all[i].bytes) + ", sized by " + all[i].keys;
  return text + " (write buffer " + format_size(c.controller.write_buffer_bytes) + ", raw capacity " +
         format_size(c.nand.raw_bytes()) + ")";
}

}  // namespace ssdlab
