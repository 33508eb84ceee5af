// What one phase of a scenario measured.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/config/scenario.h"

#include "model/core/types.h"
#include "model/stats/io_stats.h"

namespace ssdlab {

struct PhaseResult {
  std::string name;
  std::string kind;
  Picos sim_start_ps = 0, sim_end_ps = 0;
  double wall_seconds = 0;
  IoStats io;
  // Firmware and flash activity during the phase.
  std::uint64_t host_units_written = 0;
  std::uint64_t nand_units_programmed = 0;
  std::uint64_t gc_erases = 0;
  std::uint64_t gc_units_copied = 0;
  std::uint64_t erases = 0;
  std::uint64_t rmw_reads = 0;
  std::uint64_t buffer_waits = 0;
  std::uint64_t map_reads = 0, map_writes = 0;  // translation pages (controller.mapping_cache)
  std::uint64_t background_gc_ops = 0;          // flash operations of idle-time GC
  std::uint64_t free_blocks_end = 0;
  double die_utilisation = 0;  // mean over dies of busy time / phase time
  double link_utilisation = 0;
  std::vector<Expectation> expect;  // the documents' figures for this phase

  double seconds() const { return double(sim_end_ps - sim_start_ps) / double(kPicosPerSec); }
  double io_seconds() const { return double(io.elapsed_ps()) / double(kPicosPerSec); }
  double read_mbps() const { return io_seconds() > 0 ? double(io.read_bytes) / io_seconds() / 1e6 : 0; }
  double write_mbps() const { return io_seconds() > 0 ? double(io.write_bytes) / io_seconds() / 1e6 : 0; }
  double iops() const { return io_seconds() > 0 ? double(io.ios()) / io_seconds() : 0; }
  // A figure by name (the metrics an `expect` can name); NaN for an unknown name.
  double metric(const std::string& name) const;
  // NAND unit programs per host unit written; < 0 when the host wrote nothing.
  double waf() const { return host_units_written ? double(nand_units_programmed) / double(host_units_written) : -1.0; }
};

struct Sample {
  double time_s = 0;
  std::uint32_t phase = 0;
  double read_mbps = 0, write_mbps = 0, iops = 0;
  std::uint64_t free_blocks = 0;
  double waf = -1;  // over the interval; < 0 when the host wrote nothing in it
};

}  // namespace ssdlab
