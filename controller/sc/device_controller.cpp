#include "controller/sc/device_controller.h"

#include <algorithm>

#include "controller/ftl/virtual_page.h"

namespace ssdlab {

namespace {
// A hybrid FTL's map is small enough for the controller's SRAM (hybrid_map.h): the whole table is
// held, no translation-page traffic, whatever controller.mapping_cache says.
DriveConfig map_config(const DriveConfig& config) {
  DriveConfig c = config;
  if (c.controller.ftl == FtlScheme::kHybrid) c.controller.mapping_cache_bytes = 0;
  return c;
}
}  // namespace

DeviceController::DeviceController(sc_core::sc_module_name name, const DriveConfig& config, Timeline& timeline,
                                   bool keep_data)
    : sc_core::sc_module(name),
      m_config(config),
      m_timeline(timeline),
      m_cpu_lane(timeline.add_lane()),
      m_ftl(config),
      m_cpu(config.controller, CommandQueue::kMaxTags),
      m_buffer(static_cast<std::uint32_t>(config.controller.write_buffer_bytes / config.controller.mapping_unit_bytes),
               m_ftl.geometry().units_per_page, CommandQueue::kMaxTags),
      m_scheduler(m_ftl.geometry().dies, FlashScheduler::HoldRules::of(config.controller)),
      m_read_spread(m_ftl.geometry().dies),
      m_read_ahead(
          static_cast<std::uint32_t>(config.controller.read_ahead_bytes / config.controller.mapping_unit_bytes),
          config.controller.read_ahead_trigger),
      m_gate(m_ftl.geometry().dies, config.controller.gc.relocation == GcRelocation::kStriped),
      m_map(m_ftl, map_config(config), m_stats),
      m_background(config.controller.gc, m_ftl.geometry().units_per_page,
                   config.controller.slc_cache.mode != SlcCacheMode::kOff && config.controller.slc_cache.idle_fold),
      m_user_sectors(config.controller.user_bytes / kSectorBytes) {
  if (config.nand.errors.enabled) m_media = std::make_unique<MediaHealth>(config, m_ftl.geometry());
  m_submit_hooks = m_gate.on() || m_media;
  m_completion_hooks = m_scheduler.holds() || m_gate.on();
  const Geometry& g = m_ftl.geometry();
  m_ops.reserve(4 * std::size_t(g.pages_per_block) + 4);
  if (keep_data) m_data = std::make_unique<DataStore>(g, m_buffer.capacity());
  if (keep_data || !m_map.unlimited()) m_ftl.set_listener(this);
}

void DeviceController::on_timer(std::uint32_t what) {
  if (what == kCpuTimer) {
    on_cpu_done();
  } else {
    on_idle();
  }
}

// ---- command intake and firmware CPU -------------------------------------------------------

void DeviceController::receive_from_host(const Fis& fis) {
  if (fis.kind == FisKind::kDataToDevice) {
    if (m_commands[fis.tag].op == AtaCommand::kDataSetManagement) {
      trim_arrived(fis.tag);
    } else {
      data_arrived(fis.tag);
    }
    return;
  }
  m_draining = false;
  if (m_background.stop()) m_timeline.cancel(*this, kIdleTimer);  // the host is back: idle-time GC stops
  Command& c = m_commands.open(fis.tag);
  c.op = fis.command;
  c.lba = fis.lba;
  c.sectors = fis.sectors;
  c.write_through = !m_config.controller.write_cache || fis.fua;
  if (c.write_through && c.op == AtaCommand::kWriteFpdma) ++m_write_through_writes;
  c.host_data = fis.host_data;
  c.anatomy = fis.anatomy ? fis.anatomy : &m_scratch_anatomy;
  c.anatomy->device_serial = c.serial;
  // The firmware will look the first mapping entry up after its command cost: start the load.
  const std::uint64_t first_unit = fis.lba * kSectorBytes / m_config.controller.mapping_unit_bytes;
  if (fis.sectors && first_unit < m_ftl.user_units()) m_ftl.prefetch(static_cast<Lpn>(first_unit));
  m_was_quiescent = m_was_drained = false;
  ++m_stats.commands;
  if (!m_cpu.arrive(fis.tag)) return;  // queued behind the command on the CPU
  book_cpu(fis.tag);
}

void DeviceController::book_cpu(std::uint8_t tag) {
  Command& c = m_commands[tag];
  const Picos now = now_picos();
  const Picos end = now + m_cpu.cost(c.op, c.sectors, now);
  m_timeline.at(m_cpu_lane, end, *this, kCpuTimer);
  c.anatomy->to(Part::kFwQueue, m_cpu.last_start());
  c.anatomy->to(Part::kFirmware, end);
  if (m_probe) m_probe->firmware(c.serial, tag, c.op, m_cpu.last_start(), end);
}

void DeviceController::on_cpu_done() {
  const std::uint8_t tag = m_cpu.running();
  if (m_cpu.next()) book_cpu(m_cpu.running());
  dispatch(tag);
}

void DeviceController::dispatch(std::uint8_t tag) {
  Command& c = m_commands[tag];
  if (c.op == AtaCommand::kFlushCache) {
    ++m_stats.flushes;
    m_flush_tag = tag;
    flush();
    check_flush_command();
    return;
  }
  const bool bad_range = c.sectors == 0 || c.lba + c.sectors > m_user_sectors;
  if (bad_range || (c.op == AtaCommand::kDataSetManagement && !m_config.controller.trim)) {
    ++m_stats.rejected;  // ABORTED (no TRIM support) or ID NOT FOUND (outside the drive)
    complete(tag, true);
    return;
  }
  if (c.op != AtaCommand::kReadFpdma && __builtin_expect(m_ftl.read_only(), 0)) {
    ++m_stats.rejected;  // grown bad blocks used up a die's spare: writes and TRIM are aborted
    ++m_stats.read_only_rejections;
    complete(tag, true);
    return;
  }
  if (c.op == AtaCommand::kDataSetManagement) {  // fetch the range list
    const LinkBooking b =
        link->transmit(Fis{FisKind::kDataToDevice, tag, c.op, c.lba, c.sectors, trim_payload_bytes(c.sectors)});
    c.anatomy->link(b.start, b.end);
    return;
  }
  c.map_units(m_config.controller.mapping_unit_bytes);
  if (c.op == AtaCommand::kReadFpdma) {
    start_read(tag);
  } else {
    // The data arrives a few callbacks later; its mapping entry was requested with the command.
    if (c.first_lpn < m_ftl.user_units()) m_ftl.prefetch_overwrite(c.first_lpn);
    start_write(tag);
  }
}

void DeviceController::complete(std::uint8_t tag, bool error) {
  Command& c = m_commands[tag];
  // Whatever the command waited for since its last stamp: FLUSH CACHE the buffer; a
  // write-through write completing without a flash op of its own (its data superseded) the
  // buffer too. Every other path stamped up to now already.
  c.anatomy->wait_until(c.op == AtaCommand::kFlushCache ? Part::kFlushWait : Part::kStaging, now_picos());
  Fis sdb{FisKind::kSetDeviceBits, tag, c.op};  // a non-queued command's is a Register FIS on the wire
  sdb.error = error;
  const LinkBooking b = link->transmit(sdb);
  c.anatomy->link(b.start, b.end);
  if (c.write_through && c.op == AtaCommand::kWriteFpdma) --m_write_through_writes;
  if (m_commands.close(tag)) host_went_idle();
  check_quiescent();
}

void DeviceController::host_went_idle() {
  if (!m_background.enabled()) return;
  if (m_background.arm()) m_timeline.cancel(*this, kIdleTimer);
  m_timeline.after(m_background.idle_delay(), *this, kIdleTimer);
}

// ---- reads ---------------------------------------------------------------------------------

void DeviceController::start_read(std::uint8_t tag) {
  Command& c = m_commands[tag];
  const std::uint32_t unit_bytes = m_ftl.geometry().unit_bytes;
  if (m_data && c.host_data) m_data->copy_read(m_ftl, c);
  // Translation pages first: the data reads wait for any that must come from flash.
  if (!m_map.unlimited()) c.map_pending += m_map.lookup_range(c.first_lpn, c.units, OpTicket::map_read(tag), m_ops);
  std::vector<NandOp>& data_ops = m_map.deferred(tag);
  data_ops.clear();
  NandOp op;
  bool have_op = false;
  const bool virtual_pages = m_ftl.geometry().pages_per_unit > 1;  // read only the pages asked for
  const bool ahead = m_read_ahead.enabled();                       // once: the loop's stores may alias the member
  const bool stream = ahead && m_read_ahead.observe(c.first_lpn, c.units);
  std::uint32_t read_ahead_waits = 0;  // read-ahead records in flight the command waits for
  for (std::uint32_t i = 0; i < c.units; ++i) {
    if (__builtin_expect(ahead, 0)) {
      const ReadAhead::State s = m_read_ahead.state(c.first_lpn + i);
      if (s != ReadAhead::State::kAbsent) {
        ++m_stats.read_units_from_read_ahead;
        ++c.dram_units;
        if (s == ReadAhead::State::kInFlight && m_read_ahead.wait(m_read_ahead.record_of(c.first_lpn + i), tag)) {
          ++read_ahead_waits;
        }
        continue;
      }
    }
    const ReadPlan plan = m_ftl.plan_read(c.first_lpn + i);
    if (plan.unmapped()) {
      ++m_stats.read_units_unmapped;
      ++c.dram_units;
      continue;
    }
    if (plan.in_buffer()) {
      ++m_stats.read_units_from_buffer;
      ++c.dram_units;
      continue;
    }
    ++m_stats.read_units_from_nand;
    if (have_op && op.block == plan.block && op.page == plan.page) {
      op.bytes += unit_bytes;  // another unit of the same page: one read
      continue;
    }
    if (have_op) data_ops.push_back(op);
    op = NandOp{NandOpKind::kRead,
                OpOrigin::kHost,
                plan.die,
                plan.block,
                plan.page,
                unit_bytes,
                OpTicket::host_read(tag).cookie() | kOpTimedBit};
    if (virtual_pages) {
      op.page =
          vpage::with_mask(plan.page, vpage::touched(m_ftl.geometry(), c.first_lpn + i, c.first_byte(), c.end_byte()));
    }
    have_op = true;
  }
  if (have_op) data_ops.push_back(op);
  m_read_spread.count(data_ops, m_stats.read_spread);
  c.pending = static_cast<std::uint32_t>(data_ops.size()) + read_ahead_waits;
  if (c.map_pending == 0) m_map.release_deferred(tag, m_ops);
  submit_ops();
  if (__builtin_expect(stream, 0)) read_ahead();
  if (c.pending == 0 && c.map_pending == 0) send_read_data(tag);
}

void DeviceController::read_ahead() {
  const auto [from, to] = m_read_ahead.wanted(static_cast<Lpn>(m_ftl.user_units()));
  const std::uint32_t unit_bytes = m_ftl.geometry().unit_bytes;
  NandOp op;
  Lpn first = 0;
  std::uint32_t units = 0;
  // The units of one page go as one read; its record lists them.
  const auto issue = [&]() {
    if (units == 0) return true;
    std::uint32_t record;
    if (!m_read_ahead.issue(first, units, record)) return false;
    op.bytes = units * unit_bytes;
    op.cookie = OpTicket::read_ahead(record).cookie() | kOpTimedBit;
    m_ops.push_back(op);
    m_stats.read_ahead_units += units;
    units = 0;
    return true;
  };
  for (Lpn lpn = from; lpn < to; ++lpn) {
    const ReadPlan plan = m_ftl.plan_read(lpn);
    if (units && plan.on_flash() && plan.die == op.die && plan.block == op.block && plan.page == op.page) {
      ++units;
      continue;
    }
    if (!issue()) break;
    if (!plan.on_flash()) {  // zeros or the write buffer's: nothing to read ahead
      m_read_ahead.skip(lpn);
      continue;
    }
    op = NandOp{NandOpKind::kRead, OpOrigin::kHost, plan.die, plan.block, plan.page, 0, 0};
    first = lpn;
    units = 1;
  }
  issue();
  submit_ops();
}

LinkBooking DeviceController::send_read_chunk(std::uint8_t tag, std::uint32_t bytes, Picos not_before) {
  Command& c = m_commands[tag];
  const std::uint32_t left = c.sectors * kSectorBytes - c.bytes_sent;
  const std::uint32_t n = std::min(bytes, left);
  if (n == 0) return {};
  c.bytes_sent += n;
  return link->transmit(Fis{FisKind::kDataToHost, tag, c.op, c.lba, c.sectors, n}, not_before);
}

void DeviceController::send_read_data(std::uint8_t tag) {
  if (__builtin_expect(m_commands[tag].media_error, 0)) {  // no data: UNC in the error register
    ++m_stats.media_errors;
    complete(tag, true);
    return;
  }
  // Only the data sent after the last flash read is on the request's critical path (earlier
  // chunks went while it waited: they delay this one at most, as link wait).
  // The data the command found in DRAM (zeros for never-written units, the write buffer's,
  // read-ahead's) leaves the buffer through the controller's read DMA first
  // (controller.read_dma_rate); flash data went to the link as each page was corrected.
  Command& c = m_commands[tag];
  const std::uint64_t rate = m_config.controller.read_dma_bytes_per_s;
  Picos ready = 0;
  if (__builtin_expect(rate != 0 && c.dram_units != 0, 0)) {
    const std::uint64_t left = c.sectors * kSectorBytes - c.bytes_sent;
    ready = now_picos() +
            transfer_picos(std::min<std::uint64_t>(left, std::uint64_t(c.dram_units) * m_ftl.geometry().unit_bytes),
                           rate * 8);
  }
  const LinkBooking b = send_read_chunk(tag, ~std::uint32_t(0), ready);
  if (b.end) {
    if (ready) c.anatomy->to(Part::kReadDma, ready);
    c.anatomy->link(b.start, b.end);
  }
  complete(tag);
}

// ---- writes and TRIM -----------------------------------------------------------------------

void DeviceController::start_write(std::uint8_t tag) {
  Command& c = m_commands[tag];
  const Geometry& g = m_ftl.geometry();
  if (c.units > m_buffer.capacity()) {
    // Larger than the buffer and its spare unit: max_transfer is validated against the buffer,
    // so only a command the host did not split can get here.
    ++m_stats.rejected;
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
    const ReadPlan plan = m_ftl.plan_read(lpn);
    if (!plan.on_flash()) continue;
    // A virtual page (k > 1 pages) reads only the pages the write does not cover.
    const std::uint32_t page = g.pages_per_unit > 1
                                   ? vpage::with_mask(plan.page, vpage::uncovered(g, lpn, c.first_byte(), c.end_byte()))
                                   : plan.page;
    m_ops.push_back(NandOp{NandOpKind::kRead, OpOrigin::kHost, plan.die, plan.block, page, g.unit_bytes,
                           OpTicket::rmw_read(tag).cookie() | kOpTimedBit});
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
  if (m_buffer.wait(tag, m_commands[tag].units)) ++m_stats.buffer_waits;
  grant_buffer_space();
  // Still waiting with nothing on its way to free slots: a part-filled page may be all that
  // holds them (see BufferManager::partial_flush_allowed).
  if (m_buffer.waiting()) flush();
}

void DeviceController::grant_waiting() {
  while (m_buffer.waiting()) {
    const std::uint8_t tag = m_buffer.first_waiter();
    const Command& c = m_commands[tag];
    if (!m_buffer.grant(c.units)) return;
    c.anatomy->to(Part::kBufferWait, now_picos());
    const LinkBooking b =
        link->transmit(Fis{FisKind::kDataToDevice, tag, c.op, c.lba, c.sectors, c.sectors * kSectorBytes});
    c.anatomy->link(b.start, b.end);
  }
}

void DeviceController::data_arrived(std::uint8_t tag) {
  Command& c = m_commands[tag];
  const SlotOwner owner = m_commands.owner(tag);
  m_buffer.unreserve(c.units);
  for (std::uint32_t i = 0; i < c.units; ++i) {
    const Lpn lpn = c.first_lpn + i;
    if (m_read_ahead.enabled()) m_read_ahead.invalidate(lpn);
    const std::uint32_t slot = m_buffer.accept(lpn, owner);
    if (m_data && c.host_data) m_data->write_slot(m_ftl, c, lpn, slot);
    m_ftl.write_to_buffer(lpn, slot);
  }
  if (c.write_through) {
    c.pending = c.units;
  } else {
    complete(tag);
  }
  flush();
}

void DeviceController::trim_arrived(std::uint8_t tag) {
  // Only whole mapping units can be unmapped; the edges of an unaligned range keep their data.
  const Command& c = m_commands[tag];
  const std::uint64_t unit = m_ftl.geometry().unit_bytes;
  const std::uint64_t first = (c.first_byte() + unit - 1) / unit;
  const std::uint64_t end = c.end_byte() / unit;
  for (std::uint64_t lpn = first; lpn < end; ++lpn) {
    m_ftl.trim(static_cast<Lpn>(lpn));
    if (m_read_ahead.enabled()) m_read_ahead.invalidate(static_cast<Lpn>(lpn));
  }
  if (!m_map.unlimited()) m_map.update_range(first, end, m_ops);
  submit_ops();
  ++m_stats.trims;
  complete(tag);
  flush();  // slots of trimmed LPNs are dropped, making room
}

void DeviceController::check_flush_command() {
  if (m_flush_tag < 0) return;
  if (!m_buffer.clean()) return;
  const auto tag = static_cast<std::uint8_t>(m_flush_tag);
  m_flush_tag = -1;
  complete(tag);
}

}  // namespace ssdlab
