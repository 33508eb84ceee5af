#include "host/workload/trace/replay_setup.h"

#include <algorithm>

#include "host/workload/trace/trace_parse.h"

namespace ssdlab {

namespace {

TraceReaderOptions reader_options(const ReplaySpec& spec) {
  TraceReaderOptions o;
  if (!spec.format.empty()) {
    o.format_given = true;
    if (!parse_trace_format(spec.format, o.format))
      throw TraceError("replay: unknown trace format '" + spec.format + "'; formats: " + trace_format_names());
  }
  if (spec.events != "Q" && spec.events != "D")
    throw TraceError("replay: events must be Q (queued) or D (issued), got '" + spec.events + "'");
  o.blkparse_dispatch = spec.events == "D";
  o.skip_bad = spec.skip_bad;
  return o;
}

std::uint64_t volume_number(const std::string& text) {
  std::uint64_t major = 0, minor = 0, n = 0;
  const std::size_t sep = text.find_first_of(",:");
  if (sep == std::string::npos) {
    if (trace_detail::parse_u64(text, n)) return n;
  } else if (trace_detail::parse_u64(text.substr(0, sep), major) &&
             trace_detail::parse_u64(text.substr(sep + 1), minor) && major < (1u << 12) && minor < (1u << 20)) {
    return major << 20 | minor;
  }
  throw TraceError("replay: volume '" + text +
                   "' is not a number (MSR disk, SPC ASU, DiskSim device, fio file index) "
                   "or MAJ,MIN (blkparse device)");
}

TraceSourceOptions source_options(const ReplaySpec& spec, std::uint64_t capacity_sectors,
                                  std::uint64_t max_transfer_bytes) {
  TraceSourceOptions o;
  if (spec.timing == "closed") {
    o.timing = TraceTiming::kClosed;
  } else if (spec.timing == "trace") {
    o.timing = TraceTiming::kTrace;
  } else {
    throw TraceError("replay: timing must be closed or trace, got '" + spec.timing + "'");
  }
  if (spec.lba == "wrap") {
    o.lba = TraceLba::kWrap;
  } else if (spec.lba == "reject") {
    o.lba = TraceLba::kReject;
  } else if (spec.lba == "scale") {
    o.lba = TraceLba::kScale;
  } else {
    throw TraceError("replay: lba must be wrap, reject or scale, got '" + spec.lba + "'");
  }
  if (!(spec.speed > 0) || spec.speed > 1e6) throw TraceError("replay: speed must be in (0, 1e6]");
  if (spec.iodepth == 0 || spec.iodepth > 65536) throw TraceError("replay: iodepth must be 1..65536");
  o.speed = spec.speed;
  for (const std::string& v : spec.volumes) o.volumes.push_back(volume_number(v));
  o.capacity_sectors = capacity_sectors;
  o.max_transfer_sectors =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(max_transfer_bytes / kSectorBytes, 65536));
  o.split = spec.split;
  return o;
}

}  // namespace

std::unique_ptr<TraceSource> make_trace_source(const ReplaySpec& spec, std::uint64_t capacity_sectors,
                                               std::uint64_t max_transfer_bytes) {
  const TraceReaderOptions ro = reader_options(spec);
  const TraceSourceOptions so = source_options(spec, capacity_sectors, max_transfer_bytes);
  const std::string path = spec.trace;
  return std::make_unique<TraceSource>([path, ro] { return std::make_unique<TraceReader>(path, ro); }, so);
}

void check_replay_spec(const ReplaySpec& spec) {
  if (spec.trace.empty()) throw TraceError("replay: needs a trace file");
  const TraceSourceOptions so = source_options(spec, 1, 4096);
  TraceReader reader(spec.trace, reader_options(spec));
  // A trace without a request (of the selected volumes) would replay nothing and "succeed":
  // read up to its first one (the whole file when there is none: bounded time, constant memory).
  TraceRecord r;
  std::uint64_t other = 0;
  while (reader.next(r)) {
    if (so.volumes.empty() || std::find(so.volumes.begin(), so.volumes.end(), r.device) != so.volumes.end()) return;
    ++other;
  }
  if (other == 0) throw TraceError(spec.trace + ": no request in " + spec.trace);
  throw TraceError(spec.trace + ": no request of the selected volumes in " + spec.trace + " (" + std::to_string(other) +
                   " requests of other volumes)");
}

std::vector<std::pair<std::string, std::uint64_t>> trace_count_rows(const TraceSource& source) {
  const TraceCounts& c = source.counts();
  return {{"records", c.records},
          {"reads", c.reads},
          {"writes", c.writes},
          {"trims", c.trims},
          {"flushes", c.flushes},
          {"read_bytes", c.read_bytes},
          {"write_bytes", c.write_bytes},
          {"trim_bytes", c.trim_bytes},
          {"commands", c.commands},
          {"split_records", c.split_records},
          {"other_volume", c.other_volume},
          {"empty", c.empty},
          {"moved_lba", c.wrapped},
          {"bad_lines", c.bad_lines},
          {"lines", source.reader().lines()}};
}

}  // namespace ssdlab
