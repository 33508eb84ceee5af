// The drive's event queue. Every timed module (dies, SATA link, controller CPU, host driver)
// schedules its callbacks here instead of notifying one sc_event per step: SystemC's timed
// queue costs ~1,000 instructions per notification, this one a few dozen. Callbacks are
// ordered by (time, order of scheduling) across the whole drive.
//
// SystemC still keeps time. One SC_METHOD, the pump, runs the queued callbacks in (time,
// order of scheduling) order. With look-ahead on (batch runs), it runs every callback due
// before SystemC's own next activity (sc_time_to_pending_activity: the sampler, a phase's idle
// wait, another drive's pump) in one activation, with now_picos() reporting each callback's
// time. Anything a SystemC process waits for goes through notify(), which stops the pump once
// the callbacks due at that instant have run, so the process wakes at the right simulated
// time and sees the drive exactly as it is then. With look-ahead off (the paced NBD server), the pump runs only what is
// due at the current SystemC time: one SystemC activation per distinct time, as before.
#pragma once

#include <cstdint>
#include <systemc>
#include <vector>

#include "base/core/ring.h"
#include "base/core/types.h"

namespace ssdlab {

// A module's timed callbacks: `what` says which of its timers fired.
struct TimerClient {
  virtual void on_timer(std::uint32_t what) = 0;

 protected:
  ~TimerClient() = default;
};

// An instrument that must see the drive after every change (the VCD writer): called after
// every callback the pump runs, with the callback's time, and when a module schedules a
// callback from outside the pump (a SystemC process: the host starting a job), with SystemC's
// time. Times never decrease.
struct TimelineObserver {
  virtual void observe(Picos when) = 0;

 protected:
  ~TimelineObserver() = default;
};

class Timeline : public sc_core::sc_module {
 public:
  // A module whose callbacks come due in the order it schedules them (a die: one operation at
  // a time; the SATA link: deliveries in sending order) gets a lane of its own: a FIFO whose
  // head competes with the other lanes' heads in a tournament tree, which costs a fixed walk
  // from leaf to root instead of a heap's data-dependent sifting. Lane 0 is a heap for
  // everything else (timers that may be cancelled, callbacks in any order).
  struct Lane {
    std::uint32_t id;
  };

  SC_HAS_PROCESS(Timeline);
  explicit Timeline(sc_core::sc_module_name name);

  Lane add_lane();
  // Calls client.on_timer(what) at simulated time `when` (>= now). Callbacks due at the same
  // time run in the order they were scheduled, whichever lane they are on.
  void at(Picos when, TimerClient& client, std::uint32_t what);
  void after(Picos delay, TimerClient& client, std::uint32_t what) { at(now() + delay, client, what); }
  // The same on a lane: `when` must not be earlier than the lane's last scheduled callback.
  void at(Lane lane, Picos when, TimerClient& client, std::uint32_t what) {
    Entry& head = m_heads[lane.id];
    // The usual case inline: a lane with nothing pending, scheduled from its own callback (a
    // die starting its next phase), so the tree is replayed once the callback returns.
    // (m_fired_lane is set only while this timeline's pump runs a callback.)
    if (m_fired_lane == lane.id && head.key == kNoKey && when >= s_now && when != kNever && m_seq < kMaxSeq) {
      head.key = Key(when) << 64 | (m_seq++ << kLaneBits) | lane.id;
      head.client = &client;
      head.what = what;
      return;
    }
    at_lane(lane, when, client, what);
  }
  // When the earliest callback pending on `lane` (not lane 0) is due; kNever if none.
  Picos lane_next(Lane lane) const {
    const Key key = m_heads[lane.id].key;
    return key == kNoKey ? kNever : static_cast<Picos>(key >> 64);
  }
  // Removes client's pending callbacks with this `what` from lane 0 (a linear scan: for rare
  // timers).
  void cancel(TimerClient& client, std::uint32_t what);
  // Notifies a SystemC event at the current simulated time (see above).
  static void notify(sc_core::sc_event& event);
  // Current simulated time: the running callback's time inside the pump, SystemC's otherwise.
  static Picos now() { return s_pumping ? s_now : sc_core::sc_time_stamp().value(); }

  // While set (null: none), `observer` sees the drive after every callback. The pump decides
  // once per batch, so without an observer a callback costs what it did before.
  void set_observer(TimelineObserver* observer) { m_observer = observer; }
  // Off: never run ahead of SystemC's time (for a kernel stepped against the wall clock).
  void set_lookahead(bool on) { m_lookahead = on; }
  bool empty() const { return m_tree_when[1] == kNever; }  // no callback is due at kNever
  std::uint64_t callbacks() const { return m_callbacks; }
  std::uint64_t activations() const { return m_activations; }

 private:
  // when << 64 | seq << 16 | lane: one comparison orders by time, then by order of scheduling
  // (seq is unique, so the lane never decides); the lane rides along for the tournament tree.
  using Key = unsigned __int128;
  static constexpr Key kNoKey = ~Key(0);
  static constexpr unsigned kLaneBits = 16;
  static constexpr std::uint64_t kMaxSeq = std::uint64_t(1) << (64 - kLaneBits);  // 2.8e14 callbacks
  static std::uint32_t lane_of(Key key) { return static_cast<std::uint32_t>(key) & ((1u << kLaneBits) - 1); }
  static constexpr std::uint32_t kNoLane = ~std::uint32_t(0);
  struct Entry {
    Key key;
    TimerClient* client;
    std::uint32_t what;
    std::uint32_t backlog = 0;  // a lane head's: how many wait behind it in m_queued
    Picos when() const { return static_cast<Picos>(key >> 64); }
  };
  static bool before(const Entry& a, const Entry& b) { return a.key < b.key; }
  Key make_key(Picos when, std::uint32_t lane) {
    if (when < now() || when == kNever || m_seq >= kMaxSeq) bad_key(when);
    return Key(when) << 64 | (m_seq++ << kLaneBits) | lane;
  }
  [[noreturn]] void bad_key(Picos when) const;
  void at_lane(Lane lane, Picos when, TimerClient& client, std::uint32_t what);
  // Lane 0's heap.
  void push(const Entry& e);
  Entry pop();
  void sift_up(std::size_t i, const Entry& e);
  void sift_down(std::size_t i, const Entry& e);
  // The tournament tree: replays lane's path after its head changed.
  Key head_key(std::uint32_t lane) const { return lane == 0 ? heap_key() : m_heads[lane].key; }
  Key heap_key() const { return m_heap.empty() ? kNoKey : m_heap.front().key; }
  void update(std::uint32_t lane);
  // The same after the lane's key went down (cheaper: stops where the minimum is unchanged).
  void lower(std::uint32_t lane);
  void arm();
  void pump();
  // Runs the due callbacks of one pump batch; kObserved: the observer sees each.
  template <bool kObserved>
  void run_batch(Picos start, Picos limit);
  // A callback was scheduled from outside this timeline's pump. Out of line: inlined, its
  // SystemC calls made at_lane save six registers and a stack frame on every call.
  [[gnu::noinline]] void scheduled_outside(Picos when);

  static constexpr Picos kNever = ~Picos(0);
  static Timeline* s_pumping;  // the timeline whose pump is running, if any
  static Picos s_now;

  std::vector<Entry> m_heap;  // lane 0: 4-ary min-heap on (when, seq)
  // Lanes 1..: the head of each (key kNoKey when empty) side by side, and the rest behind it.
  std::vector<Entry> m_heads;
  std::vector<Ring<Entry>> m_queued;
  // The tree is a bottom-up segment tree over exactly as many leaves as lanes (n): nodes 1..2n-1,
  // root at 1, leaves n..2n-1, parent i / 2, sibling i ^ 1 (the minimum at the root holds for any
  // n). A leaf's depth is floor(log2(index)), so 67 lanes climb 6 levels mostly, not 7 as in a
  // tree padded to 128 leaves. Lanes are placed last to first: lanes added last (the link, the
  // firmware CPU, busy every request) get the shallow leaves.
  std::size_t leaf(std::uint32_t lane) const { return m_last_leaf - lane; }
  std::size_t m_last_leaf = 1;  // 2n - 1: lane 0's leaf
  // Each node a Key split in two arrays, its time and its (seq, lane) half: indexed by 8-byte
  // elements, a climb's addresses need no shifts; unrolled by depth, a level is 12 instructions.
  std::vector<std::uint64_t> m_tree_when, m_tree_order;
  Key tree_key(std::size_t i) const { return Key(m_tree_when[i]) << 64 | m_tree_order[i]; }
  void set_tree_key(std::size_t i, Key key) {
    m_tree_when[i] = static_cast<std::uint64_t>(key >> 64);
    m_tree_order[i] = static_cast<std::uint64_t>(key);
  }
  std::uint32_t m_fired_lane = kNoLane;  // the running callback's lane: updated when it returns
  std::uint64_t m_seq = 0;
  Picos m_armed_at = kNever;  // when m_wake is due, kNever if not pending
  bool m_lookahead = true;
  bool m_stop = false;
  TimelineObserver* m_observer = nullptr;
  std::uint64_t m_callbacks = 0, m_activations = 0;
  sc_core::sc_event m_wake;
};

// The drive's clock, for every layer: the running callback's time inside the pump, SystemC's
// otherwise (Timeline::now).
inline Picos now_picos() { return Timeline::now(); }
inline sc_core::sc_time to_sc_time(Picos picos) { return sc_core::sc_time::from_value(picos); }

}  // namespace ssdlab
