// Per-job figures beside IoStats (plain C++): what the host driver counts for a job that its
// IoStats has no place for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "base/core/types.h"
#include "base/stats/histogram.h"

namespace ssdlab {

// What a job's IoStats does not hold: flushes, ramp completions, open-loop lateness.
struct JobTally {
  std::uint64_t flushes = 0;   // FLUSH CACHE EXT completed (not in IoStats' reads/writes)
  std::uint64_t ramp_ios = 0;  // completions during ramp_time (not counted in IoStats)
  std::uint64_t timed = 0;     // requests with an issue time (IoSpec::issue_at_ps > 0)
  std::uint64_t late = 0;      // ... of them issued after it (no free slot, a rate, thinktime)
  Picos late_max_ps = 0;       // how far behind the latest was
  double late_sum_ps = 0;      // sum over the timed requests (mean = late_sum_ps / timed)
  void add(const JobTally& o) {
    flushes += o.flushes;
    ramp_ios += o.ramp_ios;
    timed += o.timed;
    late += o.late;
    late_max_ps = std::max(late_max_ps, o.late_max_ps);
    late_sum_ps += o.late_sum_ps;
  }
  double late_mean_ps() const { return timed ? late_sum_ps / double(timed) : 0.0; }
};

// Latency counted from each request's arrival time (a trace-timed replay: the trace's time
// stamp, IoSpec::issue_at_ps after the job's start) instead of its issue: what a user compares
// with the trace's own response times. The same as from issue for a request issued on time;
// more for one that waited for a slot, a tag or the requests before it.
struct ArrivalLatency {
  Histogram read, write, other;  // other: trims and failed commands (flushes are not counted)
  // Every request's (a request records into one histogram only); on the heap (its size).
  std::unique_ptr<Histogram> all() const {
    auto merged = std::make_unique<Histogram>(read);
    merged->merge(write);
    merged->merge(other);
    return merged;
  }
};

}  // namespace ssdlab
