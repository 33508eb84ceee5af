// Closed blocks of every die, bucketed by valid-unit count, so that a GC victim is found
// without scanning blocks. Each bucket is an intrusive list ordered by last modification
// (a block moves to the tail of its new bucket whenever a unit in it is invalidated), so the
// head of each bucket is its oldest block.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace ssdlab {

class VictimIndex {
 public:
  static constexpr std::int32_t kNone = -1;

  VictimIndex(std::uint32_t dies, std::uint32_t blocks_per_die, std::uint32_t units_per_block);

  void insert(std::uint32_t block, std::uint32_t valid);
  void remove(std::uint32_t block, std::uint32_t valid);
  // The block lost a valid unit: moves from bucket `valid + 1` to the tail of bucket `valid`.
  void demote(std::uint32_t block, std::uint32_t valid);
  void clear();

  // Closed block of `die` with the fewest valid units (oldest among equals), or kNone.
  std::int32_t fewest_valid(std::uint32_t die) const;
  // Oldest block holding exactly `valid` units on `die`, or kNone.
  std::int32_t oldest_with(std::uint32_t die, std::uint32_t valid) const { return m_head[bucket(die, valid)]; }
  std::int32_t next_in_bucket(std::uint32_t block) const { return m_next[block]; }
  void prefetch(std::uint32_t block) const {
    __builtin_prefetch(&m_prev[block]);
    __builtin_prefetch(&m_next[block]);
  }
  std::uint32_t closed_blocks(std::uint32_t die) const { return m_count[die]; }
  std::uint32_t units_per_block() const { return m_units_per_block; }

  // The exact state as bytes (bucket lists in their order, hints); load() throws
  // std::runtime_error when the stream does not fit this index's shape. In ftl_image.cpp.
  void save(std::ostream& out) const;
  void load(std::istream& in);

 private:
  std::size_t bucket(std::uint32_t die, std::uint32_t valid) const {
    return std::size_t(die) * (m_units_per_block + 1) + valid;
  }
  std::uint32_t die_of(std::uint32_t block) const { return block / m_blocks_per_die; }
  void link_tail(std::uint32_t block, std::size_t b);
  void unlink(std::uint32_t block, std::size_t b);

  std::uint32_t m_blocks_per_die;
  std::uint32_t m_units_per_block;
  std::vector<std::int32_t> m_next, m_prev;       // per block
  std::vector<std::int32_t> m_head, m_tail;       // per (die, valid count)
  std::vector<std::uint32_t> m_count;             // closed blocks per die
  mutable std::vector<std::uint32_t> m_min_hint;  // per die: no non-empty bucket below it
};

}  // namespace ssdlab
