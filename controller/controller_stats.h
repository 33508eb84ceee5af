// The controller's own counters (the FTL and the mapping cache keep theirs). Plain struct:
// the firmware parts count into it where the work is done, DeviceController::stats() shows it.
#pragma once

#include <cstdint>

#include "controller/sched/read_spread.h"

namespace ssdlab {

struct ControllerStats {
  std::uint64_t commands = 0;
  std::uint64_t read_units_from_buffer = 0;  // served from the write buffer
  std::uint64_t read_units_unmapped = 0;     // never written / trimmed: zeros, no NAND read
  std::uint64_t read_units_from_nand = 0;
  // Read-ahead (controller.read_ahead): units served from its window (ready or in flight), and
  // units it read from flash.
  std::uint64_t read_units_from_read_ahead = 0;
  std::uint64_t read_ahead_units = 0;
  std::uint64_t rmw_reads = 0;     // reads for partially written mapping units
  std::uint64_t buffer_waits = 0;  // writes that waited for buffer space
  std::uint64_t rejected = 0;      // commands completed with an error
  std::uint64_t trims = 0, flushes = 0;
  std::uint64_t background_gc_ops = 0;          // flash operations issued by idle-time GC
  std::uint64_t map_reads = 0, map_writes = 0;  // translation pages read on a miss / written back
  ReadSpreadTotals read_spread;                 // host read commands' page reads over the dies
  std::uint64_t media_errors = 0;               // commands failed by an uncorrectable read (bit errors)
  std::uint64_t read_only_rejections = 0;       // writes and TRIMs aborted by a read-only drive (bad blocks)
};

}  // namespace ssdlab
