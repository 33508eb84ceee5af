// USB 2.0 high speed as a mass-storage bridge uses it: bulk transactions on a 480 Mb/s bus in
// 125 us microframes. Sources:
// - Universal Serial Bus Specification 2.0, 5.8.4 and Table 5-10: a high-speed bulk endpoint's
//   maximum packet is 512 bytes, and at most 13 such transactions fit in a microframe (each
//   carries 55 bytes of protocol overhead: token, handshake, CRCs, inter-packet gaps; 13 x 567 of
//   the microframe's 7,500 byte times): 53,248 bytes per millisecond at most.
// - USB Mass Storage Class, Bulk-Only Transport 1.0: a command is three phases, each its own
//   bulk transfer: the Command Block Wrapper (31 bytes, OUT), the data (IN or OUT, none for a
//   command without data), the Command Status Wrapper (13 bytes, IN). One command at a time.
// Every transaction here takes one of the 13 slots of a microframe, whatever its payload (a CBW, a
// CSW and a short last packet included). Microframe boundaries are not modelled: a transfer
// starts when the host's schedule reaches it (docs/usb.md).
#pragma once

#include <cstdint>

#include "base/core/types.h"

namespace ssdlab {

namespace usb {
constexpr std::uint32_t kMaxPacketBytes = 512;  // high-speed bulk
constexpr std::uint32_t kSlotsPerMicroframe = 13;
constexpr Picos kMicroframePs = 125'000'000;  // 125 us
constexpr std::uint32_t kCbwBytes = 31;
constexpr std::uint32_t kCswBytes = 13;
}  // namespace usb

class UsbWire {
 public:
  // Transactions of a bulk transfer of `bytes`: 512-byte packets and a short last one (one
  // transaction even for 0 bytes: a zero-length packet).
  static std::uint64_t transactions(std::uint64_t bytes) {
    return bytes == 0 ? 1 : (bytes + usb::kMaxPacketBytes - 1) / usb::kMaxPacketBytes;
  }
  // Bus time of `n` transactions back to back: n slots of 125/13 us, rounded up to the picosecond.
  static Picos picos_for(std::uint64_t n) {
    return (n * usb::kMicroframePs + usb::kSlotsPerMicroframe - 1) / usb::kSlotsPerMicroframe;
  }
  static Picos transfer_ps(std::uint64_t bytes) { return picos_for(transactions(bytes)); }
  // One bulk-only command of `bytes` (0: no data phase) when nothing waits for the drive: CBW,
  // turnaround, the data, turnaround, CSW, turnaround (the host sees it complete, the next CBW goes).
  static Picos command_ps(std::uint64_t bytes, Picos turnaround) {
    const Picos data = bytes ? transfer_ps(bytes) + turnaround : 0;
    return transfer_ps(usb::kCbwBytes) + turnaround + data + transfer_ps(usb::kCswBytes) + turnaround;
  }
  // Payload bytes per second of long bulk transfers (the bus's ceiling).
  static double max_bytes_per_s() {
    return double(usb::kMaxPacketBytes) * usb::kSlotsPerMicroframe * double(kPicosPerSec) / double(usb::kMicroframePs);
  }
};

}  // namespace ssdlab
