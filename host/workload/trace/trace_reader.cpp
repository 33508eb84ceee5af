#include "host/workload/trace/trace_reader.h"

#include "base/config/trace_format_names.h"

#include <cstring>
#include <limits>

namespace ssdlab {

using trace_detail::LineKind;
using trace_detail::ParseState;
using trace_detail::RawRecord;

namespace {

static_assert(std::size_t(kTraceFormats) == kTraceFormatCount, "a name for every trace format");
constexpr TraceFormat kAllFormats[kTraceFormats] = {TraceFormat::kMsr,   TraceFormat::kSpc,   TraceFormat::kBlkparse,
                                                    TraceFormat::kFioV2, TraceFormat::kFioV3, TraceFormat::kDiskSim};

}  // namespace

const char* to_string(TraceOp op) {
  switch (op) {
    case TraceOp::kRead:
      return "read";
    case TraceOp::kWrite:
      return "write";
    case TraceOp::kTrim:
      return "trim";
    case TraceOp::kFlush:
      return "flush";
  }
  return "?";
}

const char* to_string(TraceFormat format) {
  const auto i = static_cast<std::size_t>(format);
  return i < kTraceFormatCount ? kTraceFormatNames[i] : "?";
}

bool parse_trace_format(const std::string& name, TraceFormat& format) {
  for (std::size_t i = 0; i < kTraceFormatCount; ++i)
    if (name == kTraceFormatNames[i]) {
      format = static_cast<TraceFormat>(i);
      return true;
    }
  for (const TraceFormatAlias& a : kTraceFormatAliases)
    if (name == a.alias) {
      format = static_cast<TraceFormat>(a.format);
      return true;
    }
  return false;
}

std::string trace_format_names() {
  std::string out;
  for (const char* n : kTraceFormatNames) out += std::string(out.empty() ? "" : ", ") + n;
  return out;
}

std::string trace_line_error(const std::string& file, std::uint64_t line, const std::string& why,
                             std::string_view text) {
  constexpr std::size_t kQuote = 80;
  std::string quoted;
  for (const char c : text.substr(0, kQuote)) quoted += (c >= 32 && c < 127) ? c : '?';
  if (text.size() > kQuote) quoted += "...";
  return file + ":" + std::to_string(line) + ": " + why + ": '" + quoted + "'";
}

TraceReader::TraceReader(const std::string& path, const TraceReaderOptions& options)
    : TraceReader(open_byte_stream(path), path, options) {}

TraceReader::TraceReader(std::unique_ptr<ByteStream> stream, const std::string& name, const TraceReaderOptions& options)
    : m_lines(std::move(stream), name, options.max_line), m_options(options), m_format(options.format) {
  m_state.blkparse_dispatch = options.blkparse_dispatch;
  if (options.format_given) return;
  std::string_view line;
  while (m_pending.size() < kGuessLines && m_lines.next(line)) m_pending.emplace_back(line);
  // One line more tells whether the sample is the whole file; it is replayed after the sample.
  const bool whole = m_pending.size() < kGuessLines || !m_lines.next(line);
  const std::string more = whole ? std::string() : std::string(line);
  m_format = guess(m_pending, name, options.blkparse_dispatch, whole);
  if (!whole) m_pending.push_back(more);
}

TraceFormat TraceReader::guess(const std::deque<std::string>& sample, const std::string& name, bool blkparse_dispatch,
                               bool whole_file) {
  const std::string lines = whole_file ? "its " + std::to_string(sample.size()) +
                                             (sample.size() == 1 ? " line" : " lines") + " (the whole file)"
                                       : "its first " + std::to_string(sample.size()) + " lines";
  std::string candidates, rejected;
  // A format other than blkparse (which skips any line that is not an event, as messages and
  // summaries) read every line and found no request: an empty trace, not an unknown format.
  bool read_empty = false;
  TraceFormat found = TraceFormat::kMsr;
  int count = 0;
  for (const TraceFormat f : kAllFormats) {
    ParseState state;
    state.blkparse_dispatch = blkparse_dispatch;
    RawRecord raw;
    std::string why;
    bool fits = true, any = false;
    for (std::size_t i = 0; i < sample.size() && fits; ++i) {
      state.line = i + 1;
      const LineKind kind = trace_detail::parse_line(f, sample[i], state, raw, why);
      if (kind == LineKind::kBad) {
        fits = false;
        rejected += std::string("; ") + to_string(f) + ": line " + std::to_string(i + 1) + ": " + why;
      }
      any = any || kind == LineKind::kRecord || kind == LineKind::kEvent;
    }
    read_empty = read_empty || (fits && !any && f != TraceFormat::kBlkparse);
    if (fits && !any) rejected += std::string("; ") + to_string(f) + ": no request in " + lines;
    if (!fits || !any) continue;
    candidates += std::string(candidates.empty() ? "" : ", ") + to_string(f);
    found = f;
    ++count;
  }
  if (count == 1) return found;
  // The whole file read as a trace with no request (blank lines, comments, a header): said as
  // such (issue 23), as when the format is given (check_replay_spec).
  if (count == 0 && whole_file && read_empty) throw TraceError(name + ": no request in " + name);
  if (count == 0)
    throw TraceError(name + ": no trace format reads " + lines + rejected + "; give --format (" + trace_format_names() +
                     ")");
  throw TraceError(name + ": " + lines + " fit several trace formats (" + candidates + "); give --format");
}

bool TraceReader::next_line(std::string_view& line) {
  if (!m_pending.empty()) {
    m_current = std::move(m_pending.front());
    m_pending.pop_front();
    line = m_current;
    ++m_pending_line;
    m_state.line = m_pending_line;
    return true;
  }
  if (!m_lines.next(line)) return false;
  m_state.line = m_lines.line_number();
  return true;
}

bool TraceReader::next(TraceRecord& record) {
  std::string_view line;
  RawRecord raw;
  while (next_line(line)) {
    const LineKind kind = trace_detail::parse_line(m_format, line, m_state, raw, m_why);
    if (kind == LineKind::kBad) {
      if (!m_options.skip_bad) throw TraceError(trace_line_error(name(), m_state.line, m_why, line));
      ++m_bad;
      continue;
    }
    if (kind != LineKind::kRecord) continue;
    if (!m_have_first) {
      m_have_first = true;
      m_first_ns = raw.time_ns;
    }
    const std::uint64_t rel_ns = raw.time_ns > m_first_ns ? raw.time_ns - m_first_ns : 0;
    constexpr std::uint64_t kMaxNs = std::numeric_limits<Picos>::max() / 1000;
    record.time_ps = rel_ns > kMaxNs ? std::numeric_limits<Picos>::max() : rel_ns * 1000;
    record.device = raw.device;
    record.op = raw.op;
    record.offset = raw.offset;
    record.bytes = raw.bytes;
    record.line = m_state.line;
    ++m_records;
    return true;
  }
  return false;
}

}  // namespace ssdlab
