#include "app/instruments/vcd_writer.h"

#include <stdexcept>

namespace ssdlab {

std::string vcd_id(std::uint32_t index) {
  // Printable ASCII without '#' and '$', which start time stamps and keywords: a reader that
  // splits on white space cannot take an identifier for either.
  static const std::string kCodes = [] {
    std::string codes;
    for (char c = '!'; c <= '~'; ++c) {
      if (c != '#' && c != '$') codes.push_back(c);
    }
    return codes;
  }();
  std::string id;
  do {
    id.push_back(kCodes[index % kCodes.size()]);
    index /= static_cast<std::uint32_t>(kCodes.size());
  } while (index);
  return id;
}

VcdWriter::VcdWriter(const std::string& path) : m_out(path) {
  m_out.put("$version ssdlab $end\n$timescale 1ps $end\n");
}

void VcdWriter::scope(const std::string& name) { m_out.put("$scope module " + name + " $end\n"); }

void VcdWriter::upscope() { m_out.put("$upscope $end\n"); }

std::uint32_t VcdWriter::var(const std::string& name, unsigned width, std::uint64_t initial) {
  if (m_defined) throw std::logic_error("VCD: variable " + name + " declared after $enddefinitions");
  if (width == 0 || width > 64) throw std::logic_error("VCD: variable " + name + " has no valid width");
  const auto index = static_cast<std::uint32_t>(m_vars.size());
  m_vars.push_back(Var{width, initial, initial, false});
  m_out.put("$var wire " + std::to_string(width) + " " + vcd_id(index) + " " + name + " $end\n");
  return index;
}

void VcdWriter::end_definitions() {
  m_defined = true;
  m_out.put("$enddefinitions $end\n");
  if (m_window_start == 0) dump_values(0);
}

void VcdWriter::dump_values(Picos when) {
  m_out.put('#');
  m_out.put_uint(when);
  m_out.put("\n$dumpvars\n");
  for (std::uint32_t v = 0; v < m_vars.size(); ++v) write_value(v, m_vars[v].written);
  m_out.put("$end\n");
  m_dumped = true;
  m_emitted = when;
}

void VcdWriter::write_value(std::uint32_t var, std::uint64_t value) {
  const Var& v = m_vars[var];
  if (v.width == 1) {
    m_out.put(value ? '1' : '0');
  } else {
    m_out.put('b');
    int top = 63;
    while (top > 0 && !(value >> top & 1)) --top;
    for (int bit = top; bit >= 0; --bit) m_out.put(value >> bit & 1 ? '1' : '0');
    m_out.put(' ');
  }
  m_out.put(vcd_id(var));
  m_out.put('\n');
}

void VcdWriter::sift_up(std::size_t i) {
  const Pending e = m_heap[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (!before(e, m_heap[parent])) break;
    m_heap[i] = m_heap[parent];
    i = parent;
  }
  m_heap[i] = e;
}

VcdWriter::Pending VcdWriter::pop() {
  const Pending top = m_heap.front();
  const Pending last = m_heap.back();
  m_heap.pop_back();
  const std::size_t n = m_heap.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    std::size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && before(m_heap[child + 1], m_heap[child])) ++child;
    if (!before(m_heap[child], last)) break;
    m_heap[i] = m_heap[child];
    i = child;
  }
  m_heap[i] = last;
  return top;
}

void VcdWriter::emit_instant(Picos when) {
  // Every change due at `when` (a late one joins the last instant written).
  while (!m_heap.empty() && (m_heap.front().when <= when)) {
    const Pending p = pop();
    if (p.when < when) ++m_late;
    Var& v = m_vars[p.var];
    v.next = p.value;
    if (!v.touched) {
      v.touched = true;
      m_touched.push_back(p.var);
    }
  }
  if (when >= m_window_end || when < m_window_start) {
    // Outside the window: before it a change only sets the value dumped at its start.
    for (const std::uint32_t var : m_touched) {
      Var& v = m_vars[var];
      v.touched = false;
      if (when < m_window_start) v.written = v.next;
    }
    m_touched.clear();
    return;
  }
  if (!m_dumped) {
    if (when == m_window_start)
      for (const std::uint32_t var : m_touched) m_vars[var].written = m_vars[var].next;
    dump_values(m_window_start);
  }
  bool stamped = false;
  for (const std::uint32_t var : m_touched) {
    Var& v = m_vars[var];
    v.touched = false;
    if (v.next == v.written) continue;
    if (!stamped && when != m_emitted) {
      m_out.put('#');
      m_out.put_uint(when);
      m_out.put('\n');
    }
    stamped = true;
    v.written = v.next;
    write_value(var, v.next);
    ++m_written;
  }
  m_touched.clear();
  if (stamped) m_emitted = when;
}

void VcdWriter::emit_before(Picos limit) {
  while (!m_heap.empty() && m_heap.front().when < limit) {
    const Picos when = m_heap.front().when;
    emit_instant(when < m_emitted ? m_emitted : when);
  }
}

void VcdWriter::close() {
  while (!m_heap.empty()) {
    const Picos when = m_heap.front().when;
    emit_instant(when < m_emitted ? m_emitted : when);
  }
  if (!m_dumped) dump_values(m_window_start);  // the run ended before the window: its values there
  m_out.close();
}

}  // namespace ssdlab
