#include "nand/die.h"

#include "nand/channel.h"
#include "nand/flash_if.h"

namespace ssdlab {

void Die::init(const NandConfig& config, Timeline& timeline, Channel& channel, DieListener& listener) {
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

void Die::start(const NandOp& op) {
  m_current = op;
  const Picos now = now_picos();
  m_op_start = now;
  // The first phase always goes over the bus: command/address cycles, plus the data for a
  // program. The array phase follows it at once.
  Picos bus = m_config->t_cmd_ps;
  if (m_current.kind == NandOpKind::kProgram) bus += bus_time(m_current.bytes);
  const Picos array_start = bus ? m_channel->reserve(now, bus) : now;
  m_phase = Phase::kArray;
  m_timeline->at(m_lane, array_start + array_time(m_current), *this, 0);
}

void Die::on_timer(std::uint32_t) {
  if (m_phase == Phase::kArray && m_current.kind == NandOpKind::kRead && m_current.bytes > 0) {
    m_phase = Phase::kBusDataOut;  // the page register goes out over the bus
    m_timeline->at(m_lane, m_channel->reserve(now_picos(), bus_time(m_current.bytes)), *this, 0);
    return;
  }
  finish();
}

void Die::finish() {
  const NandOp done = m_current;
  m_stats.busy_ps += now_picos() - m_op_start;
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
  if (!m_queue.empty()) start(m_queue.pop());
  m_listener->die_done(done);
}

}  // namespace ssdlab
