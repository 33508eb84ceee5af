#include "controller/ftl/mapping_cache.h"

#include <algorithm>

namespace ssdlab {

MappingCache::MappingCache(std::uint64_t lpns, std::uint32_t entries_per_page, std::uint64_t capacity_pages)
    : m_entries_per_page(entries_per_page) {
  const std::uint64_t pages = (lpns + entries_per_page - 1) / entries_per_page;
  m_unlimited = capacity_pages >= pages;
  m_capacity = std::max<std::uint64_t>(1, capacity_pages);
  if (!m_unlimited) {
    m_prev.assign(pages, kNone);
    m_next.assign(pages, kNone);
    m_flags.assign(pages, 0);
  }
}

void MappingCache::clear() {
  std::fill(m_prev.begin(), m_prev.end(), kNone);
  std::fill(m_next.begin(), m_next.end(), kNone);
  std::fill(m_flags.begin(), m_flags.end(), 0);
  m_head = m_tail = kNone;
  m_cached = 0;
}

void MappingCache::set_on_flash(std::uint64_t page) {
  if (!m_unlimited) m_flags[page] |= kOnFlash;
}

std::vector<std::uint64_t> MappingCache::lru_order() const {
  std::vector<std::uint64_t> order;
  for (std::int64_t p = m_head; p != kNone; p = m_next[p]) order.push_back(static_cast<std::uint64_t>(p));
  return order;
}

void MappingCache::unlink(std::uint64_t page) {
  const std::int64_t p = m_prev[page], n = m_next[page];
  if (p != kNone)
    m_next[p] = n;
  else
    m_head = n;
  if (n != kNone)
    m_prev[n] = p;
  else
    m_tail = p;
  m_prev[page] = m_next[page] = kNone;
}

void MappingCache::push_front(std::uint64_t page) {
  m_prev[page] = kNone;
  m_next[page] = m_head;
  if (m_head != kNone) m_prev[m_head] = static_cast<std::int64_t>(page);
  m_head = static_cast<std::int64_t>(page);
  if (m_tail == kNone) m_tail = m_head;
}

MappingCache::Effect MappingCache::access(std::uint64_t lpn, bool update) {
  Effect effect;
  if (m_unlimited) {
    ++m_hits;
    return effect;
  }
  const std::uint64_t page = translation_page(lpn);
  if (m_flags[page] & kCached) {
    ++m_hits;
    if (m_head != static_cast<std::int64_t>(page)) {
      unlink(page);
      push_front(page);
    }
  } else {
    ++m_misses;
    // A translation page never written back holds only unmapped entries: nothing to read.
    if (m_flags[page] & kOnFlash) effect.read = static_cast<std::int64_t>(page);
    if (m_cached == m_capacity) {
      const auto victim = static_cast<std::uint64_t>(m_tail);
      unlink(victim);
      if (m_flags[victim] & kDirty) {
        effect.write_back = static_cast<std::int64_t>(victim);
        ++m_write_backs;
      }
      m_flags[victim] = (m_flags[victim] & (kOnFlash | kDirty)) ? kOnFlash : 0;
      --m_cached;
    }
    m_flags[page] = static_cast<std::uint8_t>((m_flags[page] & kOnFlash) | kCached);
    push_front(page);
    ++m_cached;
  }
  if (update) m_flags[page] |= kDirty;
  return effect;
}

}  // namespace ssdlab
