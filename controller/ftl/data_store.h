// The bytes of a drive that carries real data (keep_data: the NBD server): the write buffer's
// slot data and the flash pages (PageStore), kept in step with the mapping. Reads copy what the
// FTL's read plan names; writes merge a partly covered unit with its old contents. Plain C++,
// owned by the controller's SystemC module (absent when the simulation carries no data).
#pragma once

#include <cstdint>
#include <vector>

#include "controller/ftl/ftl.h"
#include "controller/ftl/page_store.h"
#include "controller/hil/command_queue.h"

namespace ssdlab {

class DataStore {
 public:
  DataStore(const Geometry& g, std::uint32_t buffer_slots);

  PageStore& pages() { return m_pages; }
  const PageStore& pages() const { return m_pages; }

  // `lpn`'s newest data (one mapping unit) into `out`: zeros if unmapped.
  void fill_unit(const Ftl& ftl, Lpn lpn, std::uint8_t* out) const;
  // Read command `c`'s data into c.host_data, as the mapping says now.
  void copy_read(const Ftl& ftl, const Command& c);
  // Write command `c`'s part of `lpn` into buffer slot `slot`, merged with the old contents
  // when it covers the unit only in part. Call before the FTL maps `lpn` to `slot`.
  void write_slot(const Ftl& ftl, const Command& c, Lpn lpn, std::uint32_t slot);
  // Buffer slot `slot` was programmed into physical unit `unit`.
  void programmed(Pua unit, std::uint32_t slot) { m_pages.write(unit, slot_data(slot)); }
  void move(Pua from, Pua to) { m_pages.move(from, to); }
  void erase(std::uint32_t block) { m_pages.erase(block); }
  // Secure erase: the flash holds nothing (the buffer's slots are dropped by the buffer).
  void clear() { m_pages.clear(); }

 private:
  std::uint8_t* slot_data(std::uint32_t slot) { return &m_slot_data[std::size_t(slot) * m_unit_bytes]; }
  const std::uint8_t* slot_data(std::uint32_t slot) const { return &m_slot_data[std::size_t(slot) * m_unit_bytes]; }

  std::uint32_t m_unit_bytes;
  PageStore m_pages;                      // flash data
  std::vector<std::uint8_t> m_slot_data;  // buffer data, one mapping unit per slot
  std::vector<std::uint8_t> m_scratch;    // one mapping unit: a read's data is assembled here
};

}  // namespace ssdlab
