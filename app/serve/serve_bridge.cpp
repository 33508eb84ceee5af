#include "app/serve/serve_bridge.h"

#include <algorithm>
#include <thread>

#include "base/time/timeline.h"

namespace ssdlab {

// ---- inbox ---------------------------------------------------------------------------------

void Inbox::post(InboxItem item) {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_items.push_back(std::move(item));
    m_posted.store(true, std::memory_order_release);
  }
  async_request_update();
  m_cv.notify_one();
}

bool Inbox::wait_until(WallClock::time_point deadline, WallClock::duration spin) {
  {
    std::unique_lock<std::mutex> lock(m_mutex);
    const WallClock::time_point sleep_until = deadline - spin;
    if (WallClock::now() < sleep_until) {
      m_cv.wait_until(lock, sleep_until, [this] { return m_posted.load(std::memory_order_relaxed); });
    }
    if (m_posted.load(std::memory_order_relaxed)) return true;
  }
  while (WallClock::now() < deadline) {
    if (m_posted.load(std::memory_order_acquire)) return true;
    std::this_thread::yield();  // a spin that lets a client thread on this core run
  }
  return m_posted.load(std::memory_order_acquire);
}

void Inbox::wait() {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_cv.wait(lock, [this] { return m_posted.load(std::memory_order_relaxed); });
}

void Inbox::update() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    for (InboxItem& item : m_items) m_arrived_items.push_back(std::move(item));
    m_items.clear();
    m_posted.store(false, std::memory_order_release);
  }
  m_arrived.notify(sc_core::SC_ZERO_TIME);  // update phase: a delta notification
}

// ---- bridge --------------------------------------------------------------------------------

ServeBridge::ServeBridge(sc_core::sc_module_name name, Ssd& ssd, bool has_image, ServeHooks hooks)
    : sc_core::sc_module(name),
      inbox("inbox"),
      m_control(ssd.control()),
      m_port(ssd, *this),
      m_has_image(has_image),
      m_hooks(std::move(hooks)) {
  SC_METHOD(on_arrived);
  sensitive << inbox.arrived_event();
  dont_initialize();
  SC_METHOD(on_release);
  sensitive << m_release_event;
  dont_initialize();
  SC_METHOD(on_drive_event);
  sensitive << m_control.state_event();
  dont_initialize();
}

void ServeBridge::on_arrived() {
  const Picos now = now_picos();
  const WallClock::time_point wall = WallClock::now();
  for (InboxItem& item : inbox.arrived()) {
    const auto pickup = static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, std::chrono::duration_cast<std::chrono::nanoseconds>(wall - item.arrival).count()));
    ++m_nbd.pickups;
    m_nbd.pickup_ns_sum += pickup;
    m_nbd.pickup_ns_max = std::max(m_nbd.pickup_ns_max, pickup);
    if (item.kind == InboxItem::Kind::kStats) {
      m_hooks.stats();
      continue;
    }
    // Realtime pacing: a request enters the drive at the simulated time of its arrival, which
    // lies ahead of `now` when the kernel was idle (it does not run ahead of the wall clock).
    const Picos at = std::max(now, m_hooks.sim_time_of(item.arrival));
    if (m_release.empty() && at <= now) {
      handle(item);
    } else {
      m_release.emplace_back(at, std::move(item));
    }
  }
  inbox.arrived().clear();
  schedule_release();
}

void ServeBridge::schedule_release() {
  m_release_event.cancel();
  if (!m_release.empty()) m_release_event.notify(to_sc_time(m_release.front().first - now_picos()));
}

void ServeBridge::on_release() {
  const Picos now = now_picos();
  while (!m_release.empty() && m_release.front().first <= now) {
    InboxItem item = std::move(m_release.front().second);
    m_release.pop_front();
    handle(item);
  }
  schedule_release();
}

void ServeBridge::handle(InboxItem& item) {
  if (item.kind == InboxItem::Kind::kShutdown) {
    m_shutdown = true;
    begin_quiesce();
  } else {
    admit(std::move(item.io));
  }
}

void ServeBridge::admit(nbd::IoPtr io) {
  if (m_quiescing) {
    m_held.push_back(std::move(io));  // the world is stopped for an image save
  } else {
    start(std::move(io));
  }
}

void ServeBridge::start(nbd::IoPtr io) {
  const std::uint32_t slot = m_active.acquire();
  nbd::Transfer& t = *io->transfer;  // the NBD request this piece belongs to
  if (!t.backend_started) {
    t.backend_started = true;
    t.backend_start = now_picos();
  }
  PortRequest r;
  r.offset = io->offset;
  r.length = io->length;
  r.fua = io->fua;
  switch (io->kind) {
    case nbd::IoKind::kRead:
      r.op = PortOp::kRead;
      r.data = io->data.data();
      break;
    case nbd::IoKind::kWrite:
      r.op = PortOp::kWrite;
      r.data = io->data.data();
      m_dirty = true;
      break;
    case nbd::IoKind::kTrim:
      r.op = PortOp::kTrim;  // one DATA SET MANAGEMENT command; FUA adds FLUSH CACHE
      m_dirty = true;
      break;
    case nbd::IoKind::kFlush:
      r.op = PortOp::kFlush;
      break;
  }
  m_active[slot] = std::move(io);
  m_port.submit(r, slot);
}

void ServeBridge::port_done(std::uint64_t token, bool error) {
  const auto slot = static_cast<std::uint32_t>(token);
  nbd::IoPtr io = std::move(m_active[slot]);
  m_active.release(slot);
  if (io->kind == nbd::IoKind::kFlush && !error && m_has_image && m_dirty) {
    // The write cache is on flash; the reply waits until the image file holds it too.
    m_flush_waiters.push_back(std::move(io));
    begin_quiesce();
    return;
  }
  reply(io, error ? nbd::kEio : nbd::kOk);
  check_quiesce();
}

void ServeBridge::reply(const nbd::IoPtr& io, std::uint32_t error) {
  // Counted per NBD request, once its last piece is done (a request is usually one piece).
  nbd::Transfer& t = *io->transfer;
  t.backend_done += io->length;
  t.backend_error |= error != nbd::kOk;
  if (t.backend_done == t.request.length) {
    const auto kind = static_cast<std::size_t>(io->kind);
    ++m_nbd.requests[kind];
    if (t.backend_error) {
      ++m_nbd.errors[kind];
    } else {
      m_nbd.bytes[kind] += io->kind == nbd::IoKind::kFlush ? 0 : t.request.length;
      m_nbd.latency_ps[kind].record(now_picos() - t.backend_start);
    }
  }
  io->error = error;
  m_hooks.reply(io);
}

// ---- stopping the world (image saves, shutdown) ---------------------------------------------

void ServeBridge::begin_quiesce() {
  if (!m_quiescing) {
    m_quiescing = true;
    m_drain_requested = false;
  }
  check_quiesce();
}

void ServeBridge::on_drive_event() { check_quiesce(); }

void ServeBridge::check_quiesce() {
  if (!m_quiescing || m_active.in_use() > 0) return;
  if (!m_drain_requested) {
    // Everything acknowledged goes to flash; idle-time GC waits.
    m_drain_requested = true;
    m_control.hold_background();
    m_control.request_drain();
  }
  if (!m_control.drained()) return;  // state_event brings us back
  bool saved = true;
  if (m_has_image && m_dirty) {
    saved = m_hooks.save_image();
    ++(saved ? m_nbd.image_saves : m_nbd.image_save_failures);
    if (saved) m_dirty = false;
    if (m_shutdown) m_shutdown_save_failed = !saved;
  }
  std::vector<nbd::IoPtr> waiters;
  waiters.swap(m_flush_waiters);
  for (const nbd::IoPtr& w : waiters) reply(w, saved ? nbd::kOk : nbd::kEio);
  m_quiescing = false;
  if (!m_held.empty()) {
    std::vector<nbd::IoPtr> held;
    held.swap(m_held);
    for (nbd::IoPtr& io : held) start(std::move(io));
    if (m_shutdown) begin_quiesce();  // waits for these, then saves again if they wrote
    return;
  }
  if (m_shutdown && !m_finished) {
    m_hooks.stats();
    m_finished = true;
    sc_core::sc_pause();
  }
}

void ServeBridge::register_stats(const StatGroup& nbd) const {
  for (std::size_t k = 0; k < NbdStats::kKinds; ++k) {
    const StatGroup g = nbd.group(nbd::to_string(static_cast<nbd::IoKind>(k)));
    g.counter("requests", m_nbd.requests[k], "requests", "NBD requests of this kind answered");
    g.counter("bytes", m_nbd.bytes[k], "bytes", "bytes these requests carried or covered");
    g.counter("errors", m_nbd.errors[k], "requests", "requests of this kind answered with an error");
  }
  nbd.counter("image_saves", m_nbd.image_saves, "saves", "drive images saved");
  nbd.counter("image_save_failures", m_nbd.image_save_failures, "saves", "drive image saves that failed");
}

}  // namespace ssdlab
