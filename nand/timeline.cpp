#include "nand/timeline.h"

#include <stdexcept>

namespace ssdlab {

Timeline* Timeline::s_pumping = nullptr;
Picos Timeline::s_now = 0;

Timeline::Timeline(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  m_heap.reserve(256);
  SC_METHOD(pump);
  sensitive << m_wake;
  dont_initialize();
}

void Timeline::sift_up(std::size_t i, const Entry& e) {
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(e, m_heap[parent])) break;
    m_heap[i] = m_heap[parent];
    i = parent;
  }
  m_heap[i] = e;
}

void Timeline::sift_down(std::size_t i, const Entry& e) {
  // A 4-ary heap: shallower than a binary one. With four children the smallest is picked
  // without branches (keys are random, so branches on them are mispredicted half the time).
  const std::size_t n = m_heap.size();
  for (;;) {
    const std::size_t first = 4 * i + 1;
    std::size_t best;
    if (first + 3 < n) {
      const Entry* c = &m_heap[first];
      const std::size_t a = std::size_t(before(c[1], c[0]));
      const std::size_t b = 2 + std::size_t(before(c[3], c[2]));
      best = first + (before(c[b], c[a]) ? b : a);
    } else if (first < n) {
      best = first;
      for (std::size_t k = first + 1; k < n; ++k) {
        if (before(m_heap[k], m_heap[best])) best = k;
      }
    } else {
      break;
    }
    if (!before(m_heap[best], e)) break;
    m_heap[i] = m_heap[best];
    i = best;
  }
  m_heap[i] = e;
}

void Timeline::push(const Entry& e) {
  m_heap.push_back(e);
  sift_up(m_heap.size() - 1, e);
}

Timeline::Entry Timeline::pop() {
  const Entry top = m_heap.front();
  const Entry last = m_heap.back();
  m_heap.pop_back();
  if (!m_heap.empty()) sift_down(0, last);
  return top;
}

void Timeline::drop_fired_root() {
  if (!m_root_fired) return;
  m_root_fired = false;
  pop();
}

void Timeline::cancel(TimerClient& client, std::uint32_t what) {
  drop_fired_root();
  bool removed = false;
  for (std::size_t i = 0; i < m_heap.size();) {
    if (m_heap[i].client != &client || m_heap[i].what != what) {
      ++i;
      continue;
    }
    removed = true;
    const Entry last = m_heap.back();
    m_heap.pop_back();
    if (i == m_heap.size()) break;
    if (i > 0 && before(last, m_heap[(i - 1) / 4])) {
      sift_up(i, last);
    } else {
      sift_down(i, last);
    }
    // m_heap[i] now holds another entry: look at it again.
  }
  if (removed && s_pumping != this) {  // a wake-up for nothing would still move time on
    m_wake.cancel();
    m_armed_at = kNever;
    arm();
  }
}

void Timeline::at(Picos when, TimerClient& client, std::uint32_t what) {
  if (when < now()) throw std::logic_error(std::string(name()) + ": callback scheduled in the past");
  const Entry e{Key(when) << 64 | m_seq++, &client, what};
  if (m_root_fired && s_pumping == this) {
    m_root_fired = false;
    sift_down(0, e);
    return;
  }
  push(e);
  // Inside this timeline's pump the wake-up is set when the pump returns.
  if (s_pumping != this && when < m_armed_at) arm();
}

void Timeline::arm() {
  if (m_heap.empty()) {
    m_armed_at = kNever;
    return;
  }
  const Picos sc_now = sc_core::sc_time_stamp().value();
  const Picos when = m_heap.front().when();
  // An earlier notification replaces a later pending one; a later one is ignored by SystemC,
  // so m_armed_at only moves down until the pump runs.
  m_wake.notify(sc_core::sc_time::from_value(when - sc_now));
  m_armed_at = when;
}

void Timeline::notify(sc_core::sc_event& event) {
  if (s_pumping == nullptr) {
    event.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  const Picos sc_now = sc_core::sc_time_stamp().value();
  event.notify(sc_core::sc_time::from_value(s_now - sc_now));
  // The process that waits for `event` must find the drive as it is at s_now: run nothing later.
  s_pumping->m_stop = true;
}

void Timeline::pump() {
  ++m_activations;
  m_armed_at = kNever;
  const Picos start = sc_core::sc_time_stamp().value();
  // Run ahead up to (not including) SystemC's next activity; what is due now always runs.
  Picos limit = start;
  if (m_lookahead) {
    const Picos ahead = sc_core::sc_time_to_pending_activity().value();
    limit = ahead > kNever - start ? kNever : start + ahead;
  }
  struct Pumping {  // also when a callback throws
    explicit Pumping(Timeline* t) : timeline(t) { s_pumping = t; }
    ~Pumping() {
      timeline->drop_fired_root();
      s_pumping = nullptr;
    }
    Timeline* timeline;
  } pumping(this);
  m_stop = false;
  while (!m_heap.empty()) {
    const Picos when = m_heap.front().when();
    // After a notify(), what is due at the same time still runs: the woken process then finds
    // the drive as it is after that instant whether or not the pump ran ahead.
    if (m_stop ? when > s_now : when > start && when >= limit) break;
    const Entry e = m_heap.front();
    s_now = e.when();
    ++m_callbacks;
    m_root_fired = true;
    e.client->on_timer(e.what);
    drop_fired_root();
  }
  s_pumping = nullptr;
  arm();
}

}  // namespace ssdlab
