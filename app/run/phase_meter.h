// Measures what a drive did between two moments: begin() takes a snapshot of the drive's
// statistics tree, end() another, and the PhaseResult keeps their difference. Used by the
// scenario runner and the NBD server alike.
#pragma once

#include "app/run/phase_result.h"
#include "base/stats/stats_tree.h"
#include "model/ssd.h"

namespace ssdlab {

class PhaseMeter {
 public:
  void begin(const Ssd& ssd);
  // Fills the simulated times and the statistics; not the host-side IoStats, the name/kind
  // or wall time.
  void end(const Ssd& ssd, PhaseResult& r) const;

 private:
  StatsSnapshot m_begin;
};

}  // namespace ssdlab
