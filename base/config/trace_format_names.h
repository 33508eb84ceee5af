// The one name table of the trace formats, in TraceFormat's order (host/workload/trace/trace_record.h,
// which checks the count): the scenario key's choices (replay_phase_yaml.cpp), to_string and
// parse_trace_format (trace_reader.cpp), the --format error text. Aliases name the same reader.
#pragma once

#include <cstddef>

namespace ssdlab {

inline constexpr const char* kTraceFormatNames[] = {"msr", "spc", "blkparse", "fio2", "fio3", "disksim"};
inline constexpr std::size_t kTraceFormatCount = sizeof(kTraceFormatNames) / sizeof(kTraceFormatNames[0]);

struct TraceFormatAlias {
  const char* alias;
  std::size_t format;  // index into kTraceFormatNames
};
inline constexpr TraceFormatAlias kTraceFormatAliases[] = {{"umass", 1}, {"iolog2", 3}, {"iolog3", 4}};

}  // namespace ssdlab
