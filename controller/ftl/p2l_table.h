// The LPN held by each physical mapping unit: what a real drive writes in every page's spare
// (out-of-band) area and reads back when GC collects the block. Only GC, the invariant checks
// and drive images read it; nothing on the I/O path does.
//
// Up to a memory budget it is one array. Above it, it is kept the way a drive keeps it: a
// block's entries are in memory while the block is being written or collected (a cache of
// whole blocks with clock eviction), and otherwise in a spill file that stands in for the
// spare areas on flash (created in $TMPDIR or /var/tmp, deleted at once, so nothing is left
// behind). get() returns the same values either way: only memory use and speed differ. On a
// 1 TiB drive with 4 KiB mapping units the array alone would take 1 GiB.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/core/types.h"

namespace ssdlab {

class P2lTable {
 public:
  static constexpr Lpn kNoLpn = 0xffffffffu;
  static constexpr std::uint64_t kDefaultMemoryBudget = std::uint64_t(512) << 20;

  // `units` entries, all kNoLpn. Spilled when units * 4 bytes exceeds `memory_budget_bytes`;
  // `cache_blocks` (0: automatic) bounds the blocks held in memory then.
  P2lTable(std::uint64_t units, std::uint32_t units_per_block, std::uint64_t memory_budget_bytes = kDefaultMemoryBudget,
           std::uint32_t cache_blocks = 0);
  ~P2lTable();
  P2lTable(const P2lTable& other);
  P2lTable& operator=(const P2lTable& other);

  std::uint64_t size() const { return m_units; }
  bool spilled() const { return m_fd >= 0; }
  // Spilled: blocks read from / written to the spill file so far (cache misses, write-backs).
  std::uint64_t block_loads() const { return m_loads; }
  std::uint64_t block_stores() const { return m_stores; }
  // Bytes of entries held in memory (the array, or the block cache) and in the spill file.
  std::uint64_t memory_bytes() const { return (m_array.size() + m_cache.size()) * sizeof(Lpn); }
  std::uint64_t file_bytes() const;

  Lpn get(Pua u) const {
    if (m_fd < 0) return m_array[u];
    return m_cache[std::size_t(slot_for(block_of(u))) * m_upb + offset_in_block(u)];
  }
  void set(Pua u, Lpn lpn) {
    if (m_fd < 0) {
      m_array[u] = lpn;
      return;
    }
    const std::uint32_t slot = slot_for(block_of(u));
    m_dirty[slot] = 1;
    m_cache[std::size_t(slot) * m_upb + offset_in_block(u)] = lpn;
  }
  // Bulk access for drive images: entries [first, first + count).
  void read(Pua first, std::uint64_t count, Lpn* out) const;
  void assign(const std::vector<Lpn>& all);  // all.size() == size()
  // Not spilled: takes `all` (all.size() == size()) as its entries and hands back its own in
  // it, without a copy; returns true. Spilled: changes nothing, returns false.
  bool exchange(std::vector<Lpn>& all);
  // Bulk store: entries [first, first + count) from `in`.
  void write(Pua first, std::uint64_t count, const Lpn* in);
  // The entries in memory, or null when spilled (bulk stores by the untimed fill).
  Lpn* array() { return m_fd < 0 ? m_array.data() : nullptr; }
  // Every entry back to kNoLpn (a spilled table's file emptied and its cache dropped).
  void clear();

 private:
  static constexpr std::uint32_t kNoSlot = 0xffffffffu;
  std::uint64_t block_of(Pua u) const { return m_shift >= 0 ? u >> m_shift : u / m_upb; }
  std::uint32_t offset_in_block(Pua u) const {
    return m_shift >= 0 ? static_cast<std::uint32_t>(u & (m_upb - 1)) : static_cast<std::uint32_t>(u % m_upb);
  }
  std::uint32_t slot_for(std::uint64_t block) const {
    std::uint32_t slot = m_slot_of_block[block];
    if (slot == kNoSlot) slot = load(block);
    m_referenced[slot] = 1;
    return slot;
  }
  std::uint32_t load(std::uint64_t block) const;  // a cache miss
  void write_back(std::uint32_t slot) const;
  void open_file();
  void copy_from(const P2lTable& other);

  std::uint64_t m_units;
  std::uint32_t m_upb;
  int m_shift;               // log2(units per block) when a power of two, else -1
  std::vector<Lpn> m_array;  // not spilled
  // Spilled:
  int m_fd = -1;
  std::string m_dir;
  mutable std::vector<Lpn> m_cache;                    // cache slots of m_upb entries
  mutable std::vector<std::uint32_t> m_slot_of_block;  // per block: its slot, or kNoSlot
  mutable std::vector<std::uint64_t> m_block_of_slot;
  mutable std::vector<std::uint8_t> m_dirty, m_referenced;
  mutable std::vector<std::uint64_t> m_on_file;  // bitmap: block has entries in the file
  mutable std::uint32_t m_slots_used = 0, m_hand = 0;
  mutable std::uint64_t m_loads = 0, m_stores = 0;
};

}  // namespace ssdlab
