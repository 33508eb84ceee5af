// A Value Change Dump (IEEE 1364 section 18) written as changes arrive: the header ($timescale
// 1 ps, $scope/$var/$upscope, $enddefinitions, the initial values in $dumpvars), then one
// "#time" line per instant in increasing order with the signals that changed then. Changes may
// arrive out of time order (a bus booked ahead, a die's operation known when it ends): they
// wait in a min-heap until the caller says nothing earlier than a time can still arrive
// (emit_before). Per instant a signal's last change counts, and a change to the value it
// already has is not written. Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/instruments/buffered_file.h"
#include "base/core/types.h"

namespace ssdlab {

class VcdWriter {
 public:
  explicit VcdWriter(const std::string& path);

  // Definitions (before end_definitions): nested scopes and variables of `width` bits.
  void scope(const std::string& name);
  void upscope();
  std::uint32_t var(const std::string& name, unsigned width, std::uint64_t initial = 0);
  // Only changes in [start, end) are written (before end_definitions): the values at `start` are
  // dumped there ($dumpvars), earlier changes only set them, later ones are dropped.
  void set_window(Picos start, Picos end) {
    m_window_start = start;
    m_window_end = end;
  }
  // Writes $enddefinitions and the initial values at time 0 (with a window: at its start).
  void end_definitions();

  // `var` takes `value` at `when`. `when` must not be earlier than a time already emitted
  // (such a change is written at the last emitted time and counted in late_changes()).
  void change(Picos when, std::uint32_t var, std::uint64_t value) {
    m_heap.push_back(Pending{when, m_seq++, var, value});
    sift_up(m_heap.size() - 1);
  }
  // Writes every change earlier than `limit`.
  void emit_before(Picos limit);
  // Writes every change left and closes the file.
  void close();

  std::size_t pending() const { return m_heap.size(); }
  std::uint64_t late_changes() const { return m_late; }
  std::uint64_t changes_written() const { return m_written; }
  std::uint64_t bytes_written() const { return m_out.bytes_written(); }

 private:
  struct Pending {
    Picos when;
    std::uint64_t seq;
    std::uint32_t var;
    std::uint64_t value;
  };
  struct Var {
    unsigned width;
    std::uint64_t written;  // last value in the file
    std::uint64_t next;     // value at the instant being emitted
    bool touched;
  };
  static bool before(const Pending& a, const Pending& b) { return a.when != b.when ? a.when < b.when : a.seq < b.seq; }
  void sift_up(std::size_t i);
  Pending pop();
  void write_value(std::uint32_t var, std::uint64_t value);
  void emit_instant(Picos when);
  void dump_values(Picos when);  // "#when $dumpvars" with every value written

  BufferedFile m_out;
  std::vector<Var> m_vars;
  std::vector<std::uint32_t> m_touched;
  std::vector<Pending> m_heap;  // binary min-heap on (when, seq)
  std::uint64_t m_seq = 0;
  Picos m_emitted = 0;  // the last instant written
  bool m_defined = false;
  bool m_dumped = false;  // $dumpvars written
  Picos m_window_start = 0, m_window_end = ~Picos(0);
  std::uint64_t m_late = 0, m_written = 0;
};

// VCD identifier code of variable `index` (printable ASCII but '#' and '$', shortest first).
std::string vcd_id(std::uint32_t index);

}  // namespace ssdlab
