// A resource granted in request order, one user at a time: the SATA link (one FIS on the wire)
// and each channel bus (one transfer). Because requests are served in the order they are made,
// a request's start is known when it is made (the end of everything booked before it), so the
// resource needs no events of its own: booking returns when the use ends.
#pragma once

#include "base/core/types.h"

namespace ssdlab {

class Calendar {
 public:
  // Books `duration` after everything booked before, starting no earlier than `now`; returns
  // when this use ends.
  Picos reserve(Picos now, Picos duration) {
    const Picos start = now > m_free_at ? now : m_free_at;
    m_free_at = start + duration;
    m_busy_ps += duration;
    return m_free_at;
  }
  Picos free_at() const { return m_free_at; }
  // Total time booked so far (busy time, including bookings that end in the future).
  Picos busy_ps() const { return m_busy_ps; }
  // Busy time up to `now`: what is booked after now is booked without a gap (a request made
  // while the resource is booked starts when it frees), so it is free_at - now.
  Picos busy_until(Picos now) const { return m_busy_ps - (m_free_at > now ? m_free_at - now : 0); }

 private:
  Picos m_free_at = 0;
  Picos m_busy_ps = 0;
};

}  // namespace ssdlab
