#include "host/sata/sata_link.h"

#include "base/core/anatomy.h"
#include "base/time/timeline.h"

#include <algorithm>
#include <limits>

namespace ssdlab {

namespace {
constexpr Picos kNever = std::numeric_limits<Picos>::max();
}  // namespace

SataLink::SataLink(sc_core::sc_module_name name, const HostConfig& config, Timeline& timeline)
    : sc_core::sc_module(name),
      m_format(config.sata_line_bps, config.link_round_trip_dwords),
      m_completion_ps(config.ahci_completion_ps),
      m_timeline(timeline),
      m_lane(timeline.add_lane()),
      m_host_lane(timeline.add_lane()),
      m_on_wire(64),
      m_to_host(64),
      m_fixed{m_format.dwords(Fis{FisKind::kCommand}), m_format.time(Fis{FisKind::kCommand}),
              m_format.dwords(Fis{FisKind::kSetDeviceBits}), m_format.time(Fis{FisKind::kSetDeviceBits})},
      m_pm(config.link_pm),
      m_pm_on(m_pm.enabled()) {}

void SataLink::set_bridge(LinkBridgeIf* bridge) {
  m_bridge = bridge;
  m_completion_ps = 0;
  // The completion of a non-queued command is a Register Device to Host FIS.
  const Fis reg{FisKind::kSetDeviceBits, 0, AtaCommand::kDataSetManagement};
  m_fixed.sdb_dwords = m_format.dwords(reg);
  m_fixed.sdb_ps = m_format.time(reg);
}

std::pair<Picos, Picos> SataLink::low_power(Picos now) const {
  if (!m_pm_on || m_outstanding || now <= m_idle_since) return {0, 0};
  const Picos idle = now - m_idle_since;
  const Picos partial_at = m_pm.partial_after_ps ? m_pm.partial_after_ps : kNever;
  const Picos slumber_at = m_pm.slumber_after_ps ? m_pm.slumber_after_ps : kNever;
  const Picos partial = idle > partial_at ? std::min(idle, slumber_at) - partial_at : 0;
  const Picos slumber = idle > slumber_at ? idle - slumber_at : 0;
  return {partial, slumber};
}

Picos SataLink::wake(Picos now) {
  const auto [partial, slumber] = low_power(now);
  m_stats.partial_ps += partial;
  m_stats.slumber_ps += slumber;
  Picos exit = 0;
  if (slumber) {
    exit = m_pm.slumber_exit_ps;
    ++m_stats.slumber_wakes;
  } else if (partial) {
    exit = m_pm.partial_exit_ps;
    ++m_stats.partial_wakes;
  }
  m_stats.wake_ps += exit;
  return exit;
}

LinkBooking SataLink::transmit(const Fis& fis, Picos not_before) {
  return __builtin_expect(m_bridge != nullptr, 0) ? send<true>(fis, not_before) : send<false>(fis, not_before);
}

template <bool kBridged>
LinkBooking SataLink::send(const Fis& fis, Picos not_before) {
  const Picos now = std::max(now_picos(), not_before);
  // A command's and a queued command's completion are of fixed size: timed once (m_fixed).
  std::uint64_t dwords;
  Picos t;
  if (fis.kind == FisKind::kCommand) {
    dwords = m_fixed.command_dwords;
    t = m_fixed.command_ps;
  } else if (fis.kind == FisKind::kSetDeviceBits && is_queued(fis.command)) {
    dwords = m_fixed.sdb_dwords;
    t = m_fixed.sdb_ps;
    if (!kBridged && fis.tag == m_dma_tag) m_dma_tag = kNoTag;  // done: its tag's next one sets up anew
  } else {
    // Behind a bridge the commands are not queued: no DMA Setup.
    const bool data = fis.kind != FisKind::kSetDeviceBits;
    const bool setup = !kBridged && data && needs_dma_setup(fis);
    dwords = m_format.dwords(fis, setup);
    t = m_format.picos(dwords);
    if (!kBridged && data && is_queued(fis.command)) {
      m_dma_tag = fis.tag;
      m_dma_kind = fis.kind;
    }
  }
  // Link power management: a command to an idle link first brings it back to Active (its
  // anatomy charged the wait as kLinkWake); the device's FISes all belong to an outstanding
  // command, so the link is Active for them.
  Picos at = now;
  if (m_pm_on && fis.kind == FisKind::kCommand) {
    if (m_outstanding == 0) m_wake_end = now + wake(now);
    // This command, or one sent while another's wake is under way, waits for the wake's end.
    if (m_wake_end > now) {
      at = m_wake_end;
      if (fis.anatomy) fis.anatomy->to(Part::kLinkWake, at);
    }
    ++m_outstanding;
  }
  if (kBridged && fis.kind == FisKind::kDataToDevice) {
    at = m_bridge->data_to_device_start(fis, std::max(at, m_wire.free_at()), t, m_format.last_frame_ps(fis));
  }
  const Picos delivered = m_wire.reserve(at, t);
  if (kBridged && fis.kind == FisKind::kDataToHost) {
    m_bridge->data_to_host(fis, delivered - t + m_format.first_frame_ps(fis));
  }
  if (m_pm_on && fis.kind == FisKind::kSetDeviceBits && --m_outstanding == 0) m_idle_since = delivered;
  ++m_stats.fises;
  m_stats.wire_dwords += dwords;
  if (m_probe) m_probe->fis(fis, delivered - t, delivered);
  // The HBA writes read data straight into host memory and acts only on Set Device Bits:
  // a data FIS to the host occupies the wire but nothing happens when it lands.
  // A completion reaches the HBA's driver host.ahci.completion after the wire (one push site:
  // the ring's push stays inline).
  if (fis.kind != FisKind::kDataToHost) {
    const bool to_host = fis.kind == FisKind::kSetDeviceBits;
    (to_host ? m_to_host : m_on_wire).push(fis);
    m_timeline.at(to_host ? m_host_lane : m_lane, to_host ? delivered + m_completion_ps : delivered, *this,
                  to_host ? kToHost : kToDevice);
  }
  return {delivered - t, delivered};
}

void SataLink::register_stats(const StatGroup& link) const {
  link.counter("fises", m_stats.fises, "FISes", "frame information structures sent, both directions");
  link.counter("wire_dwords", m_stats.wire_dwords, "Dwords",
               "Dwords on the wire, both directions: frames and their handshakes (ALIGN pairs aside)");
  // A wake leaves a gap on the wire before the command it delays, which Calendar::busy_until
  // (bookings without gaps) would take off the busy time: its part still to come is put back.
  link.busy(
      "busy", [this] { return m_wire.busy_until(now_picos()) + wake_ahead(now_picos()); },
      "time a FIS was on the wire");
  if (!m_pm_on) return;
  link.busy(
      "partial", [this] { return partial_until(now_picos()); }, "time the link spent in Partial (host.link_pm)");
  link.busy(
      "slumber", [this] { return slumber_until(now_picos()); }, "time the link spent in Slumber (host.link_pm)");
  link.counter("partial_wakes", m_stats.partial_wakes, "wake-ups", "commands that woke the link from Partial");
  link.counter("slumber_wakes", m_stats.slumber_wakes, "wake-ups", "commands that woke the link from Slumber");
  link.busy(
      "waking", [this] { return m_stats.wake_ps - wake_ahead(now_picos()); },
      "time the link spent waking up for a command (its exit from Partial or Slumber)");
}

void SataLink::on_timer(std::uint32_t what) {
  if (what == kToHost) {
    host->receive_from_device(m_to_host.pop());
  } else {
    device->receive_from_host(m_on_wire.pop());
  }
}

}  // namespace ssdlab
