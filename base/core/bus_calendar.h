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
// While nothing is booked after a gap the bus is the request-order calendar it always was (one
// end time). Otherwise the bookings still ahead, few (a few per die of the channel), are a
// sorted list; bookings that ended are dropped as time passes, adjacent ones merge, and once all
// of them are over the list goes back to the one end time.
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
    if (m_bookings.empty()) {
      // At most one run of transfers ahead, begun by now and ending at m_free_at: the bus is a
      // calendar granted in request order, as long as nothing is booked after a gap.
      if (at <= m_free_at) return m_free_at += duration;
      if (at == now) return m_free_at = at + duration;
      return start_list(now, at, duration);
    }
    std::size_t i = m_first;
    const std::size_t n = m_bookings.size();
    while (i < n && m_bookings[i].end <= now) ++i;
    if (i == n) return end_list(now, at, duration);
    m_first = i;
    if (i + 1 == n && m_bookings[i].start <= at) {
      // One booking ahead, begun by `at` (transfers booked back to back, merged): this one joins
      // its end, or follows the gap after it.
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
  // A booking after a gap: the run ahead and it become a list.
  Picos start_list(Picos now, Picos at, Picos duration);
  // Every booking of the list is over: back to the one end time, with this booking.
  Picos end_list(Picos now, Picos at, Picos duration);
  // Finds the first gap from `at` that fits, in the list.
  Picos place(Picos at, Picos duration);

  Picos m_free_at = 0;              // with an empty list: the end of the run ahead, if any
  std::vector<Booking> m_bookings;  // from m_first on: sorted, disjoint, not yet over
  std::size_t m_first = 0;
  std::size_t m_hint = 0;  // the booking the last placed one is in (a hint for the next)
  Picos m_busy_ps = 0;
};

}  // namespace ssdlab
