#include "base/core/bus_calendar.h"

#include <algorithm>

namespace ssdlab {

Picos BusCalendar::start_list(Picos now, Picos at, Picos duration) {
  m_first = 0;
  if (m_free_at > now) m_bookings.push_back(Booking{now, m_free_at});
  m_bookings.push_back(Booking{at, at + duration});
  m_hint = m_bookings.size() - 1;
  return at + duration;
}

Picos BusCalendar::end_list(Picos now, Picos at, Picos duration) {
  m_bookings.clear();
  m_first = 0;
  m_free_at = at + duration;
  if (at == now) return m_free_at;
  m_bookings.push_back(Booking{at, m_free_at});  // after a gap: still a list
  m_hint = 0;
  return m_free_at;
}

Picos BusCalendar::place(Picos at, Picos duration) {
  // m_bookings[m_first] ends after now. Bookings are disjoint and sorted, so their ends are too:
  // the search for a gap starts at the first booking that ends after `at`. Found from m_first
  // for a booking from now; from the last booking placed when `at` is not before its start
  // (a GC batch books its ops one after another, each after the last); else by binary search.
  std::size_t i = m_first;
  const std::size_t n = m_bookings.size();
  if (at > m_bookings[m_first].start) {
    if (m_hint >= m_first && m_hint < n && at >= m_bookings[m_hint].start) {
      i = m_hint;
    } else {
      i = static_cast<std::size_t>(std::upper_bound(m_bookings.begin() + std::ptrdiff_t(m_first), m_bookings.end(), at,
                                                    [](Picos t, const Booking& b) { return t < b.end; }) -
                                   m_bookings.begin());
    }
    while (i < n && m_bookings[i].end <= at) ++i;
  }
  Picos start = at;
  for (; i < n; ++i) {
    const Booking& b = m_bookings[i];
    if (start + duration <= b.start) break;  // fits in the gap before b
    if (b.end > start) start = b.end;
  }
  const Picos end = start + duration;
  const bool joins_previous = i > m_first && m_bookings[i - 1].end == start;
  const bool joins_next = i < n && m_bookings[i].start == end;
  if (joins_previous && joins_next) {
    m_bookings[i - 1].end = m_bookings[i].end;
    m_bookings.erase(m_bookings.begin() + std::ptrdiff_t(i));
    m_hint = i - 1;
  } else if (joins_previous) {
    m_bookings[i - 1].end = end;
    m_hint = i - 1;
  } else if (joins_next) {
    m_bookings[i].start = start;
    m_hint = i;
  } else {
    m_bookings.insert(m_bookings.begin() + std::ptrdiff_t(i), Booking{start, end});
    m_hint = i;
  }
  // Bookings that ended pile up in front while some always lie ahead: drop them now and then.
  if (m_first >= 64 && 2 * m_first >= m_bookings.size()) {
    m_bookings.erase(m_bookings.begin(), m_bookings.begin() + std::ptrdiff_t(m_first));
    m_hint -= m_first;
    m_first = 0;
  }
  return end;
}

Picos BusCalendar::busy_until(Picos now) const {
  if (m_bookings.empty()) return m_busy_ps - (m_free_at > now ? m_free_at - now : 0);
  Picos ahead = 0;
  for (std::size_t i = m_first; i < m_bookings.size(); ++i) {
    const Booking& b = m_bookings[i];
    if (b.end > now) ahead += b.end - (b.start > now ? b.start : now);
  }
  return m_busy_ps - ahead;
}

}  // namespace ssdlab
