#include "host/sata/sata_link.h"

#include "base/time/timeline.h"
#include "host/sata/sata_wire.h"

namespace ssdlab {

SataLink::SataLink(sc_core::sc_module_name name, const HostConfig& config, Timeline& timeline)
    : sc_core::sc_module(name),
      m_line_bps(config.sata_line_bps),
      m_timeline(timeline),
      m_lane(timeline.add_lane()),
      m_on_wire(64) {}

Picos SataLink::wire_time(const Fis& fis) const { return transfer_picos(fis_wire_bytes(fis), m_line_bps, 10); }

LinkBooking SataLink::transmit(const Fis& fis) {
  const Picos now = now_picos();
  const Picos t = wire_time(fis);
  const Picos delivered = m_wire.reserve(now, t);
  ++m_stats.fises;
  m_stats.wire_bytes += fis_wire_bytes(fis);
  if (m_probe) m_probe->fis(fis, delivered - t, delivered);
  // The HBA writes read data straight into host memory and acts only on Set Device Bits:
  // a data FIS to the host occupies the wire but nothing happens when it lands.
  if (fis.kind != FisKind::kDataToHost) {
    m_on_wire.push(fis);
    m_timeline.at(m_lane, delivered, *this, 0);
  }
  return {delivered - t, delivered};
}

void SataLink::register_stats(const StatGroup& link) const {
  link.counter("fises", m_stats.fises, "FISes", "frame information structures sent, both directions");
  link.counter("wire_bytes", m_stats.wire_bytes, "bytes", "bytes on the wire, both directions, FIS framing included");
  link.busy(
      "busy", [this] { return m_wire.busy_until(now_picos()); }, "time a FIS was on the wire");
}

void SataLink::on_timer(std::uint32_t) {
  const Fis done = m_on_wire.pop();
  if (done.kind == FisKind::kCommand || done.kind == FisKind::kDataToDevice) {
    device->receive_from_host(done);
  } else {
    host->receive_from_device(done);
  }
}

}  // namespace ssdlab
