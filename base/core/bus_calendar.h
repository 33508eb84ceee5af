// A resource booked ahead of time, one user at a time, with no events of its own: a channel bus
// shared by the dies on it (nand/channel.h), one transfer at a time.
//
// A die books every transfer of an operation when the operation starts, each for the time it
// will need the bus: the command cycles (with a program's data) at once, a read's data-out when
// its array time ends. So a booking may lie in the future, and a transfer asked for later may
// use the bus in a gap before it if it fits there entirely; otherwise it goes after. A transfer
// keeps the slot it was given: the bus serves transfers in the order their operations started,
// not in the order their data became ready. (Booking the data-out when tR ends, in the order of
// those requests, costs the die a second callback per read: issue 28.)
//
// The bookings still ahead are few (at most a few per die of the channel), so they are a short
// sorted list; bookings that ended are dropped as time passes, and adjacent ones merge.
#pragma once

#include <cstddef>
#include <vector>

#include "base/core/types.h"

namespace ssdlab {

class BusCalendar {
 public:
  // Books `duration` at the earliest time >= `at` at which the bus is free that long, and
  // returns when the transfer ends. `now` <= `at` is the current time: bookings that ended by
  // then are forgotten.
  Picos reserve(Picos now, Picos at, Picos duration) {
    if (duration == 0) return at;
    m_busy_ps += duration;
    std::size_t i = m_first;
    const std::size_t n = m_bookings.size();
    while (i < n && m_bookings[i].end <= now) ++i;
    if (i == n) {  // the common case: nothing booked ahead
      m_bookings.clear();
      m_first = 0;
      m_bookings.push_back(Booking{at, at + duration});
      return at + duration;
    }
    m_first = i;
    if (i + 1 == n && m_bookings[i].start <= at) {
      // One booking ahead, begun by `at` (a backlog of transfers booked back to back, merged):
      // this one joins its end, or follows the gap after it.
      Booking& b = m_bookings[i];
      m_hint = i;
      if (at <= b.end) return b.end += duration;
      m_bookings.push_back(Booking{at, at + duration});
      m_hint = i + 1;
      return at + duration;
    }
    return place(at, duration);
  }
  Picos reserve(Picos now, Picos duration) { return reserve(now, now, duration); }
  // Total time booked so far (busy time, including bookings that end in the future).
  Picos busy_ps() const { return m_busy_ps; }
  // Busy time up to `now` (the parts of bookings after `now` taken off).
  Picos busy_until(Picos now) const;

 private:
  struct Booking {
    Picos start, end;
  };
  // The slow path: bookings lie ahead; find the first gap from `at` that fits.
  Picos place(Picos at, Picos duration);

  std::vector<Booking> m_bookings;  // from m_first on: sorted, disjoint, not yet over
  std::size_t m_first = 0;
  std::size_t m_hint = 0;  // the booking the last placed one is in (a hint for the next)
  Picos m_busy_ps = 0;
};

}  // namespace ssdlab
