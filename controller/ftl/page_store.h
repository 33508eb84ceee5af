// Data kept in the flash array: one lazily allocated buffer per programmed block, freed when
// the block is erased, addressed by physical mapping unit. Only used when a simulation carries
// real data (the NBD server); plain C++.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "base/config/geometry.h"

namespace ssdlab {

class PageStore {
 public:
  explicit PageStore(const Geometry& g) : m_geo(g), m_blocks(g.blocks) {}

  // Copies one mapping unit into physical unit `unit`.
  void write(Pua unit, const std::uint8_t* data) { std::memcpy(slot(unit, true), data, m_geo.unit_bytes); }
  // Copies physical unit `unit` out (zeros if it was never written since its erase).
  void read(Pua unit, std::uint8_t* out) const {
    const std::uint8_t* p = slot_if_present(unit);
    if (p) {
      std::memcpy(out, p, m_geo.unit_bytes);
    } else {
      std::memset(out, 0, m_geo.unit_bytes);
    }
  }
  void move(Pua from, Pua to) {
    std::uint8_t* dst = slot(to, true);
    const std::uint8_t* src = slot_if_present(from);
    if (src) {
      std::memcpy(dst, src, m_geo.unit_bytes);
    } else {
      std::memset(dst, 0, m_geo.unit_bytes);
    }
  }
  void erase(std::uint32_t block) { m_blocks[block].reset(); }
  void clear() {
    for (auto& b : m_blocks) b.reset();
  }
  std::uint64_t allocated_blocks() const {
    std::uint64_t n = 0;
    for (const auto& b : m_blocks) n += b != nullptr;
    return n;
  }
  const std::uint8_t* block_data(std::uint32_t block) const { return m_blocks[block].get(); }
  std::uint8_t* block_data_for_write(std::uint32_t block) { return block_base(block); }
  std::uint64_t block_bytes() const { return std::uint64_t(m_geo.units_per_block) * m_geo.unit_bytes; }

 private:
  std::uint8_t* block_base(std::uint32_t block) {
    auto& b = m_blocks[block];
    if (!b) b.reset(new std::uint8_t[block_bytes()]());
    return b.get();
  }
  std::uint8_t* slot(Pua unit, bool) {
    return block_base(m_geo.block_of_unit(unit)) + std::uint64_t(unit % m_geo.units_per_block) * m_geo.unit_bytes;
  }
  const std::uint8_t* slot_if_present(Pua unit) const {
    const auto& b = m_blocks[m_geo.block_of_unit(unit)];
    return b ? b.get() + std::uint64_t(unit % m_geo.units_per_block) * m_geo.unit_bytes : nullptr;
  }

  Geometry m_geo;
  std::vector<std::unique_ptr<std::uint8_t[]>> m_blocks;
};

}  // namespace ssdlab
