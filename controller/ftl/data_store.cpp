#include "controller/ftl/data_store.h"

#include <algorithm>
#include <cstring>

namespace ssdlab {

DataStore::DataStore(const Geometry& g, std::uint32_t buffer_slots)
    : m_unit_bytes(g.unit_bytes),
      m_pages(g),
      m_slot_data(std::size_t(buffer_slots) * g.unit_bytes, 0),
      m_scratch(g.unit_bytes, 0) {}

void DataStore::fill_unit(const Ftl& ftl, Lpn lpn, std::uint8_t* out) const {
  const ReadPlan plan = ftl.plan_read(lpn);
  if (plan.unmapped()) {
    std::memset(out, 0, m_unit_bytes);
  } else if (plan.in_buffer()) {
    std::memcpy(out, slot_data(plan.slot), m_unit_bytes);
  } else {
    m_pages.read(plan.unit, out);
  }
}

void DataStore::copy_read(const Ftl& ftl, const Command& c) {
  // The data is what the mapping says at dispatch; the flash time is paid separately.
  const std::uint32_t unit = m_unit_bytes;
  const std::uint64_t first_byte = c.first_byte();
  const std::uint64_t end_byte = c.end_byte();
  std::uint8_t* scratch = m_scratch.data();
  for (std::uint32_t i = 0; i < c.units; ++i) {
    const std::uint64_t unit_start = std::uint64_t(c.first_lpn + i) * unit;
    const std::uint64_t from = std::max(unit_start, first_byte);
    const std::uint64_t to = std::min(unit_start + unit, end_byte);
    fill_unit(ftl, c.first_lpn + i, scratch);
    std::memcpy(c.host_data + (from - first_byte), scratch + (from - unit_start), to - from);
  }
}

void DataStore::write_slot(const Ftl& ftl, const Command& c, Lpn lpn, std::uint32_t slot) {
  const std::uint32_t unit = m_unit_bytes;
  const std::uint64_t first_byte = c.first_byte();
  std::uint8_t* dst = slot_data(slot);
  const std::uint64_t unit_start = std::uint64_t(lpn) * unit;
  const std::uint64_t from = std::max(unit_start, first_byte);
  const std::uint64_t to = std::min(unit_start + unit, c.end_byte());
  if (to - from < unit) fill_unit(ftl, lpn, dst);  // merge: the old contents first
  std::memcpy(dst + (from - unit_start), c.host_data + (from - first_byte), to - from);
}

}  // namespace ssdlab
