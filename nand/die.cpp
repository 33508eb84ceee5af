#include "nand/die.h"

#include "base/core/probe.h"
#include "nand/channel.h"
#include "nand/flash_if.h"

namespace ssdlab {

void Die::init(const NandConfig& config, Timeline& timeline, Channel& channel, DieListener& listener,
               std::uint32_t index, std::uint32_t channel_index) {
  m_index = index;
  m_channel_index = channel_index;
  m_config = &config;
  m_timeline = &timeline;
  m_lane = timeline.add_lane();
  m_channel = &channel;
  m_listener = &listener;
  m_page_types = std::uint8_t(config.page_types());  // bits per cell: 1 to 3
  m_page_types_pow2 = (m_page_types & (m_page_types - 1)) == 0;
  m_array_times = config.array_times;
  m_planes = std::uint8_t(config.planes_per_die);
  m_caches = std::uint8_t((config.cache_program ? kCacheProgram : 0) | (config.cache_read ? kCacheRead : 0));
  if (config.suspend.enabled()) m_suspension = std::make_unique<Suspended>();
}

void Die::set_memo(std::uint32_t bytes) {
  m_memo_bytes = bytes;
  m_memo_ps = bytes ? transfer_picos(bytes, m_config->bus_bytes_per_s * 8) : 0;
}

void Die::set_batch_depth(std::uint32_t depth) {
  m_batch_depth = depth;
  if (depth && !m_batch) m_batch = std::make_unique<Batch>();
}

Picos Die::busy_until_now() const {
  const Picos now = now_picos();  // a read under suspension starts after the latency (counted)
  return m_stats.busy_ps() + (m_phase != Phase::kIdle && now > m_op_start ? now - m_op_start : 0);
}

Picos Die::busy_until_now(OpOrigin origin) const {
  const Picos now = now_picos();
  const bool running = m_phase != Phase::kIdle && m_current.origin == origin && now > m_op_start;
  return m_stats.busy_by_origin_ps[std::size_t(origin)] + (running ? now - m_op_start : 0);
}

[[gnu::always_inline]] inline Picos Die::reserve_in(Picos now, Picos from, Picos bus) {
  if (!bus) return from;
  const Picos end = m_channel->reserve(now, from, bus);
  if (m_instrumented) m_probe->bus(m_channel_index, m_index, end - bus, end);
  return end;
}

// Inlined: start() books every op, most of them alone (+4 % instructions on sequential writes
// when it was a call).
[[gnu::always_inline]] inline Picos Die::book(const NandOp& op, Picos now, Picos at, Stamps* st, Picos in_end,
                                              Picos* array_start_out) {
  // Every transfer of the op is booked now (base/core/bus_calendar.h): first the command/address
  // cycles, plus the data for a program, with the array phase right after them; then a read's
  // data-out, from the end of its array time.
  // A multi-plane op (docs/planes.md): each plane's command, address (and a program's data) cycles
  // one after the other, then one array time for all (tPROG, tR, tBERS), then a read's data-out
  // of each plane in turn.
  // A cache program's cycles went to the cache register during the tPROG before it (in_end):
  // its own tPROG starts when they and that tPROG are over.
  Picos bus = 0, array_start;
  if (__builtin_expect(in_end != 0, 0)) {
    // A cache read's tR starts at its command's end in the slot before, maybe before `at`.
    const bool read = op.kind == NandOpKind::kRead;
    array_start = in_end > at || read ? in_end : at;
    if (read) bus = m_config->t_cmd_ps;  // (its command's cycles, for the stamps only)
  } else {
    bus = in_cycles(op);
    array_start = reserve_in(now, at, bus);
  }
  if (array_start_out) *array_start_out = array_start;
  const Picos array_end = array_start + array_time(op);
  Picos end = array_end, out = 0, slot = 0;
  if (op.kind == NandOpKind::kRead && op.bytes > 0) {  // the page register goes out
    out = bus_time(op.bytes);
    const Picos from = array_end > at ? array_end : at;  // a cache read's tR may end before `at`
    if (__builtin_expect(m_caches & kCacheRead, 0)) {
      slot = m_config->t_cmd_ps;
      end = m_channel->reserve(now, from, slot + out);
      m_read_slot = end - out - slot;
    } else {
      end = m_channel->reserve(now, from, out);
    }
    if (m_instrumented) m_probe->bus(m_channel_index, m_index, end - out - slot, end);
  }
  if (st) {
    st->times.started = at;
    st->times.cmd_bus_start = array_start - bus;
    st->times.array_start = array_start;
    st->times.array_end = array_end;
    st->times.out_bus_start = end - out - slot;  // the array's end without a data-out
    st->times.out_end = end;
  }
  // Bit errors (nand.errors): the decode of each attempt, and the read-retry attempts.
  if (decodes(op)) end = decode_and_retry(op, now, end, out);
  if (st) st->times.finished = end;
  return end;
}

Picos Die::decode_and_retry(const NandOp& op, Picos now, Picos end, Picos out) {
  // The die waits for each attempt's verdict (decode); a failed one is read again with shifted
  // thresholds (the retry's SET FEATURES and READ cycles as one t_cmd), its tR and data-out.
  const Picos decode = m_config->t_decode_ps;
  end += decode;
  for (std::uint32_t k = 0; k < op.retries; ++k) {
    const Picos cmd = m_config->t_cmd_ps;
    const Picos array_start = cmd ? m_channel->reserve(now, end, cmd) : end;
    if (m_instrumented && cmd) m_probe->bus(m_channel_index, m_index, array_start - cmd, array_start);
    end = array_start + array_time(op);
    if (out) {
      end = m_channel->reserve(now, end, out);
      if (m_instrumented) m_probe->bus(m_channel_index, m_index, end - out, end);
    }
    end += decode;
  }
  return end;
}

void Die::start(const NandOp& op, bool queued) {
  m_current = op;
  const Picos now = now_picos();
  m_op_start = now;
  Stamps* st = nullptr;
  if (timed(op)) {
    st = &m_stamps[m_slot ^= 1];
    st->queued = queued ? m_waits.pop() : QueueStamp{now, m_stats.busy_by_origin_ps[1], m_stats.busy_by_origin_ps[2]};
  }
  if (__builtin_expect(m_caches != 0, 0)) return start_cached(op, now, st);
  launch(op, now, book(op, now, now, st), 0);
}

[[gnu::always_inline]] inline void Die::launch(const NandOp& op, Picos now, Picos end, Picos array_start) {
  m_phase = Phase::kBusy;
  if (__builtin_expect(m_planes > 1, 0) && op.kind == NandOpKind::kRead && reports_plane_out(op)) {
    m_timeline->at(m_lane, plane_out(end, bus_time(op.bytes)), *this, kPlaneOut);
    return;
  }
  // Host ops first fail the origin test: m_batch_depth sits on a line they do not otherwise touch.
  if (batchable(op) && m_batch_depth && m_queue.size() >= m_batch_depth && batchable(m_queue.front())) {
    end = batch(now, end, array_start);
  }
  m_timeline->at(m_lane, end, *this, kOpEnd);
}

void Die::cache_behind(const NandOp& next) {
  if (next.kind == NandOpKind::kRead) return read_behind(next);
  // Only behind a program (the last op of the job in progress), while nothing is suspended, once.
  if (!m_config->cache_program || m_cached || m_phase != Phase::kBusy || !m_cache_tail_program ||
      next.kind != NandOpKind::kProgram)
    return;
  // The cache register takes the data once the program before it has its own in the data
  // register, i.e. from its array start.
  const Picos now = now_picos();
  m_cache_at = reserve_in(now, m_cache_at > now ? m_cache_at : now, in_cycles(next));
  m_cached = true;
}

void Die::read_behind(const NandOp& next) {
  // ONFI READ CACHE RANDOM (00h-address-31h): once a read's page is in the data register, the
  // next read's command moves it to the cache register and starts the next tR, while the page
  // goes out from the cache. Only behind a single read in progress (no GC job, no suspension),
  // whose attempts need no retry (a retry reads the page again), before its slot begins: then
  // the die has issued READ CACHE END (3Fh) instead. tRCBSY is not modelled.
  // (A read without data would end at its tR, maybe before it starts: not cached.)
  if (!m_config->cache_read || m_read_cached || m_phase != Phase::kBusy || m_batched ||
      m_current.kind != NandOpKind::kRead || m_current.bytes == 0 || decodes(m_current) || next.bytes == 0)
    return;
  if (now_picos() <= m_read_slot) m_read_cached = true;
}

void Die::start_cached(const NandOp& op, Picos now, Stamps* st) {
  // Cache program (nand.cache_program): an op whose cycles went into the cache register books
  // only its array time; a program then lets the next queued program load the cache register.
  // Cache read (nand.cache_read): a read whose command went in the slot of the read before it
  // books its array time from there and its data-out.
  Picos array_start = 0;
  const Picos in_end = m_cached ? m_cache_at : m_read_cached ? m_read_slot + m_config->t_cmd_ps : 0;
  m_read_cached = false;
  Picos end = book(op, now, now, st, in_end, &array_start);
  m_cached = false;
  m_cache_tail_program = op.kind == NandOpKind::kProgram;
  if (m_cache_tail_program) m_cache_at = array_start;
  launch(op, now, end, array_start);  // (a GC job's last op sets m_cache_at, m_cache_tail_program)
  if (!m_queue.empty()) cache_behind(m_queue.front());
}

Picos Die::batch(Picos now, Picos end, Picos array_start) {
  // The completion of each op but the last is reported at the batch's end: only while at least
  // m_batch_depth ops stay queued behind it (the queue, before the next op leaves it), so that
  // the controller would not have acted on it.
  Batch& b = *m_batch;
  b.first_end = end;
  std::uint32_t n = 0;
  while (n < kMaxBatch && m_queue.size() >= m_batch_depth && batchable(m_queue.front())) {
    const NandOp op = m_queue.pop();
    Stamps* st = nullptr;
    if (timed(op)) {  // with a probe: its times are reported
      st = &b.stamps[n];
      st->queued = m_waits.pop();
    }
    b.ops[n] = op;
    end = b.end[n] = book(op, now, end, st, 0, &array_start);
    ++n;
  }
  if (__builtin_expect(m_config->cache_program, 0) && n) {  // the next program loads behind the job's last op
    m_cache_tail_program = b.ops[n - 1].kind == NandOpKind::kProgram;
    m_cache_at = array_start;
  }
  m_batched = static_cast<std::uint8_t>(n);
  return end;
}

bool Die::reports_plane_out(const NandOp& op) const {
  // Timed host reads over more than one plane's page (the controller passes over a read-ahead's,
  // whose data waits in DRAM), without bit errors (each attempt's decode needs all of the data).
  return op.origin == OpOrigin::kHost && (op.cookie & kOpTimedBit) && !decodes(op) &&
         op.bytes > m_config->page_size_bytes;
}

Picos Die::plane_out(Picos end, Picos out) {
  m_plane_end = end;
  return end - out + transfer_picos(m_config->page_size_bytes, m_config->bus_bytes_per_s * 8);
}

void Die::on_plane_out() {
  // The die stays busy with the rest of the data-out; the op is reported again at its end.
  m_current.status |= kOpPlaneOut;
  m_timeline->at(m_lane, m_plane_end, *this, kOpEnd);
  m_listener->die_plane_out(m_current);
}

void Die::on_timer(std::uint32_t what) {
  if (__builtin_expect(m_phase != Phase::kBusy || what != kOpEnd, 0)) {
    if (what == kPlaneOut) return on_plane_out();
    return on_suspend_timer(what);
  }
  if (m_batched) {
    finish_batch();
  } else {
    finish();
  }
}

// ---- program/erase suspend (nand.suspend) ----

bool Die::suspends_for(const NandOp& op) const {
  if (op.kind != NandOpKind::kRead || op.origin == OpOrigin::kGc || !m_queue.empty() || m_batched ||
      m_suspended != nullptr)
    return false;
  const NandConfig::Suspend& s = m_config->suspend;
  const NandOp& cur = m_current;
  Picos latency = 0;
  if (cur.kind == NandOpKind::kErase && s.erase) {
    latency = s.erase_latency_ps;
  } else if (cur.kind == NandOpKind::kProgram && s.program) {
    latency = s.program_latency_ps;
  } else {
    return false;  // a read, or suspend off for this kind
  }
  const Suspended& sus = *m_suspension;
  if (sus.reads >= s.max_per_op) return false;
  // In its array time (an erase's or a program's end is its array's end), with more than the
  // latency left: a suspend during the command or data-in cycles, or at the very end, gains nothing.
  const Picos now = now_picos();
  const Picos end = op_end();
  return now >= end - array_time(cur) && end - now > latency;
}

void Die::suspend(const NandOp& read) {
  const Picos now = now_picos();
  const NandOp& cur = m_current;
  const Picos latency =
      cur.kind == NandOpKind::kErase ? m_config->suspend.erase_latency_ps : m_config->suspend.program_latency_ps;
  const QueueStamp stamp = queue_stamp();  // the read waits behind the op up to now, then the latency
  Suspended& s = *m_suspension;
  const Picos end = op_end();
  s.op = cur;
  s.end = end;
  s.resumed = false;
  s.left = end - now;  // its array makes no progress during the latency
  s.latency = latency;
  s.timed = timed(cur);
  if (s.timed) s.stamps = m_stamps[m_slot];
  m_suspended = &s;
  ++s.stale;  // its timer at `end`, on the lane, is now stale
  ++m_stats.suspends;
  // Its time so far and the latency are its busy time (the rest is counted when it ends).
  m_stats.busy_by_origin_ps[std::size_t(cur.origin)] += now + latency - m_op_start;
  start_in_suspension(read, stamp, now + latency);
}

void Die::start_in_suspension(const NandOp& op, const QueueStamp& queued, Picos at) {
  ++m_suspension->reads;
  m_current = op;
  m_op_start = at;
  Stamps* st = nullptr;
  if (timed(op)) {
    st = &m_stamps[m_slot = free_slot()];
    st->queued = queued;
  }
  const Picos end = book(op, now_picos(), at, st);
  m_phase = Phase::kSuspending;
  m_timeline->at(end, *this, kSuspendedRead);  // lane 0: before the stale timer on the lane
}

void Die::resume() {
  Suspended& s = *m_suspended;
  m_suspended = nullptr;
  const Picos now = now_picos();
  const Picos end = now + s.left;
  m_current = s.op;
  m_op_start = now;
  if (s.timed) {  // its times after the suspension move by what the suspension took
    const Picos shift = end - s.end;
    // finished_timing() takes the op's own time (end - start) off its origin's busy time to get
    // that at its start; the reads' time inside it was counted as theirs (the host's), so it
    // comes off the stamp too (unsigned: the difference is exact).
    if (s.op.origin == OpOrigin::kGc) s.stamps.queued.gc -= shift - s.latency;
    if (s.op.origin == OpOrigin::kMap) s.stamps.queued.map -= shift - s.latency;
    m_stamps[m_slot = free_slot()] = s.stamps;
    OpTiming& t = m_stamps[m_slot].times;
    t.array_end += shift;
    t.out_bus_start += shift;
    t.out_end += shift;
    t.finished += shift;
  }
  s.end = end;
  s.resumed = true;
  settle();
  m_timeline->at(m_lane, end, *this, kResumedEnd);  // after the stale one: end > its old end
}

void Die::on_suspend_timer(std::uint32_t what) {
  Suspended& sus = *m_suspension;
  if (what != kSuspendedRead && sus.stale) {  // a suspended op's end as it was: the lane's oldest
    --sus.stale;
    settle();
    return;
  }
  if (what == kResumedEnd) {  // the resumed op ends
    sus.reads = 0;
    sus.resumed = false;
    if (m_batched) {
      finish_batch();
    } else {
      finish();
    }
    return;
  }
  // A read under suspension ends: the next queued host read goes too while the op's budget
  // lasts, else the op resumes; the read is reported after (as finish() does).
  const NandOp done = m_current;
  m_finished = &m_stamps[m_slot];
  account(done, now_picos() - m_op_start);
  const bool more = !m_queue.empty() && m_queue.front().kind == NandOpKind::kRead &&
                    m_queue.front().origin != OpOrigin::kGc && sus.reads < m_config->suspend.max_per_op;
  if (more) {
    const NandOp next = m_queue.pop();
    const QueueStamp stamp = timed(next) ? m_waits.pop() : QueueStamp{};
    start_in_suspension(next, stamp, now_picos());
  } else {
    resume();
  }
  m_listener->die_done(done);
}

void Die::account(const NandOp& done, Picos busy) {
  m_stats.busy_by_origin_ps[std::size_t(done.origin)] += busy;
  if (m_array_times) m_stats.array_ps[std::size_t(done.kind)] += array_time(done) * (1 + done.retries);
  switch (done.kind) {
    case NandOpKind::kRead:
      ++m_stats.reads;
      break;
    case NandOpKind::kProgram:
      ++m_stats.programs;
      break;
    case NandOpKind::kErase:
      ++m_stats.erases;
      break;
  }
}

void Die::finish() {
  const NandOp done = m_current;
  m_finished = &m_stamps[m_slot];  // start() below writes the other slot
  account(done, now_picos() - m_op_start);
  m_phase = Phase::kIdle;
  if (!m_queue.empty()) start(m_queue.pop(), true);
  m_listener->die_done(done);
}

void Die::finish_batch() {
  // Every op of the batch but the last ended before now: reported now, in order, each with its
  // own times and the die's busy time as it was at its end. m_op_start moves to the start of
  // what is left, so that the busy time in progress (queue stamps of ops submitted meanwhile,
  // busy_until_now) is not counted twice.
  const std::uint32_t n = m_batched;
  m_batched = 0;
  const NandOp first = m_current;
  m_finished = &m_stamps[m_slot];
  const Batch& b = *m_batch;
  account(first, b.first_end - m_op_start);
  m_op_start = b.first_end;
  m_listener->die_done_in_batch(first);
  for (std::uint32_t i = 0; i + 1 < n; ++i) {
    m_finished = &b.stamps[i];
    account(b.ops[i], b.end[i] - m_op_start);
    m_op_start = b.end[i];
    m_listener->die_done_in_batch(b.ops[i]);
  }
  // The last op ends now, as an op of its own would: the next one starts before it is reported.
  const NandOp last = b.ops[n - 1];
  if (timed(last)) m_stamps[m_slot] = b.stamps[n - 1];  // start() may write the batch's
  m_finished = &m_stamps[m_slot];
  account(last, now_picos() - m_op_start);
  m_phase = Phase::kIdle;
  if (!m_queue.empty()) start(m_queue.pop(), true);
  m_listener->die_done(last);
}

}  // namespace ssdlab
