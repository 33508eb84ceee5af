// A channel bus shared by the dies on it: one transfer at a time, granted in request order.
// Granting in request order means a transfer's start is known when it is asked for (the end
// of everything asked for before it), so the bus is a calendar and needs no events of its own.
#pragma once

#include "model/core/types.h"

namespace ssdlab {

class Channel {
 public:
  // Books the bus for `duration` after every transfer asked for before, starting no earlier
  // than `now`; returns when this transfer ends.
  Picos reserve(Picos now, Picos duration) {
    const Picos start = now > m_free_at ? now : m_free_at;
    m_free_at = start + duration;
    m_busy_ps += duration;
    return m_free_at;
  }
  Picos busy_ps() const { return m_busy_ps; }

 private:
  Picos m_free_at = 0;
  Picos m_busy_ps = 0;
};

}  // namespace ssdlab
