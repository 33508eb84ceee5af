#include "controller/ftl/virtual_page.h"

#include <stdexcept>

namespace ssdlab {

VirtualPageStriper::VirtualPageStriper(const Geometry& geometry, std::uint32_t flash_page_bytes)
    : m_k(geometry.pages_per_unit), m_blocks_per_die(geometry.blocks_per_die), m_flash_page_bytes(flash_page_bytes) {
  if (m_k < 2 || m_k > vpage::kMaxPagesPerUnit) throw std::invalid_argument("virtual page of an unsupported size");
  m_entries.reserve(256);
  m_free.reserve(256);
}

void VirtualPageStriper::expand(const NandOp& op, std::vector<NandOp>& out) {
  const std::uint32_t mask = op.page >> vpage::kMaskShift;
  const std::uint32_t count = mask ? static_cast<std::uint32_t>(__builtin_popcount(mask)) : m_k;
  std::uint32_t entry;
  if (!m_free.empty()) {
    entry = m_free.back();
    m_free.pop_back();
  } else {
    entry = static_cast<std::uint32_t>(m_entries.size());
    m_entries.emplace_back();
  }
  m_entries[entry] = Entry{op, count};
  // A page of each die in the group: the block of the same index on that die, the same page.
  const std::uint32_t index_in_die = op.block - op.die * m_blocks_per_die;
  // Whole-unit ops share their bytes out (a GC read moves one unit, a program the virtual
  // page); masked reads move a whole flash page each.
  const std::uint32_t bytes = mask ? m_flash_page_bytes : op.bytes / m_k;
  const std::uint32_t cookie = (op.cookie & kOpTimedBit) | entry;
  for (std::uint32_t j = 0; j < m_k; ++j) {
    if (mask && !(mask & (1u << j))) continue;
    const std::uint32_t die = op.die * m_k + j;
    append_op(out, op.kind, op.origin, die, die * m_blocks_per_die + index_in_die, op.page & vpage::kPageMask, bytes,
              cookie);
    // Bit errors: each flash page of a virtual page's read takes the virtual page's verdict.
    out.back().retries = op.retries;
    out.back().status = op.status;
  }
}

bool VirtualPageStriper::finish(const NandOp& flash_op, NandOp& op) {
  const std::uint32_t entry = flash_op.cookie & ~kOpTimedBit;
  if (entry >= m_entries.size() || m_entries[entry].remaining == 0) {
    throw std::logic_error("flash op completed that no virtual page is waiting for");
  }
  Entry& e = m_entries[entry];
  if (--e.remaining != 0) return false;
  op = e.op;
  op.page &= vpage::kPageMask;
  m_free.push_back(entry);
  return true;
}

}  // namespace ssdlab
