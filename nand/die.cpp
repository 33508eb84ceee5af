#include "nand/die.h"

#include "model/core/probe.h"
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
  m_page_types = config.page_types();
  m_page_types_pow2 = (m_page_types & (m_page_types - 1)) == 0;
}

Picos Die::bus_time(std::uint32_t bytes) {
  if (bytes != m_memo_bytes) {
    m_memo_bytes = bytes;
    m_memo_ps = bytes ? transfer_picos(bytes, m_config->bus_bytes_per_s * 8) : 0;
  }
  return m_memo_ps;
}

Picos Die::array_time(const NandOp& op) const {
  const std::uint32_t type = m_page_types_pow2 ? op.page & (m_page_types - 1) : op.page % m_page_types;
  switch (op.kind) {
    case NandOpKind::kRead:
      return m_config->t_read_ps[type];
    case NandOpKind::kProgram:
      return m_config->t_prog_ps[type];
    case NandOpKind::kErase:
      return m_config->t_erase_ps;
  }
  return 0;
}

Picos Die::busy_until_now() const { return m_stats.busy_ps + (m_phase != Phase::kIdle ? now_picos() - m_op_start : 0); }

Picos Die::busy_until_now(OpOrigin origin) const {
  const bool running = m_phase != Phase::kIdle && m_current.origin == origin;
  return m_stats.busy_by_origin_ps[std::size_t(origin)] + (running ? now_picos() - m_op_start : 0);
}

OpTiming Die::finished_timing(const NandOp& op) const {
  const Stamps& st = m_stamps[m_finished_slot];
  OpTiming t;
  t.submitted = st.queued.submitted;
  t.started = st.started;
  t.array_start = st.array_start;
  // The bus time of its data: usually the size bus_time() computed last.
  const Picos data_ps = op.bytes == m_memo_bytes ? m_memo_ps
                        : op.bytes               ? transfer_picos(op.bytes, m_config->bus_bytes_per_s * 8)
                                                 : 0;
  const Picos bus = m_config->t_cmd_ps + (op.kind == NandOpKind::kProgram ? data_ps : 0);
  t.cmd_bus_start = bus ? st.array_start - bus : st.started;
  t.array_end = st.array_start + array_time(op);
  const bool data_out = op.kind == NandOpKind::kRead && op.bytes > 0;
  t.out_bus_start = data_out ? st.out_bus_start : t.array_end;
  t.finished = data_out ? st.out_bus_start + data_ps : t.array_end;
  // The busy times now are those at this op's end: take its own share off to get them at its
  // start. The die was busy from submission to start, so the three shares add up to the wait.
  const Picos own = t.finished - t.started;
  const Picos gc = m_stats.busy_by_origin_ps[1] - (op.origin == OpOrigin::kGc ? own : 0);
  const Picos map = m_stats.busy_by_origin_ps[2] - (op.origin == OpOrigin::kMap ? own : 0);
  t.behind[1] = gc - st.queued.gc;
  t.behind[2] = map - st.queued.map;
  t.behind[0] = t.started - t.submitted - t.behind[1] - t.behind[2];
  return t;
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
    st.started = now;
    st.array_start = array_start;
  }
  m_phase = Phase::kArray;
  m_timeline->at(m_lane, array_end, *this, 0);
}

void Die::on_timer(std::uint32_t) {
  if (m_phase == Phase::kArray && m_current.kind == NandOpKind::kRead && m_current.bytes > 0) {
    m_phase = Phase::kBusDataOut;  // the page register goes out over the bus
    const Picos bus = bus_time(m_current.bytes);
    const Picos end = m_channel->reserve(now_picos(), bus);
    if (timed(m_current)) m_stamps[m_slot].out_bus_start = end - bus;
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
  m_stats.busy_ps += busy;
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
