// Block-trace records as every reader yields them, whatever the file's format (plain C++).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "base/core/types.h"

namespace ssdlab {

enum class TraceOp : std::uint8_t { kRead, kWrite, kTrim, kFlush };
const char* to_string(TraceOp op);

// The formats read (FORMATS.md in the project's shared reference, docs/trace-replay.md).
enum class TraceFormat : std::uint8_t { kMsr, kSpc, kBlkparse, kFioV2, kFioV3, kDiskSim };
constexpr int kTraceFormats = 6;  // == kTraceFormatNames' size (checked in trace_reader.cpp)
const char* to_string(TraceFormat format);
// "msr", "spc" (also "umass"), "blkparse", "fio2"/"iolog2", "fio3"/"iolog3", "disksim";
// false for any other name.
bool parse_trace_format(const std::string& name, TraceFormat& format);
// "msr, spc, blkparse, fio2, fio3, disksim" (for messages).
std::string trace_format_names();

// One request of a trace. Offsets and sizes in bytes, as the trace gives them (a sector-based
// format is converted: sector * 512); time in picoseconds after the first record the reader
// returned (never negative: a record stamped before the first one gets 0).
struct TraceRecord {
  Picos time_ps = 0;
  std::uint64_t device = 0;  // MSR disk number, SPC ASU, blkparse MAJ<<20|MIN, fio file index, DiskSim devno
  TraceOp op = TraceOp::kRead;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;  // 0 for a flush
  std::uint64_t line = 0;   // 1-based line of the file
};

// A trace that cannot be read: the message names the file and, for a line, its number and at
// most 80 characters of it. An invalid_argument, so a scenario reports it as bad input.
class TraceError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace ssdlab
