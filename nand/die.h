// One NAND die: executes its queue of operations one at a time. An operation is a sequence
// of phases that occupy either the shared channel bus (command cycles, data in/out) or only
// the die's array (tR, tPROG, tBERS).
//
// Dies are plain objects in one array of the flash array (a SystemC module), one cache line of
// hot state each: with 64 dies and the FTL's random accesses between two callbacks of the same
// die, every line a die callback touches is a likely cache miss.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "base/config/config.h"
#include "base/core/anatomy.h"
#include "base/core/nand_op.h"
#include "base/core/ring.h"
#include "base/core/types.h"
#include "base/time/timeline.h"

namespace ssdlab {

class BusCalendar;
using Channel = BusCalendar;

struct DieListener {
  // The die's finished_timing(op) says when it was submitted, waited, used the bus and the array.
  virtual void die_done(const NandOp& op) = 0;
  // An op of a GC batch that ended before the batch's end (set_batch_depth), reported then.
  virtual void die_done_in_batch(const NandOp& op) = 0;
  // A multi-plane host read's first plane's page is out (docs/planes.md); the op follows.
  virtual void die_plane_out(const NandOp& op) { (void)op; }

 protected:
  ~DieListener() = default;
};

class Probe;

struct DieStats {
  std::array<Picos, 3> busy_by_origin_ps{};  // host, GC and mapping-table ops (OpOrigin)
  std::uint64_t reads = 0, programs = 0, erases = 0;
  std::uint64_t suspends = 0;  // erases and programs suspended for a host read (nand.suspend)
  // Array time per op kind (read attempts included), with NandConfig::array_times only.
  std::array<Picos, 3> array_ps{};
  Picos busy_ps() const { return busy_by_origin_ps[0] + busy_by_origin_ps[1] + busy_by_origin_ps[2]; }
};

class alignas(64) Die final : private TimerClient {
 public:
  Die() = default;
  Die(const Die&) = delete;
  Die& operator=(const Die&) = delete;
  // `index`: the die's number; `channel_index`: its channel's (for the probe).
  void init(const NandConfig& config, Timeline& timeline, Channel& channel, DieListener& listener, std::uint32_t index,
            std::uint32_t channel_index);
  void set_probe(Probe* probe) {
    m_probe = probe;
    m_instrumented = probe != nullptr;
  }

  void submit(const NandOp& op) {
    if (m_phase == Phase::kIdle) {
      start(op, false);  // the queue is empty whenever the die is idle
    } else if (__builtin_expect(m_config->suspend.enabled(), 0) && suspends_for(op)) {
      suspend(op);
    } else {
      // Cache program (read): a program (read) next in line behind a program (read) takes its bus
      // cycles now (its command goes in the read's slot).
      if (__builtin_expect(m_caches != 0, 0) && m_queue.empty()) cache_behind(op);
      m_queue.push(op);
      if (timed(op)) m_waits.push(queue_stamp());
    }
  }

  // Ops queued or in progress (ops of a batch that ended before now count until the batch ends).
  std::size_t queued() const {
    return m_queue.size() + m_batched + (m_phase != Phase::kIdle) +
           (m_phase == Phase::kSuspending && m_suspended != nullptr);
  }
  // GC batches: an untimed GC op (origin kGc, no kOpTimedBit) queued behind a GC op runs in the
  // same job, its transfers booked and its times computed when the job starts, as long as at
  // least `depth` ops stay queued behind each op whose completion is thereby reported late (at
  // the batch's end, with its own times). The controller passes the depth below which it acts
  // on a GC op's completion (a die with room for host pages); 0 turns batches off. Issue 28.
  void set_batch_depth(std::uint32_t depth);
  bool idle() const { return m_phase == Phase::kIdle && m_queue.empty(); }
  const DieStats& stats() const { return m_stats; }
  // The timing of `op`, the op whose die_done() is running (only then): computed on demand
  // from a few stamps, since most ops' timing is never asked for.
  OpTiming finished_timing(const NandOp& op) const {
    const Stamps& st = *m_finished;
    OpTiming t = st.times;
    t.submitted = st.queued.submitted;
    if (decodes(op)) t.ecc = m_config->t_decode_ps * (Picos(op.retries) + 1);  // bit errors
    // The busy times now are those at this op's end: take its own share off to get them at its
    // start. The die was busy from submission to start, so the three shares add up to the wait.
    const Picos own = t.finished - t.started;
    const Picos gc = m_stats.busy_by_origin_ps[1] - (op.origin == OpOrigin::kGc ? own : 0);
    const Picos map = m_stats.busy_by_origin_ps[2] - (op.origin == OpOrigin::kMap ? own : 0);
    t.behind[1] = gc - st.queued.gc;
    t.behind[2] = map - st.queued.map;
    t.behind[0] = t.started - t.submitted - t.behind[1] - t.behind[2];
    return t;
  }
  // Busy time including the op in progress up to now (all of it, or that of ops of `origin`).
  Picos busy_until_now() const;
  Picos busy_until_now(OpOrigin origin) const;

 private:
  // kBusy: from the op's start to its end (bus transfers, array time, waits for the bus).
  // kSuspending: busy, and an op is suspended or a suspended op's old timer is still pending
  // (nand.suspend): every timer then goes to on_suspend_timer.
  enum class Phase : std::uint8_t { kIdle, kBusy, kSuspending };
  enum : std::uint8_t { kCacheProgram = 1, kCacheRead = 2 };
  // A queued op's submission: when, and the die's busy time per origin then (with the op in
  // progress counted up to then), so that its wait can be split by what it waited behind.
  struct QueueStamp {
    Picos submitted, gc, map;  // the die's GC and mapping-table busy time then
  };
  QueueStamp queue_stamp() const {
    // The die is busy when ops queue: the op in progress counts up to now.
    const Picos now = now_picos();
    QueueStamp s{now, m_stats.busy_by_origin_ps[1], m_stats.busy_by_origin_ps[2]};
    // (A read under suspension starts after the suspend latency, already counted: nothing yet.)
    const Picos running = now > m_op_start ? now - m_op_start : 0;
    if (m_current.origin == OpOrigin::kGc) {
      s.gc += running;
    } else if (m_current.origin == OpOrigin::kMap) {
      s.map += running;
    }
    return s;
  }
  bool timed(const NandOp& op) const { return (op.cookie & kOpTimedBit) || m_instrumented; }
  // A read the controller's error model decided (bit errors on: kOpDecoded): its decodes and
  // read retries are timed by decode_and_retry(). One test of two bytes of the op.
  static bool decodes(const NandOp& op) { return (op.retries | (op.status & ~kOpPlaneOut)) != 0; }
  // `queued`: it waited in the queue (its stamp is the next in m_waits, when timed).
  struct Stamps;
  void start(const NandOp& op, bool queued);
  // Books `op`'s transfers for a start at `at` (>= now) and returns its end; `st` (timed ops
  // only) gets its times. `in_end` (cache program): the program's command and data cycles are
  // already booked, ending then; its tPROG starts at the later of that and `at`. (Cache read: the
  // read's command went in the slot of the read before it, ending at `in_end`, maybe before `at`;
  // its tR starts then and its data-out follows the later of its tR and `at`.) `array_start`:
  // where the op's array time starts, if asked. With cache read, every read's data-out follows a
  // slot of one t_cmd (m_read_slot): the next read's command, or READ CACHE END.
  Picos book(const NandOp& op, Picos now, Picos at, Stamps* st, Picos in_end = 0, Picos* array_start = nullptr);
  // The op's command and address cycles (each plane's, with multi-plane operations) and a
  // program's data: its bus phase before the array time.
  Picos in_cycles(const NandOp& op) {
    Picos bus = m_config->t_cmd_ps;
    if (__builtin_expect(m_planes > 1, 0)) bus *= planes_of(op);
    if (op.kind == NandOpKind::kProgram) bus += bus_time(op.bytes);
    return bus;
  }
  // Books `bus` of the channel from `from` (shown to the probe); returns its end.
  Picos reserve_in(Picos now, Picos from, Picos bus);
  // After book(): the op's array and data-out are booked, ending at `end`; reports its first
  // plane's page first (multi-plane host reads), takes GC ops behind it into its job, and sets
  // its timer.
  void launch(const NandOp& op, Picos now, Picos end, Picos array_start);
  // `next`, first in the queue of a die whose job in progress ends with a program, books its
  // cycles into the cache register now if it is a program (and nothing is booked so already).
  // Cache read: `next`, first in the queue behind a read whose slot has not begun, is noted
  // to take it (read_behind).
  [[gnu::noinline]] void cache_behind(const NandOp& next);
  void read_behind(const NandOp& next);
  // A read's decode times and read-retry attempts after its first data-out (ending at `end`,
  // `out` its data-out time); returns the op's end. Only with bit errors (nand.errors).
  [[gnu::noinline]] Picos decode_and_retry(const NandOp& op, Picos now, Picos end, Picos out);
  // Takes the untimed GC ops behind the current one into its job while they may be batched.
  // Their programs follow GC reads, so none loads the cache register during another's tPROG; with
  // cache program, the job's last op and its array start (`array_start`: the first op's) are
  // noted for the program queued behind the job.
  Picos batch(Picos now, Picos end, Picos array_start = 0);
  void start_cached(const NandOp& op, Picos now, Stamps* st);
  bool batchable(const NandOp& op) const { return op.origin == OpOrigin::kGc && !(op.cookie & kOpTimedBit); }
  void on_timer(std::uint32_t what) override;
  // Program/erase suspend (nand.suspend). Timers: 0 an op's end on the die's lane, 1 a read's
  // under suspension (lane 0: it ends before the suspended op's timer, already on the lane, which
  // goes stale), 2 a resumed op's end (on the lane, after the stale one).
  // 3: a multi-plane host read's first plane's page is out (then its end, timer 0, on the lane).
  enum : std::uint32_t { kOpEnd = 0, kSuspendedRead = 1, kResumedEnd = 2, kPlaneOut = 3 };
  // Multi-plane host reads (docs/planes.md, "Reads go to the link plane by plane"): reported to
  // the controller at their first plane's data-out's end, `end` the op's own (then m_plane_end).
  bool reports_plane_out(const NandOp& op) const;
  Picos plane_out(Picos end, Picos out);
  [[gnu::noinline]] void on_plane_out();
  // `op` (a host or mapping read) suspends the op in progress: nothing queued, no batch, an
  // erase (program) with suspend on, in its array time with more than the latency left, and
  // reads left of its max_per_op.
  bool suspends_for(const NandOp& op) const;
  void suspend(const NandOp& read);
  // Starts `op` (a read) while an op is suspended, at `at`, its queue stamp `queued`.
  void start_in_suspension(const NandOp& op, const QueueStamp& queued, Picos at);
  void resume();
  // The end of the op in progress (an erase or program): a resumed op's own, else its timer at
  // the head of the die's lane (one op at a time; nothing stale is pending then).
  Picos op_end() const { return m_suspension->resumed ? m_suspension->end : m_timeline->lane_next(m_lane); }
  // The stamps slot a read under suspension or a resumed op takes: not the finished op's, whose
  // listener may be running (it may have submitted the read that suspends). The op in progress's
  // own slot is free then: a suspended op's stamps are saved in its Suspended.
  std::uint8_t free_slot() const { return &m_stamps[m_slot] == m_finished ? m_slot ^ 1 : m_slot; }
  [[gnu::noinline]] void on_suspend_timer(std::uint32_t what);
  void finish();
  void finish_batch();
  void account(const NandOp& done, Picos busy);
  Picos array_time(const NandOp& op) const {
    const std::uint32_t type = m_page_types_pow2 ? op.page & (m_page_types - 1) : op.page % m_page_types;
    switch (op.kind) {
      case NandOpKind::kRead:
        return m_config->t_read_ps[type];
      case NandOpKind::kProgram:
        return m_config->t_prog_ps[type];
      case NandOpKind::kErase:
        return m_config->t_erase_ps;
    }
    return 0;
  }
  // Multi-plane (docs/planes.md): the planes an op addresses, each with its own command and address
  // cycles: an erase all of them (the FTL's block is one block per plane), a program or read those
  // its bytes cover, one flash page each (a read of less than a page: one plane).
  std::uint32_t planes_of(const NandOp& op) const {
    if (op.kind == NandOpKind::kErase) return m_planes;
    const std::uint32_t page = m_config->page_size_bytes;  // cold: no member of its own on the die's hot lines
    const std::uint32_t n = (op.bytes + page - 1) / page;
    return n < 1 ? 1 : n;
  }
  Picos bus_time(std::uint32_t bytes) {
    if (bytes != m_memo_bytes) set_memo(bytes);
    return m_memo_ps;
  }
  void set_memo(std::uint32_t bytes);

  // Three cache lines hold what an untimed op touches, and the order of the members keeps them
  // there (64 dies, and the FTL's random accesses between two callbacks of one die: each line is
  // a likely miss). First line: what every callback reads (the vtable pointer comes first).
  NandOp m_current;
  Picos m_op_start = 0;
  Timeline::Lane m_lane{0};  // one operation at a time: its callbacks come in time order
  Phase m_phase = Phase::kIdle;
  bool m_page_types_pow2 = true;  // page type by mask, not division (SLC, MLC)
  bool m_instrumented = false;    // a probe is attached (tested per op)
  bool m_array_times = false;     // NandConfig::array_times (tested per op)
  std::uint8_t m_slot = 0;        // m_stamps of the op in progress
  std::uint8_t m_page_types = 1;
  std::uint8_t m_batched = 0;      // ops of the job after the current one (a GC batch)
  std::uint8_t m_planes = 1;       // nand.planes_per_die: > 1, multi-plane operations (docs/planes.md)
  std::uint8_t m_caches = 0;       // kCacheProgram | kCacheRead (nand.cache_program, nand.cache_read)
  std::uint32_t m_memo_bytes = 0;  // the last transfer size and its bus time: sizes repeat
  Picos m_memo_ps = 0;
  // Second line: the queue and what start() reads.
  Ring<NandOp> m_queue;
  const NandConfig* m_config = nullptr;
  Timeline* m_timeline = nullptr;
  // Third line: what finish() reads and writes.
  Channel* m_channel = nullptr;
  DieListener* m_listener = nullptr;
  DieStats m_stats;
  // Then what only timed ops and instruments touch.
  Ring<QueueStamp> m_waits;  // one per timed op in m_queue, in the same order
  // Stamps of the timed op in progress and of the one before it: the finished op's stay valid while
  // its listener runs, after the next op started (no copy). The rest of its timing follows
  // from the configured times (finished_timing).
  struct Stamps {
    QueueStamp queued;
    OpTiming times;  // all but `submitted` and `behind`, known by the end of the op
  };
  Stamps m_stamps[2];
  const Stamps* m_finished = &m_stamps[0];  // those of the op whose die_done() runs
  Probe* m_probe = nullptr;
  std::uint32_t m_batch_depth = 0;
  // A GC batch: when the job's first op ends, its ops after the first, their ends, and their
  // stamps when timed (a probe). Apart from the die (allocated with set_batch_depth): 4 KiB
  // inside each die spread the dies' hot lines over more pages (-4 % on sequential writes).
  static constexpr std::uint32_t kMaxBatch = 32;
  struct Batch {
    Picos first_end = 0;
    NandOp ops[kMaxBatch];
    Picos end[kMaxBatch];
    Stamps stamps[kMaxBatch];
  };
  std::unique_ptr<Batch> m_batch;
  std::uint32_t m_index = 0, m_channel_index = 0;
  // Program/erase suspend (nand.suspend; allocated when on), apart from the die's hot lines:
  // the op suspended, its end as it was (then, once resumed, its new end), the time it had left,
  // its stamps; the reads the op has let through; the lane timers gone stale.
  struct Suspended {
    NandOp op;
    Picos end = 0, left = 0, latency = 0;
    bool timed = false;
    bool resumed = false;  // the op in progress is the resumed one: its end is `end`
    Stamps stamps;
    std::uint32_t reads = 0;
    std::uint32_t stale = 0;
  };
  Picos m_plane_end = 0;  // the op in progress reported its first plane (kPlaneOut): its end
  // Cache program (nand.cache_program, tested in the config: the die's hot lines stay as without
  // it): the queue's first op is a program whose command and data cycles are booked (m_cached),
  // ending at m_cache_at; else m_cache_at is the array start of the program that ends the job in
  // progress (from which the next one's cycles may go).
  bool m_cached = false;
  bool m_cache_tail_program = false;  // the last op of the job in progress is a program
  Picos m_cache_at = 0;
  // Cache read (nand.cache_read): the slot of the last read booked (its start), and whether the
  // queue's first op is a read that issues its command there (its tR from the slot's end).
  bool m_read_cached = false;
  Picos m_read_slot = 0;
  std::unique_ptr<Suspended> m_suspension;  // storage, kept
  Suspended* m_suspended = nullptr;         // the op suspended now, or null
  // Back to kBusy once nothing is suspended and no stale timer is pending.
  void settle() {
    if (m_suspended == nullptr && m_suspension->stale == 0) m_phase = Phase::kBusy;
  }
};

}  // namespace ssdlab
