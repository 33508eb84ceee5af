#include "app/instruments/vcd_instrument.h"

#include <algorithm>
#include <iterator>

#include "model/ssd.h"

namespace ssdlab {

namespace {
constexpr std::size_t kEmitBatch = 4096;  // pending changes that trigger an emit
unsigned bits_for(std::uint64_t max) {
  unsigned bits = 1;
  while (bits < 64 && (max >> bits) != 0) ++bits;
  return bits;
}
}  // namespace

VcdInstrument::VcdInstrument(const std::string& path, Ssd& ssd, Picos start, Picos end) : m_ssd(ssd), m_vcd(path) {
  m_vcd.set_window(start, end);
  const std::uint32_t dies = ssd.flash.dies();
  const std::uint32_t channels = ssd.flash.channels();
  const Ftl& ftl = ssd.controller.ftl();
  m_vcd.scope("drive");
  m_ncq_var = m_vcd.var("ncq_in_flight", bits_for(ssd.hba.tags()));
  m_used_var = m_vcd.var("buffer_used", bits_for(ssd.controller.buffer().capacity()));
  m_dirty_var = m_vcd.var("buffer_dirty", bits_for(ssd.controller.buffer().capacity()));
  m_link.var = m_vcd.var("link_busy", 1);
  m_gc_dies_var = m_vcd.var("gc_dies", bits_for(dies));
  m_channels.resize(channels);
  for (std::uint32_t c = 0; c < channels; ++c) {
    m_vcd.scope("channel" + std::to_string(c));
    m_channels[c].run.var = m_vcd.var("bus", 1);
    m_vcd.upscope();
  }
  m_dies.resize(dies);
  const unsigned block_bits = bits_for(ftl.geometry().blocks_per_die);
  for (std::uint32_t d = 0; d < dies; ++d) {
    DieTrack& die = m_dies[d];
    die.free_blocks = ftl.free_blocks(d);
    die.gc = ftl.active_victim(d) >= 0;
    m_vcd.scope("die" + std::to_string(d));
    die.state_var = m_vcd.var("state", 2);
    die.free_var = m_vcd.var("free_blocks", block_bits, die.free_blocks);
    die.gc_var = m_vcd.var("gc", 1, die.gc);
    m_vcd.upscope();
  }
  m_vcd.upscope();
  m_vcd.end_definitions();
  m_last = now_picos();
  poll(m_last);
}

VcdInstrument::~VcdInstrument() {
  if (m_attached && !m_closed) m_ssd.timeline.set_observer(nullptr);
}

void VcdInstrument::attach() {
  m_ssd.add_probe(*this);
  m_ssd.timeline.set_observer(this);
  m_attached = true;
}

void VcdInstrument::poll(Picos when) {
  // Only a changed level goes into the heap.
  const auto level = [&](std::uint32_t var, std::uint64_t& last, std::uint64_t now) {
    if (now == last) return;
    last = now;
    m_vcd.change(when, var, now);
  };
  level(m_ncq_var, m_ncq, m_ssd.hba.in_flight());
  const WriteBuffer& buffer = m_ssd.controller.buffer();
  level(m_used_var, m_used, buffer.capacity() - buffer.free_slots());
  level(m_dirty_var, m_dirty, buffer.dirty());
  const Ftl& ftl = m_ssd.controller.ftl();
  std::uint64_t gc_dies = 0;
  for (std::uint32_t d = 0; d < m_dies.size(); ++d) {
    DieTrack& die = m_dies[d];
    level(die.free_var, die.free_blocks, ftl.free_blocks(d));
    const bool gc = ftl.active_victim(d) >= 0;
    gc_dies += gc;
    if (gc != die.gc) {
      die.gc = gc;
      m_vcd.change(when, die.gc_var, gc);
    }
  }
  level(m_gc_dies_var, m_gc_dies, gc_dies);
}

void VcdInstrument::observe(Picos when) {
  if (when > m_last) m_last = when;
  poll(m_last);
  if (m_vcd.pending() >= kEmitBatch) m_vcd.emit_before(settle_all(m_last, false));
}

void VcdInstrument::nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t*, std::uint32_t) {
  if (op.die >= m_dies.size()) return;
  DieTrack& die = m_dies[op.die];
  // One operation at a time per die: the idle gap before this one, if any, then this one.
  if (die.open && t.started > die.last_end) m_vcd.change(die.last_end, die.state_var, 0);
  m_vcd.change(t.started, die.state_var, 1 + static_cast<std::uint64_t>(op.origin));
  die.last_end = t.finished;
  die.known = t.finished;
  die.open = true;
}

void VcdInstrument::book(Booked& b, Picos start, Picos end) {
  if (end <= start) return;
  if (b.open && start == b.end) {  // back to back: one busy run
    b.end = end;
    return;
  }
  if (b.open) m_vcd.change(b.end, b.var, 0);
  m_vcd.change(start, b.var, 1);
  b.open = true;
  b.end = end;
}

void VcdInstrument::bus(std::uint32_t channel, std::uint32_t, Picos start, Picos end) {
  if (channel >= m_channels.size() || end <= start) return;
  auto& ahead = m_channels[channel].ahead;
  auto at = ahead.end();
  while (at != ahead.begin() && std::prev(at)->first > start) --at;  // usually the last
  ahead.insert(at, {start, end});
}

void VcdInstrument::fis(const Fis&, Picos start, Picos end) { book(m_link, start, end); }

void VcdInstrument::settle(Booked& b, Picos now, bool final) {
  // A booking made now may still start at b.end while b.end >= now.
  if (b.open && (final || b.end < now)) {
    m_vcd.change(b.end, b.var, 0);
    b.open = false;
  }
}

void VcdInstrument::settle(ChannelTrack& c, Picos now, bool final) {
  // A booking made now or later starts at `now` or later: those before are in order.
  while (!c.ahead.empty() && (final || c.ahead.front().first < now)) {
    book(c.run, c.ahead.front().first, c.ahead.front().second);
    c.ahead.pop_front();
  }
  settle(c.run, now, final);
}

Picos VcdInstrument::settle_all(Picos now, bool final) {
  Picos limit = now;
  settle(m_link, now, final);
  for (ChannelTrack& c : m_channels) settle(c, now, final);
  for (std::uint32_t d = 0; d < m_dies.size(); ++d) {
    DieTrack& die = m_dies[d];
    if (final || m_ssd.flash.die(d).idle()) {
      // Idle now: every operation that started has reported, the die idles since last_end.
      if (die.open) m_vcd.change(die.last_end, die.state_var, 0);
      die.open = false;
      die.known = std::max(die.known, now);
    } else {
      // Busy with an operation that reports when it ends; it started at `known` or later.
      limit = std::min(limit, die.known);
    }
  }
  return limit;
}

void VcdInstrument::close() {
  if (m_closed) return;
  m_closed = true;
  if (m_attached) m_ssd.timeline.set_observer(nullptr);
  const Picos end = std::max(m_last, now_picos());
  poll(end);
  settle_all(end, true);
  m_vcd.close();
}

}  // namespace ssdlab
