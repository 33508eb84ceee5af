#include "nand/flash_array.h"

namespace ssdlab {

FlashArray::FlashArray(sc_core::sc_module_name name, const NandConfig& config, Timeline& timeline)
    : sc_core::sc_module(name),
      m_config(config),
      m_channels(m_config.channels),
      m_die_count(m_config.dies()),
      m_dies(new Die[m_die_count]) {
  for (std::uint32_t d = 0; d < m_die_count; ++d) {
    m_dies[d].init(m_config, timeline, m_channels[d % m_config.channels], *this);
  }
}

bool FlashArray::idle() const {
  for (std::uint32_t d = 0; d < m_die_count; ++d) {
    if (!m_dies[d].idle()) return false;
  }
  return true;
}

}  // namespace ssdlab
