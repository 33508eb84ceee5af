// The SATA link between HBA and drive: one FIS on the wire at a time, in request order;
// every byte costs 10 line bits (8b/10b) at the configured line rate. Like a channel bus it
// is a calendar: a FIS's delivery time is known when it is sent.
#pragma once

#include "base/config/config.h"
#include "base/core/probe.h"
#include "base/core/ring.h"
#include "base/stats/stats_tree.h"
#include "base/time/calendar.h"
#include "base/time/timeline.h"
#include "controller/sc/sata_if.h"

#include <utility>

namespace ssdlab {

struct LinkStats {
  std::uint64_t fises = 0, wire_bytes = 0;
  // Link power management (host.link_pm): wake-ups from each state, time in it up to the last wake.
  std::uint64_t partial_wakes = 0, slumber_wakes = 0;
  Picos partial_ps = 0, slumber_ps = 0, wake_ps = 0;
};

class SataLink : public sc_core::sc_module, public SataLinkIf, private TimerClient {
 public:
  sc_core::sc_port<SataDeviceIf> device;
  sc_core::sc_port<SataHostIf> host;

  SataLink(sc_core::sc_module_name name, const HostConfig& config, Timeline& timeline);

  LinkBooking transmit(const Fis& fis) override;
  void set_probe(Probe* probe) { m_probe = probe; }
  Picos wire_time(const Fis& fis) const;
  const LinkStats& stats() const { return m_stats; }
  Picos busy_ps() const { return m_wire.busy_ps(); }
  // FIS count, wire bytes (8b/10b framing included) and busy time up to now; with link power
  // management, the time in Partial and Slumber and the wake-ups.
  void register_stats(const StatGroup& link) const;
  // Time in Partial and in Slumber up to `now` (the current idle stretch included).
  Picos partial_until(Picos now) const { return m_stats.partial_ps + low_power(now).first; }
  Picos slumber_until(Picos now) const { return m_stats.slumber_ps + low_power(now).second; }

 private:
  void on_timer(std::uint32_t what) override;  // the oldest FIS on the wire is delivered
  // Of the idle stretch from m_idle_since to `now` (none while a command is outstanding; always
  // none without link power management), the
  // time in Partial and in Slumber.
  std::pair<Picos, Picos> low_power(Picos now) const;
  // A command to an idle link: the exit from the state it reached, as the time to wait.
  Picos wake(Picos now);
  // Of the wake under way, the time after `now`.
  Picos wake_ahead(Picos now) const { return m_wake_end > now ? m_wake_end - now : 0; }

  std::uint64_t m_line_bps;
  Timeline& m_timeline;
  Timeline::Lane m_lane;  // deliveries come in sending order
  Ring<Fis> m_on_wire;    // sent, not yet delivered, in order
  Calendar m_wire;        // one FIS on the wire at a time
  LinkStats m_stats;
  Probe* m_probe = nullptr;
  LinkPmConfig m_pm;
  bool m_pm_on;                     // m_pm.enabled(): tested per FIS
  std::uint32_t m_outstanding = 0;  // commands sent and not completed (Set Device Bits delivered)
  Picos m_idle_since = 0;           // when the last one completed
  Picos m_wake_end = 0;             // when the last wake-up ends
};

}  // namespace ssdlab
