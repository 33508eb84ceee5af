// The terminal's progress line: phase, % of the phase, simulated time and a wall-clock ETA,
// redrawn in place with '\r' at most every `min_interval_s`, shown only once a phase has run
// for `delay_s` of wall time, and cleared before anything else is printed. Reads nothing of
// the simulation but what it is handed, so it cannot change a simulated figure.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

namespace ssdlab {

class ProgressLine {
 public:
  ProgressLine(std::ostream& out, double delay_s = 2.0, double min_interval_s = 0.25)
      : m_out(out), m_delay_s(delay_s), m_min_interval_s(min_interval_s) {}
  // `fraction` of phase `phase` (0-based, of `phases`) done, < 0 when unknown; `wall_s` is a
  // steady wall clock in seconds. Draws (and returns true) when the line is due.
  bool update(std::size_t phase, std::size_t phases, const std::string& name, double fraction, double sim_s,
              double wall_s);
  // Erases the line if one is shown (before a phase's result line, at the end).
  void clear();
  bool shown() const { return m_width > 0; }
  // The text of one line (no '\r'): "phase 2/5 steady  42.0 %  sim 12.345 s  ETA 1m05s".
  static std::string text(std::size_t phase, std::size_t phases, const std::string& name, double fraction, double sim_s,
                          double eta_s);

 private:
  std::ostream& m_out;
  double m_delay_s, m_min_interval_s;
  std::size_t m_phase = ~std::size_t(0);
  double m_phase_wall_start = 0, m_last_draw = -1e300;
  std::size_t m_width = 0;  // characters on the terminal now
};

}  // namespace ssdlab
