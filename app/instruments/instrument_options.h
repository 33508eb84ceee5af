// What `ssdlab run --vcd FILE --vcd-window T0,T1 --trace FILE --trace-window T0,T1` asks for (plain C++).
#pragma once

#include <string>

#include "base/core/types.h"

namespace ssdlab {

struct InstrumentOptions {
  std::string vcd_path;      // empty: no VCD
  std::string trace_path;    // empty: no Chrome/Perfetto trace
  std::string trace_window;  // "T0,T1" in simulated seconds; empty: the whole run
  std::string vcd_window;    // the same for the VCD
  bool any() const { return !vcd_path.empty() || !trace_path.empty(); }
};

// Parses a window "T0,T1" (simulated seconds, 0 <= T0 < T1) into picoseconds. Throws
// ConfigError naming `flag` (--trace-window, --vcd-window) and the text.
void parse_trace_window(const std::string& text, Picos& start, Picos& end, const char* flag = "--trace-window");

}  // namespace ssdlab
