#include "app/run/progress.h"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace ssdlab {

std::string ProgressLine::text(std::size_t phase, std::size_t phases, const std::string& name, double fraction,
                               double sim_s, double eta_s) {
  char pct[16] = "   ?  ";
  if (fraction >= 0) std::snprintf(pct, sizeof pct, "%5.1f %%", 100.0 * std::fmin(1.0, fraction));
  char eta[32] = "ETA ?";
  if (eta_s >= 0) {
    const long s = std::lround(eta_s);
    if (s >= 3600)
      std::snprintf(eta, sizeof eta, "ETA %ldh%02ldm", s / 3600, s / 60 % 60);
    else
      std::snprintf(eta, sizeof eta, "ETA %ldm%02lds", s / 60, s % 60);
  }
  char line[96];
  std::snprintf(line, sizeof line, "phase %zu/%zu ", phase + 1, phases);
  std::string out = line;
  out += name.size() > 32 ? name.substr(0, 31) + "~" : name;
  std::snprintf(line, sizeof line, "  %s  sim %.3f s  %s", pct, sim_s, eta);
  return out + line;
}

bool ProgressLine::update(std::size_t phase, std::size_t phases, const std::string& name, double fraction, double sim_s,
                          double wall_s) {
  if (phase != m_phase) {
    m_phase = phase;
    m_phase_wall_start = wall_s;
  }
  const double elapsed = wall_s - m_phase_wall_start;
  if (elapsed < m_delay_s || wall_s - m_last_draw < m_min_interval_s) return false;
  m_last_draw = wall_s;
  const double eta = fraction > 0.001 ? elapsed * (1.0 - std::fmin(1.0, fraction)) / fraction : -1.0;
  std::string line = text(phase, phases, name, fraction, sim_s, eta);
  const std::size_t width = line.size();
  if (width < m_width) line.append(m_width - width, ' ');
  m_out << '\r' << line;
  m_out.flush();
  m_width = width;
  return true;
}

void ProgressLine::clear() {
  if (m_width == 0) return;
  m_out << '\r' << std::string(m_width, ' ') << '\r';
  m_out.flush();
  m_width = 0;
}

}  // namespace ssdlab
