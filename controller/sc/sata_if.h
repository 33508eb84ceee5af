// The host|drive boundary as SystemC interfaces: the link (host/sata) carries FISes
// (base/core/sata_fis.h); the device (this folder) and the HBA (host/sata) receive them.
#pragma once

#include <systemc>

#include "base/core/sata_fis.h"

namespace ssdlab {

// Device side: FISes the link delivers to the drive.
struct SataDeviceIf : virtual sc_core::sc_interface {
  virtual void receive_from_host(const Fis& fis) = 0;
};

// Host side: FISes the link delivers to the HBA. Read data (kDataToHost) is not delivered:
// it goes straight to host memory by DMA, and only its time on the wire counts.
struct SataHostIf : virtual sc_core::sc_interface {
  virtual void receive_from_device(const Fis& fis) = 0;
};

// The link: queues a FIS for transmission; it is delivered to the other side when its last
// bit has crossed. One FIS on the wire at a time (SATA is half duplex at frame level).
// transmit() returns when the FIS is on the wire: [start, end), delivered at end; it starts no
// earlier than `not_before` (the HBA's command fetch ends then).
struct LinkBooking {
  Picos start = 0, end = 0;
};
struct SataLinkIf : virtual sc_core::sc_interface {
  virtual LinkBooking transmit(const Fis& fis, Picos not_before = 0) = 0;
};

}  // namespace ssdlab
