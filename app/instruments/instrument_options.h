// What `ssdlab run --vcd FILE --trace FILE --trace-window T0,T1` asks for (plain C++).
#pragma once

#include <string>

#include "base/core/types.h"

namespace ssdlab {

struct InstrumentOptions {
  std::string vcd_path;      // empty: no VCD
  std::string trace_path;    // empty: no Chrome/Perfetto trace
  std::string trace_window;  // "T0,T1" in simulated seconds; empty: the whole run
  bool any() const { return !vcd_path.empty() || !trace_path.empty(); }
};

// Parses a trace window "T0,T1" (simulated seconds, 0 <= T0 < T1) into picoseconds. Throws
// ConfigError naming --trace-window and the text.
void parse_trace_window(const std::string& text, Picos& start, Picos& end);

}  // namespace ssdlab
