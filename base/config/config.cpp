// Names of config enums and resolution of scenario amounts.
#include "base/config/config.h"
#include "base/config/gc_policy_names.h"

#include <cmath>
#include <limits>

#include "base/config/scenario.h"

namespace ssdlab {

const char* to_string(CellType cell) {
  switch (cell) {
    case CellType::kSlc:
      return "SLC";
    case CellType::kMlc:
      return "MLC";
    case CellType::kTlc:
      return "TLC";
  }
  return "?";
}

const char* to_string(GcPolicyKind policy) { return kGcPolicyNames[static_cast<std::size_t>(policy)]; }

const char* to_string(HybridScheme scheme) { return scheme == HybridScheme::kBast ? "bast" : "fast"; }

const char* to_string(GcDestination destination) {
  return destination == GcDestination::kShared ? "shared" : "separate";
}

const char* to_string(GcRelocation relocation) { return relocation == GcRelocation::kStriped ? "striped" : "in_die"; }

const char* to_string(ReadPriority priority) {
  switch (priority) {
    case ReadPriority::kOverGc:
      return "over_gc";
    case ReadPriority::kOverAll:
      return "over_all";
    case ReadPriority::kOff:
      break;
  }
  return "off";
}

const char* to_string(WearLeveling mode) {
  switch (mode) {
    case WearLeveling::kDynamic:
      return "dynamic";
    case WearLeveling::kStatic:
      return "static";
    case WearLeveling::kNone:
      break;
  }
  return "none";
}

const char* to_string(SlcCacheMode mode) {
  switch (mode) {
    case SlcCacheMode::kStatic:
      return "static";
    case SlcCacheMode::kDynamic:
      return "dynamic";
    case SlcCacheMode::kOff:
      break;
  }
  return "off";
}

std::uint64_t user_bytes_for_op(std::uint64_t raw, double op, std::uint64_t mapping_unit) {
  const long double exact = std::floor(static_cast<long double>(raw) * (1.0L - op));
  const auto bytes = static_cast<std::uint64_t>(exact);
  return bytes - bytes % mapping_unit;
}

std::uint64_t slc_block_bytes(const NandConfig& n) {
  const std::uint32_t types = n.page_types();
  return std::uint64_t((n.pages_per_block + types - 1) / types) * n.page_size_bytes;
}

std::uint64_t slc_cache_blocks_per_die(const DriveConfig& c) {
  const std::uint64_t per_die = slc_block_bytes(c.nand) * c.nand.dies();
  return per_die == 0 ? 0 : (c.controller.slc_cache.size_bytes + per_die - 1) / per_die;
}

std::uint32_t NandConfig::rated_endurance() const {
  if (endurance_pe != 0) return endurance_pe;
  // Rated P/E cycles of the era's NAND when a preset gives none: SLC 100,000 (Micron
  // MT29F2G08AACWP datasheet, "Endurance: 100,000 PROGRAM/ERASE cycles"); MLC 10,000 (IMFT 50 nm
  // MLC, the figure AnandTech's X25-M review of 2008-09-08 gives for MLC; 34 nm MLC was rated
  // 5,000 and 25 nm 3,000, set by the presets that use them); TLC 1,000 (TweakTown, "Micron
  // promises TLC NAND flash", 2014: "usually under 1000").
  switch (cell) {
    case CellType::kSlc:
      return 100000;
    case CellType::kMlc:
      return 10000;
    case CellType::kTlc:
      return 1000;
  }
  return 10000;
}

const char* to_string(RwMode mode) {
  switch (mode) {
    case RwMode::kRead:
      return "read";
    case RwMode::kWrite:
      return "write";
    case RwMode::kRandRead:
      return "randread";
    case RwMode::kRandWrite:
      return "randwrite";
    case RwMode::kRandRw:
      return "randrw";
    case RwMode::kReadWrite:
      return "readwrite";
    case RwMode::kTrim:
      return "trim";
    case RwMode::kRandTrim:
      return "randtrim";
    case RwMode::kTrimWrite:
      return "trimwrite";
  }
  return "?";
}

// Percentages are rounded down to whole bytes (no sector or block alignment here);
// the result saturates at the largest 64-bit value.
std::uint64_t Amount::resolve(std::uint64_t capacity_bytes) const {
  if (!is_percent) return bytes;
  if (percent == 100.0) return capacity_bytes;
  if (!(percent > 0.0)) return 0;
  const long double exact = static_cast<long double>(capacity_bytes) * static_cast<long double>(percent) / 100.0L;
  const long double limit = static_cast<long double>(std::numeric_limits<std::uint64_t>::max());
  if (exact >= limit) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(std::floor(exact));
}

}  // namespace ssdlab
