#include "controller/gc/victim_index.h"

#include <algorithm>

namespace ssdlab {

VictimIndex::VictimIndex(std::uint32_t dies, std::uint32_t blocks_per_die, std::uint32_t units_per_block)
    : m_blocks_per_die(blocks_per_die),
      m_units_per_block(units_per_block),
      m_next(std::size_t(dies) * blocks_per_die, kNone),
      m_prev(std::size_t(dies) * blocks_per_die, kNone),
      m_head(std::size_t(dies) * (units_per_block + 1), kNone),
      m_tail(std::size_t(dies) * (units_per_block + 1), kNone),
      m_count(dies, 0),
      m_min_hint(dies, units_per_block + 1) {}

void VictimIndex::clear() {
  std::fill(m_next.begin(), m_next.end(), kNone);
  std::fill(m_prev.begin(), m_prev.end(), kNone);
  std::fill(m_head.begin(), m_head.end(), kNone);
  std::fill(m_tail.begin(), m_tail.end(), kNone);
  std::fill(m_count.begin(), m_count.end(), 0);
  std::fill(m_min_hint.begin(), m_min_hint.end(), m_units_per_block + 1);
}

void VictimIndex::link_tail(std::uint32_t block, std::size_t b) {
  const auto blk = static_cast<std::int32_t>(block);
  m_prev[block] = m_tail[b];
  m_next[block] = kNone;
  if (m_tail[b] != kNone) {
    m_next[m_tail[b]] = blk;
  } else {
    m_head[b] = blk;
  }
  m_tail[b] = blk;
}

void VictimIndex::unlink(std::uint32_t block, std::size_t b) {
  const std::int32_t prev = m_prev[block];
  const std::int32_t next = m_next[block];
  if (prev != kNone) {
    m_next[prev] = next;
  } else {
    m_head[b] = next;
  }
  if (next != kNone) {
    m_prev[next] = prev;
  } else {
    m_tail[b] = prev;
  }
  m_prev[block] = m_next[block] = kNone;
}

void VictimIndex::insert(std::uint32_t block, std::uint32_t valid) {
  const std::uint32_t die = die_of(block);
  link_tail(block, bucket(die, valid));
  ++m_count[die];
  m_min_hint[die] = std::min(m_min_hint[die], valid);
}

void VictimIndex::remove(std::uint32_t block, std::uint32_t valid) {
  const std::uint32_t die = die_of(block);
  unlink(block, bucket(die, valid));
  --m_count[die];
}

void VictimIndex::demote(std::uint32_t block, std::uint32_t valid) {
  const std::uint32_t die = die_of(block);
  unlink(block, bucket(die, valid + 1));
  link_tail(block, bucket(die, valid));
  m_min_hint[die] = std::min(m_min_hint[die], valid);
}

std::int32_t VictimIndex::fewest_valid(std::uint32_t die) const {
  if (m_count[die] == 0) return kNone;
  std::uint32_t v = m_min_hint[die];
  while (v <= m_units_per_block && m_head[bucket(die, v)] == kNone) ++v;
  m_min_hint[die] = v;
  return v <= m_units_per_block ? m_head[bucket(die, v)] : kNone;
}

}  // namespace ssdlab
