#include "app/run/phase_result.h"

#include <limits>

namespace ssdlab {

double PhaseResult::link_utilisation() const {
  return stats.empty() || stats.span_ps() == 0 ? 0.0 : stats.busy_fraction(stat_path::kLinkBusy);
}

double PhaseResult::metric(const std::string& name) const {
  if (name == "read_mbps") return read_mbps();
  if (name == "write_mbps") return write_mbps();
  if (name == "mbps") return read_mbps() + write_mbps();
  if (name == "iops") return iops();
  if (name == "seconds") return io.ios() ? io_seconds() : seconds();
  if (name == "waf") return waf();
  if (name == "latency_us") return io.latency()->mean() / double(kPicosPerUs);
  if (name == "power_w") return power_average_w;
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace ssdlab
