#include "nand/die.h"

#include "base/core/probe.h"
#include "nand/channel.h"
#include "nand/flash_if.h"

namespace ssdlab {

void Die::init(const NandConfig& config, Timeline& timeline, Channel& channel, DieListener& listener,
               std::uint32_t index, std::uint32_t channel_index) {
  m_index = index;
  m_channel_index = channel_index;
  m_config = &config;
  m_timeline = &timeline;
  m_lane = timeline.add_lane();
  m_channel = &channel;
  m_listener = &listener;
  m_page_types = std::uint8_t(config.page_types());  // bits per cell: 1 to 3
  m_page_types_pow2 = (m_page_types & (m_page_types - 1)) == 0;
}

void Die::set_memo(std::uint32_t bytes) {
  m_memo_bytes = bytes;
  m_memo_ps = bytes ? transfer_picos(bytes, m_config->bus_bytes_per_s * 8) : 0;
}

Picos Die::busy_until_now() const {
  return m_stats.busy_ps() + (m_phase != Phase::kIdle ? now_picos() - m_op_start : 0);
}

Picos Die::busy_until_now(OpOrigin origin) const {
  const bool running = m_phase != Phase::kIdle && m_current.origin == origin;
  return m_stats.busy_by_origin_ps[std::size_t(origin)] + (running ? now_picos() - m_op_start : 0);
}

void Die::start(const NandOp& op, bool queued) {
  m_current = op;
  const Picos now = now_picos();
  m_op_start = now;
  // The first phase always goes over the bus: command/address cycles, plus the data for a
  // program. The array phase follows it at once.
  Picos bus = m_config->t_cmd_ps;
  if (m_current.kind == NandOpKind::kProgram) bus += bus_time(m_current.bytes);
  const Picos array_start = bus ? m_channel->reserve(now, bus) : now;
  if (m_instrumented && bus) m_probe->bus(m_channel_index, m_index, array_start - bus, array_start);
  const Picos array_end = array_start + array_time(m_current);
  if (timed(m_current)) {
    Stamps& st = m_stamps[m_slot ^= 1];
    st.queued = queued ? m_waits.pop() : QueueStamp{now, m_stats.busy_by_origin_ps[1], m_stats.busy_by_origin_ps[2]};
    st.times.started = now;
    st.times.cmd_bus_start = array_start - bus;
    st.times.array_start = array_start;
    // Without a data-out phase the op ends with its array time.
    st.times.array_end = st.times.out_bus_start = st.times.finished = array_end;
  }
  m_phase = Phase::kArray;
  m_timeline->at(m_lane, array_end, *this, 0);
}

void Die::on_timer(std::uint32_t) {
  if (m_phase == Phase::kArray && m_current.kind == NandOpKind::kRead && m_current.bytes > 0) {
    m_phase = Phase::kBusDataOut;  // the page register goes out over the bus
    const Picos bus = bus_time(m_current.bytes);
    const Picos end = m_channel->reserve(now_picos(), bus);
    if (timed(m_current)) {
      m_stamps[m_slot].times.out_bus_start = end - bus;
      m_stamps[m_slot].times.finished = end;
    }
    if (m_instrumented) m_probe->bus(m_channel_index, m_index, end - bus, end);
    m_timeline->at(m_lane, end, *this, 0);
    return;
  }
  finish();
}

void Die::finish() {
  const NandOp done = m_current;
  m_finished_slot = m_slot;  // start() below writes the other slot
  const Picos busy = now_picos() - m_op_start;
  m_stats.busy_by_origin_ps[std::size_t(done.origin)] += busy;
  switch (done.kind) {
    case NandOpKind::kRead:
      ++m_stats.reads;
      break;
    case NandOpKind::kProgram:
      ++m_stats.programs;
      break;
    case NandOpKind::kErase:
      ++m_stats.erases;
      break;
  }
  m_phase = Phase::kIdle;
  if (!m_queue.empty()) start(m_queue.pop(), true);
  m_listener->die_done(done);
}

}  // namespace ssdlab
