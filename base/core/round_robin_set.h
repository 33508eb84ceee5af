// A set of small integers (dies) as a bit set, searched round robin: the first member at or
// after a starting point, wrapping, that a predicate accepts. Replaces a scan of every die
// when most have their queues full.
#pragma once

#include <cstdint>
#include <vector>

namespace ssdlab {

class RoundRobinSet {
 public:
  explicit RoundRobinSet(std::uint32_t size = 0) : m_size(size), m_words((size + 63) / 64, 0) {}

  std::uint32_t size() const { return m_size; }
  std::uint32_t count() const { return m_count; }
  bool contains(std::uint32_t i) const { return (m_words[i / 64] >> (i % 64)) & 1; }
  void insert(std::uint32_t i) {
    if (contains(i)) return;
    m_words[i / 64] |= bit(i);
    ++m_count;
  }
  void erase(std::uint32_t i) {
    if (!contains(i)) return;
    m_words[i / 64] &= ~bit(i);
    --m_count;
  }
  void fill() {
    for (std::uint32_t i = 0; i < m_size; ++i) insert(i);
  }

  // The first member m in the order start, start + 1, ..., size - 1, 0, ..., start - 1 for which
  // accept(m) is true; -1 if none. A start past the end counts as 0.
  template <typename Accept>
  std::int64_t first_from(std::uint32_t start, Accept accept) const {
    if (m_count == 0) return -1;
    if (start >= m_size) start = 0;
    const auto words = static_cast<std::uint32_t>(m_words.size());
    const std::uint32_t first_word = start / 64;
    const std::uint64_t at_or_after = ~std::uint64_t(0) << (start % 64);
    // Pass 0: from start's word to the end, bits below start masked off. Pass 1: from word 0 to
    // start's word, bits from start on masked off.
    for (std::uint32_t pass = 0; pass < 2; ++pass) {
      const std::uint32_t from = pass == 0 ? first_word : 0;
      const std::uint32_t to = pass == 0 ? words : first_word + 1;
      for (std::uint32_t w = from; w < to; ++w) {
        std::uint64_t bits = m_words[w];
        if (w == first_word) bits &= pass == 0 ? at_or_after : ~at_or_after;
        while (bits) {
          const std::uint32_t i = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
          bits &= bits - 1;
          if (accept(i)) return i;
        }
      }
    }
    return -1;
  }

 private:
  static std::uint64_t bit(std::uint32_t i) { return std::uint64_t(1) << (i % 64); }
  std::uint32_t m_size;
  std::uint32_t m_count = 0;
  std::vector<std::uint64_t> m_words;
};

}  // namespace ssdlab
