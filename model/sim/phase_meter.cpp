#include "model/sim/phase_meter.h"

namespace ssdlab {

void PhaseMeter::begin(const Ssd& ssd) {
  m_ftl = ssd.controller.ftl().stats();
  m_controller = ssd.controller.stats();
  m_die_busy.clear();
  for (std::uint32_t d = 0; d < ssd.flash.dies(); ++d) m_die_busy.push_back(ssd.flash.die(d).busy_until_now());
  m_link_busy = ssd.link.busy_ps();
  m_start_ps = now_picos();
}

void PhaseMeter::end(const Ssd& ssd, PhaseResult& r) const {
  const FtlStats& ftl = ssd.controller.ftl().stats();
  const ControllerStats& ctl = ssd.controller.stats();
  r.sim_start_ps = m_start_ps;
  r.sim_end_ps = now_picos();
  r.host_units_written = ftl.host_units_written - m_ftl.host_units_written;
  r.nand_units_programmed = ftl.nand_units_programmed() - m_ftl.nand_units_programmed();
  r.gc_erases = ftl.gc_erases - m_ftl.gc_erases;
  r.gc_units_copied = ftl.gc_units_copied - m_ftl.gc_units_copied;
  r.erases = ftl.erases - m_ftl.erases;
  r.rmw_reads = ctl.rmw_reads - m_controller.rmw_reads;
  r.buffer_waits = ctl.buffer_waits - m_controller.buffer_waits;
  r.map_reads = ctl.map_reads - m_controller.map_reads;
  r.map_writes = ctl.map_writes - m_controller.map_writes;
  r.background_gc_ops = ctl.background_gc_ops - m_controller.background_gc_ops;
  r.free_blocks_end = ssd.controller.ftl().free_blocks_total();
  const Picos span = r.sim_end_ps - r.sim_start_ps;
  if (span > 0 && !m_die_busy.empty()) {
    double busy = 0;
    for (std::uint32_t d = 0; d < ssd.flash.dies(); ++d)
      busy += double(ssd.flash.die(d).busy_until_now() - m_die_busy[d]);
    r.die_utilisation = busy / double(span) / double(m_die_busy.size());
    r.link_utilisation = double(ssd.link.busy_ps() - m_link_busy) / double(span);
  }
}

}  // namespace ssdlab
