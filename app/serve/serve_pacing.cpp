#include "app/serve/serve_pacing.h"

#include "base/time/timeline.h"

namespace ssdlab {

void run_realtime(ServeBridge& bridge, Pacer& pacer, WallClock::duration spin) {
  while (!bridge.finished()) {
    if (sc_core::sc_pending_activity_at_current_time()) {
      sc_core::sc_start(sc_core::SC_ZERO_TIME);  // deltas now, and requests just posted
      continue;
    }
    if (!sc_core::sc_pending_activity_at_future_time()) {
      // Nothing scheduled. The next request of a client comes soon after a reply: keep the core
      // awake for `spin` (an idle core wakes tens of microseconds late), then sleep.
      if (bridge.inbox.wait_until(WallClock::now() + spin, spin)) continue;
      bridge.inbox.wait();  // nothing scheduled: sleep until a request comes
      continue;
    }
    const Picos now = now_picos();
    const Picos next = now + sc_core::sc_time_to_pending_activity().value();
    // While requests are in the drive, the whole wait is spent spinning: a core that slept is
    // slow to wake, for this thread and for the client's (measured: 20-40 us per request).
    const WallClock::time_point deadline = pacer.wall_of(next);
    const WallClock::duration spin_here = bridge.busy() ? deadline - WallClock::now() : spin;
    if (next > pacer.sim_now_by_wall() && bridge.inbox.wait_until(deadline, spin_here)) {
      continue;  // a request came first: the kernel takes it (stamped with its arrival time)
    }
    pacer.note_step(next);
    // Up to `next` (its events run on the next turn) or, when the kernel lags, up to the wall
    // clock: everything already due runs in one go.
    const Picos target = std::max(next, pacer.sim_now_by_wall());
    sc_core::sc_start(to_sc_time(target - now));
  }
}

void run_unpaced(ServeBridge& bridge) {
  while (!bridge.finished()) {
    if (sc_core::sc_pending_activity()) {
      sc_core::sc_start(sc_core::sc_max_time() - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
    } else {
      bridge.inbox.wait();
    }
  }
}

}  // namespace ssdlab
