#include "host/usb/usb_bridge.h"

#include <algorithm>

#include "base/core/anatomy.h"

namespace ssdlab {

UsbBridge::UsbBridge(sc_core::sc_module_name name, const HostConfig& config, Timeline& timeline)
    : sc_core::sc_module(name),
      m_turnaround(config.usb_turnaround_ps),
      m_timeline(timeline),
      m_lane(timeline.add_lane()),
      m_done(32) {}

Picos UsbBridge::book(Picos at, std::uint64_t bytes) {
  const std::uint64_t n = UsbWire::transactions(bytes);
  m_stats.transactions += n;
  return m_bus.reserve(at, UsbWire::picos_for(n));
}

LinkBooking UsbBridge::transmit(const Fis& fis, Picos not_before) {
  const Picos now = std::max(now_picos(), not_before);
  const Picos cbw_end = book(now, usb::kCbwBytes);
  ++m_stats.commands;
  Command& c = m_commands[fis.tag];
  c.anatomy = fis.anatomy;
  c.data_open = cbw_end + m_turnaround;
  c.data_end = cbw_end;
  if (fis.anatomy) fis.anatomy->to(Part::kUsb, cbw_end);
  // Data to the drive goes out at once into the bridge's buffer.
  std::uint64_t out = 0;
  if (fis.command == AtaCommand::kWriteFpdma) out = std::uint64_t(fis.sectors) * kSectorBytes;
  if (fis.command == AtaCommand::kDataSetManagement) out = trim_payload_bytes(fis.sectors);
  if (out) c.data_end = book(c.data_open, out);
  return link->transmit(fis, cbw_end);
}

void UsbBridge::data_to_host(const Fis& fis, Picos first_frame_end) {
  Command& c = m_commands[fis.tag];
  c.data_end = book(std::max(c.data_open, first_frame_end), fis.data_bytes);
}

Picos UsbBridge::data_to_device_start(const Fis& fis, Picos at, Picos t, Picos t_last) {
  Command& c = m_commands[fis.tag];
  // The last frame starts once the last byte is at the bridge: the transfer t_last before its end.
  const Picos ready = c.data_end + t_last;
  const Picos start = ready > at + t ? ready - t : at;
  if (c.anatomy) c.anatomy->wait_until(Part::kUsb, start);
  return start;
}

void UsbBridge::receive_from_device(const Fis& fis) {
  Command& c = m_commands[fis.tag];
  // The host asks for the CSW a turnaround after the data phase (after the CBW without data).
  const Picos csw_end = book(std::max(now_picos(), c.data_end + m_turnaround), usb::kCswBytes);
  m_done.push(fis);
  m_timeline.at(m_lane, csw_end + m_turnaround, *this, 0);
}

void UsbBridge::on_timer(std::uint32_t) {
  const Fis fis = m_done.pop();
  Command& c = m_commands[fis.tag];
  if (c.anatomy) c.anatomy->to(Part::kUsb, now_picos());
  c.anatomy = nullptr;
  host->receive_from_device(fis);
}

void UsbBridge::register_stats(const StatGroup& usb) const {
  usb.counter("commands", m_stats.commands, "commands", "bulk-only commands (CBW, data, CSW)");
  usb.counter("transactions", m_stats.transactions, "transactions",
              "bulk transactions on the USB bus (512-byte packets, short packets, CBWs and CSWs)");
  usb.busy(
      "busy", [this] { return m_bus.busy_until(now_picos()); }, "time the USB bus carried the bridge's transactions");
}

}  // namespace ssdlab
