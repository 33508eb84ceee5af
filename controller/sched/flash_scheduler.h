// The flash scheduler: which die takes the next host page (round robin over the dies with room
// in their queue) and how many operations each die has queued. Plain logic, owned by the
// controller's SystemC module, which tells it of every op it submits and every completion.
//
// Host reads over GC (controller.scheduler.read_priority, gc.background.preemptible): with
// either on, ops that a host read may overtake are not handed to a busy die but held here, per
// die in submission order, and fed to the die one at a time as it goes idle (release()). A host
// read (or a mapping read) submitted while ops are held goes to the die at once, so it waits
// only for what is already on the die: the op in progress (an erase or program the die may
// suspend for it: nand.suspend, nand/die.h) and ops that were not held. Once other work is held, every op but such a
// read joins the held queue, so programs and erases of a die keep their order. No starvation: the head of a die's held
// queue is overtaken by at most kMaxOvertakes reads; later reads queue behind it. With both rules off nothing is held
// and the order is exactly that of submission.
#pragma once

#include <cstdint>
#include <vector>

#include "base/config/config.h"
#include "base/core/nand_op.h"
#include "base/core/ring.h"
#include "base/core/round_robin_set.h"

namespace ssdlab {

// Which ops the scheduler may hold back at a busy die (see above).
struct SchedulerHoldRules {
  bool background = false;  // gc.background.preemptible: background GC ops may be held
  ReadPriority priority = ReadPriority::kOff;
  static SchedulerHoldRules of(const ControllerConfig& c) {
    return {c.gc.background_preemptible, c.scheduler.read_priority};
  }
};

class FlashScheduler {
 public:
  // A die is offered new host pages only while it has fewer operations than this queued,
  // so writes flow to the dies that are free (write combining striped over dies).
  static constexpr std::uint32_t kMaxQueuedOpsPerDie = 4;

  // Reads that may overtake the head of a die's held queue before it goes to the die.
  static constexpr std::uint32_t kMaxOvertakes = 8;

  using HoldRules = SchedulerHoldRules;

  explicit FlashScheduler(std::uint32_t dies, HoldRules rules = {})
      : m_queued(dies, 0),
        m_with_room(dies),
        m_rules(rules),
        m_holds(rules.background || rules.priority != ReadPriority::kOff) {
    m_with_room.fill();
    if (m_holds) m_held.resize(dies);
  }

  std::uint32_t dies() const { return static_cast<std::uint32_t>(m_queued.size()); }
  std::uint32_t queued(std::uint32_t die) const { return m_queued[die]; }
  std::uint64_t outstanding() const { return m_outstanding; }
  bool has_room(std::uint32_t die) const { return m_with_room.contains(die); }

  // The die for the next host page: round robin from the die after the last one used, over
  // the dies with room in their queue that `can_place(die)` accepts; -1 if none.
  template <typename CanPlace>
  std::int64_t pick_die(CanPlace can_place) const {
    return m_with_room.first_from(m_next_die, can_place);
  }
  // A host page goes to `die`: the next pick starts after it.
  void placed_on(std::uint32_t die) { m_next_die = die + 1; }

  // An operation for `die` was submitted / completed.
  void submitted(std::uint32_t die) {
    if (++m_queued[die] == kMaxQueuedOpsPerDie) m_with_room.erase(die);
    ++m_outstanding;
  }
  void completed(std::uint32_t die) {
    if (m_queued[die]-- == kMaxQueuedOpsPerDie) m_with_room.insert(die);
    --m_outstanding;
  }

  // Does any hold rule apply? If not, every op goes to its die at once (admit() is not asked).
  bool holds() const { return m_holds; }
  // With holds(): `op`, just submitted(), goes to its die now (true) or is held (false).
  // `background`: it is background GC work.
  bool admit(const NandOp& op, bool background);
  // With holds(), after completed(die): the held op that goes to `die` now, if the die has
  // nothing else left (true, `op` set).
  bool release(std::uint32_t die, NandOp& op);
  // Ops held for `die` (0 without holds()).
  std::size_t held(std::uint32_t die) const { return m_holds ? m_held[die].ops.size() : 0; }

 private:
  struct Held {
    Ring<NandOp> ops{8};
    std::uint32_t overtaken = 0;  // reads that went ahead of the head
  };
  static bool is_read_for_host(const NandOp& op) { return op.kind == NandOpKind::kRead && op.origin != OpOrigin::kGc; }
  bool may_hold(const NandOp& op, bool background) const;

  std::vector<std::uint32_t> m_queued;  // operations queued per die
  RoundRobinSet m_with_room;            // dies with fewer than kMaxQueuedOpsPerDie queued
  std::uint32_t m_next_die = 0;
  std::uint64_t m_outstanding = 0;  // operations submitted and not yet completed
  HoldRules m_rules;
  bool m_holds;
  std::vector<Held> m_held;  // per die, with holds()
};

}  // namespace ssdlab
