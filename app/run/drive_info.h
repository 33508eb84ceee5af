// Facts derived from a drive config: capacities, parallelism and the bandwidth ceilings
// that the link, the channel buses and the dies each impose on their own.
#pragma once

#include <iosfwd>

#include "base/config/config.h"

namespace ssdlab {

struct DriveCeilings {
  double link_read_mbps = 0;  // 128 KiB reads, payload only, FIS overheads paid
  double link_write_mbps = 0;
  double link_4k_iops = 0;   // link alone, 4 KiB transfers
  double bus_read_mbps = 0;  // all channels moving page data out
  double bus_write_mbps = 0;
  double die_read_mbps = 0;            // all dies reading whole pages back to back
  double die_write_mbps = 0;           // all dies programming (mean tPROG over page types)
  double die_write_uncached_mbps = 0;  // the same without cache program (= die_write_mbps when off)
  double die_read_uncached_mbps = 0;   // die_read_mbps without cache read (= die_read_mbps when off)
  double die_4k_read_iops = 0;         // one mapping unit per read
  double usb_64k_mbps = 0;             // host.link usb2: 64 KiB bulk-only commands one at a time (0: SATA)
};

DriveCeilings drive_ceilings(const DriveConfig& config);
void print_drive_info(std::ostream& out, const DriveConfig& config);

}  // namespace ssdlab
