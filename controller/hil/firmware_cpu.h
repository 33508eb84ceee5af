// Host interface layer: the firmware CPU. Commands take it one at a time, in arrival order
// (the queue says which runs next), and each costs firmware time; GC bookkeeping done while
// placing pages makes it busy longer. Plain logic: the controller's SystemC module owns it and
// schedules the end of each command's CPU work on its lane of the Timeline.
#pragma once

#include <algorithm>
#include <cstdint>

#include "base/config/config.h"
#include "base/core/ring.h"
#include "base/core/sata_fis.h"
#include "base/core/types.h"

namespace ssdlab {

class FirmwareCpu {
 public:
  FirmwareCpu(const ControllerConfig& config, std::uint32_t max_tags)
      : m_command_cost_ps(config.firmware_cost_ps),
        m_write_cost_ps(config.firmware_write_cost_ps),
        m_gc_unit_cost_ps(config.firmware_gc_cost_ps),
        m_write_unit_cost_ps(config.firmware_write_unit_cost_ps),
        m_unit_bytes(config.mapping_unit_bytes),
        m_queue(max_tags) {}

  bool busy() const { return m_busy; }
  std::uint8_t running() const { return m_running; }
  std::size_t queued() const { return m_queue.size(); }

  // Command `tag` arrived. True if it runs now (its work ends after cost()); false if it
  // waits behind the one running.
  bool arrive(std::uint8_t tag) {
    if (m_busy) {
      m_queue.push(tag);
      return false;
    }
    m_busy = true;
    m_running = tag;
    return true;
  }
  // The running command's work ended. True if the next queued one starts now (running()).
  bool next() {
    if (m_queue.empty()) {
      m_busy = false;
      return false;
    }
    m_running = m_queue.pop();
    return true;
  }
  // One firmware CPU, one timeline: commands and foreground-GC bookkeeping in the order they
  // arrive. Books a command of kind `op` over `sectors` starting at `now` (or when the CPU is
  // free) and returns the delay until its processing ends. A write costs more per command and
  // per mapping unit its data fills.
  Picos cost(AtaCommand op, std::uint32_t sectors, Picos now) {
    const Picos start = std::max(now, m_free_at_ps);
    const Picos work = work_ps(op, sectors);
    m_last_start_ps = start;
    m_free_at_ps = start + work;
    m_busy_ps += work;
    return m_free_at_ps - now;
  }
  // The CPU time of a command of kind `op` over `sectors` (`ssdlab info` derives the firmware's
  // ceilings from it).
  Picos work_ps(AtaCommand op, std::uint32_t sectors) const {
    Picos work = m_command_cost_ps;
    if (op == AtaCommand::kWriteFpdma) {
      work += m_write_cost_ps;
      if (m_write_unit_cost_ps) {
        work += (std::uint64_t(sectors) * kSectorBytes + m_unit_bytes - 1) / m_unit_bytes * m_write_unit_cost_ps;
      }
    }
    return work;
  }
  // GC bookkeeping for `units` relocated units, done now: later commands start that much later.
  void charge_gc(std::uint64_t units, Picos now) {
    const Picos work = units * m_gc_unit_cost_ps;
    if (work) m_free_at_ps = std::max(m_free_at_ps, now) + work;
    m_busy_ps += work;
  }
  // Busy time up to `now` (commands and GC bookkeeping): work booked after `now` follows without
  // a gap (each booking starts when the CPU frees), so it is free_at - now.
  Picos busy_until(Picos now) const { return m_busy_ps - (m_free_at_ps > now ? m_free_at_ps - now : 0); }
  Picos free_at() const { return m_free_at_ps; }
  // When the command the last cost() booked starts on the CPU (its work ends at free_at()).
  Picos last_start() const { return m_last_start_ps; }

 private:
  Picos m_command_cost_ps, m_write_cost_ps, m_gc_unit_cost_ps, m_write_unit_cost_ps;
  std::uint64_t m_unit_bytes;
  Ring<std::uint8_t> m_queue;  // commands waiting for the CPU, in arrival order
  bool m_busy = false;
  std::uint8_t m_running = 0;
  Picos m_last_start_ps = 0;
  Picos m_free_at_ps = 0;  // end of all firmware CPU work scheduled (commands, GC bookkeeping)
  Picos m_busy_ps = 0;     // all of that work booked so far (statistics: busy_until)
};

}  // namespace ssdlab
