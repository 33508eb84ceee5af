#include "nand/flash_array.h"

#include <string>

namespace ssdlab {

FlashArray::FlashArray(sc_core::sc_module_name name, const NandConfig& config, Timeline& timeline)
    : sc_core::sc_module(name), m_config(config) {
  for (std::uint32_t c = 0; c < m_config.channels; ++c) {
    m_channels.push_back(std::make_unique<Channel>(("ch" + std::to_string(c)).c_str()));
  }
  // Die d sits on channel d % channels (see Geometry): named chC.dieK.
  for (std::uint32_t d = 0; d < m_config.dies(); ++d) {
    const std::uint32_t c = d % m_config.channels;
    const std::string die_name = "ch" + std::to_string(c) + "_die" + std::to_string(d / m_config.channels);
    m_dies.push_back(std::make_unique<Die>(die_name.c_str(), m_config, timeline, *m_channels[c],
                                           static_cast<DieListener&>(*this)));
  }
}

bool FlashArray::idle() const {
  for (const auto& d : m_dies) {
    if (!d->idle()) return false;
  }
  return true;
}

}  // namespace ssdlab
