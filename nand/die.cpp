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

Die::QueueStamp Die::queue_stamp() const {
  const Picos now = now_picos();
  QueueStamp s{now, m_stats.busy_by_origin_ps};
  s.busy_by_origin[std::size_t(m_current.origin)] += now - m_op_start;  // the die is busy when ops queue
  return s;
}

void Die::start(const NandOp& op, Picos submitted, const std::array<Picos, 3>& behind) {
  m_current = op;
  const Picos now = now_picos();
  m_op_start = now;
  // The first phase always goes over the bus: command/address cycles, plus the data for a
  // program. The array phase follows it at once.
  Picos bus = m_config->t_cmd_ps;
  if (m_current.kind == NandOpKind::kProgram) bus += bus_time(m_current.bytes);
  const Picos array_start = bus ? m_channel->reserve(now, bus) : now;
  if (m_probe && bus) m_probe->bus(m_channel_index, m_index, array_start - bus, array_start);
  const Picos array_end = array_start + array_time(m_current);
  m_timing.submitted = submitted;
  m_timing.behind = behind;
  m_timing.started = now;
  m_timing.cmd_bus_start = array_start - bus;
  m_timing.array_start = array_start;
  m_timing.array_end = m_timing.out_bus_start = m_timing.finished = array_end;
  m_phase = Phase::kArray;
  m_timeline->at(m_lane, array_end, *this, 0);
}

void Die::on_timer(std::uint32_t) {
  if (m_phase == Phase::kArray && m_current.kind == NandOpKind::kRead && m_current.bytes > 0) {
    m_phase = Phase::kBusDataOut;  // the page register goes out over the bus
    const Picos bus = bus_time(m_current.bytes);
    const Picos end = m_channel->reserve(now_picos(), bus);
    m_timing.out_bus_start = end - bus;
    m_timing.finished = end;
    if (m_probe) m_probe->bus(m_channel_index, m_index, end - bus, end);
    m_timeline->at(m_lane, end, *this, 0);
    return;
  }
  finish();
}

void Die::finish() {
  const NandOp done = m_current;
  const OpTiming timing = m_timing;
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
  if (!m_queue.empty()) {
    const QueueStamp w = m_waits.pop();
    std::array<Picos, 3> behind;
    for (std::size_t o = 0; o < 3; ++o) behind[o] = m_stats.busy_by_origin_ps[o] - w.busy_by_origin[o];
    start(m_queue.pop(), w.submitted, behind);
  }
  m_listener->die_done(done, timing);
}

}  // namespace ssdlab
