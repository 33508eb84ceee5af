// One line of a trace in each format (internal to the readers; trace_reader.h is the interface).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "host/workload/trace/trace_record.h"

namespace ssdlab::trace_detail {

enum class LineKind : std::uint8_t {
  kRecord,  // a request: `out` is filled
  kEvent,   // a line of the format that is not replayed (a blkparse C event, fio's open/close)
  kSkip,    // not the format's data: a blank line, a comment, a header, a summary
  kBad,     // malformed: `why` says what is wrong
};

// What a format must remember between lines.
struct ParseState {
  bool blkparse_dispatch = false;      // blkparse: replay D events (default Q)
  std::uint64_t line = 0;              // 1-based number of the line being parsed
  std::vector<std::string> fio_files;  // fio iologs: the files added, by index
  std::uint64_t fio_wait_ns = 0;       // fio v2: time from `wait` lines
};

// A record with its time in nanoseconds as the trace stamps it (not yet relative).
struct RawRecord {
  std::uint64_t time_ns = 0;
  std::uint64_t device = 0;
  TraceOp op = TraceOp::kRead;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};

LineKind parse_line(TraceFormat format, std::string_view line, ParseState& state, RawRecord& out, std::string& why);

// Decimal text into an integer count of 10^-digits units: "1.5" with digits 3 = 1500. Digits
// past `digits` are dropped. false on anything but [0-9]+(.[0-9]*)? or overflow.
bool parse_fixed(std::string_view text, int digits, std::uint64_t& out);
bool parse_u64(std::string_view text, std::uint64_t& out);

}  // namespace ssdlab::trace_detail
