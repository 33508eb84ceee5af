// A FIFO ring buffer that grows by doubling and never shrinks: no allocation in steady state.
// The capacity is a power of two, so positions wrap with a mask rather than a division.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace ssdlab {

template <typename T>
class Ring {
 public:
  explicit Ring(std::size_t initial_capacity = 16) : m_items(round_up(initial_capacity)), m_mask(m_items.size() - 1) {}

  bool empty() const { return m_count == 0; }
  std::size_t size() const { return m_count; }
  T& front() { return m_items[m_head]; }
  const T& front() const { return m_items[m_head]; }
  T& back() { return m_items[(m_head + m_count - 1) & m_mask]; }
  const T& back() const { return m_items[(m_head + m_count - 1) & m_mask]; }

  void push(T item) {
    if (m_count == m_items.size()) grow();
    m_items[(m_head + m_count) & m_mask] = std::move(item);
    ++m_count;
  }
  T pop() {
    T item = std::move(m_items[m_head]);
    m_head = (m_head + 1) & m_mask;
    --m_count;
    return item;
  }
  void clear() { m_head = m_count = 0; }

 private:
  [[gnu::noinline, gnu::cold]] void grow() {  // rare: out of line, so that push() inlines
    std::vector<T> bigger(m_items.size() * 2);
    for (std::size_t i = 0; i < m_count; ++i) bigger[i] = std::move(m_items[(m_head + i) & m_mask]);
    m_items.swap(bigger);
    m_mask = m_items.size() - 1;
    m_head = 0;
  }
  static std::size_t round_up(std::size_t n) {
    std::size_t c = 1;
    while (c < n) c *= 2;
    return c;
  }
  std::vector<T> m_items;
  std::size_t m_mask;
  std::size_t m_head = 0, m_count = 0;
};

}  // namespace ssdlab
