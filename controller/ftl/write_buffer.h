// The controller's DRAM write buffer: fixed slots of one mapping unit each, a free stack and
// a FIFO of dirty slots waiting to be programmed. Plain C++, no allocation after construction.
#pragma once

#include <cstdint>
#include <vector>

#include "base/core/types.h"

namespace ssdlab {

class WriteBuffer {
 public:
  explicit WriteBuffer(std::uint32_t capacity_units);

  std::uint32_t capacity() const { return static_cast<std::uint32_t>(m_lpn.size()); }
  std::uint32_t free_slots() const { return static_cast<std::uint32_t>(m_free.size()); }
  std::uint32_t dirty() const { return m_dirty_count; }

  // Takes a free slot for `lpn` written by command `owner` (an identity the caller keeps unique
  // over time: a slot can outlive its command); it joins the dirty FIFO.
  std::uint32_t insert(Lpn lpn, std::uint64_t owner);
  // Oldest dirty slot (leaves the FIFO, still allocated until release()).
  std::uint32_t pop_dirty();
  // The i-th oldest dirty slot, i < dirty(): to look ahead without popping.
  std::uint32_t peek_dirty(std::uint32_t i) const {
    const std::uint32_t at = m_dirty_head + i;
    return m_dirty[at < capacity() ? at : at - capacity()];
  }
  void release(std::uint32_t slot);
  // Drops everything (secure erase).
  void clear();

  Lpn lpn(std::uint32_t slot) const { return m_lpn[slot]; }
  std::uint64_t owner(std::uint32_t slot) const { return m_owner[slot]; }

 private:
  std::vector<Lpn> m_lpn;
  std::vector<std::uint64_t> m_owner;
  std::vector<std::uint32_t> m_free;   // stack of free slots
  std::vector<std::uint32_t> m_dirty;  // ring, capacity slots
  std::uint32_t m_dirty_head = 0, m_dirty_count = 0;
};

}  // namespace ssdlab
