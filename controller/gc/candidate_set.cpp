#include "controller/gc/candidate_set.h"

#include <algorithm>

namespace ssdlab {

CandidateSet::CandidateSet(std::uint32_t dies, std::uint32_t blocks_per_die)
    : m_blocks_per_die(blocks_per_die),
      m_slots(std::size_t(dies) * blocks_per_die, kNone),
      m_pos(std::size_t(dies) * blocks_per_die, kNone),
      m_count(dies, 0) {}

void CandidateSet::clear() {
  std::fill(m_slots.begin(), m_slots.end(), kNone);
  std::fill(m_pos.begin(), m_pos.end(), kNone);
  std::fill(m_count.begin(), m_count.end(), 0);
}

void CandidateSet::add(std::uint32_t block) {
  const std::uint32_t die = die_of(block);
  put(die, m_count[die]++, block);
}

void CandidateSet::remove(std::uint32_t block) {
  if (!contains(block)) return;
  const std::uint32_t die = die_of(block);
  const std::uint32_t i = m_pos[block];
  const std::uint32_t last = --m_count[die];
  if (i != last) put(die, i, at(die, last));
  m_slots[first(die) + last] = kNone;
  m_pos[block] = kNone;
}

void CandidateSet::draw(std::uint32_t die, std::uint32_t k, Rng& rng) {
  const std::uint32_t n = m_count[die];
  for (std::uint32_t i = 0; i < k && i + 1 < n; ++i) {
    const auto j = static_cast<std::uint32_t>(i + rng.below(n - i));
    if (j == i) continue;
    const std::uint32_t a = at(die, i), b = at(die, j);
    put(die, i, b);
    put(die, j, a);
  }
}

}  // namespace ssdlab
