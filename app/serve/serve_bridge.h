// `ssdlab serve`, simulation side: the inbox through which NBD requests enter the SystemC
// kernel, and the module that hands each request to the drive's host port (model/host_port.h:
// ATA commands on the modelled AHCI port), answers it when its commands complete, stops the
// world for image saves through the drive's control face and keeps statistics.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "base/core/slot_pool.h"
#include "base/stats/histogram.h"
#include "base/stats/io_stats.h"
#include "base/stats/stats_tree.h"
#include "host/nbd/nbd_server.h"
#include "model/host_port.h"
#include "model/ssd.h"

namespace ssdlab {

using WallClock = std::chrono::steady_clock;

// What crosses from the Asio thread into the kernel.
struct InboxItem {
  enum class Kind { kIo, kStats, kShutdown };
  Kind kind = Kind::kIo;
  nbd::IoPtr io;
  WallClock::time_point arrival;  // when the request had been received (pacing)
};

// The only door into the kernel from another thread: a primitive channel. post() queues under
// a mutex and calls async_request_update(); update() runs inside the kernel, takes the items
// and notifies arrived_event(). The main thread also waits here when the kernel has nothing
// to do before a given wall-clock time.
class Inbox : public sc_core::sc_prim_channel {
 public:
  explicit Inbox(const char* name) : sc_core::sc_prim_channel(name) {}

  void post(InboxItem item);  // any thread
  // Main thread, kernel not running: returns true as soon as something is posted, false at
  // `deadline`. Sleeps until `spin` before the deadline, then spins, yielding the core to any
  // other ready thread (sleeps overshoot by tens of microseconds on a virtual machine).
  bool wait_until(WallClock::time_point deadline, WallClock::duration spin);
  void wait();  // until something is posted
  bool posted() const { return m_posted.load(std::memory_order_acquire); }

  // Kernel side.
  const sc_core::sc_event& arrived_event() const { return m_arrived; }
  std::vector<InboxItem>& arrived() { return m_arrived_items; }

 private:
  void update() override;

  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::vector<InboxItem> m_items;  // guarded by m_mutex
  std::atomic<bool> m_posted{false};
  std::vector<InboxItem> m_arrived_items;  // kernel only
  sc_core::sc_event m_arrived;
};

// NBD-level statistics in simulated time: each request from the moment it entered the
// simulation to the completion of its last ATA command.
struct NbdStats {
  static constexpr std::size_t kKinds = 4;  // nbd::IoKind
  std::array<std::uint64_t, kKinds> requests{}, bytes{}, errors{};
  std::array<Histogram, kKinds> latency_ps;
  std::uint64_t image_saves = 0, image_save_failures = 0;
  // Wall-clock time from a request's arrival to the kernel taking it (nanoseconds).
  std::uint64_t pickups = 0, pickup_ns_sum = 0, pickup_ns_max = 0;
};

// What the bridge asks of its owner (serve.cpp); all called in the kernel thread.
struct ServeHooks {
  std::function<void(nbd::IoPtr)> reply;                    // request done: send the reply
  std::function<Picos(WallClock::time_point)> sim_time_of;  // arrival -> simulated time
  std::function<bool()> save_image;                         // drive drained; false on failure
  std::function<void()> stats;                              // print and write statistics
};

class ServeBridge : public sc_core::sc_module, private PortClient {
 public:
  Inbox inbox;

  SC_HAS_PROCESS(ServeBridge);
  // Takes the drive's host port. `has_image`: FLUSH and shutdown save an image through
  // hooks.save_image.
  ServeBridge(sc_core::sc_module_name name, Ssd& ssd, bool has_image, ServeHooks hooks);

  // Shut down: every request answered, drive drained, image saved, statistics written.
  bool finished() const { return m_finished; }
  // The image save at shutdown failed: the file holds the drive as it was last saved.
  bool shutdown_save_failed() const { return m_shutdown_save_failed; }
  // Requests in the drive or waiting for their arrival time.
  bool busy() const { return m_active.in_use() > 0 || !m_release.empty(); }
  const IoStats& io_stats() const { return m_port.io_stats(); }  // per ATA command, as `ssdlab run` counts
  const NbdStats& nbd_stats() const { return m_nbd; }
  // NBD requests, bytes and errors per request kind, image saves.
  void register_stats(const StatGroup& nbd) const;

 private:
  void on_arrived();
  void on_release();
  void on_drive_event();
  void schedule_release();
  void handle(InboxItem& item);
  void admit(nbd::IoPtr io);
  void start(nbd::IoPtr io);
  void port_done(std::uint64_t slot, bool error) override;
  void reply(const nbd::IoPtr& io, std::uint32_t error);
  void begin_quiesce();
  void check_quiesce();

  DriveControl& m_control;
  HostPort m_port;
  bool m_has_image;
  ServeHooks m_hooks;
  // Requests waiting for their arrival time (realtime pacing), in arrival order.
  std::deque<std::pair<Picos, InboxItem>> m_release;
  sc_core::sc_event m_release_event;
  // Requests in the drive (the host port's token is the slot).
  SlotPool<nbd::IoPtr> m_active;
  // Stopping the world: FLUSH with an image, and shutdown.
  bool m_dirty = false;      // written or trimmed since the last image save
  bool m_quiescing = false;  // new requests are held
  bool m_drain_requested = false;
  bool m_shutdown = false;
  bool m_finished = false;
  bool m_shutdown_save_failed = false;
  std::vector<nbd::IoPtr> m_held;
  std::vector<nbd::IoPtr> m_flush_waiters;  // FLUSHes answered once the image is on disk
  NbdStats m_nbd;
};

}  // namespace ssdlab
