// The flash scheduler: which die takes the next host page (round robin over the dies with room
// in their queue) and how many operations each die has queued. Plain logic, owned by the
// controller's SystemC module, which tells it of every op it submits and every completion.
//
// Host-vs-GC priority and program/erase suspend go here: submitted() is where an op joins a
// die's queue, so a scheduler that holds GC ops back (or suspends a long program or erase for a
// host read) would keep them here and release them from completed().
#pragma once

#include <cstdint>
#include <vector>

#include "model/core/round_robin_set.h"

namespace ssdlab {

class FlashScheduler {
 public:
  // A die is offered new host pages only while it has fewer operations than this queued,
  // so writes flow to the dies that are free (write combining striped over dies).
  static constexpr std::uint32_t kMaxQueuedOpsPerDie = 4;

  explicit FlashScheduler(std::uint32_t dies) : m_queued(dies, 0), m_with_room(dies) { m_with_room.fill(); }

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

 private:
  std::vector<std::uint32_t> m_queued;  // operations queued per die
  RoundRobinSet m_with_room;            // dies with fewer than kMaxQueuedOpsPerDie queued
  std::uint32_t m_next_die = 0;
  std::uint64_t m_outstanding = 0;  // operations submitted and not yet completed
};

}  // namespace ssdlab
