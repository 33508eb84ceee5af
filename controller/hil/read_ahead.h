// Sequential read-ahead, the firmware's part (controller.read_ahead, docs/read-ahead.md): it
// detects a stream of read commands, each starting where the last ended, and keeps a window of
// the mapping units it read from flash into DRAM ahead of the host. Plain logic: the controller
// issues the flash reads (one per page, each with a record of the units it brings) and serves
// commands from the window.
//
// The window is the LPN range [lo, hi): every unit in it is in flight, ready in DRAM, or absent
// (not on flash when the window passed it, or written or trimmed since). A command reading units
// in flight waits for their records; a record outlives a window reset (a stream broken while its
// reads are in flight), so a waiting command is always released when the read lands.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "base/core/types.h"

namespace ssdlab {

class ReadAhead {
 public:
  enum class State : std::uint8_t { kAbsent, kInFlight, kReady };
  static constexpr std::uint32_t kNoRecord = ~std::uint32_t(0);

  // `depth_units` units ahead of the stream (0: off); a stream is `trigger` commands in a row.
  ReadAhead(std::uint32_t depth_units, std::uint32_t trigger)
      : m_depth(depth_units),
        m_trigger(trigger),
        m_state(depth_units),
        m_record_of(depth_units, kNoRecord),
        m_records(depth_units) {
    m_free.reserve(depth_units);
    for (std::uint32_t r = depth_units; r > 0; --r) m_free.push_back(r - 1);
  }

  bool enabled() const { return m_depth != 0; }

  // A read command of [first, first + units) arrives. Units of the window below `first` are
  // given up (the host moved past them); a command that does not continue the stream ends it.
  // True if the stream is long enough to read ahead behind this command.
  bool observe(Lpn first, std::uint32_t units) {
    if (first == m_next && m_run != 0) {
      if (m_run < m_trigger) ++m_run;
    } else {
      reset_window();
      m_run = 1;
    }
    m_next = first + units;
    if (m_lo < first) advance_lo(first < m_hi ? first : m_hi);
    if (m_lo == m_hi) m_lo = m_hi = m_next;  // empty: it starts past the command
    return m_run >= m_trigger;
  }

  State state(Lpn lpn) const {
    if (lpn < m_lo || lpn >= m_hi) return State::kAbsent;
    return m_state[lpn % m_depth];
  }
  // The record bringing `lpn` (in flight only).
  std::uint32_t record_of(Lpn lpn) const { return m_record_of[lpn % m_depth]; }

  // The next units to read ahead: [from, to), from the window's top to `depth` past the stream's
  // position, within `user_units`. Empty when the window is full or the stream is not on.
  std::pair<Lpn, Lpn> wanted(Lpn user_units) const {
    if (m_run < m_trigger) return {m_hi, m_hi};
    const Lpn from = m_hi > m_next ? m_hi : m_next;
    std::uint64_t to = std::uint64_t(m_next) + m_depth;
    if (to > std::uint64_t(m_lo) + m_depth) to = std::uint64_t(m_lo) + m_depth;
    if (to > user_units) to = user_units;
    return {from, Lpn(to > from ? to : from)};
  }

  // The window reaches `lpn` without holding it (unmapped, or in the write buffer).
  void skip(Lpn lpn) { extend(lpn, State::kAbsent, kNoRecord); }
  // A read for [first, first + units) goes to flash: its record (the op's cookie carries it).
  // False if no record is free (the window is full of reads in flight).
  bool issue(Lpn first, std::uint32_t units, std::uint32_t& record) {
    if (m_free.empty()) return false;
    record = m_free.back();
    m_free.pop_back();
    m_records[record] = Record{first, units, 0};
    for (std::uint32_t i = 0; i < units; ++i) extend(first + i, State::kInFlight, record);
    return true;
  }
  // Command `tag` waits for `record`. False if it already did (count each record once).
  bool wait(std::uint32_t record, std::uint8_t tag) {
    const std::uint32_t bit = 1u << tag;
    if (m_records[record].waiters & bit) return false;
    m_records[record].waiters |= bit;
    return true;
  }
  // `record`'s read landed: its units still in the window become ready (`ok`) or absent (the
  // read failed). Returns the tags that waited for it (a bit each); the record is free again.
  std::uint32_t landed(std::uint32_t record, bool ok = true) {
    const Record r = m_records[record];
    for (std::uint32_t i = 0; i < r.units; ++i) {
      const Lpn lpn = r.first + i;
      if (lpn >= m_lo && lpn < m_hi && m_record_of[lpn % m_depth] == record) {
        m_state[lpn % m_depth] = ok ? State::kReady : State::kAbsent;
        m_record_of[lpn % m_depth] = kNoRecord;
      }
    }
    m_free.push_back(record);
    return r.waiters;
  }
  // `lpn` was written or trimmed: what the window holds of it is stale.
  void invalidate(Lpn lpn) {
    if (lpn < m_lo || lpn >= m_hi) return;
    m_state[lpn % m_depth] = State::kAbsent;
    m_record_of[lpn % m_depth] = kNoRecord;
  }
  // The mapping changed outside the host's commands (precondition, image, secure erase).
  void reset() {
    reset_window();
    m_run = 0;
  }

  Lpn lo() const { return m_lo; }
  Lpn hi() const { return m_hi; }
  std::uint32_t records_in_flight() const { return m_depth - static_cast<std::uint32_t>(m_free.size()); }

 private:
  struct Record {
    Lpn first;
    std::uint32_t units;
    std::uint32_t waiters;  // tags waiting for it, a bit each
  };

  void extend(Lpn lpn, State s, std::uint32_t record) {
    if (m_lo == m_hi || lpn < m_hi) m_lo = m_hi = lpn;  // (wanted() never goes back: defensive)
    // The window stays contiguous: units it passes over (the current command's own) are absent.
    for (; m_hi < lpn; ++m_hi) {
      m_state[m_hi % m_depth] = State::kAbsent;
      m_record_of[m_hi % m_depth] = kNoRecord;
    }
    m_state[lpn % m_depth] = s;
    m_record_of[lpn % m_depth] = record;
    ++m_hi;
  }
  void advance_lo(Lpn to) {
    for (Lpn lpn = m_lo; lpn < to; ++lpn) m_record_of[lpn % m_depth] = kNoRecord;
    m_lo = to;
  }
  void reset_window() {
    for (Lpn lpn = m_lo; lpn < m_hi; ++lpn) m_record_of[lpn % m_depth] = kNoRecord;
    m_lo = m_hi = 0;
  }

  std::uint32_t m_depth, m_trigger;
  std::uint32_t m_run = 0;  // commands in a row of the current stream
  Lpn m_next = 0;           // where the stream's next command would start
  Lpn m_lo = 0, m_hi = 0;   // the window
  std::vector<State> m_state;
  std::vector<std::uint32_t> m_record_of;
  std::vector<Record> m_records;
  std::vector<std::uint32_t> m_free;
};

}  // namespace ssdlab
