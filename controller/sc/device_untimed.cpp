// DeviceController, work done without simulated time: fast preconditioning and a mapping
// replaced from outside. See docs/design.md, "Untimed phases and the mapping cache".
#include <stdexcept>

#include "controller/sc/device_controller.h"

namespace ssdlab {

PreconditionResult DeviceController::precondition(const PreconditionSpec& spec) {
  if (!quiescent() || !m_ops.empty() || m_buffer.dirty() != 0 || !m_stage.empty()) {
    throw std::logic_error("preconditioning needs a quiescent drive with an empty write buffer");
  }
  // Mapping-table traffic is what the untimed writes cost the cache: GC relocations reach it
  // through relocated(), each placed host page through page_placed(). Their flash operations
  // land in m_ops and are dropped there, as PageWriter drops the FTL's own.
  PagePlacedListener* listener = m_map_cache.unlimited() ? nullptr : this;
  PreconditionResult result;
  try {
    result = ssdlab::precondition(m_ftl, spec, listener);
  } catch (...) {
    m_ops.clear();
    throw;
  }
  m_ops.clear();
  host_went_idle();
  return result;
}

void DeviceController::page_placed(const Lpn* lpns, std::uint32_t count) {
  // As flush() does after Ftl::place(): the page's new mapping entries, after the GC work.
  for (std::uint32_t i = 0; i < count; ++i) map_access(lpns[i], true, 0);
  m_ops.clear();
}

void DeviceController::mapping_loaded() {
  if (m_map_cache.unlimited()) return;
  const std::uint64_t units = m_ftl.user_units();
  for (std::uint64_t lpn = 0; lpn < units; ++lpn) {
    const std::uint32_t e = m_ftl.lookup(static_cast<Lpn>(lpn));
    if (e == kUnmapped || Ftl::is_buffered(e)) continue;
    const std::uint64_t page = m_map_cache.translation_page(lpn);
    m_map_cache.set_on_flash(page);
    lpn = (page + 1) * m_map_cache.entries_per_page() - 1;  // on to the next translation page
  }
}

void DeviceController::start_of_simulation() {
  // The FTL may have been written through ftl() before the simulation (a mapping loaded, a
  // drive aged directly): the translation-page operations its GC relocations implied were
  // never timed work, so none is owed now.
  m_ops.clear();
  mapping_loaded();
}

}  // namespace ssdlab
