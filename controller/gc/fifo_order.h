// The FIFO GC policy's view of the closed blocks: for each die, the order in which its blocks
// closed, and among them the ones that hold invalid data. The victim is the oldest closed block
// with invalid data (a fully valid one frees nothing), else the oldest closed block.
//
// Closing and removing a block are O(1) (an intrusive list through per-block links); a closed
// block's first invalid unit is O(log n) (a min-heap on close order per die), and so is removing
// the victim. No operation walks the blocks: the ring this replaces searched and shifted up to a
// die's whole block count for every victim.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ssdlab {

class FifoOrder {
 public:
  FifoOrder() = default;  // an empty order: for the other GC policies
  FifoOrder(std::uint32_t dies, std::uint32_t blocks_per_die);

  void clear();
  // `block` of `die` closed now; `has_invalid` if it already holds invalid or padded units.
  void closed(std::uint32_t die, std::uint32_t block, bool has_invalid);
  // A closed block's valid count fell below full for the first time.
  void first_invalid(std::uint32_t die, std::uint32_t block);
  // The oldest closed block with invalid data, else the oldest closed block; -1 if none.
  std::int64_t victim(std::uint32_t die) const;
  // Takes `block` out (it is being collected). It must be what victim(die) returned.
  void remove(std::uint32_t die, std::uint32_t block);

  std::uint32_t closed_count(std::uint32_t die) const { return m_dies[die].count; }
  // The die's closed blocks, oldest first (for images and checks).
  std::vector<std::uint32_t> order(std::uint32_t die) const;
  // Checks links, counts and the heap against `has_invalid(block)`; empty if consistent.
  template <typename HasInvalid>
  std::string check(std::uint32_t die, HasInvalid has_invalid) const;

 private:
  static constexpr std::int32_t kNone = -1;
  using Mark = std::pair<std::uint64_t, std::uint32_t>;  // (close order, block)
  struct Die {
    std::int32_t head = kNone, tail = kNone;
    std::uint32_t count = 0;
    std::uint64_t closes = 0;        // close order of the next block to close
    std::vector<Mark> with_invalid;  // min-heap on close order
  };
  void unlink(Die& d, std::uint32_t block);
  void pop_mark(Die& d);

  std::vector<std::int32_t> m_prev, m_next;  // per block
  std::vector<std::uint64_t> m_order;        // per block: its close order
  std::vector<Die> m_dies;
};

template <typename HasInvalid>
std::string FifoOrder::check(std::uint32_t die, HasInvalid has_invalid) const {
  const Die& d = m_dies[die];
  std::uint32_t n = 0, marked = 0;
  std::int32_t prev = kNone;
  for (std::int32_t b = d.head; b != kNone; prev = b, b = m_next[b]) {
    if (m_prev[b] != prev || ++n > d.count) return "FIFO order of die " + std::to_string(die) + " is broken";
    if (prev != kNone && m_order[b] <= m_order[prev])
      return "FIFO order of die " + std::to_string(die) + " is not by age";
    marked += has_invalid(static_cast<std::uint32_t>(b));
  }
  if (n != d.count || prev != d.tail) return "FIFO order of die " + std::to_string(die) + " miscounts its blocks";
  if (marked != d.with_invalid.size()) {
    return "FIFO order of die " + std::to_string(die) + " marks " + std::to_string(d.with_invalid.size()) +
           " blocks with invalid data, there are " + std::to_string(marked);
  }
  for (const Mark& m : d.with_invalid) {
    if (!has_invalid(m.second) || m_order[m.second] != m.first) {
      return "FIFO order of die " + std::to_string(die) + " marks block " + std::to_string(m.second) + " wrongly";
    }
  }
  return {};
}

}  // namespace ssdlab
