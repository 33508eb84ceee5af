// Ftl::plan_read: the L2P entry decoded into a ReadPlan (read_plan.h).
#include "controller/ftl/read_plan.h"

#include "controller/ftl/ftl.h"

namespace ssdlab {

ReadPlan Ftl::plan_read(Lpn lpn) const {
  const std::uint32_t e = m_l2p[lpn];
  ReadPlan plan;
  if (e == kUnmapped) return plan;
  if (is_buffered(e)) {
    plan.where = ReadPlan::Where::kBuffer;
    plan.slot = buffer_slot(e);
    return plan;
  }
  plan.where = ReadPlan::Where::kFlash;
  plan.unit = e;
  plan.block = m_geo.block_of_unit(e);
  plan.page = m_geo.page_of_unit(e);
  plan.die = m_geo.die_of_block(plan.block);
  return plan;
}

}  // namespace ssdlab
