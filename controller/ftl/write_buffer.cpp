#include "controller/ftl/write_buffer.h"

#include <stdexcept>

namespace ssdlab {

WriteBuffer::WriteBuffer(std::uint32_t capacity_units)
    : m_lpn(capacity_units, 0), m_owner(capacity_units, 0), m_dirty(capacity_units, 0) {
  if (capacity_units == 0) throw std::invalid_argument("write buffer needs at least one slot");
  m_free.reserve(capacity_units);
  clear();
}

void WriteBuffer::clear() {
  m_free.clear();
  for (std::uint32_t s = capacity(); s > 0; --s) m_free.push_back(s - 1);
  m_dirty_head = m_dirty_count = 0;
}

std::uint32_t WriteBuffer::insert(Lpn lpn, std::uint64_t owner) {
  if (m_free.empty()) throw std::logic_error("write buffer overflow");
  const std::uint32_t slot = m_free.back();
  m_free.pop_back();
  m_lpn[slot] = lpn;
  m_owner[slot] = owner;
  m_dirty[(m_dirty_head + m_dirty_count) % capacity()] = slot;
  ++m_dirty_count;
  return slot;
}

std::uint32_t WriteBuffer::pop_dirty() {
  if (m_dirty_count == 0) throw std::logic_error("no dirty slot in the write buffer");
  const std::uint32_t slot = m_dirty[m_dirty_head];
  m_dirty_head = (m_dirty_head + 1) % capacity();
  --m_dirty_count;
  return slot;
}

void WriteBuffer::release(std::uint32_t slot) { m_free.push_back(slot); }

}  // namespace ssdlab
