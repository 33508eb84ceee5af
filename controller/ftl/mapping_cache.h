// The part of the mapping table held in controller DRAM (cached page-level mapping, as in
// DFTL): the table lives in flash as translation pages of page_size / 4 entries; the
// controller keeps `capacity` of them in DRAM, least recently used out first. A lookup or an
// update of an LPN whose translation page is not cached costs a flash read; evicting a dirty
// translation page costs a flash program. With capacity >= the whole table nothing is ever
// missed. Plain C++, no allocation after construction.
#pragma once

#include <cstdint>
#include <vector>

namespace ssdlab {

class MappingCache {
 public:
  static constexpr std::int64_t kNone = -1;

  struct Effect {
    std::int64_t read = kNone;        // translation page to read from flash (a miss)
    std::int64_t write_back = kNone;  // dirty translation page evicted: program it
  };

  // `lpns` mapped, `entries_per_page` entries per translation page, `capacity_pages` cached.
  MappingCache(std::uint64_t lpns, std::uint32_t entries_per_page, std::uint64_t capacity_pages);

  bool unlimited() const { return m_unlimited; }
  std::uint64_t translation_page(std::uint64_t lpn) const { return lpn / m_entries_per_page; }
  std::uint32_t entries_per_page() const { return m_entries_per_page; }
  std::uint64_t pages() const { return m_prev.size(); }

  // Touches the translation page of `lpn` (marking it dirty for an update).
  Effect access(std::uint64_t lpn, bool update);
  // Everything forgotten (secure erase: the table is rebuilt empty; every translation page is
  // clean, uncached and holds nothing on flash).
  void clear();
  // The table on flash holds `page` (it has mapped entries that were not put there through
  // access(), as after loading a saved mapping): a later miss on it reads it from flash.
  void set_on_flash(std::uint64_t page);

  // State of one translation page (an unlimited cache holds every page, clean).
  bool cached(std::uint64_t page) const { return m_unlimited || (m_flags[page] & kCached); }
  bool dirty(std::uint64_t page) const { return !m_unlimited && (m_flags[page] & kDirty); }
  bool on_flash(std::uint64_t page) const { return !m_unlimited && (m_flags[page] & kOnFlash); }
  // The cached translation pages, most recently used first (limited cache only).
  std::vector<std::uint64_t> lru_order() const;

  std::uint64_t hits() const { return m_hits; }
  std::uint64_t misses() const { return m_misses; }
  std::uint64_t write_backs() const { return m_write_backs; }
  void register_stats(const class StatGroup& group) const;  // mapping_cache_stats.cpp

 private:
  static constexpr std::uint8_t kCached = 1, kDirty = 2;
  static constexpr std::uint8_t kOnFlash = 4;  // written back at least once

  void unlink(std::uint64_t page);
  void push_front(std::uint64_t page);

  bool m_unlimited;
  std::uint32_t m_entries_per_page;
  std::uint64_t m_capacity;
  std::vector<std::int64_t> m_prev, m_next;  // LRU list over cached pages
  std::vector<std::uint8_t> m_flags;         // kCached | kDirty | kOnFlash
  std::int64_t m_head = kNone, m_tail = kNone;
  std::uint64_t m_cached = 0;
  std::uint64_t m_hits = 0, m_misses = 0, m_write_backs = 0;
};

}  // namespace ssdlab
