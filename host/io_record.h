// One completed ATA command into a phase's IoStats: the single definition of what `ssdlab run`
// (HostDriver) and `ssdlab serve` (ServeBridge) count, so their summaries mean the same.
#pragma once

#include "base/stats/io_stats.h"
#include "host/io_request.h"

namespace ssdlab {

// Errors; TRIMs (DATA SET MANAGEMENT) and FLUSH CACHE; reads and writes with their bytes and latency; the
// latency of every command, completions that overtook an earlier one (`last_completed_seq`
// is the caller's running maximum), and where the time went. `Stats` is an IoStats (a phase)
// or a JobIoStats (one of its concurrent jobs).
// Always inlined, as it was before it became a template: count_paced calls it three times and
// the compiler then kept one out-of-line copy, 35 instructions a request more (callgrind).
template <class Stats>
inline __attribute__((always_inline)) void record_completion(Stats& s, const IoRequest& r,
                                                             std::uint64_t& last_completed_seq) {
  const Picos latency = r.completed_ps - r.issued_ps;
  const std::uint64_t bytes = std::uint64_t(r.sectors) * kSectorBytes;
  if (r.error) {
    ++s.errors;
    s.other_latency_ps.record(latency);
  } else if (r.command == AtaCommand::kDataSetManagement) {
    ++s.trims;
    s.other_latency_ps.record(latency);
  } else if (r.command == AtaCommand::kFlushCache) {
    s.other_latency_ps.record(latency);  // no data: neither a read nor a write
  } else if (r.is_write()) {
    ++s.writes;
    s.write_bytes += bytes;
    s.write_latency_ps.record(latency);
    s.write_anatomy.record(latency, r.anatomy);
  } else {
    ++s.reads;
    s.read_bytes += bytes;
    s.read_latency_ps.record(latency);
    s.read_anatomy.record(latency, r.anatomy);
  }
  if (r.seq < last_completed_seq) ++s.reordered;
  if (r.seq > last_completed_seq) last_completed_seq = r.seq;
  s.wait_tag_ps += r.tagged_ps - r.issued_ps;
  s.in_drive_ps += r.completed_ps - r.tagged_ps;
  s.last_complete_ps = r.completed_ps;
}

}  // namespace ssdlab
