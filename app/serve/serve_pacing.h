// `ssdlab serve` against the wall clock: the Pacer maps simulated time onto wall-clock time
// (--realtime), and the two kernel loops run the simulation paced or as fast as it goes.
#pragma once

#include <algorithm>
#include <chrono>

#include "app/serve/serve_bridge.h"
#include "base/core/types.h"

namespace ssdlab {

using Nanos = std::chrono::nanoseconds;

// Realtime pacing: simulated time t corresponds to wall-clock time anchor + t. The kernel never
// runs an event before its wall-clock time, and a request enters the simulation at the
// simulated time of its arrival, so a completion leaves the kernel when the wall clock reaches
// its simulated completion time.
class Pacer {
 public:
  explicit Pacer(bool realtime) : m_realtime(realtime) {}
  bool realtime() const { return m_realtime; }
  void anchor(Picos sim_now) { m_anchor = WallClock::now() - Nanos(sim_now / 1000); }
  void shift(WallClock::duration d) { m_anchor += d; }  // the world stood still for `d`
  Picos sim_time_of(WallClock::time_point t) const {
    if (!m_realtime || t <= m_anchor) return 0;
    return static_cast<Picos>(std::chrono::duration_cast<Nanos>(t - m_anchor).count()) * 1000;
  }
  WallClock::time_point wall_of(Picos sim) const { return m_anchor + Nanos((sim + 999) / 1000); }
  Picos sim_now_by_wall() const { return sim_time_of(WallClock::now()); }

  // How far behind the wall clock the kernel ran events (it catches up when late).
  void note_step(Picos event_time) {
    ++m_steps;
    const Picos wall = sim_now_by_wall();
    if (wall <= event_time) return;
    const Picos lag = wall - event_time;
    m_max_lag = std::max(m_max_lag, lag);
    if (lag > 20 * kPicosPerUs) ++m_late_steps;
  }
  // How late a completion left the kernel against its simulated time.
  void note_reply(Picos sim_time) {
    if (!m_realtime) return;
    const Picos wall = sim_now_by_wall();
    const Picos late = wall > sim_time ? wall - sim_time : 0;
    ++m_replies;
    m_reply_late_sum += late;
    m_reply_late_max = std::max(m_reply_late_max, late);
  }
  double reply_late_mean() const { return m_replies ? double(m_reply_late_sum) / double(m_replies) : 0.0; }
  Picos reply_late_max() const { return m_reply_late_max; }
  std::uint64_t steps() const { return m_steps; }
  std::uint64_t late_steps() const { return m_late_steps; }
  Picos max_lag() const { return m_max_lag; }

 private:
  bool m_realtime;
  WallClock::time_point m_anchor = WallClock::now();
  std::uint64_t m_steps = 0, m_late_steps = 0;
  Picos m_max_lag = 0;
  std::uint64_t m_replies = 0;
  Picos m_reply_late_sum = 0, m_reply_late_max = 0;
};

// Runs the kernel until the bridge has finished: paced (events no earlier than their wall-clock
// time; `spin`: how long to keep the core awake waiting for a request) or as fast as it goes.
void run_realtime(ServeBridge& bridge, Pacer& pacer, WallClock::duration spin);
void run_unpaced(ServeBridge& bridge);

}  // namespace ssdlab
