// The random and d-choice GC policies' view of the closed blocks: for each die, the closed
// blocks that hold invalid data (the ones collecting would free something), in an array with
// each block's position in it, so that a uniform sample of d of them costs O(d) and no scan.
//
// add() appends, remove() moves the last entry into the gap: both O(1). draw() makes the first
// k entries of a die a uniform random sample without replacement (a partial Fisher-Yates
// shuffle: entry i swaps with a uniform one of [i, size)). Additions after a draw go to the end
// and leave the sample alone; the policy draws again after each removal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/core/rng.h"

namespace ssdlab {

class CandidateSet {
 public:
  CandidateSet() = default;  // an empty set: for the policies that do not sample
  CandidateSet(std::uint32_t dies, std::uint32_t blocks_per_die);

  void clear();
  void add(std::uint32_t block);
  // Takes `block` out if it is in.
  void remove(std::uint32_t block);
  bool contains(std::uint32_t block) const { return m_pos[block] != kNone; }
  std::uint32_t size(std::uint32_t die) const { return m_count[die]; }
  // Entry `i` (< size) of `die`'s array.
  std::uint32_t at(std::uint32_t die, std::uint32_t i) const { return m_slots[first(die) + i]; }
  // Shuffles so that entries [0, k) of `die` (k <= size) are a uniform sample drawn by `rng`.
  void draw(std::uint32_t die, std::uint32_t k, Rng& rng);

  // Checks positions, counts and membership against `is_candidate(block)` over the die's
  // blocks; empty if consistent, else the first violation.
  template <class IsCandidate>
  std::string check(std::uint32_t die, IsCandidate is_candidate) const;

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t(0);
  std::size_t first(std::uint32_t die) const { return std::size_t(die) * m_blocks_per_die; }
  std::uint32_t die_of(std::uint32_t block) const { return block / m_blocks_per_die; }
  void put(std::uint32_t die, std::uint32_t i, std::uint32_t block) {
    m_slots[first(die) + i] = block;
    m_pos[block] = i;
  }

  std::uint32_t m_blocks_per_die = 0;
  std::vector<std::uint32_t> m_slots;  // per die, blocks_per_die entries: its candidates first
  std::vector<std::uint32_t> m_pos;    // per block: its index in its die's entries, or kNone
  std::vector<std::uint32_t> m_count;  // per die
};

template <class IsCandidate>
std::string CandidateSet::check(std::uint32_t die, IsCandidate is_candidate) const {
  const std::string where = "candidate set of die " + std::to_string(die);
  std::uint32_t candidates = 0;
  for (std::uint32_t i = 0; i < m_blocks_per_die; ++i) {
    const auto block = static_cast<std::uint32_t>(first(die) + i);
    const bool listed = contains(block);
    if (listed != is_candidate(block)) {
      return where + (listed ? " lists block " : " misses block ") + std::to_string(block);
    }
    if (listed && (m_pos[block] >= m_count[die] || at(die, m_pos[block]) != block)) {
      return where + " has block " + std::to_string(block) + " at a wrong position";
    }
    candidates += listed;
  }
  if (candidates != m_count[die]) {
    return where + " counts " + std::to_string(m_count[die]) + " blocks, lists " + std::to_string(candidates);
  }
  return {};
}

}  // namespace ssdlab
