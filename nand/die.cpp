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
  return m_stats.busy_ps() + (m_phase != Phase::kIdle ? now_picos() - m_op_start : 0);
}

Picos Die::busy_until_now(OpOrigin origin) const {
  const bool running = m_phase != Phase::kIdle && m_current.origin == origin;
  return m_stats.busy_by_origin_ps[std::size_t(origin)] + (running ? now_picos() - m_op_start : 0);
}

// Inlined: start() books every op, most of them alone (+4 % instructions on sequential writes
// when it was a call).
[[gnu::always_inline]] inline Picos Die::book(const NandOp& op, Picos now, Picos at, Stamps* st) {
  // Every transfer of the op is booked now (base/core/bus_calendar.h): first the command/address
  // cycles, plus the data for a program, with the array phase right after them; then a read's
  // data-out, from the end of its array time.
  Picos bus = m_config->t_cmd_ps;
  if (op.kind == NandOpKind::kProgram) bus += bus_time(op.bytes);
  const Picos array_start = bus ? m_channel->reserve(now, at, bus) : at;
  if (m_instrumented && bus) m_probe->bus(m_channel_index, m_index, array_start - bus, array_start);
  const Picos array_end = array_start + array_time(op);
  Picos end = array_end, out = 0;
  if (op.kind == NandOpKind::kRead && op.bytes > 0) {  // the page register goes out
    out = bus_time(op.bytes);
    end = m_channel->reserve(now, array_end, out);
    if (m_instrumented) m_probe->bus(m_channel_index, m_index, end - out, end);
  }
  if (st) {
    st->times.started = at;
    st->times.cmd_bus_start = array_start - bus;
    st->times.array_start = array_start;
    st->times.array_end = array_end;
    st->times.out_bus_start = end - out;  // the array's end without a data-out
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
  Picos end = book(op, now, now, st);
  // Host ops first fail the origin test: m_batch_depth sits on a line they do not otherwise touch.
  if (batchable(op) && m_batch_depth && m_queue.size() >= m_batch_depth && batchable(m_queue.front())) {
    end = batch(now, end);
  }
  m_phase = Phase::kBusy;
  m_timeline->at(m_lane, end, *this, 0);
}

Picos Die::batch(Picos now, Picos end) {
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
    end = b.end[n] = book(op, now, end, st);
    ++n;
  }
  m_batched = static_cast<std::uint8_t>(n);
  return end;
}

void Die::on_timer(std::uint32_t) {
  if (m_batched) {
    finish_batch();
  } else {
    finish();
  }
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
