#include "app/instruments/instruments.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "base/config/config_loader.h"

namespace ssdlab {

namespace {
bool parse_seconds(const std::string& text, double& seconds) {
  if (text.empty()) return false;
  char* end = nullptr;
  seconds = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(seconds) && seconds >= 0 && seconds < 1e6;
}
}  // namespace

void parse_trace_window(const std::string& text, Picos& start, Picos& end, const char* flag) {
  const std::size_t comma = text.find(',');
  double t0 = 0, t1 = 0;
  if (comma == std::string::npos || !parse_seconds(text.substr(0, comma), t0) ||
      !parse_seconds(text.substr(comma + 1), t1)) {
    throw ConfigError(std::string(flag) + ": '" + text + "' is not T0,T1 (simulated seconds, e.g. 0.5,0.6)");
  }
  if (!(t0 < t1)) throw ConfigError(std::string(flag) + ": '" + text + "': T0 must be less than T1");
  start = static_cast<Picos>(std::llround(t0 * 1e12));
  end = static_cast<Picos>(std::llround(t1 * 1e12));
}

Instruments::Instruments(const InstrumentOptions& options, Ssd& ssd)
    : m_vcd_path(options.vcd_path), m_trace_path(options.trace_path) {
  TraceWindow window;
  if (!options.trace_window.empty()) {
    window.on = true;
    parse_trace_window(options.trace_window, window.start, window.end);
  }
  if (!options.vcd_path.empty()) {
    Picos start = 0, end = ~Picos(0);
    if (!options.vcd_window.empty()) {
      parse_trace_window(options.vcd_window, start, end, "--vcd-window");
      m_vcd_window = " in [" + options.vcd_window + "] s";
    }
    m_vcd = std::make_unique<VcdInstrument>(options.vcd_path, ssd, start, end);
    m_vcd->attach();
  }
  if (!options.trace_path.empty()) {
    m_trace = std::make_unique<ChromeTrace>(options.trace_path, ssd, window);
    m_trace->attach();
  }
}

Instruments::~Instruments() = default;

std::string Instruments::close() {
  std::ostringstream note;
  if (m_vcd) {
    m_vcd->close();
    note << "vcd " << m_vcd_path << ": " << m_vcd->changes_written() << " changes" << m_vcd_window << ", "
         << m_vcd->bytes_written() << " bytes\n";
  }
  if (m_trace) {
    m_trace->close();
    note << "trace " << m_trace_path << ": " << m_trace->events() << " events, " << m_trace->bytes_written()
         << " bytes\n";
  }
  return note.str();
}

}  // namespace ssdlab
