// The instruments one run attaches to its drive (VCD, Chrome/Perfetto trace), created from the
// options before the simulation starts and closed after it.
#pragma once

#include <memory>
#include <string>

#include "app/instruments/chrome_trace.h"
#include "app/instruments/instrument_options.h"
#include "app/instruments/vcd_instrument.h"

namespace ssdlab {

class Instruments {
 public:
  // Opens the files and attaches to `ssd` (throws naming a file that cannot be written).
  Instruments(const InstrumentOptions& options, Ssd& ssd);
  ~Instruments();
  // Finishes and closes the files; a one-line note per file (size, what it holds).
  std::string close();

 private:
  std::unique_ptr<VcdInstrument> m_vcd;
  std::unique_ptr<ChromeTrace> m_trace;
  std::string m_vcd_path, m_trace_path;
  std::string m_vcd_window;  // " in [T0,T1] s" for the closing line, or empty
};

}  // namespace ssdlab
