// DeviceController, flash side: flushing the buffer into page programs, flash completions,
// draining, idle-time GC and the data that moves with relocations.
#include <algorithm>
#include <stdexcept>

#include "controller/sc/device_controller.h"

namespace ssdlab {

bool DeviceController::partial_flush_allowed() const {
  // Write-through, FUA and FLUSH CACHE: the host waits for these units, so a page may be
  // programmed part full. Draining: the host is idle and everything goes to flash.
  if (!m_config.controller.write_cache || m_draining || m_flush_tag >= 0) return true;
  // A write waits for buffer space that nothing else will free: no host program in flight, no
  // dirty slot left to fill a page. The staged slots are held back waiting for data that this
  // very write would bring (with several units per page), so they go as a part-filled page.
  if (!m_buffer_waiters.empty() && m_host_programs == 0 && m_buffer.dirty() == 0 &&
      room_for(m_commands[m_buffer_waiters.front()]) < m_commands[m_buffer_waiters.front()].units) {
    return true;
  }
  for (std::uint32_t slot : m_stage) {
    const int tag = slot_owner(slot);
    if (tag >= 0 && m_commands[tag].write_through) return true;
  }
  return false;
}

std::int64_t DeviceController::pick_die() {
  // Round robin from the die after the last one used, over the dies with room in their queue.
  return m_dies_with_room.first_from(m_next_die, [this](std::uint32_t die) { return m_ftl.can_place(die); });
}

void DeviceController::drop_slot(std::uint32_t slot) {
  const int tag = slot_owner(slot);
  if (tag >= 0) {
    Command& owner = m_commands[tag];
    if (owner.write_through && owner.op == AtaCommand::kWriteFpdma && --owner.pending == 0) {
      complete(static_cast<std::uint8_t>(tag));
    }
  }
  m_buffer.release(slot);
}

void DeviceController::flush() {
  const std::uint32_t upp = m_ftl.geometry().units_per_page;
  const std::uint32_t unit = m_ftl.geometry().unit_bytes;
  for (;;) {
    while (m_stage.size() < upp && m_buffer.dirty() > 0) {
      // The mapping entries of slots a little further down the FIFO, for the next lookups.
      constexpr std::uint32_t kAhead = 8;
      if (m_buffer.dirty() > kAhead) m_ftl.prefetch(m_buffer.lpn(m_buffer.peek_dirty(kAhead)));
      const std::uint32_t slot = m_buffer.pop_dirty();
      const std::uint32_t e = m_ftl.lookup(m_buffer.lpn(slot));
      if (Ftl::is_buffered(e) && Ftl::buffer_slot(e) == slot) {
        m_stage.push_back(slot);
      } else {
        drop_slot(slot);  // superseded by a newer write or trimmed
      }
    }
    if (m_stage.empty()) break;
    if (m_stage.size() < upp && !partial_flush_allowed()) break;
    const std::int64_t die = pick_die();
    if (die < 0) break;
    // Staged slots may have been superseded since they were gathered.
    m_stage_lpns.clear();
    std::size_t kept = 0;
    for (std::uint32_t slot : m_stage) {
      const std::uint32_t e = m_ftl.lookup(m_buffer.lpn(slot));
      if (Ftl::is_buffered(e) && Ftl::buffer_slot(e) == slot) {
        m_stage[kept++] = slot;
        m_stage_lpns.push_back(m_buffer.lpn(slot));
      } else {
        drop_slot(slot);
      }
    }
    m_stage.resize(kept);
    if (kept < upp && (kept == 0 || !partial_flush_allowed())) continue;
    const std::uint32_t record = m_free_records.back();
    const auto count = static_cast<std::uint32_t>(kept);
    m_next_die = static_cast<std::uint32_t>(die) + 1;
    const std::uint64_t copied_before = m_ftl.stats().gc_units_copied;
    const bool placed = m_ftl.place(static_cast<std::uint32_t>(die), m_stage_lpns.data(), count, record, m_ops);
    // The firmware CPU does the GC bookkeeping now: it is busy that much longer.
    const Picos gc_cpu = (m_ftl.stats().gc_units_copied - copied_before) * m_config.controller.firmware_gc_cost_ps;
    if (gc_cpu) m_cpu_free_at_ps = std::max(m_cpu_free_at_ps, now_picos()) + gc_cpu;
    if (!placed) {
      submit_ops();  // GC work it may have started still has to run
      break;
    }
    m_free_records.pop_back();
    m_record_count[record] = count;
    for (std::uint32_t i = 0; i < count; ++i) {
      m_record_slots[std::size_t(record) * upp + i] = m_stage[i];
      if (m_store) m_store->write(m_ftl.lookup(m_stage_lpns[i]), &m_slot_data[std::size_t(m_stage[i]) * unit]);
      if (!m_map_cache.unlimited()) map_access(m_stage_lpns[i], true, 0);  // the new mapping entry
    }
    m_stage.clear();
    ++m_host_programs;
    submit_ops();
  }
  grant_buffer_space();  // dropped slots may have made room
  check_flush_command();
}

void DeviceController::submit_ops() {
  if (!m_ops.empty()) m_was_quiescent = false;
  for (const NandOp& op : m_ops) {
    if (++m_die_ops[op.die] == kMaxQueuedOpsPerDie) m_dies_with_room.erase(op.die);
    ++m_flash_ops;
    flash->submit(op);
  }
  m_ops.clear();
}

void DeviceController::flash_done(const NandOp& op) {
  if (m_die_ops[op.die]-- == kMaxQueuedOpsPerDie) m_dies_with_room.insert(op.die);
  --m_flash_ops;
  if (op.origin == OpOrigin::kHost) {
    if (op.kind == NandOpKind::kProgram) {
      program_done(op.cookie);
    } else if (op.kind == NandOpKind::kRead) {
      const auto tag = static_cast<std::uint8_t>(op.cookie & 0xff);
      Command& c = m_commands[tag];
      if (!(op.cookie & kRmwCookie) && c.pending > 1) send_read_chunk(tag, op.bytes);
      if (--c.pending == 0) {
        if (op.cookie & kRmwCookie) {
          request_buffer(tag);
        } else if (c.map_pending == 0) {
          send_read_data(tag);
        }
      }
    }
  } else if (op.origin == OpOrigin::kMap && op.kind == NandOpKind::kRead && (op.cookie & kMapCookie)) {
    const auto tag = static_cast<std::uint8_t>(op.cookie & 0xff);
    Command& c = m_commands[tag];
    if (--c.map_pending == 0) {
      if (c.pending == 0) {
        send_read_data(tag);
      } else {
        m_ops.insert(m_ops.end(), m_deferred[tag].begin(), m_deferred[tag].end());
        m_deferred[tag].clear();
        submit_ops();
      }
    }
  }
  if (m_background && m_die_ops[op.die] == 0) background_step(op.die);  // idle: keep collecting
  flush();
  check_quiescent();
}

void DeviceController::program_done(std::uint32_t record) {
  const std::uint32_t upp = m_ftl.geometry().units_per_page;
  --m_host_programs;
  for (std::uint32_t i = 0; i < m_record_count[record]; ++i) {
    drop_slot(m_record_slots[std::size_t(record) * upp + i]);
  }
  m_free_records.push_back(record);
  grant_buffer_space();
}

void DeviceController::request_drain() {
  m_draining = true;
  flush();
  check_quiescent();
}

void DeviceController::check_quiescent() {
  // Waiters test the predicates in a loop: notify when one of them turns true.
  const bool q = quiescent(), d = drained();
  if ((q && !m_was_quiescent) || (d && !m_was_drained)) Timeline::notify(m_quiescent_event);
  m_was_quiescent = q;
  m_was_drained = d;
}

void DeviceController::hold_background() {
  m_background = false;
  if (m_idle_armed) {
    m_idle_armed = false;
    m_timeline.cancel(*this, kIdleTimer);
  }
}

void DeviceController::secure_erase() {
  if (!quiescent() || !m_ops.empty()) throw std::logic_error("secure erase needs a quiescent drive");
  m_buffer.clear();
  m_stage.clear();
  m_ftl.secure_erase();
  m_map_cache.clear();
  if (m_store) m_store->clear();
}

// ---- idle-time GC --------------------------------------------------------------------------

void DeviceController::on_idle() {
  if (m_active_commands != 0) return;
  m_background = true;
  for (std::uint32_t die = 0; die < m_ftl.geometry().dies; ++die) {
    if (m_die_ops[die] == 0) background_step(die);
  }
}

void DeviceController::background_step(std::uint32_t die) {
  // One page of copies at a time, so that a returning host waits for little.
  const std::uint32_t target = m_config.controller.gc.idle_free_blocks;
  if (!m_ftl.background_collect(die, target, m_ftl.geometry().units_per_page, m_ops)) return;
  m_stats.background_gc_ops += m_ops.size();
  submit_ops();
}

// ---- data moving with the FTL (keep_data) --------------------------------------------------

void DeviceController::relocated(Lpn lpn, Pua from, Pua to) {
  if (m_store) m_store->move(from, to);
  if (!m_map_cache.unlimited()) map_access(lpn, true, 0);
}

// ---- the mapping table in flash (controller.mapping_cache) ---------------------------------

NandOp DeviceController::map_op(NandOpKind kind, std::uint64_t translation_page, std::uint32_t cookie) const {
  // Translation pages are spread over the dies; the blocks that hold them are not modelled
  // (they take no user blocks and are never collected).
  const Geometry& g = m_ftl.geometry();
  const auto die = static_cast<std::uint32_t>(translation_page % g.dies);
  return NandOp{kind, OpOrigin::kMap, die, g.first_block_of_die(die), 0, g.page_bytes, cookie};
}

bool DeviceController::map_access(Lpn lpn, bool update, std::uint32_t read_cookie) {
  const MappingCache::Effect effect = m_map_cache.access(lpn, update);
  if (effect.write_back != MappingCache::kNone) {
    ++m_stats.map_writes;
    m_ops.push_back(map_op(NandOpKind::kProgram, static_cast<std::uint64_t>(effect.write_back), 0));
  }
  if (effect.read == MappingCache::kNone) return false;
  ++m_stats.map_reads;
  m_ops.push_back(map_op(NandOpKind::kRead, static_cast<std::uint64_t>(effect.read), read_cookie));
  return true;
}
void DeviceController::erased(std::uint32_t block) {
  if (m_store) m_store->erase(block);
}

}  // namespace ssdlab
