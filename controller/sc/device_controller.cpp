#include "controller/sc/device_controller.h"

#include <stdexcept>

namespace ssdlab {

DeviceController::DeviceController(sc_core::sc_module_name name, const DriveConfig& config)
    : sc_core::sc_module(name),
      m_config(config),
      m_ftl(config),
      m_buffer(static_cast<std::uint32_t>(config.controller.write_buffer_bytes /
                                          config.controller.mapping_unit_bytes)),
      m_user_sectors(config.controller.user_bytes / kSectorBytes),
      m_cpu_queue(kMaxTags),
      m_buffer_waiters(kMaxTags) {
  const Geometry& g = m_ftl.geometry();
  m_stage.reserve(g.units_per_page);
  m_stage_lpns.reserve(g.units_per_page);
  const std::uint32_t records = m_buffer.capacity();
  m_record_slots.assign(std::size_t(records) * g.units_per_page, 0);
  m_record_count.assign(records, 0);
  for (std::uint32_t r = records; r > 0; --r) m_free_records.push_back(r - 1);
  m_die_ops.assign(g.dies, 0);
  m_ops.reserve(4 * std::size_t(g.pages_per_block) + 4);
  SC_METHOD(on_cpu_done);
  sensitive << m_cpu_event;
  dont_initialize();
}

// ---- command intake and firmware CPU -------------------------------------------------------

void DeviceController::receive_from_host(const Fis& fis) {
  if (fis.kind == FisKind::kDataToDevice) {
    data_arrived(fis.tag);
    return;
  }
  m_draining = false;
  Command& c = m_commands[fis.tag];
  c = Command{};
  c.active = true;
  c.op = fis.command;
  c.lba = fis.lba;
  c.sectors = fis.sectors;
  ++m_active_commands;
  ++m_stats.commands;
  if (m_cpu_busy) {
    m_cpu_queue.push(fis.tag);
    return;
  }
  m_cpu_busy = true;
  m_cpu_tag = fis.tag;
  m_cpu_event.notify(to_sc_time(m_config.controller.firmware_cost_ps));
}

void DeviceController::on_cpu_done() {
  const std::uint8_t tag = m_cpu_tag;
  if (!m_cpu_queue.empty()) {
    m_cpu_tag = m_cpu_queue.pop();
    m_cpu_event.notify(to_sc_time(m_config.controller.firmware_cost_ps));
  } else {
    m_cpu_busy = false;
  }
  dispatch(tag);
}

void DeviceController::dispatch(std::uint8_t tag) {
  Command& c = m_commands[tag];
  if (c.sectors == 0 || c.lba + c.sectors > m_user_sectors) {
    ++m_stats.rejected;
    complete(tag, true);
    return;
  }
  const std::uint32_t unit = m_config.controller.mapping_unit_bytes;
  const std::uint64_t first_byte = c.lba * kSectorBytes;
  const std::uint64_t end_byte = first_byte + std::uint64_t(c.sectors) * kSectorBytes;
  c.first_lpn = static_cast<Lpn>(first_byte / unit);
  c.units = static_cast<std::uint32_t>((end_byte + unit - 1) / unit - c.first_lpn);
  if (c.op == AtaCommand::kReadFpdma) {
    start_read(tag);
  } else {
    start_write(tag);
  }
}

// ---- reads ---------------------------------------------------------------------------------

void DeviceController::start_read(std::uint8_t tag) {
  Command& c = m_commands[tag];
  const Geometry& g = m_ftl.geometry();
  NandOp op;
  bool have_op = false;
  for (std::uint32_t i = 0; i < c.units; ++i) {
    const std::uint32_t e = m_ftl.lookup(c.first_lpn + i);
    if (e == kUnmapped) {
      ++m_stats.read_units_unmapped;
      continue;
    }
    if (Ftl::is_buffered(e)) {
      ++m_stats.read_units_from_buffer;
      continue;
    }
    ++m_stats.read_units_from_nand;
    const std::uint32_t block = g.block_of_unit(e);
    const std::uint32_t page = g.page_of_unit(e);
    if (have_op && op.block == block && op.page == page) {
      op.bytes += g.unit_bytes;  // another unit of the same page: one read
      continue;
    }
    if (have_op) {
      m_ops.push_back(op);
      ++c.pending;
    }
    op = NandOp{NandOpKind::kRead, OpOrigin::kHost, g.die_of_block(block), block, page,
                g.unit_bytes, tag};
    have_op = true;
  }
  if (have_op) {
    m_ops.push_back(op);
    ++c.pending;
  }
  if (c.pending == 0) {
    link->transmit(Fis{FisKind::kDataToHost, tag, c.op, c.lba, c.sectors, c.sectors * kSectorBytes});
    complete(tag);
    return;
  }
  submit_ops();
}

// ---- writes --------------------------------------------------------------------------------

void DeviceController::start_write(std::uint8_t tag) {
  Command& c = m_commands[tag];
  const Geometry& g = m_ftl.geometry();
  if (c.units > m_buffer.capacity()) {
    ++m_stats.rejected;  // larger than the whole buffer: max_transfer is validated against it
    complete(tag, true);
    return;
  }
  // A mapping unit the command covers only in part must be merged with its old contents:
  // read-modify-write when those contents are on flash.
  const std::uint32_t unit_sectors = g.unit_bytes / kSectorBytes;
  const bool head_partial = c.lba % unit_sectors != 0;
  const bool tail_partial = (c.lba + c.sectors) % unit_sectors != 0;
  for (int side = 0; side < 2; ++side) {
    const bool partial = side == 0 ? head_partial : tail_partial;
    const Lpn lpn = side == 0 ? c.first_lpn : c.first_lpn + c.units - 1;
    if (!partial || (side == 1 && head_partial && c.units == 1)) continue;
    const std::uint32_t e = m_ftl.lookup(lpn);
    if (e == kUnmapped || Ftl::is_buffered(e)) continue;
    const std::uint32_t block = g.block_of_unit(e);
    m_ops.push_back(NandOp{NandOpKind::kRead, OpOrigin::kHost, g.die_of_block(block), block,
                           g.page_of_unit(e), g.unit_bytes, tag | kRmwCookie});
    ++c.pending;
    ++m_stats.rmw_reads;
  }
  if (c.pending) {
    submit_ops();
    return;
  }
  request_buffer(tag);
}

void DeviceController::request_buffer(std::uint8_t tag) {
  if (!m_buffer_waiters.empty() ||
      m_buffer.free_slots() - m_reserved_slots < m_commands[tag].units) {
    ++m_stats.buffer_waits;
  }
  m_buffer_waiters.push(tag);
  grant_buffer_space();
}

void DeviceController::grant_buffer_space() {
  // Strict arrival order: a large write at the head is not overtaken.
  while (!m_buffer_waiters.empty()) {
    const std::uint8_t tag = m_buffer_waiters.front();
    Command& c = m_commands[tag];
    if (m_buffer.free_slots() - m_reserved_slots < c.units) return;
    m_buffer_waiters.pop();
    m_reserved_slots += c.units;
    link->transmit(Fis{FisKind::kDataToDevice, tag, c.op, c.lba, c.sectors, c.sectors * kSectorBytes});
  }
}

void DeviceController::data_arrived(std::uint8_t tag) {
  Command& c = m_commands[tag];
  m_reserved_slots -= c.units;
  for (std::uint32_t i = 0; i < c.units; ++i) {
    const Lpn lpn = c.first_lpn + i;
    m_ftl.write_to_buffer(lpn, m_buffer.insert(lpn, tag));
  }
  if (m_config.controller.write_cache) {
    complete(tag);
  } else {
    c.pending = c.units;
  }
  flush();
}

void DeviceController::complete(std::uint8_t tag, bool error) {
  Fis sdb{FisKind::kSetDeviceBits, tag};
  sdb.error = error;
  link->transmit(sdb);
  m_commands[tag].active = false;
  --m_active_commands;
  check_quiescent();
}

// ---- flushing the buffer to flash ----------------------------------------------------------

bool DeviceController::partial_flush_allowed() const {
  // Write-through: the host waits for these units, so a page is programmed half full.
  // Draining: the host is idle and everything goes to flash.
  return !m_config.controller.write_cache || m_draining;
}

std::int64_t DeviceController::pick_die() {
  const std::uint32_t dies = m_ftl.geometry().dies;
  for (std::uint32_t i = 0; i < dies; ++i) {
    const std::uint32_t die = (m_next_die + i) % dies;
    if (m_die_ops[die] < kMaxQueuedOpsPerDie && m_ftl.can_place(die)) return die;
  }
  return -1;
}

void DeviceController::drop_slot(std::uint32_t slot) {
  if (!m_config.controller.write_cache) {
    Command& owner = m_commands[m_buffer.owner(slot)];
    if (--owner.pending == 0) complete(static_cast<std::uint8_t>(m_buffer.owner(slot)));
  }
  m_buffer.release(slot);
}

void DeviceController::flush() {
  const std::uint32_t upp = m_ftl.geometry().units_per_page;
  for (;;) {
    while (m_stage.size() < upp && m_buffer.dirty() > 0) {
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
    if (!m_ftl.place(static_cast<std::uint32_t>(die), m_stage_lpns.data(), count, record, m_ops)) {
      submit_ops();  // GC work it may have started still has to run
      m_next_die = static_cast<std::uint32_t>(die) + 1;
      break;
    }
    m_free_records.pop_back();
    m_record_count[record] = count;
    for (std::uint32_t i = 0; i < count; ++i) m_record_slots[std::size_t(record) * upp + i] = m_stage[i];
    m_stage.clear();
    m_next_die = static_cast<std::uint32_t>(die) + 1;
    submit_ops();
  }
  grant_buffer_space();  // dropped slots may have made room
}

void DeviceController::submit_ops() {
  for (const NandOp& op : m_ops) {
    ++m_die_ops[op.die];
    ++m_flash_ops;
    flash->submit(op);
  }
  m_ops.clear();
}

// ---- flash completions ---------------------------------------------------------------------

void DeviceController::flash_done(const NandOp& op) {
  --m_die_ops[op.die];
  --m_flash_ops;
  if (op.origin == OpOrigin::kHost) {
    if (op.kind == NandOpKind::kProgram) {
      program_done(op.cookie);
    } else if (op.kind == NandOpKind::kRead) {
      const auto tag = static_cast<std::uint8_t>(op.cookie & 0xff);
      Command& c = m_commands[tag];
      if (--c.pending == 0) {
        if (op.cookie & kRmwCookie) {
          request_buffer(tag);
        } else {
          link->transmit(Fis{FisKind::kDataToHost, tag, c.op, c.lba, c.sectors,
                             c.sectors * kSectorBytes});
          complete(tag);
        }
      }
    }
  }
  flush();
  check_quiescent();
}

void DeviceController::program_done(std::uint32_t record) {
  const std::uint32_t upp = m_ftl.geometry().units_per_page;
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
  if (quiescent()) m_quiescent_event.notify(sc_core::SC_ZERO_TIME);
}

void DeviceController::secure_erase() {
  if (!quiescent()) throw std::logic_error("secure erase needs a quiescent drive");
  m_buffer.clear();
  m_stage.clear();
  m_ftl.secure_erase();
}

}  // namespace ssdlab
