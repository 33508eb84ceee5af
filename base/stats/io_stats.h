// Host-side statistics of a stretch of simulated time (one phase): counts, bytes, latency.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "base/core/anatomy.h"
#include "base/core/types.h"
#include "base/stats/anatomy_stats.h"
#include "base/stats/histogram.h"
#include "base/stats/sparse_histogram.h"

namespace ssdlab {

// The counts and sums, whatever records the latencies.
struct IoCounts {
  std::uint64_t reads = 0, writes = 0, errors = 0, trims = 0;
  std::uint64_t reordered = 0;  // completions that overtook a request issued before them
  std::uint64_t read_bytes = 0, write_bytes = 0;
  Picos first_issue_ps = 0, last_complete_ps = 0;
  // Where the time went (sums over requests, picoseconds).
  Picos wait_tag_ps = 0;  // issued -> got an NCQ tag
  Picos in_drive_ps = 0;  // tagged -> completion received

  std::uint64_t ios() const { return reads + writes; }  // data transfers (TRIM not counted)
  Picos elapsed_ps() const { return last_complete_ps > first_issue_ps ? last_complete_ps - first_issue_ps : 0; }
  // The sums of both; the window from the earlier first issue to the later last completion.
  void add(const IoCounts& o) {
    first_issue_ps = std::min(first_issue_ps, o.first_issue_ps);
    last_complete_ps = std::max(last_complete_ps, o.last_complete_ps);
    reads += o.reads;
    writes += o.writes;
    errors += o.errors;
    trims += o.trims;
    reordered += o.reordered;
    read_bytes += o.read_bytes;
    write_bytes += o.write_bytes;
    wait_tag_ps += o.wait_tag_ps;
    in_drive_ps += o.in_drive_ps;
  }
};

// `Latency` records the latencies of reads, writes and the rest (TRIMs, failed commands);
// `Anatomy` where reads' and writes' latency went (host/io_record.h records both).
template <class Latency, class Anatomy>
struct BasicIoStats : IoCounts {
  Latency read_latency_ps, write_latency_ps;
  Latency other_latency_ps;  // TRIMs and failed commands
  Anatomy read_anatomy, write_anatomy;
};

struct IoStats : BasicIoStats<Histogram, AnatomyStats> {
  // Every command's latency: the three merged (exactly what one histogram recording all of them
  // would hold; a request records into one histogram only).
  // On the heap: a histogram is too large for a SystemC thread's stack.
  std::unique_ptr<Histogram> latency() const {
    auto all = std::make_unique<Histogram>(read_latency_ps);
    all->merge(write_latency_ps);
    all->merge(other_latency_ps);
    return all;
  }
};

// No anatomy kept (a job's own figures report none).
struct NoAnatomy {
  void record(Picos, const Anatomy&) {}
};

// One of a phase's concurrent jobs (up to 4096): the counts and latencies an IoStats holds,
// without the anatomy and with sparse histograms, a few KiB instead of 250 KiB.
struct JobIoStats : BasicIoStats<SparseHistogram, NoAnatomy> {
  // As an IoStats (its anatomy empty), for the reports; on the heap.
  std::unique_ptr<IoStats> expand() const {
    auto full = std::make_unique<IoStats>();
    static_cast<IoCounts&>(*full) = *this;
    read_latency_ps.add_to(full->read_latency_ps);
    write_latency_ps.add_to(full->write_latency_ps);
    other_latency_ps.add_to(full->other_latency_ps);
    return full;
  }
};

}  // namespace ssdlab
