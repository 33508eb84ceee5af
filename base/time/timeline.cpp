#include "base/time/timeline.h"

#include <algorithm>
#include <stdexcept>

namespace ssdlab {

Timeline* Timeline::s_pumping = nullptr;
Picos Timeline::s_now = 0;

Timeline::Timeline(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  m_heap.reserve(256);
  m_heads.push_back(Entry{kNoKey, nullptr, 0});  // lane 0 is the heap
  m_queued.emplace_back(1);
  m_tree_when.assign(2, kNever);  // one lane: its leaf is the root
  m_tree_order.assign(2, kNever);
  SC_METHOD(pump);
  sensitive << m_wake;
  dont_initialize();
}

Timeline::Lane Timeline::add_lane() {
  const auto lane = static_cast<std::uint32_t>(m_heads.size());
  if (lane >= (1u << kLaneBits) - 1) throw std::logic_error(std::string(name()) + ": too many lanes");
  m_heads.push_back(Entry{kNoKey, nullptr, 0});
  m_queued.emplace_back(4);
  // Every leaf moves: rebuild the tree (lanes are added while the drive is built).
  const std::size_t n = m_heads.size();
  m_last_leaf = 2 * n - 1;
  m_tree_when.assign(2 * n, kNever);
  m_tree_order.assign(2 * n, kNever);
  for (std::uint32_t l = 0; l < n; ++l) set_tree_key(leaf(l), head_key(l));
  for (std::size_t i = n - 1; i >= 1; --i) set_tree_key(i, std::min(tree_key(2 * i), tree_key(2 * i + 1)));
  return Lane{lane};
}

void Timeline::update(std::uint32_t lane) {
  // Up from the leaf, the winner of each pair: the siblings' addresses are known in advance, so
  // their loads overlap; only the running minimum is carried from level to level. Keys carry
  // their lane, so a node is one value. The levels are unrolled (a jump into the chain by
  // depth), so no level tests whether it is the root.
  std::uint64_t* const when = m_tree_when.data();
  std::uint64_t* const order = m_tree_order.data();
  std::size_t i = leaf(lane);
  Key key = head_key(lane);
  when[i] = static_cast<std::uint64_t>(key >> 64);
  order[i] = static_cast<std::uint64_t>(key);
  const auto level = [&] {  // written so that the minimum is two conditional moves, no branch
    const std::size_t s = i ^ 1;
    const Key other = Key(when[s]) << 64 | order[s];
    key = other < key ? other : key;
    i >>= 1;
    when[i] = static_cast<std::uint64_t>(key >> 64);
    order[i] = static_cast<std::uint64_t>(key);
  };
  const unsigned depth = static_cast<unsigned>(63 - __builtin_clzll(i));  // i >= 1
  switch (depth) {
    default:
      for (unsigned d = depth; d > 12; --d) level();
      [[fallthrough]];
    case 12:
      level();
      [[fallthrough]];
    case 11:
      level();
      [[fallthrough]];
    case 10:
      level();
      [[fallthrough]];
    case 9:
      level();
      [[fallthrough]];
    case 8:
      level();
      [[fallthrough]];
    case 7:
      level();
      [[fallthrough]];
    case 6:
      level();
      [[fallthrough]];
    case 5:
      level();
      [[fallthrough]];
    case 4:
      level();
      [[fallthrough]];
    case 3:
      level();
      [[fallthrough]];
    case 2:
      level();
      [[fallthrough]];
    case 1:
      level();
      [[fallthrough]];
    case 0:
      break;
  }
}

void Timeline::lower(std::uint32_t lane) {
  // The lane's key went down (it had none, or the heap got an earlier head): a node's minimum
  // becomes the smaller of the two, so the climb stops at the first node already below it, and
  // no sibling is read. A node on the path of the lane whose callback runs still holds that
  // callback's key, the smallest of all: the climb stops there, and the replay of that lane's
  // path when the callback returns reads the nodes below.
  std::size_t i = leaf(lane);
  const Key key = head_key(lane);
  set_tree_key(i, key);
  while (i > 1) {
    i >>= 1;
    if (tree_key(i) <= key) return;
    set_tree_key(i, key);
  }
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

void Timeline::cancel(TimerClient& client, std::uint32_t what) {
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
  if (!removed) return;
  if (m_fired_lane != 0) update(0);
  if (s_pumping != this) {  // a wake-up for nothing would still move time on
    m_wake.cancel();
    m_armed_at = kNever;
    arm();
  }
}

void Timeline::bad_key(Picos when) const {
  if (when < now()) throw std::logic_error(std::string(name()) + ": callback scheduled in the past");
  if (when == kNever) throw std::logic_error(std::string(name()) + ": callback scheduled at the end of time");
  throw std::overflow_error(std::string(name()) + ": callback sequence numbers exhausted");
}

void Timeline::at(Picos when, TimerClient& client, std::uint32_t what) {
  const Entry e{make_key(when, 0), &client, what};
  push(e);
  // Only a new head changes the tree; the running callback's lane is updated when it returns.
  if (m_heap.front().key == e.key && m_fired_lane != 0) lower(0);
  // Inside this timeline's pump the wake-up is set when the pump returns.
  if (s_pumping != this) scheduled_outside(when);
}

void Timeline::at_lane(Lane lane, Picos when, TimerClient& client, std::uint32_t what) {
  const Key key = make_key(when, lane.id);
  Entry& head = m_heads[lane.id];
  if (head.key == kNoKey) {
    head.key = key;
    head.client = &client;
    head.what = what;
    if (m_fired_lane != lane.id) lower(lane.id);
  } else {
    Ring<Entry>& q = m_queued[lane.id];
    if (when < (q.empty() ? head : q.back()).when()) {
      throw std::logic_error(std::string(name()) + ": lane callbacks must come in time order");
    }
    q.push(Entry{key, &client, what});
    ++head.backlog;
  }
  if (s_pumping != this) scheduled_outside(when);
}

void Timeline::scheduled_outside(Picos when) {
  if (m_observer) m_observer->observe(now());
  if (when < m_armed_at) arm();
}

void Timeline::arm() {
  if (empty()) {
    m_armed_at = kNever;
    return;
  }
  const Picos sc_now = sc_core::sc_time_stamp().value();
  const Picos when = m_tree_when[1];
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

template <bool kObserved>
void Timeline::run_batch(Picos start, Picos limit) {
  while (!empty()) {
    const Picos when = m_tree_when[1];
    // After a notify(), what is due at the same time still runs: the woken process then finds
    // the drive as it is after that instant whether or not the pump ran ahead.
    if (m_stop ? when > s_now : when > start && when >= limit) break;
    const std::uint32_t lane = lane_of(m_tree_order[1]);
    TimerClient* client;
    std::uint32_t what;
    if (lane == 0) {
      const Entry e = pop();
      client = e.client;
      what = e.what;
    } else {
      Entry& head = m_heads[lane];
      client = head.client;
      what = head.what;
      if (head.backlog == 0) {
        head.key = kNoKey;
      } else {
        const Entry next = m_queued[lane].pop();
        head.key = next.key;
        head.client = next.client;
        head.what = next.what;
        --head.backlog;
      }
    }
    s_now = when;
    ++m_callbacks;
    m_fired_lane = lane;  // its new head is settled once, after the callback
    client->on_timer(what);
    m_fired_lane = kNoLane;
    update(lane);
    if constexpr (kObserved) m_observer->observe(when);
  }
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
      if (timeline->m_fired_lane != kNoLane) {
        const std::uint32_t lane = timeline->m_fired_lane;
        timeline->m_fired_lane = kNoLane;
        timeline->update(lane);
      }
      s_pumping = nullptr;
    }
    Timeline* timeline;
  } pumping(this);
  m_stop = false;
  // Decided once per batch: the loop without an observer is the one that ran before.
  if (m_observer) {
    run_batch<true>(start, limit);
  } else {
    run_batch<false>(start, limit);
  }
  s_pumping = nullptr;
  arm();
}

}  // namespace ssdlab
