#include "controller/sched/flash_scheduler.h"

namespace ssdlab {

bool FlashScheduler::may_hold(const NandOp& op, bool background) const {
  if (is_read_for_host(op)) return false;
  if (op.origin == OpOrigin::kGc) return (background && m_rules.background) || m_rules.priority != ReadPriority::kOff;
  return m_rules.priority == ReadPriority::kOverAll;
}

bool FlashScheduler::admit(const NandOp& op, bool background) {
  Held& h = m_held[op.die];
  if (!h.ops.empty()) {
    if (is_read_for_host(op) && h.overtaken < kMaxOvertakes) {
      ++h.overtaken;
      return true;
    }
    h.ops.push(op);
    return false;
  }
  // On the die already (submitted() counted this op too): only an idle die takes it at once.
  const bool die_busy = m_queued[op.die] > 1;
  if (!die_busy || !may_hold(op, background)) return true;
  h.ops.push(op);
  h.overtaken = 0;
  return false;
}

bool FlashScheduler::release(std::uint32_t die, NandOp& op) {
  Held& h = m_held[die];
  if (h.ops.empty() || m_queued[die] > h.ops.size()) return false;  // the die still has work
  op = h.ops.pop();
  h.overtaken = 0;
  return true;
}

}  // namespace ssdlab
