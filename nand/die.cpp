#include "nand/die.h"

#include "nand/channel.h"
#include "nand/flash_if.h"

namespace ssdlab {

Die::Die(sc_core::sc_module_name name, const NandConfig& config, Channel& channel,
         DieListener& listener)
    : sc_core::sc_module(name), m_config(config), m_channel(channel), m_listener(listener) {
  SC_METHOD(on_array_done);
  sensitive << m_array_event;
  dont_initialize();
}

Picos Die::bus_time(std::uint32_t bytes) const {
  return bytes ? transfer_picos(bytes, m_config.bus_bytes_per_s * 8) : 0;
}

Picos Die::array_time(const NandOp& op) const {
  const std::uint32_t type = op.page % m_config.page_types();
  switch (op.kind) {
    case NandOpKind::kRead:
      return m_config.t_read_ps[type];
    case NandOpKind::kProgram:
      return m_config.t_prog_ps[type];
    case NandOpKind::kErase:
      return m_config.t_erase_ps;
  }
  return 0;
}

Picos Die::busy_until_now() const {
  return m_stats.busy_ps + (m_phase != Phase::kIdle ? now_picos() - m_op_start : 0);
}

void Die::submit(const NandOp& op) {
  m_queue.push(op);
  if (m_phase == Phase::kIdle) start_next();
}

void Die::start_next() {
  m_current = m_queue.pop();
  m_op_start = now_picos();
  // The first phase always goes over the bus: command/address cycles, plus the data for a program.
  Picos bus = m_config.t_cmd_ps;
  if (m_current.kind == NandOpKind::kProgram) bus += bus_time(m_current.bytes);
  if (bus == 0) {
    m_phase = Phase::kArray;
    m_array_event.notify(to_sc_time(array_time(m_current)));
    return;
  }
  m_phase = Phase::kBusCommand;
  m_channel.request(*this, bus);
}

void Die::bus_done() {
  if (m_phase == Phase::kBusCommand) {
    m_phase = Phase::kArray;
    m_array_event.notify(to_sc_time(array_time(m_current)));
  } else {
    finish();
  }
}

void Die::on_array_done() {
  if (m_current.kind == NandOpKind::kRead && m_current.bytes > 0) {
    m_phase = Phase::kBusDataOut;
    m_channel.request(*this, bus_time(m_current.bytes));
    return;
  }
  finish();
}

void Die::finish() {
  const NandOp done = m_current;
  m_stats.busy_ps += now_picos() - m_op_start;
  switch (done.kind) {
    case NandOpKind::kRead: ++m_stats.reads; break;
    case NandOpKind::kProgram: ++m_stats.programs; break;
    case NandOpKind::kErase: ++m_stats.erases; break;
  }
  m_phase = Phase::kIdle;
  if (!m_queue.empty()) start_next();
  m_listener.die_done(done);
}

}  // namespace ssdlab
