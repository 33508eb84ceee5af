// The drive parameter table's host side: host.* (the SATA link, the AHCI adapter, link power
// management). Every default cites its source or says it is assumed.
#include "base/config/drive_params_host.h"

namespace ssdlab {

namespace {

// SATA link power states (docs/power.md). The exit latencies are the SATA specification's maxima
// (Serial ATA Revision 2.6, PHY power states: Partial shall exit within 10 us, Slumber within
// 10 ms); real PHYs of 2009 took about what the specification allowed.
void add_link_pm(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("host.link_pm", K::kSection)
                  .desc_is("SATA link power management (HIPM/DIPM): Partial and Slumber after idle time with no "
                           "command outstanding; the next command waits for the exit"));
  t.push_back(make_param("host.link_pm.partial_after", K::kDuration, "duration")
                  .def("0ps")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.link_pm.partial_after_ps; })
                  .desc_is("idle time before the link enters Partial; 0 = never"));
  t.push_back(make_param("host.link_pm.slumber_after", K::kDuration, "duration")
                  .def("0ps")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.link_pm.slumber_after_ps; })
                  .desc_is("idle time before the link enters Slumber (after Partial when both are set); 0 = never"));
  t.push_back(make_param("host.link_pm.partial_exit", K::kDuration, "duration")
                  .def("10us")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.link_pm.partial_exit_ps; })
                  .desc_is("wake-up from Partial before a command can be sent (SATA 2.6 maximum)"));
  t.push_back(make_param("host.link_pm.slumber_exit", K::kDuration, "duration")
                  .def("10ms")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.link_pm.slumber_exit_ps; })
                  .desc_is("wake-up from Slumber before a command can be sent (SATA 2.6 maximum)"));
}

// USB 2.0 mass storage (docs/usb.md): the bus's timing is the USB 2.0 specification's
// (host/usb/usb_wire.h); the host's turnaround between bulk-only phases is assumed.
void add_usb(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("host.usb", K::kSection)
                  .desc_is("the USB 2.0 bridge (host.link: usb2): bulk-only transport, one command at a time"));
  // Assumed: an EHCI controller raises the transfer's completion interrupt at the end of the
  // microframe it ends in (interrupt threshold of one microframe), and the driver's next transfer
  // (the data after the CBW, the CSW after the data, the next command's CBW) goes on the bus in
  // the microframe after: about one 125 us microframe per phase change.
  t.push_back(make_param("host.usb.turnaround", K::kDuration, "duration")
                  .def("125us")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.usb_turnaround_ps; })
                  .desc_is("host time from a bulk-only phase's last transaction to the next phase's first (CBW -> "
                           "data -> CSW -> completion and the next CBW)"));
}

}  // namespace

void add_host(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("host", K::kSection).desc_is("the host side of the SATA link"));
  t.push_back(make_param("host.link", K::kChoice)
                  .def("sata")
                  .pick({"sata", "usb2"})
                  .choice([](DriveConfig& c, std::size_t i) { c.host.link = static_cast<HostLink>(i); },
                          [](const DriveConfig& c) { return static_cast<std::size_t>(c.host.link); })
                  .desc_is("the host's attachment: sata (AHCI with NCQ) or usb2 (a USB 2.0 mass-storage bridge in "
                           "front of the drive's SATA port: bulk-only transport, one command at a time; host.ncq_tags "
                           "and host.ahci are not used)"));
  t.push_back(make_param("host.sata", K::kBitRate, "bits/s")
                  .def("3Gbps")
                  .pick({"1.5Gbps", "3Gbps", "6Gbps"})
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.sata_line_bps; })
                  .desc_is("SATA line rate (8b/10b coded: a tenth of it is payload bytes per second)"));
  t.push_back(make_param("host.ncq_tags", K::kCount, "count")
                  .def("32")
                  .range(1, 32)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.host.ncq_tags; })
                  .desc_is("NCQ tags the host uses; 1 = no NCQ"));
  // The specifications bound neither handshake; they bound the answer to HOLD: HOLDA within 20
  // Dword times of it (ATA/ATAPI-7 vol. 3, 15.4.8.1). The same 20 Dwords are taken for the
  // R_RDY and R_OK answers (assumed).
  t.push_back(make_param("host.link_round_trip", K::kCount, "Dwords")
                  .def("20")
                  .range(0, 4096)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.host.link_round_trip_dwords; })
                  .desc_is("Dword times from sending X_RDY (WTRM) to seeing R_RDY (R_OK): two per frame"));
  t.push_back(make_param("host.ahci", K::kSection)
                  .desc_is("the AHCI host adapter's work per command (AHCI 1.3: command list and table in host "
                           "memory)"));
  // Assumed: two dependent reads of host memory (the 32-byte command header, then the command
  // table: 64-byte command FIS and 16-byte PRD entries), ~0.5 us each through a 2009 chipset.
  t.push_back(make_param("host.ahci.command", K::kDuration, "duration")
                  .def("1us")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.ahci_command_ps; })
                  .desc_is("command fetch before its command FIS goes, one command at a time"));
  // Assumed: the HBA's status write, the interrupt (MSI) and the driver's handler with its
  // uncacheable read of PxSACT; Foong et al. 2010 (Intel) name MMIO reads and interrupts as the
  // main per-command host costs.
  t.push_back(make_param("host.ahci.completion", K::kDuration, "duration")
                  .def("2us")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.host.ahci_completion_ps; })
                  .desc_is("from the Set Device Bits FIS on the wire to the command seen complete (and its tag free)"));
  add_link_pm(t);
  add_usb(t);
}

}  // namespace ssdlab
