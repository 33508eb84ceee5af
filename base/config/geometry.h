// Address arithmetic shared by firmware and flash: dies, blocks, pages, mapping units.
#pragma once

#include <cstdint>

#include "base/config/config.h"
#include "base/core/types.h"

namespace ssdlab {

// Dies are numbered channel-first: die d sits on channel d % channels, so consecutive die
// numbers alternate channels and striping over dies also stripes over channels.
//
// A mapping unit of k > 1 pages (docs/virtual-pages.md) is a virtual page of k flash pages, one
// on each die of a group of k consecutive dies (die group g = dies g*k .. g*k+k-1). The FTL then
// sees the groups as its dies: `dies` counts groups, `page_bytes` is the virtual page (one unit),
// a block is the k blocks of the same index on the group's dies. The flash side expands each
// operation into the page operations (controller/ftl/virtual_page.h). With k = 1 every field
// is the flash's own.
//
// A die of P > 1 planes (docs/planes.md) works in multi-plane operations: the FTL's block is the
// P blocks of the same index on the die's planes, its page the P pages of the same index (one
// multi-plane program of P pages, read and erased together), so plane pairs fill together by
// construction. `blocks_per_die` then counts those block groups (nand.blocks_per_plane of them),
// `page_bytes` is P flash pages; a program or read of fewer bytes than that uses fewer planes.
struct Geometry {
  std::uint32_t channels = 0;
  std::uint32_t dies = 0;
  std::uint32_t blocks_per_die = 0;
  std::uint32_t pages_per_block = 0;
  std::uint32_t units_per_page = 0;  // mapping units per NAND page
  std::uint32_t unit_bytes = 0;
  std::uint32_t page_bytes = 0;
  std::uint32_t units_per_block = 0;
  std::uint32_t blocks = 0;
  std::uint64_t total_units = 0;
  std::uint32_t pages_per_unit = 1;    // k: flash pages (and dies) per mapping unit; 1 for a unit <= a page
  std::uint32_t planes = 1;            // P: planes per die, each FTL page one page on each
  std::uint32_t plane_page_bytes = 0;  // one flash page

  static Geometry from(const DriveConfig& config) {
    Geometry g;
    const NandConfig& n = config.nand;
    g.channels = n.channels;
    g.dies = n.dies();
    g.blocks_per_die = n.blocks_per_die();
    g.pages_per_block = n.pages_per_block;
    g.unit_bytes = config.controller.mapping_unit_bytes;
    g.page_bytes = n.page_size_bytes;
    g.plane_page_bytes = n.page_size_bytes;
    if (n.planes_per_die > 1) {  // multi-plane: blocks and pages of all planes together
      g.planes = n.planes_per_die;
      g.blocks_per_die = n.blocks_per_plane;
      g.page_bytes = n.page_size_bytes * n.planes_per_die;
    }
    if (g.unit_bytes > g.page_bytes) {  // a virtual page over a group of dies (checked by the loader)
      g.pages_per_unit = g.unit_bytes / g.page_bytes;
      g.dies /= g.pages_per_unit;
      g.page_bytes = g.unit_bytes;
    }
    g.units_per_page = g.page_bytes / g.unit_bytes;
    g.units_per_block = g.units_per_page * g.pages_per_block;
    g.blocks = g.dies * g.blocks_per_die;
    g.total_units = std::uint64_t(g.blocks) * g.units_per_block;
    return g;
  }

  std::uint32_t channel_of_die(std::uint32_t die) const { return die % channels; }
  std::uint32_t die_of_block(std::uint32_t block) const { return block / blocks_per_die; }
  std::uint32_t first_block_of_die(std::uint32_t die) const { return die * blocks_per_die; }
  std::uint32_t block_of_unit(Pua u) const { return u / units_per_block; }
  std::uint32_t page_of_unit(Pua u) const { return (u / units_per_page) % pages_per_block; }
  Pua first_unit_of_page(std::uint32_t block, std::uint32_t page) const {
    return (block * pages_per_block + page) * units_per_page;
  }
  std::uint64_t block_bytes() const { return std::uint64_t(pages_per_block) * page_bytes; }
};

}  // namespace ssdlab
