// DeviceController, work done without simulated time: fast preconditioning, drive images and a
// mapping replaced from outside (the control face, drive_control.h). See docs/design.md,
// "Untimed phases and the mapping cache".
#include <stdexcept>

#include "controller/sc/device_controller.h"

namespace ssdlab {

PreconditionResult DeviceController::precondition(const PreconditionSpec& spec) {
  if (!is_quiescent() || !m_ops.empty() || m_buffer.dirty() != 0 || !m_buffer.stage_empty()) {
    throw std::logic_error("preconditioning needs a quiescent drive with an empty write buffer");
  }
  // Mapping-table traffic is what the untimed writes cost the cache: GC relocations reach it
  // through relocated(), each placed host page through page_placed(). Their flash operations
  // land in m_ops and are dropped there, as PageWriter drops the FTL's own.
  PagePlacedListener* listener = m_map.unlimited() ? nullptr : this;
  if (m_read_ahead.enabled()) m_read_ahead.reset();  // what it read ahead is overwritten
  PreconditionResult result;
  try {
    result = ssdlab::precondition(m_ftl, spec, listener);
  } catch (...) {
    m_ops.clear();
    throw;
  }
  m_ops.clear();
  if (m_media) m_media->rewritten(double(now_picos()) * 1e-12);
  host_went_idle();
  return result;
}

void DeviceController::age_media(std::uint32_t pe_cycles, double retention_s) {
  if (!is_quiescent() || !m_ops.empty()) throw std::logic_error("aging needs a quiescent drive");
  if (pe_cycles) m_ftl.add_wear(pe_cycles);
  if (m_media && retention_s > 0) m_media->age(retention_s);
}

void DeviceController::page_placed(const Lpn* lpns, std::uint32_t count) {
  // As flush() does after Ftl::place(): the page's new mapping entries, after the GC work.
  for (std::uint32_t i = 0; i < count; ++i) m_map.access(lpns[i], true, OpTicket::none(), m_ops);
  m_ops.clear();
}

void DeviceController::mapping_loaded() {
  m_map.mapping_loaded(m_ftl);
  if (m_read_ahead.enabled()) m_read_ahead.reset();
  if (m_media) m_media->rewritten(double(now_picos()) * 1e-12);
}

ImageInfo DeviceController::save_image(const std::string& path) const {
  if (!m_data) throw ImageError("image save: this drive does not carry data");
  return ssdlab::save_image(path, m_config, m_ftl, m_data->pages());
}

ImageInfo DeviceController::load_image(const std::string& path, const std::atomic<bool>* interrupted) {
  if (!m_data) throw ImageError("image load: this drive does not carry data");
  if (!is_quiescent() || !m_buffer.clean()) throw ImageError("image load: the drive is not quiescent");
  const ImageInfo info = ssdlab::load_image(path, m_config, m_ftl, m_data->pages(), interrupted);
  m_ops.clear();
  mapping_loaded();
  return info;
}

void DeviceController::start_of_simulation() {
  // The FTL may have been written through ftl() before the simulation (a mapping loaded, a
  // drive aged directly): the translation-page operations its GC relocations implied were
  // never timed work, so none is owed now.
  m_ops.clear();
  mapping_loaded();
}

}  // namespace ssdlab
