#include "app/run/drive_info.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>

#include "base/config/geometry.h"
#include "base/core/units.h"
#include "controller/hil/firmware_cpu.h"
#include "controller/sc/sata_if.h"
#include "host/sata/sata_wire.h"
#include "host/usb/usb_wire.h"

namespace ssdlab {

namespace {

// One queued command on the wire: command FIS, data (DMA Setup, data FISes and, to the device, a
// DMA Activate before each), completion; each FIS exchange timed as the link times it.
Picos command_wire_ps(const DriveConfig& c, FisKind data_kind, std::uint32_t bytes) {
  const SataWire wire(c.host.sata_line_bps, c.host.link_round_trip_dwords);
  Fis data{data_kind};
  data.data_bytes = bytes;
  return wire.time(Fis{FisKind::kCommand}) + wire.time(data) + wire.time(Fis{FisKind::kSetDeviceBits});
}

double link_mbps(const DriveConfig& c, FisKind data_kind, std::uint32_t bytes) {
  return double(bytes) / (double(command_wire_ps(c, data_kind, bytes)) / double(kPicosPerSec)) / 1e6;
}

double seconds(Picos ps) { return double(ps) / double(kPicosPerSec); }

}  // namespace

DriveCeilings drive_ceilings(const DriveConfig& c) {
  DriveCeilings d;
  const NandConfig& n = c.nand;
  d.link_read_mbps = link_mbps(c, FisKind::kDataToHost, 128 * 1024);
  d.link_write_mbps = link_mbps(c, FisKind::kDataToDevice, 128 * 1024);
  d.link_4k_iops = link_mbps(c, FisKind::kDataToHost, 4096) * 1e6 / 4096;
  const double bus_bps = double(n.bus_bytes_per_s);
  const double page = n.page_size_bytes;
  const double cmd = seconds(n.t_cmd_ps);
  d.bus_read_mbps = n.channels * page / (cmd + page / bus_bps) / 1e6;
  d.bus_write_mbps = d.bus_read_mbps;
  Picos t_read = 0, t_prog = 0;
  for (std::uint32_t t = 0; t < n.page_types(); ++t) {
    t_read += n.t_read_ps[t];
    t_prog += n.t_prog_ps[t];
  }
  const double mean_read = seconds(t_read) / n.page_types();
  const double mean_prog = seconds(t_prog) / n.page_types();
  // Multi-plane (docs/planes.md): a die reads or programs a page on each of its P planes in one
  // array time, their command and data cycles one after the other.
  const double planes = n.planes_per_die;
  d.die_read_mbps = d.die_read_uncached_mbps =
      n.dies() * planes * page / (planes * (cmd + page / bus_bps) + mean_read) / 1e6;
  if (n.cache_read) {  // back to back: the next read's command in the slot, then its tR during the data-out
    double cycle = 0;
    for (std::uint32_t t = 0; t < n.page_types(); ++t)
      cycle += cmd + std::max(seconds(n.t_read_ps[t]), planes * page / bus_bps);
    d.die_read_mbps = n.dies() * planes * page / (cycle / n.page_types()) / 1e6;
  }
  const double in = planes * (cmd + page / bus_bps);  // a program's command and data cycles
  d.die_write_mbps = d.die_write_uncached_mbps = n.dies() * planes * page / (in + mean_prog) / 1e6;
  if (n.cache_program) {  // each page type's tPROG hides the next program's cycles, or they it
    double cycle = 0;
    for (std::uint32_t t = 0; t < n.page_types(); ++t) cycle += std::max(in, seconds(n.t_prog_ps[t]));
    d.die_write_mbps = n.dies() * planes * page / (cycle / n.page_types()) / 1e6;
  }
  // A unit of several pages (a virtual page) reads only the page holding the 4 KiB.
  const double unit = std::min<double>(c.controller.mapping_unit_bytes, page);
  d.die_4k_read_iops = n.dies() / (cmd + mean_read + unit / bus_bps);
  if (c.host.link == HostLink::kUsb2) {
    d.usb_64k_mbps = 65536.0 / seconds(UsbWire::command_ps(65536, c.host.usb_turnaround_ps)) / 1e6;
  }
  return d;
}

void print_drive_info(std::ostream& out, const DriveConfig& c) {
  const NandConfig& n = c.nand;
  const Geometry g = Geometry::from(c);
  const DriveCeilings d = drive_ceilings(c);
  const std::string per_page = g.pages_per_unit > 1 ? "virtual pages of " + std::to_string(g.pages_per_unit) +
                                                          " pages on as many dies (docs/virtual-pages.md)"
                                                    : std::to_string(g.units_per_page) + " per page";
  const std::string planes_text = n.planes_per_die > 1 ? " x " + std::to_string(n.planes_per_die) +
                                                             " planes (multi-plane: the FTL's page is " +
                                                             format_size(g.page_bytes) + ", one page a plane)"
                                                       : "";
  const bool usb = c.host.link == HostLink::kUsb2;
  const std::string tags_text =
      usb ? "from the USB bridge: non-queued commands (READ / WRITE DMA EXT), one at a time"
          : std::to_string(std::min(c.host.ncq_tags, c.controller.queue_depth)) + " NCQ tags used";
  const std::string adapter_text = usb ? "USB 2.0 host (host.usb; no AHCI adapter)"
                                       : "AHCI command fetch " + format_duration(c.host.ahci_command_ps) +
                                             ", completion report " + format_duration(c.host.ahci_completion_ps) +
                                             " per command";
  const double usb_cap = usb ? d.usb_64k_mbps : 1e300;  // expected limit with 64 KiB commands
  // The firmware CPU, one command at a time (controller.firmware_*): 128 KiB commands.
  const FirmwareCpu cpu(c.controller, 1);
  const auto fw_s = [&cpu](AtaCommand op, std::uint32_t bytes) {
    return seconds(cpu.work_ps(op, bytes / kSectorBytes));
  };
  const double fw_read_s = fw_s(AtaCommand::kReadFpdma, 131072);
  const double fw_write_s = fw_s(AtaCommand::kWriteFpdma, 131072);
  const double fw_read_cap = fw_read_s > 0 ? 0.131072 / fw_read_s : 1e300;
  const double fw_write_cap = fw_write_s > 0 ? 0.131072 / fw_write_s : 1e300;
  char buf[4096];
  std::snprintf(buf, sizeof buf,
                "drive            %s (%s)\n"
                "raw capacity     %llu bytes (%s)\n"
                "user capacity    %llu bytes = %llu sectors (%.2f GB, %.2f GiB)\n"
                "over-provision   %.2f %% of raw hidden from the host\n"
                "geometry         %u channels x %u dies = %u dies%s, %u blocks/%s, %u pages/block, %s pages (%s), "
                "block %s\n"
                "mapping          %s units, %s, %llu physical units, %llu LPNs\n"
                "link             SATA %s, %s; per frame SOF/CRC/EOF and two %u-Dword handshakes "
                "(X_RDY/R_RDY, WTRM/R_OK), an ALIGN pair in every 256 Dwords\n"
                "host adapter     %s\n"
                "ceilings (MB/s)  link read %.1f, link write %.1f | buses %.1f | dies read %.1f, dies write %.1f\n"
                "4 KiB reads      link %.0f IOPS, dies %.0f IOPS\n"
                "expected limit   seq read %.1f MB/s, seq write %.1f MB/s\n",
                c.name.c_str(), c.source_path.c_str(), static_cast<unsigned long long>(n.raw_bytes()),
                format_size(n.raw_bytes()).c_str(), static_cast<unsigned long long>(c.controller.user_bytes),
                static_cast<unsigned long long>(c.controller.user_bytes / kSectorBytes), c.controller.user_bytes / 1e9,
                c.controller.user_bytes / double(1ull << 30),
                100.0 * (1.0 - double(c.controller.user_bytes) / double(n.raw_bytes())), n.channels, n.dies_per_channel,
                n.dies(), planes_text.c_str(), n.blocks_per_plane, n.planes_per_die > 1 ? "plane" : "die",
                n.pages_per_block, format_size(n.page_size_bytes).c_str(), to_string(n.cell),
                format_size(std::uint64_t(n.pages_per_block) * n.page_size_bytes).c_str(),
                format_size(g.unit_bytes).c_str(), per_page.c_str(), static_cast<unsigned long long>(g.total_units),
                static_cast<unsigned long long>((c.controller.user_bytes + g.unit_bytes - 1) / g.unit_bytes),
                format_bits_per_s(c.host.sata_line_bps).c_str(), tags_text.c_str(), c.host.link_round_trip_dwords,
                adapter_text.c_str(), d.link_read_mbps, d.link_write_mbps, d.bus_read_mbps, d.die_read_mbps,
                d.die_write_mbps, d.link_4k_iops, d.die_4k_read_iops,
                std::min({d.link_read_mbps, d.bus_read_mbps, d.die_read_mbps, usb_cap, fw_read_cap}),
                std::min({d.link_write_mbps, d.bus_write_mbps, d.die_write_mbps, usb_cap, fw_write_cap}));
  out << buf;
  if (fw_read_s > 0) {
    std::snprintf(buf, sizeof buf,
                  "firmware CPU     one command at a time: 4 KiB reads %.0f IOPS, 4 KiB writes %.0f IOPS, 128 KiB "
                  "reads %.1f MB/s, 128 KiB writes %.1f MB/s at most\n",
                  1.0 / fw_read_s, 1.0 / fw_s(AtaCommand::kWriteFpdma, 4096), fw_read_cap, fw_write_cap);
    out << buf;
  }
  // USB 2.0 bridge (docs/usb.md): bulk-only commands one at a time over the USB bus.
  if (usb) {
    const Picos turn = c.host.usb_turnaround_ps;
    std::snprintf(
        buf, sizeof buf,
        "USB 2.0 bridge   bulk-only transport in front of the SATA link, one command at a time: USB bus "
        "%.1f MB/s at most (13 x 512-byte packets a microframe); a 64 KiB command %.1f us (CBW, data, "
        "CSW, three %s turnarounds): %.1f MB/s, 128 KiB %.1f MB/s, 4 KiB %.0f IOPS, when the drive keeps up\n",
        UsbWire::max_bytes_per_s() / 1e6, double(UsbWire::command_ps(65536, turn)) / 1e6, format_duration(turn).c_str(),
        d.usb_64k_mbps, 131072.0 / seconds(UsbWire::command_ps(131072, turn)) / 1e6,
        1.0 / seconds(UsbWire::command_ps(4096, turn)));
    out << buf;
  }
  // Power (docs/power.md): what the drive draws idle with the link Active, and a die at work.
  const PowerConfig& p = c.power;
  const double standby = p.nand_vcc_v * 1e-3 * p.nand_standby_ma * n.dies();
  std::snprintf(buf, sizeof buf,
                "power            idle %.3f W (controller %.3f, DRAM %.3f, SATA PHY %.3f, NAND standby %.3f); a die "
                "reading %.1f mW, programming %.1f mW, erasing %.1f mW; per phase with power.enabled%s\n",
                p.controller_idle_w + p.dram_idle_w + p.link_active_w + standby, p.controller_idle_w, p.dram_idle_w,
                p.link_active_w, standby, p.nand_vcc_v * p.nand_read_ma, p.nand_vcc_v * p.nand_program_ma,
                p.nand_vcc_v * p.nand_erase_ma, p.enabled ? " (on)" : "");
  out << buf;
  const LinkPmConfig& pm = c.host.link_pm;
  if (pm.enabled()) {
    out << "link power       ";
    if (pm.partial_after_ps)
      out << "Partial after " << format_duration(pm.partial_after_ps) << " idle (exit "
          << format_duration(pm.partial_exit_ps) << ")" << (pm.slumber_after_ps ? ", " : "");
    if (pm.slumber_after_ps)
      out << "Slumber after " << format_duration(pm.slumber_after_ps) << " idle (exit "
          << format_duration(pm.slumber_exit_ps) << ")";
    out << "\n";
  }
  // Program/erase suspend (docs/suspend.md).
  const NandConfig::Suspend& sus = n.suspend;
  if (sus.enabled()) {
    out << "suspend          host reads suspend";
    if (sus.erase) out << " erases (" << format_duration(sus.erase_latency_ps) << ")";
    if (sus.erase && sus.program) out << " and";
    if (sus.program) out << " programs (" << format_duration(sus.program_latency_ps) << ")";
    out << ", up to " << sus.max_per_op << " reads per op; a read behind one waits at most the latency + "
        << format_duration(n.t_cmd_ps + n.t_read_ps[n.page_types() - 1]) << " + its data-out\n";
  }
  // Read data from DRAM through the controller's DMA (docs/sata-link.md), then the link: what
  // bounds a QD1 read of never-written LBAs, and one of read-ahead's data.
  const std::uint64_t rate = c.controller.read_dma_bytes_per_s;
  const Picos dram_read_ps = c.host.ahci_command_ps + c.host.ahci_completion_ps + c.controller.firmware_cost_ps +
                             (rate ? transfer_picos(128 * 1024, rate * 8) : 0) +
                             command_wire_ps(c, FisKind::kDataToHost, 128 * 1024);
  if (rate) {
    std::snprintf(buf, sizeof buf,
                  "read DMA         %s from DRAM to the link (zeros, buffer, read-ahead); QD1 128 KiB reads of "
                  "never-written LBAs at most %.1f MB/s\n",
                  format_bytes_per_s(rate).c_str(), 128.0 * 1024 / seconds(dram_read_ps) / 1e6);
    out << buf;
  }
  // Cache program and cache read (docs/planes.md): the dies' ceilings with and without them.
  const auto cache = [&](const char* line, double with, double without) {
    std::snprintf(buf, sizeof buf, "%s %.1f MB/s (%.1f without)\n", line, with, without);
    out << buf;
  };
  if (n.cache_program) {
    cache("cache program    on: a die's next program loads its data during the tPROG before it; dies write",
          d.die_write_mbps, d.die_write_uncached_mbps);
  }
  if (n.cache_read) {
    cache("cache read       on: a die's next read starts its tR while the page before it goes out; dies read",
          d.die_read_mbps, d.die_read_uncached_mbps);
  }
  // Sequential read-ahead (docs/read-ahead.md): with it, a QD1 stream's 128 KiB reads come from
  // DRAM, paced by the adapter, the link and the firmware per command.
  if (c.controller.read_ahead_bytes) {
    std::snprintf(buf, sizeof buf,
                  "read-ahead       %s of DRAM (%llu units) ahead of a stream of %u sequential read commands; QD1 "
                  "128 KiB reads from it at most %.1f MB/s\n",
                  format_size(c.controller.read_ahead_bytes).c_str(),
                  static_cast<unsigned long long>(c.controller.read_ahead_bytes / c.controller.mapping_unit_bytes),
                  c.controller.read_ahead_trigger, 128.0 * 1024 / seconds(dram_read_ps) / 1e6);
    out << buf;
  }
  // The SLC cache (docs/slc-cache.md): its blocks, and the dies' write ceiling while it takes
  // the host's pages (LSB programs only) against the full-block one above.
  const SlcCacheConfig& slc = c.controller.slc_cache;
  if (slc.mode != SlcCacheMode::kOff) {
    const std::uint64_t slc_block = slc_block_bytes(n);
    const std::uint64_t per_die = slc_cache_blocks_per_die(c);
    const double page = n.page_size_bytes;
    const double slc_write =
        n.dies() * page / (seconds(n.t_cmd_ps) + page / double(n.bus_bytes_per_s) + seconds(n.t_prog_ps[0])) / 1e6;
    std::snprintf(buf, sizeof buf,
                  "SLC cache        %s, %s: %llu SLC-mode blocks/die of %s (LSB pages only); dies write %.1f MB/s "
                  "into it (seq write %.1f), %.1f beyond it; %s\n",
                  to_string(slc.mode), format_size(std::uint64_t(per_die) * slc_block * n.dies()).c_str(),
                  static_cast<unsigned long long>(per_die), format_size(slc_block).c_str(), slc_write,
                  std::min({d.link_write_mbps, d.bus_write_mbps, slc_write}), d.die_write_mbps,
                  slc.idle_fold ? "folded in idle time and by GC" : "folded by GC only");
    out << buf;
  }
}

}  // namespace ssdlab
