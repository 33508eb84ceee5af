#include "controller/gc/background_gc.h"

namespace ssdlab {

bool BackgroundGc::step(Ftl& ftl, std::uint32_t die, OpList& ops) const {
  return ftl.background_collect(die, m_target_free, m_step_units, ops);
}

}  // namespace ssdlab
