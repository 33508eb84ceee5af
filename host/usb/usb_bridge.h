// A USB 2.0 mass-storage bridge between the host and the drive's SATA port (host.link: usb2), as
// in the external enclosures of 2009: the host speaks bulk-only transport over USB 2.0 high
// speed (host/usb/usb_wire.h), the bridge the drive's ATA commands over the SATA link
// (host/sata/sata_link.h), one command at a time. A command:
// 1. its Command Block Wrapper on the USB bus; the bridge then sends the ATA command (READ or
//    WRITE DMA EXT: non-queued) on the SATA link;
// 2. the data phase, host.usb.turnaround after the CBW at the earliest: a write's data goes out
//    on the bus at once into the bridge's buffer (a whole command fits: assumed), and the
//    drive's SATA data transfer ends no earlier than the frame carrying its last byte can follow
//    that byte; a read's data goes on the bus as the drive sends it, each SATA data FIS's
//    packets once its first frame is at the bridge;
// 3. when the drive's completion is at the bridge and the data phase is over (plus a
//    turnaround), the Command Status Wrapper; the host sees the command complete a turnaround
//    after it.
// One USB bus: the transfers are booked in request order on a calendar, as the SATA wire.
#pragma once

#include <array>

#include "base/config/config.h"
#include "base/core/ring.h"
#include "base/stats/stats_tree.h"
#include "base/time/calendar.h"
#include "base/time/timeline.h"
#include "controller/sc/sata_if.h"
#include "host/sata/sata_link.h"
#include "host/usb/usb_wire.h"

namespace ssdlab {

struct UsbStats {
  std::uint64_t commands = 0, transactions = 0;
};

class UsbBridge : public sc_core::sc_module,
                  public SataLinkIf,
                  public SataHostIf,
                  public LinkBridgeIf,
                  private TimerClient {
 public:
  sc_core::sc_port<SataLinkIf> link;  // the SATA link to the drive
  sc_core::sc_port<SataHostIf> host;  // the host adapter

  UsbBridge(sc_core::sc_module_name name, const HostConfig& config, Timeline& timeline);

  // From the host: a command (its CBW, then the ATA command on the SATA link; the booking
  // returned is the SATA one).
  LinkBooking transmit(const Fis& fis, Picos not_before = 0) override;
  // From the SATA link: the drive's completion.
  void receive_from_device(const Fis& fis) override;
  void data_to_host(const Fis& fis, Picos first_frame_end) override;
  Picos data_to_device_start(const Fis& fis, Picos at, Picos t, Picos t_last) override;

  const UsbStats& stats() const { return m_stats; }
  void register_stats(const StatGroup& usb) const;

 private:
  void on_timer(std::uint32_t what) override;  // the oldest completion reaches the host
  Picos book(Picos at, std::uint64_t bytes);   // a bulk transfer on the bus; returns its end

  struct Command {
    Picos data_open = 0;  // the data phase may start (CBW's end + turnaround)
    Picos data_end = 0;   // the data phase's last transaction so far (the CBW's end without data)
    Anatomy* anatomy = nullptr;
  };
  Picos m_turnaround;
  Timeline& m_timeline;
  Timeline::Lane m_lane;
  Calendar m_bus;
  Ring<Fis> m_done;  // completions on their way to the host, in order
  std::array<Command, 32> m_commands{};
  UsbStats m_stats;
};

}  // namespace ssdlab
