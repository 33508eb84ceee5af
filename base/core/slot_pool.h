// A pool of slots that grows to the largest number in use at once and then reuses them: the
// index of a slot is its name (a token handed to a callback, an owner kept beside a request), so
// slots never move between acquire and release. No allocation once the pool has grown.
#pragma once

#include <cstdint>
#include <vector>

namespace ssdlab {

template <class T>
class SlotPool {
 public:
  // A free slot's index; its value is what release() left there (reset it as needed).
  std::uint32_t acquire() {
    if (m_free.empty()) {
      m_slots.emplace_back();
      return static_cast<std::uint32_t>(m_slots.size() - 1);
    }
    const std::uint32_t i = m_free.back();
    m_free.pop_back();
    return i;
  }
  void release(std::uint32_t i) { m_free.push_back(i); }

  T& operator[](std::uint32_t i) { return m_slots[i]; }
  const T& operator[](std::uint32_t i) const { return m_slots[i]; }
  std::uint32_t in_use() const { return static_cast<std::uint32_t>(m_slots.size() - m_free.size()); }

 private:
  std::vector<T> m_slots;
  std::vector<std::uint32_t> m_free;
};

}  // namespace ssdlab
