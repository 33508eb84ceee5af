// Write-buffer admission and flushing: which waiting write may send its data (room_for,
// reserved slots, strict arrival order), which dirty slots go into the next page program
// (flush staging) and which slots each program in flight holds (program records). Plain C++,
// owned by the controller's SystemC module; it sits beside the WriteBuffer it manages because
// buffer slots are what the FTL's buffered L2P entries name.
#pragma once

#include <cstdint>
#include <vector>

#include "base/core/ring.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/write_buffer.h"
#include "controller/hil/command_queue.h"
#include "controller/sched/op_ticket.h"

namespace ssdlab {

class BufferManager {
 public:
  // `configured_units`: the write buffer as configured. It gets one spare unit: a command of
  // max_transfer bytes (at most the buffer) that starts or ends inside a mapping unit touches
  // one unit more than its size; only such a command may use the spare, so every other one
  // sees the configured size.
  BufferManager(std::uint32_t configured_units, std::uint32_t units_per_page, std::uint32_t max_tags);

  const WriteBuffer& buffer() const { return m_buffer; }
  std::uint32_t capacity() const { return m_buffer.capacity(); }
  std::uint32_t dirty() const { return m_buffer.dirty(); }
  std::uint32_t reserved() const { return m_reserved; }
  std::uint32_t programs() const { return m_programs; }  // host page programs in flight
  // Nothing of the host's left to program: no dirty slot, nothing staged, no program in flight.
  bool clean() const { return m_buffer.dirty() == 0 && m_stage.empty() && m_programs == 0; }
  // Drops everything buffered (secure erase of a quiescent drive).
  void clear() {
    m_buffer.clear();
    m_stage.clear();
  }

  // ---- admission: writes wait in arrival order until their units fit ----
  // Buffer slots a write of `units` may still be granted (negative: none).
  std::int64_t room_for(std::uint32_t units) const {
    return std::int64_t(m_buffer.free_slots()) - m_reserved - (units > m_configured_units ? 0 : 1);
  }
  // Write `tag` of `units` joins the waiters. True if it has to wait (others wait, or no room).
  bool wait(std::uint8_t tag, std::uint32_t units) {
    const bool must_wait = !m_waiters.empty() || room_for(units) < units;
    m_waiters.push(tag);
    return must_wait;
  }
  bool waiting() const { return !m_waiters.empty(); }
  std::uint8_t first_waiter() const { return m_waiters.front(); }
  // The first waiting write gives up (a worn-out drive refuses it): it holds no space yet.
  void drop_first_waiter() { m_waiters.pop(); }
  // Grants the first waiter, of `units`, its slots if they fit (strict arrival order: a large
  // write at the head is not overtaken). True if granted: it leaves the waiters.
  bool fits(std::uint32_t units) const { return room_for(units) >= units; }
  bool grant(std::uint32_t units) {
    if (!fits(units)) return false;
    m_waiters.pop();
    m_reserved += units;
    return true;
  }
  // A granted write's data arrived: its reservation becomes slots, one per accept().
  void unreserve(std::uint32_t units) { m_reserved -= units; }
  std::uint32_t accept(Lpn lpn, SlotOwner owner) { return m_buffer.insert(lpn, owner.id()); }
  SlotOwner owner(std::uint32_t slot) const { return SlotOwner::from_id(m_buffer.owner(slot)); }
  Lpn lpn(std::uint32_t slot) const { return m_buffer.lpn(slot); }
  void release(std::uint32_t slot) { m_buffer.release(slot); }

  // May the staged slots go as a part-filled page? `host_waits`: write cache off, draining or
  // a FLUSH CACHE waiting, so everything goes. Otherwise only when a write-through command
  // owns a staged slot, or the first waiter can get room from nothing else.
  bool partial_flush_allowed(bool host_waits, const CommandQueue& commands) const {
    // Write-through, FUA and FLUSH CACHE: the host waits for these units, so a page may be
    // programmed part full. Draining: the host is idle and everything goes to flash.
    if (host_waits) return true;
    // A write waits for buffer space that nothing else will free: no host program in flight,
    // no dirty slot left to fill a page. The staged slots are held back waiting for data that
    // this very write would bring (with several units per page), so they go part-filled.
    if (!m_waiters.empty() && m_programs == 0 && m_buffer.dirty() == 0) {
      const std::uint32_t units = commands[m_waiters.front()].units;
      if (room_for(units) < units) return true;
    }
    for (std::uint32_t slot : m_stage) {
      const int tag = commands.running(owner(slot));
      if (tag >= 0 && commands[static_cast<std::uint8_t>(tag)].write_through) return true;
    }
    return false;
  }

  // ---- flush staging: live dirty slots gathered for the next page program ----
  bool stage_empty() const { return m_stage.empty(); }
  bool stage_full() const { return m_stage.size() >= m_units_per_page; }
  // Fills the stage from the dirty FIFO; superseded or trimmed slots go to drop(slot).
  template <typename Drop>
  void gather(const Ftl& ftl, Drop drop) {
    while (m_stage.size() < m_units_per_page && m_buffer.dirty() > 0) {
      // The mapping entries of slots a little further down the FIFO, for the next lookups.
      constexpr std::uint32_t kAhead = 8;
      if (m_buffer.dirty() > kAhead) ftl.prefetch(m_buffer.lpn(m_buffer.peek_dirty(kAhead)));
      const std::uint32_t slot = m_buffer.pop_dirty();
      if (newest(ftl, slot)) {
        m_stage.push_back(slot);
      } else {
        drop(slot);  // superseded by a newer write or trimmed
      }
    }
  }
  // Staged slots may have been superseded since they were gathered: drops those and lists
  // the LPNs of the rest (staged_lpns()), also as the slots of next_record() (unused until
  // programmed()). Returns how many are left.
  template <typename Drop>
  std::uint32_t restage(const Ftl& ftl, Drop drop) {
    m_stage_lpns.clear();
    std::uint32_t* record_slots = &m_record_slots[std::size_t(m_free_records.back()) * m_units_per_page];
    std::size_t kept = 0;
    for (std::uint32_t slot : m_stage) {
      if (newest(ftl, slot)) {
        record_slots[kept] = slot;
        m_stage[kept++] = slot;
        m_stage_lpns.push_back(m_buffer.lpn(slot));
      } else {
        drop(slot);
      }
    }
    m_stage.resize(kept);
    return static_cast<std::uint32_t>(kept);
  }
  std::uint32_t staged() const { return static_cast<std::uint32_t>(m_stage.size()); }
  std::uint32_t staged_slot(std::uint32_t i) const { return m_stage[i]; }
  const Lpn* staged_lpns() const { return m_stage_lpns.data(); }

  // ---- program records: the slots of each host page program in flight ----
  // The record the next program will carry (its ticket).
  std::uint32_t next_record() const { return m_free_records.back(); }
  // The staged slots were placed as one program carrying next_record(): the stage empties.
  // Call right after restage() (which wrote the record's slots).
  void programmed() {
    const std::uint32_t record = m_free_records.back();
    m_free_records.pop_back();
    m_record_count[record] = static_cast<std::uint32_t>(m_stage.size());
    m_stage.clear();
    ++m_programs;
  }
  // The slots program `record` carries (before program_done), for instruments.
  template <typename Visit>
  void visit_record(std::uint32_t record, Visit visit) const {
    const std::uint32_t* slots = &m_record_slots[std::size_t(record) * m_units_per_page];
    for (std::uint32_t i = 0; i < m_record_count[record]; ++i) visit(slots[i]);
  }
  // A program finished: its record is freed and each of its slots goes to drop(slot).
  template <typename Drop>
  void program_done(std::uint32_t record, Drop drop) {
    --m_programs;
    const std::uint32_t* slots = &m_record_slots[std::size_t(record) * m_units_per_page];
    for (std::uint32_t i = 0; i < m_record_count[record]; ++i) drop(slots[i]);
    m_free_records.push_back(record);
  }

 private:
  // Does `slot` still hold the newest data of its LPN? Asked twice per unit flushed, so with
  // the FTL's own entry test rather than plan_read() (4.5 M more instructions on the quickstart).
  bool newest(const Ftl& ftl, std::uint32_t slot) const {
    const std::uint32_t e = ftl.lookup(m_buffer.lpn(slot));
    return Ftl::is_buffered(e) && Ftl::buffer_slot(e) == slot;
  }

  std::uint32_t m_configured_units;
  std::uint32_t m_units_per_page;
  WriteBuffer m_buffer;
  std::uint32_t m_reserved = 0;  // slots granted to writes whose data is on its way
  Ring<std::uint8_t> m_waiters;  // writes waiting for buffer space, in arrival order
  std::vector<std::uint32_t> m_stage;
  std::vector<Lpn> m_stage_lpns;
  // Page programs in flight: units_per_page slots each.
  std::vector<std::uint32_t> m_record_slots;
  std::vector<std::uint32_t> m_record_count;
  std::vector<std::uint32_t> m_free_records;
  std::uint32_t m_programs = 0;
};

}  // namespace ssdlab
