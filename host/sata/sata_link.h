// The SATA link between HBA and drive: one FIS exchange on the wire at a time, in request order,
// timed as its frames, handshakes and ALIGN pairs at the line rate (host/sata/sata_wire.h).
// Like a channel bus it is a calendar: a FIS's delivery time is known when it is sent. A
// completion (Set Device Bits) reaches the HBA host.ahci.completion after it is on the wire.
#pragma once

#include "base/config/config.h"
#include "base/core/probe.h"
#include "base/core/ring.h"
#include "base/stats/stats_tree.h"
#include "base/time/calendar.h"
#include "base/time/timeline.h"
#include "controller/sc/sata_if.h"
#include "host/sata/sata_wire.h"

#include <utility>

namespace ssdlab {

struct LinkStats {
  std::uint64_t fises = 0, wire_dwords = 0;
  // Link power management (host.link_pm): wake-ups from each state, time in it up to the last wake.
  std::uint64_t partial_wakes = 0, slumber_wakes = 0;
  Picos partial_ps = 0, slumber_ps = 0, wake_ps = 0;
};

class SataLink : public sc_core::sc_module, public SataLinkIf, private TimerClient {
 public:
  sc_core::sc_port<SataDeviceIf> device;
  sc_core::sc_port<SataHostIf> host;

  SataLink(sc_core::sc_module_name name, const HostConfig& config, Timeline& timeline);

  LinkBooking transmit(const Fis& fis, Picos not_before = 0) override;
  void set_probe(Probe* probe) { m_probe = probe; }
  const SataWire& wire() const { return m_format; }
  const LinkStats& stats() const { return m_stats; }
  Picos busy_ps() const { return m_wire.busy_ps(); }
  // FIS count, Dwords on the wire (frames and handshakes) and busy time up to now; with link power
  // management, the time in Partial and Slumber and the wake-ups.
  void register_stats(const StatGroup& link) const;
  // Time in Partial and in Slumber up to `now` (the current idle stretch included).
  Picos partial_until(Picos now) const { return m_stats.partial_ps + low_power(now).first; }
  Picos slumber_until(Picos now) const { return m_stats.slumber_ps + low_power(now).second; }

 private:
  enum : std::uint32_t { kToDevice, kToHost };
  void on_timer(std::uint32_t what) override;  // the oldest FIS on its way there is delivered
  // Of the idle stretch from m_idle_since to `now` (none while a command is outstanding; always
  // none without link power management), the
  // time in Partial and in Slumber.
  std::pair<Picos, Picos> low_power(Picos now) const;
  bool needs_dma_setup(const Fis& fis) const { return fis.tag != m_dma_tag || fis.kind != m_dma_kind; }
  // A command to an idle link: the exit from the state it reached, as the time to wait.
  Picos wake(Picos now);
  // Of the wake under way, the time after `now`.
  Picos wake_ahead(Picos now) const { return m_wake_end > now ? m_wake_end - now : 0; }

  SataWire m_format;
  Picos m_completion_ps;  // host.ahci.completion
  Timeline& m_timeline;
  Timeline::Lane m_lane;       // deliveries to the device, in sending order
  Timeline::Lane m_host_lane;  // completions to the HBA, in sending order (a fixed delay after the wire)
  Ring<Fis> m_on_wire;         // sent to the device, not yet delivered, in order
  Ring<Fis> m_to_host;         // completions on their way to the HBA, in order
  struct Fixed {
    std::uint64_t command_dwords;
    Picos command_ps;
    std::uint64_t sdb_dwords;  // a queued command's Set Device Bits
    Picos sdb_ps;
  } m_fixed;
  Calendar m_wire;  // one FIS on the wire at a time
  LinkStats m_stats;
  Probe* m_probe = nullptr;
  LinkPmConfig m_pm;
  bool m_pm_on;                     // m_pm.enabled(): tested per FIS
  std::uint32_t m_outstanding = 0;  // commands sent and not completed (Set Device Bits delivered)
  Picos m_idle_since = 0;           // when the last one completed
  Picos m_wake_end = 0;             // when the last wake-up ends
  // The port's DMA context: the command (tag, direction) whose DMA Setup came last, until it
  // completes.
  static constexpr std::uint8_t kNoTag = 0xff;
  std::uint8_t m_dma_tag = kNoTag;
  FisKind m_dma_kind = FisKind::kDataToHost;
};

}  // namespace ssdlab
