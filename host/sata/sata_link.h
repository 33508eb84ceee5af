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

// A bridge on the host side of the link (host/usb/usb_bridge.h), which carries the data on over
// a bus of its own: told of each data FIS to the host on the wire, and asked when a data FIS to
// the device may start (its data must first reach the bridge).
struct LinkBridgeIf {
  // A data FIS to the host is on the wire, its first frame over at `first_frame_end`.
  virtual void data_to_host(const Fis& fis, Picos first_frame_end) = 0;
  // The earliest start of a data FIS to the device asked for at `at`, taking `t` on the wire,
  // its last frame (which needs the last byte at the bridge) `t_last` of it.
  virtual Picos data_to_device_start(const Fis& fis, Picos at, Picos t, Picos t_last) = 0;

 protected:
  ~LinkBridgeIf() = default;
};

class SataLink : public sc_core::sc_module, public SataLinkIf, private TimerClient {
 public:
  sc_core::sc_port<SataDeviceIf> device;
  sc_core::sc_port<SataHostIf> host;

  SataLink(sc_core::sc_module_name name, const HostConfig& config, Timeline& timeline);

  LinkBooking transmit(const Fis& fis, Picos not_before = 0) override;
  void set_probe(Probe* probe) { m_probe = probe; }
  // The host side is a bridge (host.link: usb2): commands are non-queued (READ / WRITE DMA EXT:
  // no DMA Setup, a Register FIS completes them) and the completion is the bridge's at once.
  void set_bridge(LinkBridgeIf* bridge);
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
  // transmit() without a bridge (inlined there) and behind one (host.link: usb2).
  template <bool kBridged>
  LinkBooking send(const Fis& fis, Picos not_before);
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
  LinkBridgeIf* m_bridge = nullptr;
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
