#include "host/workload/trace/trace_source.h"

#include <algorithm>
#include <cstdio>

namespace ssdlab {

namespace {

// [first sector, end sector) of a byte range: start rounded down, end rounded up.
void sector_range(const TraceRecord& r, Lba& first, Lba& end) {
  first = r.offset / kSectorBytes;
  const std::uint64_t end_byte = r.offset + r.bytes < r.offset ? ~std::uint64_t(0) : r.offset + r.bytes;
  end = end_byte / kSectorBytes + (end_byte % kSectorBytes != 0);
}

}  // namespace

TraceSource::TraceSource(Opener open, const TraceSourceOptions& options) : m_options(options) {
  if (!(options.speed > 0) || options.speed > 1e9) throw TraceError("replay speed must be > 0");
  if (options.capacity_sectors == 0 || options.max_transfer_sectors == 0)
    throw TraceError("replay: the drive's capacity and max transfer must be > 0");
  if (options.lba == TraceLba::kScale) {
    std::unique_ptr<TraceReader> first = open();
    TraceRecord r;
    while (first->next(r)) {
      if (!selected(r.device) || r.op == TraceOp::kFlush) continue;
      Lba lo = 0, hi = 0;
      sector_range(r, lo, hi);
      m_scale_from = std::max(m_scale_from, hi);
    }
  }
  m_reader = open();
}

bool TraceSource::selected(std::uint64_t device) const {
  return m_options.volumes.empty() ||
         std::find(m_options.volumes.begin(), m_options.volumes.end(), device) != m_options.volumes.end();
}

void TraceSource::place(Lba& start, std::uint64_t sectors, const TraceRecord& r) {
  const std::uint64_t cap = m_options.capacity_sectors;
  const bool past = start >= cap || sectors > cap - start;
  switch (m_options.lba) {
    case TraceLba::kReject:
      if (past)
        throw TraceError(reader().name() + ":" + std::to_string(r.line) + ": offset " + std::to_string(r.offset) +
                         " + " + std::to_string(r.bytes) + " bytes is past the drive's end (" +
                         std::to_string(cap * kSectorBytes) + " bytes); lba: wrap or scale replays it");
      return;
    case TraceLba::kScale:
      if (m_scale_from > cap) {
        start = static_cast<Lba>(static_cast<unsigned __int128>(start) * cap / m_scale_from);
        ++m_counts.wrapped;
      }
      break;
    case TraceLba::kWrap:
      if (past) {
        start %= cap;
        ++m_counts.wrapped;
      }
      break;
  }
  if (start >= cap || sectors > cap - start) start = cap - std::min(sectors, cap);  // end at the drive's end
}

// The record's time after the first record divided by the speed; an error past the limit (a
// long gap at a speed below 1 used to overflow the cast, undefined behaviour). Inline: on
// every request's path of a trace-timed replay.
inline Picos TraceSource::issue_time(const TraceRecord& r) const {
  if (m_options.speed == 1.0) {
    if (r.time_ps <= kMaxIssuePs) return r.time_ps;
  } else {
    const double at = double(r.time_ps) / m_options.speed;
    if (at <= double(kMaxIssuePs)) return static_cast<Picos>(at);
  }
  issue_time_too_late(r);
}

void TraceSource::issue_time_too_late(const TraceRecord& r) const {
  const double at = double(r.time_ps) / m_options.speed;
  const auto seconds = [](double ps) { return std::to_string(std::uint64_t(ps / double(kPicosPerSec))) + " s"; };
  char speed[32];
  std::snprintf(speed, sizeof speed, "%g", m_options.speed);
  throw TraceError(reader().name() + ":" + std::to_string(r.line) + ": " + seconds(double(r.time_ps)) +
                   " after the first record at speed " + speed + " is " + seconds(at) +
                   " of simulated time, past the simulator's limit of 100 days (" + seconds(double(kMaxIssuePs)) +
                   "); raise the speed");
}

bool TraceSource::take_record() {
  TraceRecord r;
  while (m_reader->next(r)) {
    if (!selected(r.device)) {
      ++m_counts.other_volume;
      continue;
    }
    ++m_counts.records;
    m_io = IoSpec{};
    if (m_options.timing == TraceTiming::kTrace) m_io.issue_at_ps = issue_time(r);
    if (r.op == TraceOp::kFlush) {
      ++m_counts.flushes;
      m_io.flush = true;
      m_left = 0;
      return true;
    }
    Lba first = 0, end = 0;
    sector_range(r, first, end);
    std::uint64_t sectors = end - first;
    if (sectors == 0) {
      ++m_counts.empty;
      continue;
    }
    if (sectors > m_options.capacity_sectors && m_options.lba != TraceLba::kReject)  // reject names it below
      throw TraceError(reader().name() + ":" + std::to_string(r.line) + ": " + std::to_string(r.bytes) +
                       " bytes is larger than the drive (" + std::to_string(m_options.capacity_sectors * kSectorBytes) +
                       " bytes): no offset replays it (a damaged line?)");
    place(first, sectors, r);
    const std::uint64_t bytes = sectors * kSectorBytes;
    const std::uint64_t limit =
        r.op == TraceOp::kTrim ? TrimSource::kMaxSectorsPerCommand : m_options.max_transfer_sectors;
    if (sectors > limit) {
      if (!m_options.split)
        throw TraceError(reader().name() + ":" + std::to_string(r.line) + ": " + std::to_string(bytes) +
                         " bytes is more than the drive's max transfer (" +
                         std::to_string(std::uint64_t(limit) * kSectorBytes) + " bytes)");
      ++m_counts.split_records;
    }
    switch (r.op) {
      case TraceOp::kRead:
        ++m_counts.reads;
        m_counts.read_bytes += bytes;
        break;
      case TraceOp::kWrite:
        ++m_counts.writes;
        m_counts.write_bytes += bytes;
        m_io.write = true;
        break;
      default:
        ++m_counts.trims;
        m_counts.trim_bytes += bytes;
        m_io.trim = true;
        break;
    }
    m_io.lba = first;
    m_left = sectors;
    return true;
  }
  return false;
}

bool TraceSource::next(IoSpec& io) {
  if (!m_error.empty()) return false;
  try {
    return next_command(io);
  } catch (const TraceError& e) {
    m_error = e.what();
    return false;
  }
}

bool TraceSource::next_command(IoSpec& io) {
  if (m_left == 0) {
    if (!take_record()) return false;
    if (m_io.flush) {
      io = m_io;
      ++m_counts.commands;
      return true;
    }
  }
  const std::uint64_t limit = m_io.trim ? TrimSource::kMaxSectorsPerCommand : m_options.max_transfer_sectors;
  const std::uint64_t n = std::min(m_left, limit);
  io = m_io;
  io.sectors = static_cast<std::uint32_t>(n);
  m_io.lba += n;
  m_left -= n;
  ++m_counts.commands;
  m_counts.min_lba = std::min(m_counts.min_lba, io.lba);
  m_counts.max_lba_end = std::max(m_counts.max_lba_end, io.lba + n);
  return true;
}

const TraceCounts& TraceSource::counts() const {
  m_counts.bad_lines = m_reader->bad_lines();
  return m_counts;
}

}  // namespace ssdlab
