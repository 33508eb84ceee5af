// A block trace as the host driver's request source (IoSource): each record a command, sizes
// rounded out to whole 512-byte sectors (start rounded down, end rounded up), discards as TRIM,
// flushes as FLUSH CACHE, offsets past the drive wrapped, rejected or scaled, requests larger
// than the drive's max transfer split into max-transfer pieces issued at the same time.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/workload/io_source.h"
#include "host/workload/trace/trace_reader.h"

namespace ssdlab {

enum class TraceTiming : std::uint8_t {
  kClosed,  // timestamps ignored: the next request goes out when a tag is free (issue_at_ps = 0)
  kTrace,   // open loop: issue_at_ps = the record's time after the first record / speed
};
enum class TraceLba : std::uint8_t {
  kWrap,    // start modulo the drive's sectors
  kReject,  // a request past the drive's end is an error naming the line
  kScale,   // offsets scaled by drive size / the trace's highest end (one extra pass to find it)
};

// The latest issue time a trace may ask for: 100 days of simulated time (under 2^63 ps, so the
// job's start plus it fits the simulator's 64-bit picoseconds).
constexpr Picos kMaxIssuePs = 100ull * 86400 * kPicosPerSec;

struct TraceSourceOptions {
  TraceTiming timing = TraceTiming::kClosed;
  double speed = 1.0;  // > 0; 2.0 = the trace's gaps halved (issue times past kMaxIssuePs: an error)
  TraceLba lba = TraceLba::kWrap;
  std::vector<std::uint64_t> volumes;      // devices to replay (TraceRecord::device); empty = all
  std::uint64_t capacity_sectors = 0;      // the drive's user sectors (> 0)
  std::uint32_t max_transfer_sectors = 0;  // reads and writes split above this (> 0)
  bool split = true;                       // false: a request above max transfer is an error
};

// What was replayed, for the results.
struct TraceCounts {
  std::uint64_t records = 0;                                      // records of the selected volumes
  std::uint64_t reads = 0, writes = 0, trims = 0, flushes = 0;    // records by kind
  std::uint64_t read_bytes = 0, write_bytes = 0, trim_bytes = 0;  // after rounding to sectors
  std::uint64_t commands = 0;              // IoSpecs handed out (a split record counts once per piece)
  std::uint64_t split_records = 0;         // records larger than max transfer, split
  std::uint64_t other_volume = 0;          // records of volumes not selected
  std::uint64_t empty = 0;                 // reads, writes or trims of 0 bytes (skipped)
  std::uint64_t wrapped = 0;               // records moved by lba: wrap or scale
  std::uint64_t bad_lines = 0;             // malformed lines skipped (skip_bad)
  Lba min_lba = ~Lba(0), max_lba_end = 0;  // over the commands handed out
};

class TraceSource : public IoSource {
 public:
  using Opener = std::function<std::unique_ptr<TraceReader>()>;
  // `open` returns a fresh reader at the start of the trace (called twice for lba: scale).
  // Throws TraceError for bad options or (scale) a bad line met in the first pass.
  TraceSource(Opener open, const TraceSourceOptions& options);
  // The next command. A bad line (or an offset refused by lba: reject) ends the source: next()
  // returns false and error() holds the message, since the driver calls next() from the
  // simulation's callbacks where no exception may pass.
  bool next(IoSpec& io) override;
  const std::string& error() const { return m_error; }

  const TraceCounts& counts() const;
  const TraceReader& reader() const { return *m_reader; }
  // The trace's highest end in sectors (lba: scale only; 0 otherwise).
  Lba scale_from_sectors() const { return m_scale_from; }

 private:
  bool next_command(IoSpec& io);
  bool take_record();  // the next selected record into m_io/m_left; false at the end
  Picos issue_time(const TraceRecord& r) const;
  [[noreturn]] __attribute__((noinline)) void issue_time_too_late(const TraceRecord& r) const;
  bool selected(std::uint64_t device) const;
  void place(Lba& start, std::uint64_t sectors, const TraceRecord& r);

  std::unique_ptr<TraceReader> m_reader;
  TraceSourceOptions m_options;
  Lba m_scale_from = 0;
  IoSpec m_io;               // the record being handed out
  std::uint64_t m_left = 0;  // its sectors not handed out yet
  mutable TraceCounts m_counts;
  std::string m_error;
};

}  // namespace ssdlab
