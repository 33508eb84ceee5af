#include "controller/ftl/buffer_manager.h"

namespace ssdlab {

BufferManager::BufferManager(std::uint32_t configured_units, std::uint32_t units_per_page, std::uint32_t max_tags)
    : m_configured_units(configured_units),
      m_units_per_page(units_per_page),
      m_buffer(configured_units + 1),
      m_waiters(max_tags) {
  m_stage.reserve(units_per_page);
  m_stage_lpns.reserve(units_per_page);
  const std::uint32_t records = m_buffer.capacity();
  m_record_slots.assign(std::size_t(records) * units_per_page, 0);
  m_record_count.assign(records, 0);
  for (std::uint32_t r = records; r > 0; --r) m_free_records.push_back(r - 1);
}

}  // namespace ssdlab
