// DeviceController, flash side: flushing the buffer into page programs, flash completions,
// draining, idle-time GC and the data that moves with relocations.
#include <algorithm>
#include <stdexcept>

#include "controller/sc/device_controller.h"

namespace ssdlab {

void DeviceController::drop_slot(std::uint32_t slot) {
  // A write-through write completes once the last of its units is on flash (or superseded).
  const int tag = m_commands.running(m_buffer.owner(slot));
  if (tag >= 0) {
    Command& owner = m_commands[static_cast<std::uint8_t>(tag)];
    if (owner.write_through && owner.op == AtaCommand::kWriteFpdma && --owner.pending == 0) {
      complete_write_through(static_cast<std::uint8_t>(tag));
    }
  }
  m_buffer.release(slot);
}

void DeviceController::complete_write_through(std::uint8_t tag) {
  if (m_completing_op) m_commands[tag].anatomy->flash_op(flash->finished_timing(*m_completing_op));  // its last unit
  complete(tag);
}

void DeviceController::flush() {
  // One function for the whole loop (as before the parts): the page program is placed inline,
  // a call per page measured ~0.4 % more instructions on the quickstart.
  const std::uint32_t upp = m_ftl.geometry().units_per_page;
  const auto drop = [this](std::uint32_t slot) { drop_slot(slot); };
  for (;;) {
    m_buffer.gather(m_ftl, drop);
    if (m_buffer.stage_empty()) break;
    if (!m_buffer.stage_full() && !partial_flush_allowed()) break;
    std::int64_t die = m_scheduler.pick_die([this](std::uint32_t d) { return m_ftl.can_place(d); });
    if (__builtin_expect(m_ftl.hybrid() != nullptr, 0)) {
      // A hybrid FTL's page goes to its logical block's die (one unit a page: the first staged).
      const auto home = static_cast<std::uint32_t>(m_ftl.home_die(m_buffer.lpn(m_buffer.staged_slot(0))));
      die = m_scheduler.has_room(home) ? std::int64_t(home) : -1;
    }
    if (die < 0) {
      if (__builtin_expect(m_ftl.grows_bad_blocks(), 0)) check_worn_out();
      break;
    }
    const std::uint32_t count = m_buffer.restage(m_ftl, drop);
    if (count < upp && (count == 0 || !partial_flush_allowed())) continue;
    // The staged slots go as one page program on `die`, carrying their program record.
    const std::uint32_t record = m_buffer.next_record();
    m_scheduler.placed_on(static_cast<std::uint32_t>(die));
    const std::uint64_t copied_before = m_ftl.stats().gc_units_copied;
    const Lpn* lpns = m_buffer.staged_lpns();
    // A write-through write's anatomy ends with the program carrying its last unit: keep the
    // programs' timing while one is in flight.
    const std::uint32_t cookie = OpTicket::program(record).cookie() | (m_write_through_writes ? kOpTimedBit : 0);
    const bool placed = m_ftl.place(static_cast<std::uint32_t>(die), lpns, count, cookie, m_ops);
    // The firmware CPU does the GC bookkeeping now: it is busy that much longer.
    const std::uint64_t copied = m_ftl.stats().gc_units_copied - copied_before;
    if (copied) m_cpu.charge_gc(copied, now_picos());
    if (!placed) {
      submit_ops();  // GC work it may have started still has to run
      if (__builtin_expect(m_ftl.grows_bad_blocks(), 0)) check_worn_out();
      break;
    }
    if (m_data || !m_map.unlimited()) {  // usually neither: no loop
      for (std::uint32_t i = 0; i < count; ++i) {
        if (m_data) m_data->programmed(m_ftl.plan_read(lpns[i]).unit, m_buffer.staged_slot(i));
        if (!m_map.unlimited()) m_map.access(lpns[i], true, OpTicket::none(), m_ops);  // the new mapping entry
      }
    }
    m_buffer.programmed();
    submit_ops();
  }
  grant_buffer_space();  // dropped slots may have made room
  check_flush_command();
}

void DeviceController::check_worn_out() {
  if (!worn_out()) return;
  m_ftl.turn_read_only();
  while (m_buffer.waiting()) {  // nothing will make room for them
    const std::uint8_t tag = m_buffer.first_waiter();
    m_buffer.drop_first_waiter();
    ++m_stats.rejected;
    ++m_stats.read_only_rejections;
    complete(tag, true);
  }
}

void DeviceController::submit_ops(bool background) {
  if (!m_ops.empty()) m_was_quiescent = false;
  if (__builtin_expect(m_submit_hooks, 0)) return submit_ops_hooked(background);
  const bool holds = m_scheduler.holds();  // read priority: ops a read may overtake wait in the scheduler
  for (const NandOp& op : m_ops) dispatch(op, background, holds);
  m_ops.clear();
}

void DeviceController::submit_ops_hooked(bool background) {
  if (m_media) {  // each read's verdict before anything sees the ops
    const double now_s = double(now_picos()) * 1e-12;
    for (NandOp& op : m_ops) m_media->submit(op, m_ftl.erase_count(op.block), now_s);
  }
  if (m_probe) m_probe->nand_ops_planned(m_ops.data(), m_ops.size());
  const bool holds = m_scheduler.holds();
  const bool gated = m_gate.on();  // striped relocation: programs wait for their reads
  for (const NandOp& op : m_ops) {
    // A program held by the gate reaches the scheduler when it goes (release_relocated): counted
    // on its die before, it would keep the scheduler from releasing that die's held ops (the die
    // "still has work"), among them GC reads another held program waits for. While one waits,
    // the read it waits for is outstanding, so the drive is not quiescent.
    if (!(gated && m_gate.hold(op, background))) dispatch(op, background, holds);
  }
  m_ops.clear();
}

void DeviceController::release_relocated(const NandOp& op) {
  m_gate.completed(
      op, [this](const NandOp& program, bool background) { dispatch(program, background, m_scheduler.holds()); });
}

void DeviceController::flash_done(const NandOp& op) {
  m_scheduler.completed(op.die);
  if (m_completion_hooks) {  // one test for both rules
    NandOp next;
    if (m_scheduler.holds() && m_scheduler.release(op.die, next)) flash->submit(next);  // the die's next held op
    if (m_gate.on()) release_relocated(op);  // a GC read: the programs it carries may go
  }
  const OpTicket ticket = OpTicket::of(op);
  if (m_probe) report_op(op, ticket);
  switch (ticket.kind) {
    case OpTicket::Kind::kProgram:
      m_completing_op = &op;
      m_buffer.program_done(ticket.index, [this](std::uint32_t slot) { drop_slot(slot); });
      m_completing_op = nullptr;
      grant_buffer_space();
      break;
    case OpTicket::Kind::kHostRead:
    case OpTicket::Kind::kRmwRead: {
      const bool rmw = ticket.kind == OpTicket::Kind::kRmwRead;
      const std::uint8_t tag = ticket.tag();
      Command& c = m_commands[tag];
      if (__builtin_expect(op.status & kOpUncorrectable, 0)) c.media_error = true;
      if (!rmw && c.pending > 1 && !c.media_error) {
        // (A multi-plane read's first plane's page went when it was out: flash_plane_out.)
        send_read_chunk(tag, op.bytes - (op.status & kOpPlaneOut ? m_ftl.geometry().plane_page_bytes : 0));
      }
      if (--c.pending == 0) {
        if (rmw) {
          c.anatomy->flash_op(flash->finished_timing(op));  // the later of its old-contents reads
          if (c.media_error) {                              // the unit's old contents are lost: the write fails
            ++m_stats.media_errors;
            complete(tag, true);
            break;
          }
          request_buffer(tag);
        } else if (c.map_pending == 0) {
          c.anatomy->flash_op(flash->finished_timing(op));  // its last data read
          send_read_data(tag);
        }
      }
      break;
    }
    case OpTicket::Kind::kMapRead: {
      const std::uint8_t tag = ticket.tag();
      Command& c = m_commands[tag];
      if (--c.map_pending == 0) {
        c.anatomy->to(Part::kMapWait, now_picos());
        if (c.pending == 0) {
          send_read_data(tag);
        } else {
          m_map.release_deferred(tag, m_ops);
          submit_ops();
        }
      }
      break;
    }
    case OpTicket::Kind::kReadAhead:
      read_ahead_landed(op, ticket.index);
      break;
    case OpTicket::Kind::kNone:
      break;
  }
  // Idle: keep collecting.
  if (m_background.running() && m_scheduler.queued(op.die) == 0) background_step(op.die);
  flush();
  check_quiescent();
}

void DeviceController::flash_plane_out(const NandOp& op) {
  // A multi-plane host read (only those: nand/die.h) has its first plane's page out: it goes to
  // the link now, as a one-plane die's page would; the rest when the op is done. A read-ahead's
  // (timed too: commands join it) has no command of its own: its data waits in DRAM.
  const OpTicket ticket = OpTicket::of(op);
  if (ticket.kind != OpTicket::Kind::kHostRead) return;
  const std::uint8_t tag = ticket.tag();
  if (!m_commands[tag].media_error) send_read_chunk(tag, m_ftl.geometry().plane_page_bytes);
}

void DeviceController::read_ahead_landed(const NandOp& op, std::uint32_t record) {
  // A failed read leaves its units out of DRAM, and the commands that waited for it fail.
  const bool failed = op.status & kOpUncorrectable;
  std::uint32_t waiters = m_read_ahead.landed(record, !failed);
  while (waiters) {
    const auto tag = static_cast<std::uint8_t>(__builtin_ctz(waiters));
    waiters &= waiters - 1;
    Command& c = m_commands[tag];
    if (__builtin_expect(failed, 0)) c.media_error = true;
    if (--c.pending == 0 && c.map_pending == 0) {
      c.anatomy->read_ahead_op(flash->finished_timing(op));  // it joined the read while in flight
      send_read_data(tag);
    }
  }
}

void DeviceController::report_op(const NandOp& op, const OpTicket& ticket) {
  // The commands the op served: a read's, or each whose data a page program carries.
  std::uint64_t serials[64];
  std::uint32_t n = 0;
  if (ticket.kind == OpTicket::Kind::kProgram) {
    m_buffer.visit_record(ticket.index, [&](std::uint32_t slot) {
      const std::uint64_t serial = m_buffer.owner(slot).serial;
      if (n < 64 && (n == 0 || serials[n - 1] != serial)) serials[n++] = serial;
    });
  } else if (ticket.kind != OpTicket::Kind::kNone && ticket.kind != OpTicket::Kind::kReadAhead) {
    serials[n++] = m_commands[ticket.tag()].serial;
  }
  m_probe->nand_op(op, flash->finished_timing(op), serials, n);
}

void DeviceController::request_drain() {
  m_draining = true;
  flush();
  check_quiescent();
}

void DeviceController::check_quiescent() {
  // Waiters test the predicates in a loop: notify when one of them turns true.
  const bool q = is_quiescent(), d = is_drained();
  if ((q && !m_was_quiescent) || (d && !m_was_drained)) Timeline::notify(m_quiescent_event);
  m_was_quiescent = q;
  m_was_drained = d;
}

void DeviceController::hold_background() {
  if (m_background.stop()) m_timeline.cancel(*this, kIdleTimer);
}

void DeviceController::secure_erase() {
  if (!is_quiescent() || !m_ops.empty()) throw std::logic_error("secure erase needs a quiescent drive");
  m_buffer.clear();
  m_ftl.secure_erase();
  m_map.clear();
  if (m_read_ahead.enabled()) m_read_ahead.reset();
  if (m_data) m_data->clear();
  if (m_media) m_media->rewritten(double(now_picos()) * 1e-12);
}

// ---- idle-time GC --------------------------------------------------------------------------

void DeviceController::on_idle() {
  if (!m_background.timer_fired(m_commands.active() == 0)) return;
  for (std::uint32_t die = 0; die < m_scheduler.dies(); ++die) {
    if (m_scheduler.queued(die) == 0) background_step(die);
  }
}

void DeviceController::background_step(std::uint32_t die) {
  if (!m_background.step(m_ftl, die, m_ops)) return;
  m_stats.background_gc_ops += m_ops.size();
  submit_ops(true);
}

// ---- data moving with the FTL (keep_data) --------------------------------------------------

void DeviceController::relocated(Lpn lpn, Pua from, Pua to) {
  if (m_data) m_data->move(from, to);
  if (!m_map.unlimited()) m_map.access(lpn, true, OpTicket::none(), m_ops);
}

void DeviceController::erased(std::uint32_t block) {
  if (m_data) m_data->erase(block);
}

}  // namespace ssdlab
