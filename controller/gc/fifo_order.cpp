#include "controller/gc/fifo_order.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace ssdlab {

FifoOrder::FifoOrder(std::uint32_t dies, std::uint32_t blocks_per_die)
    : m_prev(std::size_t(dies) * blocks_per_die, kNone),
      m_next(std::size_t(dies) * blocks_per_die, kNone),
      m_order(std::size_t(dies) * blocks_per_die, 0),
      m_dies(dies) {}

void FifoOrder::clear() {
  std::fill(m_prev.begin(), m_prev.end(), kNone);
  std::fill(m_next.begin(), m_next.end(), kNone);
  for (Die& d : m_dies) {
    d.head = d.tail = kNone;
    d.count = 0;
    d.with_invalid.clear();
  }
}

void FifoOrder::closed(std::uint32_t die, std::uint32_t block, bool has_invalid) {
  Die& d = m_dies[die];
  const auto b = static_cast<std::int32_t>(block);
  m_order[block] = d.closes++;
  m_prev[block] = d.tail;
  m_next[block] = kNone;
  if (d.tail != kNone) {
    m_next[d.tail] = b;
  } else {
    d.head = b;
  }
  d.tail = b;
  ++d.count;
  if (has_invalid) first_invalid(die, block);
}

void FifoOrder::first_invalid(std::uint32_t die, std::uint32_t block) {
  Die& d = m_dies[die];
  d.with_invalid.emplace_back(m_order[block], block);
  std::push_heap(d.with_invalid.begin(), d.with_invalid.end(), std::greater<Mark>());
}

std::int64_t FifoOrder::victim(std::uint32_t die) const {
  const Die& d = m_dies[die];
  if (!d.with_invalid.empty()) return d.with_invalid.front().second;
  return d.head;  // kNone (-1) when the die has no closed block
}

void FifoOrder::pop_mark(Die& d) {
  std::pop_heap(d.with_invalid.begin(), d.with_invalid.end(), std::greater<Mark>());
  d.with_invalid.pop_back();
}

void FifoOrder::unlink(Die& d, std::uint32_t block) {
  const std::int32_t prev = m_prev[block], next = m_next[block];
  if (prev != kNone) {
    m_next[prev] = next;
  } else {
    d.head = next;
  }
  if (next != kNone) {
    m_prev[next] = prev;
  } else {
    d.tail = prev;
  }
  m_prev[block] = m_next[block] = kNone;
  --d.count;
}

void FifoOrder::remove(std::uint32_t die, std::uint32_t block) {
  Die& d = m_dies[die];
  if (victim(die) != std::int64_t(block)) {
    throw std::logic_error("FIFO GC: block " + std::to_string(block) + " removed out of order on die " +
                           std::to_string(die));
  }
  if (!d.with_invalid.empty()) pop_mark(d);
  unlink(d, block);
}

std::vector<std::uint32_t> FifoOrder::order(std::uint32_t die) const {
  std::vector<std::uint32_t> blocks;
  blocks.reserve(m_dies[die].count);
  for (std::int32_t b = m_dies[die].head; b != kNone; b = m_next[b]) blocks.push_back(static_cast<std::uint32_t>(b));
  return blocks;
}

}  // namespace ssdlab
