// Mapping units of k > 1 flash pages (docs/virtual-pages.md): a unit is a virtual page of k
// pages, one on each die of a group of k consecutive dies, at the same block and page index.
// The FTL, its GC, the write buffer and the flash scheduler work on the groups as their dies
// (Geometry with pages_per_unit = k); VirtualPageStriper turns each of their operations into
// the flash operations it stands for and tells when the last of them is done.
//
// Which pages of a virtual page an operation touches: all k (programs, erases, GC reads of
// whole units), or the pages in a mask carried in the op's page field above the page number
// (host reads read only the pages holding the requested bytes; a read-modify-write reads the
// pages the write does not cover). Mask 0 means all.
//
// Plain C++, no SystemC. The entries of the operations in flight are reused (a free list): no
// allocation per operation once the pool has grown to the most ever in flight.
#pragma once

#include <cstdint>
#include <vector>

#include "base/config/geometry.h"
#include "base/core/nand_op.h"

namespace ssdlab {

namespace vpage {
constexpr std::uint32_t kMaskShift = 16;  // page numbers stay below 2^16 (pages_per_block)
constexpr std::uint32_t kMaxPagesPerUnit = 16;
constexpr std::uint32_t kPageMask = (1u << kMaskShift) - 1;

inline std::uint32_t with_mask(std::uint32_t page, std::uint32_t mask) { return page | mask << kMaskShift; }

// The pages of unit `lpn` that bytes [first, end) of the drive touch (0: all of them).
inline std::uint32_t touched(const Geometry& g, std::uint64_t lpn, std::uint64_t first, std::uint64_t end) {
  const std::uint64_t base = lpn * g.unit_bytes, page = g.unit_bytes / g.pages_per_unit;
  const std::uint64_t lo = first > base ? first - base : 0;
  const std::uint64_t hi = end - base < g.unit_bytes ? end - base : g.unit_bytes;
  const std::uint32_t all = (1u << g.pages_per_unit) - 1;
  const std::uint32_t mask = ((2u << ((hi - 1) / page)) - 1) & ~((1u << (lo / page)) - 1);
  return mask == all ? 0 : mask;
}

// The pages of unit `lpn` that a write of bytes [first, end) does not cover whole: what its
// read-modify-write reads (0 when it covers every page: nothing to read).
inline std::uint32_t uncovered(const Geometry& g, std::uint64_t lpn, std::uint64_t first, std::uint64_t end) {
  const std::uint64_t base = lpn * g.unit_bytes, page = g.unit_bytes / g.pages_per_unit;
  std::uint32_t mask = 0;
  for (std::uint32_t s = 0; s < g.pages_per_unit; ++s) {
    const std::uint64_t lo = base + s * page, hi = lo + page;
    if (first > lo || end < hi) mask |= 1u << s;
  }
  return mask;
}
}  // namespace vpage

class VirtualPageStriper {
 public:
  // `geometry`: the FTL's (pages_per_unit = k > 1); `flash_page_bytes`: nand.page_size.
  VirtualPageStriper(const Geometry& geometry, std::uint32_t flash_page_bytes);

  std::uint32_t pages_per_unit() const { return m_k; }
  // Appends the flash operations of the FTL's `op` (its die a group) to `out`; each carries
  // the timed bit of `op` and an entry that finish() resolves.
  void expand(const NandOp& op, std::vector<NandOp>& out);
  // A flash operation that expand() made is done. True when it was the last of its FTL
  // operation, which is then `op` (as it was given to expand()).
  bool finish(const NandOp& flash_op, NandOp& op);
  // FTL operations whose flash operations are not all done.
  std::size_t in_flight() const { return m_entries.size() - m_free.size(); }

 private:
  struct Entry {
    NandOp op;
    std::uint32_t remaining = 0;
  };
  std::uint32_t m_k;
  std::uint32_t m_blocks_per_die;
  std::uint32_t m_flash_page_bytes;
  std::vector<Entry> m_entries;
  std::vector<std::uint32_t> m_free;
};

}  // namespace ssdlab
