// The assembled drive, what a SystemC platform embeds: flash array, controller, SATA link and
// AHCI HBA, bound together. The host side binds hba.completion: a HostDriver (`ssdlab run`),
// the host port of byte-addressed requests (model/host_port.h: the TLM target, the NBD bridge)
// or a test's own. control() is the drive's control face (drain, hold background work, secure
// erase, precondition, images, the mapping changed untimed: controller/sc/drive_control.h).
// `stats` is the drive's statistics tree (base/stats/stats_tree.h): every part registers its
// statistics under "drive" here; the host side may add groups of its own before the first
// snapshot.
#pragma once

#include <algorithm>
#include <memory>

#include "base/config/config.h"
#include "base/core/probe.h"
#include "base/stats/stats_tree.h"
#include "controller/sc/device_controller.h"
#include "controller/sc/striped_flash.h"
#include "host/sata/ahci_hba.h"
#include "host/sata/sata_link.h"
#include "host/usb/usb_bridge.h"
#include "nand/flash_array.h"

namespace ssdlab {

class Ssd : public sc_core::sc_module {
  DriveConfig m_config;  // first: the parts below are built from it

 public:
  Timeline timeline;  // first: the modules below schedule on it
  FlashArray flash;
  DeviceController controller;
  SataLink link;
  AhciHba hba;
  // host.link: usb2: the USB 2.0 bridge between hba and link (host/usb/usb_bridge.h); else null.
  std::unique_ptr<UsbBridge> usb;
  StatsTree stats;
  // Mapping units of several pages only (controller/sc/striped_flash.h); else null.
  std::unique_ptr<StripedFlash> striped;
  // Instruments attached to this drive (VCD, trace, latency log): every module reports to the
  // fanout once at least one is attached, and tests a null pointer otherwise.
  ProbeFanout probes;
  // Attach before the simulation starts; `p` must outlive the drive's run.
  void add_probe(Probe& p) {
    probes.add(p);
    flash.set_probe(&probes);
    controller.set_probe(&probes);
    link.set_probe(&probes);
    hba.set_probe(&probes);
  }
  // The fanout when an instrument is attached, else null (for the host side's own hook).
  Probe* probe() { return probes.empty() ? nullptr : &probes; }

  DriveControl& control() { return controller.control(); }
  const DriveControl& control() const { return controller.control(); }
  const DriveConfig& config() const { return m_config; }

  // `keep_data`: carry real bytes through buffer and flash (the NBD server does).
  Ssd(sc_core::sc_module_name name, const DriveConfig& config, bool keep_data = false)
      : sc_core::sc_module(name),
        m_config(config),
        timeline("timeline"),
        flash("nand", config.flash_config(), timeline),
        controller("controller", config, timeline, keep_data),
        link("link", config.host, timeline),
        hba("hba", usb_link(config) ? 1 : std::min(config.host.ncq_tags, config.controller.queue_depth),
            usb_link(config) ? 0 : config.host.ahci_command_ps) {
    if (controller.ftl().geometry().pages_per_unit > 1) {  // virtual pages: the flash ops of each
      striped =
          std::make_unique<StripedFlash>(controller.ftl().geometry(), config.nand.page_size_bytes, flash, controller);
      controller.flash(*striped);
      flash.completion(*striped);
    } else {
      controller.flash(flash);
      flash.completion(controller);
      // GC ops queued on a die run as one job while the controller would not act on their
      // completions (nand/die.h). Not with virtual pages: StripedFlash joins an op's parts.
      flash.set_batch_depth(controller.gc_batch_depth());
    }
    controller.link(link);
    link.device(controller);
    if (usb_link(config)) {  // bulk-only transport: one command at a time, no AHCI adapter work
      usb = std::make_unique<UsbBridge>("usb", config.host, timeline);
      hba.link(*usb);
      usb->link(link);
      usb->host(hba);
      link.host(*usb);
      link.set_bridge(usb.get());
    } else {
      link.host(hba);
      hba.link(link);
    }
    const StatGroup drive = stats.group("drive");
    flash.register_stats(drive.group("nand"));
    controller.register_stats(drive.group("controller"));
    link.register_stats(drive.group("link"));
    if (usb) usb->register_stats(drive.group("usb"));
  }

 private:
  static bool usb_link(const DriveConfig& c) { return c.host.link == HostLink::kUsb2; }
};

}  // namespace ssdlab
