#include "app/serve/serve_bridge.h"

#include <algorithm>
#include <thread>

#include "base/time/timeline.h"
#include "host/io_record.h"

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

ServeBridge::ServeBridge(sc_core::sc_module_name name, AhciHba& hba, DeviceController& controller,
                         const DriveConfig& config, bool has_image, ServeHooks hooks)
    : sc_core::sc_module(name),
      inbox("inbox"),
      m_hba(hba),
      m_controller(controller),
      m_max_transfer(config.controller.max_transfer_bytes / kSectorBytes * kSectorBytes),
      m_has_image(has_image),
      m_hooks(std::move(hooks)) {
  SC_METHOD(on_arrived);
  sensitive << inbox.arrived_event();
  dont_initialize();
  SC_METHOD(on_release);
  sensitive << m_release_event;
  dont_initialize();
  SC_METHOD(on_drive_event);
  sensitive << controller.quiescent_event();
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

void ServeBridge::add_part(std::uint32_t slot, AtaCommand command, Lba lba, std::uint32_t sectors, std::uint8_t* data,
                           bool fua) {
  std::uint32_t id;
  if (m_free_requests.empty()) {
    id = static_cast<std::uint32_t>(m_requests.size());
    m_requests.push_back(std::make_unique<IoRequest>());
    m_request_owner.push_back(0);
  } else {
    id = m_free_requests.back();
    m_free_requests.pop_back();
  }
  IoRequest& r = *m_requests[id];
  r = IoRequest{};
  r.id = id;
  r.command = command;
  r.lba = lba;
  r.sectors = sectors;
  r.data = data;
  r.fua = fua;
  r.issued_ps = now_picos();
  r.seq = ++m_seq;
  m_request_owner[id] = slot;
  ++m_active[slot].parts;
  if (!m_any_transfer && (command == AtaCommand::kReadFpdma || command == AtaCommand::kWriteFpdma)) {
    m_any_transfer = true;
    m_io.first_issue_ps = r.issued_ps;
  }
  m_hba.submit(&r);
}

void ServeBridge::start(nbd::IoPtr io) {
  std::uint32_t slot;
  if (m_free_active.empty()) {
    slot = static_cast<std::uint32_t>(m_active.size());
    m_active.emplace_back();
  } else {
    slot = m_free_active.back();
    m_free_active.pop_back();
  }
  Active& a = m_active[slot];
  a.io = io;
  a.parts = 0;
  a.error = false;
  nbd::Transfer& t = *io->transfer;  // the NBD request this piece belongs to
  if (!t.backend_started) {
    t.backend_started = true;
    t.backend_start = now_picos();
  }
  ++m_in_flight;
  const Lba lba = io->offset / kSectorBytes;
  switch (io->kind) {
    case nbd::IoKind::kRead:
    case nbd::IoKind::kWrite: {
      // Larger than one ATA command can carry: split, each part DMAs its slice of the buffer.
      const bool write = io->kind == nbd::IoKind::kWrite;
      m_dirty |= write;
      for (std::uint64_t done = 0; done < io->length;) {
        const std::uint64_t bytes = std::min<std::uint64_t>(m_max_transfer, io->length - done);
        add_part(slot, write ? AtaCommand::kWriteFpdma : AtaCommand::kReadFpdma, lba + done / kSectorBytes,
                 static_cast<std::uint32_t>(bytes / kSectorBytes), io->data.data() + done, write && io->fua);
        done += bytes;
      }
      break;
    }
    case nbd::IoKind::kTrim:
      m_dirty = true;
      // One DATA SET MANAGEMENT command (an NBD length always fits); FUA adds FLUSH CACHE.
      add_part(slot, AtaCommand::kDataSetManagement, lba, io->length / kSectorBytes, nullptr, false);
      if (io->fua) add_part(slot, AtaCommand::kFlushCache, 0, 0, nullptr, false);
      break;
    case nbd::IoKind::kFlush:
      add_part(slot, AtaCommand::kFlushCache, 0, 0, nullptr, false);
      break;
  }
}

void ServeBridge::io_done(IoRequest* r) {
  const std::uint32_t slot = m_request_owner[r->id];
  Active& a = m_active[slot];
  a.error |= r->error;
  // ATA-level statistics exactly as `ssdlab run` records them (FLUSH CACHE, which scenarios
  // never issue, is not among them).
  if (r->command != AtaCommand::kFlushCache) record_completion(m_io, *r, m_last_completed_seq);
  m_free_requests.push_back(r->id);
  if (--a.parts == 0) finish(slot);
}

void ServeBridge::finish(std::uint32_t slot) {
  Active& a = m_active[slot];
  nbd::IoPtr io = std::move(a.io);
  const bool error = a.error;
  m_free_active.push_back(slot);
  --m_in_flight;
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
  if (!m_quiescing || m_in_flight > 0) return;
  if (!m_drain_requested) {
    // Everything acknowledged goes to flash; idle-time GC waits.
    m_drain_requested = true;
    m_controller.hold_background();
    m_controller.request_drain();
  }
  if (!m_controller.drained()) return;  // quiescent_event brings us back
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
