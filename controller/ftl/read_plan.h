// Where an LPN's newest data is, as the FTL answers it (Ftl::plan_read): nowhere (unmapped or
// trimmed: reads return zeros), in a write-buffer slot, or on flash at a physical unit. The
// controller plans reads and read-modify-writes from this, never from raw L2P entries.
#pragma once

#include <cstdint>

#include "base/config/geometry.h"
#include "base/core/types.h"

namespace ssdlab {

struct ReadPlan {
  enum class Where : std::uint8_t { kUnmapped, kBuffer, kFlash };
  Where where = Where::kUnmapped;
  std::uint32_t slot = 0;  // kBuffer: the write-buffer slot
  Pua unit = 0;            // kFlash: the physical unit, in `page` of `block` on `die`
  std::uint32_t die = 0, block = 0, page = 0;

  bool unmapped() const { return where == Where::kUnmapped; }
  bool in_buffer() const { return where == Where::kBuffer; }
  bool on_flash() const { return where == Where::kFlash; }

  // Decodes an L2P entry: kUnmapped, `buffered_bit | slot`, or a physical unit. Only
  // Ftl::plan_read calls this (with its own encoding); inline, since reads plan every unit.
  static ReadPlan of(std::uint32_t entry, std::uint32_t buffered_bit, const Geometry& g) {
    ReadPlan plan;
    if (entry == kUnmapped) return plan;
    if (entry & buffered_bit) {
      plan.where = Where::kBuffer;
      plan.slot = entry & ~buffered_bit;
      return plan;
    }
    plan.where = Where::kFlash;
    plan.unit = entry;
    plan.block = g.block_of_unit(entry);
    plan.page = g.page_of_unit(entry);
    plan.die = g.die_of_block(plan.block);
    return plan;
  }
};

}  // namespace ssdlab
