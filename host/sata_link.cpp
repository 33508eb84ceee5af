#include "host/sata_link.h"

#include "nand/flash_if.h"

namespace ssdlab {

SataLink::SataLink(sc_core::sc_module_name name, const HostConfig& config)
    : sc_core::sc_module(name), m_line_bps(config.sata_line_bps), m_waiting(64) {
  SC_METHOD(on_done);
  sensitive << m_done_event;
  dont_initialize();
}

Picos SataLink::wire_time(const Fis& fis) const {
  return transfer_picos(fis_wire_bytes(fis), m_line_bps, 10);
}

void SataLink::transmit(const Fis& fis) {
  if (m_busy) {
    m_waiting.push(fis);
  } else {
    start(fis);
  }
}

void SataLink::start(const Fis& fis) {
  m_busy = true;
  m_current = fis;
  const Picos t = wire_time(fis);
  m_stats.busy_ps += t;
  ++m_stats.fises;
  m_stats.wire_bytes += fis_wire_bytes(fis);
  m_done_event.notify(to_sc_time(t));
}

void SataLink::on_done() {
  const Fis done = m_current;
  m_busy = false;
  if (!m_waiting.empty()) start(m_waiting.pop());
  if (done.kind == FisKind::kCommand || done.kind == FisKind::kDataToDevice) {
    device->receive_from_host(done);
  } else {
    host->receive_from_device(done);
  }
}

}  // namespace ssdlab
