// Measures what a drive did between two moments: begin() takes a snapshot of the firmware
// and flash counters, end() fills a PhaseResult with the differences. Used by the scenario
// runner and the NBD server alike.
#pragma once

#include <vector>

#include "model/sim/phase_result.h"
#include "model/sim/ssd.h"

namespace ssdlab {

class PhaseMeter {
 public:
  void begin(const Ssd& ssd);
  // Fills everything but the host-side IoStats, the name/kind and wall time.
  void end(const Ssd& ssd, PhaseResult& r) const;

 private:
  FtlStats m_ftl;
  ControllerStats m_controller;
  std::vector<Picos> m_die_busy;
  Picos m_link_busy = 0;
  Picos m_start_ps = 0;
};

}  // namespace ssdlab
