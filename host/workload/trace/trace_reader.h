// A block trace read as a stream of TraceRecords: MSR Cambridge CSV, SPC/UMass, blkparse text,
// fio iolog v2/v3, DiskSim ASCII; plain, .gz or .zst. Constant memory whatever the length
// (one bounded line buffer and at most kGuessLines lines kept while the format is guessed).
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "host/workload/trace/line_reader.h"
#include "host/workload/trace/trace_parse.h"
#include "host/workload/trace/trace_record.h"

namespace ssdlab {

struct TraceReaderOptions {
  bool format_given = false;  // else guessed from the first lines
  TraceFormat format = TraceFormat::kMsr;
  bool blkparse_dispatch = false;  // blkparse: D (issued) events instead of Q (queued)
  bool skip_bad = false;           // count malformed lines and go on instead of failing
  std::size_t max_line = LineReader::kDefaultMaxLine;
};

class TraceReader {
 public:
  static constexpr std::size_t kGuessLines = 32;
  TraceReader(const std::string& path, const TraceReaderOptions& options);
  // Any byte stream (tests, the fuzz target); `name` stands for the file in messages.
  TraceReader(std::unique_ptr<ByteStream> stream, const std::string& name, const TraceReaderOptions& options);

  // The next record; false at the end. A malformed line throws TraceError
  // "FILE:LINE: what is wrong: 'the line, at most 80 characters'" unless skip_bad.
  bool next(TraceRecord& record);

  TraceFormat format() const { return m_format; }
  const std::string& name() const { return m_lines.name(); }
  std::uint64_t bad_lines() const { return m_bad; }    // skipped (skip_bad)
  std::uint64_t records() const { return m_records; }  // returned so far
  std::uint64_t lines() const { return m_lines.line_number(); }

  // The guess from the first kGuessLines lines (`whole_file`: the file has no more): the one
  // format whose parser takes every line and finds at least one request or event in them;
  // TraceError listing the candidates otherwise, or "NAME: no request in NAME" when the whole
  // file holds no request in any format.
  static TraceFormat guess(const std::deque<std::string>& sample, const std::string& name, bool blkparse_dispatch,
                           bool whole_file);

 private:
  bool next_line(std::string_view& line);

  LineReader m_lines;
  TraceReaderOptions m_options;
  TraceFormat m_format = TraceFormat::kMsr;
  trace_detail::ParseState m_state;
  std::deque<std::string> m_pending;  // lines read for the guess, replayed first
  std::string m_current;
  std::uint64_t m_pending_line = 0;
  std::uint64_t m_bad = 0, m_records = 0;
  bool m_have_first = false;
  std::uint64_t m_first_ns = 0;
  std::string m_why;
};

// "FILE:LINE: WHY: 'TEXT'" with TEXT cut to 80 characters (and "..." when cut).
std::string trace_line_error(const std::string& file, std::uint64_t line, const std::string& why,
                             std::string_view text);

}  // namespace ssdlab
