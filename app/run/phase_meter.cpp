#include "app/run/phase_meter.h"

namespace ssdlab {

void PhaseMeter::begin(const Ssd& ssd) { m_begin = ssd.stats.snapshot(now_picos()); }

void PhaseMeter::end(const Ssd& ssd, PhaseResult& r) const {
  const StatsSnapshot end = ssd.stats.snapshot(now_picos());
  r.sim_start_ps = m_begin.time_ps;
  r.sim_end_ps = end.time_ps;
  r.stats = ssd.stats.diff(m_begin, end);
}

}  // namespace ssdlab
