// Idle-time (background) GC: once the host has been idle for gc.idle_delay, each idle die
// collects victims a page of copies at a time until it has gc.idle_free_blocks free blocks, and
// folds its SLC cache's closed blocks (controller.slc_cache.idle_fold); a returning command
// stops it. Plain logic (the idle timer's state and the steps), owned by
// the controller's SystemC module, which keeps the timer on the Timeline and submits the ops.
#pragma once

#include <cstdint>

#include "base/config/config.h"
#include "base/core/types.h"

namespace ssdlab {

class BackgroundGc {
 public:
  // `fold`: the SLC cache's blocks are folded in idle time too (controller.slc_cache.idle_fold).
  BackgroundGc(const GcConfig& config, std::uint32_t units_per_page, bool fold = false)
      : m_target_free(config.idle_free_blocks),
        m_idle_delay_ps(config.idle_delay_ps),
        m_step_units(units_per_page),
        m_fold(fold) {}

  // Configured at all (gc.idle_free_blocks > 0, or an SLC cache folded in idle time)?
  bool enabled() const { return m_target_free != 0 || m_fold; }
  Picos idle_delay() const { return m_idle_delay_ps; }
  bool armed() const { return m_armed; }
  // Collecting: each die that runs out of queued work takes another step.
  bool running() const { return m_running; }

  // The host went idle: the idle timer is (re)started. True if one was pending (cancel it).
  bool arm() {
    const bool was = m_armed;
    m_armed = true;
    return was;
  }
  // A command arrived, or the host asks to hold background work: collection stops issuing
  // work. True if the idle timer was pending (cancel it).
  bool stop() {
    m_running = false;
    const bool was = m_armed;
    m_armed = false;
    return was;
  }
  // The idle timer fired. True if collection starts now (`host_idle`: no command in flight).
  bool timer_fired(bool host_idle) {
    m_armed = false;
    if (!host_idle) return false;
    m_running = true;
    return true;
  }
  // One step on idle `die`: about a page of copies, so that a returning host waits for little.
  // Appends its ops; false (nothing appended) when the die has nothing worth doing. `Mapping`
  // is the Ftl (controller/ftl/ftl.h: background_collect), a template parameter so that this
  // file needs nothing of it.
  template <class Mapping, class Ops>
  bool step(Mapping& ftl, std::uint32_t die, Ops& ops) const {
    return ftl.background_collect(die, m_target_free, m_step_units, ops);
  }

 private:
  std::uint32_t m_target_free;
  Picos m_idle_delay_ps;
  std::uint32_t m_step_units;
  bool m_fold;
  bool m_armed = false;    // the idle timer is pending
  bool m_running = false;  // collecting
};

}  // namespace ssdlab
