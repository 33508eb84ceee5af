// Host-side statistics of a stretch of simulated time (one phase): counts, bytes, latency.
#pragma once

#include <cstdint>
#include <memory>

#include "model/core/types.h"
#include "model/stats/anatomy_stats.h"
#include "model/stats/histogram.h"

namespace ssdlab {

struct IoStats {
  std::uint64_t reads = 0, writes = 0, errors = 0, trims = 0;
  std::uint64_t reordered = 0;  // completions that overtook a request issued before them
  std::uint64_t read_bytes = 0, write_bytes = 0;
  Picos first_issue_ps = 0, last_complete_ps = 0;
  Histogram read_latency_ps, write_latency_ps;
  Histogram other_latency_ps;  // TRIMs and failed commands
  // Every command's latency: the three merged (exactly what one histogram recording all of them
  // would hold; a request records into one histogram only).
  // On the heap: a histogram is too large for a SystemC thread's stack.
  std::unique_ptr<Histogram> latency() const {
    auto all = std::make_unique<Histogram>(read_latency_ps);
    all->merge(write_latency_ps);
    all->merge(other_latency_ps);
    return all;
  }
  AnatomyStats read_anatomy, write_anatomy;  // where reads' and writes' latency went
  // Where the time went (sums over requests, picoseconds).
  Picos wait_tag_ps = 0;  // issued -> got an NCQ tag
  Picos in_drive_ps = 0;  // tagged -> completion received

  std::uint64_t ios() const { return reads + writes; }  // data transfers (TRIM not counted)
  Picos elapsed_ps() const { return last_complete_ps > first_issue_ps ? last_complete_ps - first_issue_ps : 0; }
};

}  // namespace ssdlab
