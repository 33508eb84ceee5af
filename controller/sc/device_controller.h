// The drive's controller: receives ATA commands over SATA (NCQ), pays the firmware cost,
// runs the write buffer and the FTL, and turns their decisions into flash operations.
// The firmware is in named plain C++ parts: the command table and the firmware CPU
// (controller/hil), the FTL and its read plans, write-buffer admission and flushing, mapping-
// table traffic (controller/ftl), the flash scheduler (controller/sched), idle-time GC
// (controller/gc). This module only keeps time: it receives FISes, schedules timers on the
// Timeline, submits NandOps and routes completions (typed tickets, op_ticket.h) to the parts.
// Implementation: device_controller.cpp (commands), device_backend.cpp (flash side).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/config/config.h"
#include "base/core/probe.h"
#include "base/time/timeline.h"
#include "controller/controller_stats.h"
#include "controller/ftl/buffer_manager.h"
#include "controller/ftl/data_store.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/map_traffic.h"
#include "controller/ftl/mapping_cache.h"
#include "controller/ftl/page_store.h"
#include "controller/ftl/precondition.h"
#include "controller/ftl/write_buffer.h"
#include "controller/gc/background_gc.h"
#include "controller/hil/command_queue.h"
#include "controller/hil/firmware_cpu.h"
#include "controller/hil/read_ahead.h"
#include "controller/media/media_health.h"
#include "controller/sc/drive_control.h"
#include "controller/sc/sata_if.h"
#include "controller/sched/flash_scheduler.h"
#include "controller/sched/op_ticket.h"
#include "controller/sched/read_spread.h"
#include "controller/sched/relocation_gate.h"
#include "nand/flash_if.h"

namespace ssdlab {

class DeviceController final : public sc_core::sc_module,
                               public SataDeviceIf,
                               public FlashCompletionIf,
                               private DriveControl,
                               private FtlListener,
                               private PagePlacedListener,
                               private TimerClient {
 public:
  sc_core::sc_port<FlashIf> flash;
  sc_core::sc_port<SataLinkIf> link;

  // `keep_data`: carry real bytes (write buffer and flash pages), for the NBD front end.
  DeviceController(sc_core::sc_module_name name, const DriveConfig& config, Timeline& timeline, bool keep_data = false);

  void receive_from_host(const Fis& fis) override;
  void flash_done(const NandOp& op) override;
  void flash_plane_out(const NandOp& op) override;
  // Only counted: the die keeps gc_batch_depth() ops, so it gains no room, nothing waits for the
  // op, no held op is released (the die has work) and flush() would find what it found before.
  void flash_done_in_batch(const NandOp& op) override {
    m_scheduler.completed(op.die);
    if (m_probe) report_op(op, OpTicket::of(op));
  }
  // Instruments (base/core/probe.h): firmware CPU slices and completed flash ops with the
  // commands they served. Null: none.
  void set_probe(Probe* probe) {
    m_probe = probe;
    m_submit_hooks = m_probe != nullptr || m_gate.on() || m_media;
  }

  // The control face (drive_control.h): drain, hold background work, secure erase,
  // preconditioning, images, the mapping changed without simulated time.
  DriveControl& control() { return *this; }
  const DriveControl& control() const { return *this; }

  const Ftl& ftl() const { return m_ftl; }
  const WriteBuffer& buffer() const { return m_buffer.buffer(); }
  const MappingCache& mapping_cache() const { return m_map.cache(); }
  const FirmwareCpu& cpu() const { return m_cpu; }
  const ControllerStats& stats() const { return m_stats; }
  // Bit errors' state and counts (nand.errors.enabled), else null.
  const MediaHealth* media() const { return m_media.get(); }
  // The aging knob (a scenario's `wear:` phase): `pe_cycles` more on every block, the data on
  // flash `retention_s` older. Untimed, on a quiescent drive.
  void age_media(std::uint32_t pe_cycles, double retention_s);
  void register_stats(const class StatGroup& group) const;  // controller_stats.cpp
  std::uint64_t user_sectors() const { return m_user_sectors; }
  const PageStore* page_store() const { return m_data ? &m_data->pages() : nullptr; }

  // How many ops a die must keep queued behind an untimed GC op for this controller to do
  // nothing on that op's completion (Die::set_batch_depth): the scheduler's count stays at or
  // above its limit, so the die gains no room for host pages; nothing waits for the op (its
  // ticket is none) and flush() finds what it found before. 0 when GC reads release programs
  // on other dies (striped relocation): there every GC read's completion counts.
  std::uint32_t gc_batch_depth() const { return m_gate.on() ? 0 : FlashScheduler::kMaxQueuedOpsPerDie; }

 private:
  // ---- DriveControl (device_backend.cpp: drain, hold, erase; device_untimed.cpp: the rest) ----
  bool quiescent() const override { return is_quiescent(); }
  bool drained() const override { return is_drained(); }
  const sc_core::sc_event& state_event() const override { return m_quiescent_event; }
  void request_drain() override;
  void hold_background() override;
  void secure_erase() override;
  PreconditionResult precondition(const PreconditionSpec& spec) override;
  ImageInfo save_image(const std::string& path) const override;
  ImageInfo load_image(const std::string& path, const std::atomic<bool>* interrupted) override;
  Ftl& untimed_ftl() override { return m_ftl; }
  void mapping_loaded() override;
  // The predicates themselves, for the controller's own paths (no virtual call).
  bool is_quiescent() const { return m_commands.active() == 0 && m_scheduler.outstanding() == 0; }
  bool is_drained() const {
    return m_commands.active() == 0 && (m_buffer.clean() || (__builtin_expect(m_ftl.read_only(), 0) && worn_out()));
  }
  // Grown bad blocks, read-only: no die can take a page any more; what the buffer still holds
  // stays there (readable), as drained as this drive will ever be.
  bool worn_out() const {
    for (std::uint32_t d = 0; d < m_ftl.geometry().dies; ++d)
      if (!m_ftl.stuck(d)) return false;
    return true;
  }

  enum Timer : std::uint32_t { kCpuTimer, kIdleTimer };
  void on_timer(std::uint32_t what) override;
  void start_of_simulation() override;
  // No command left: idle-time GC starts after idle_delay unless one arrives.
  void host_went_idle();
  void page_placed(const Lpn* lpns, std::uint32_t count) override;
  // Commands (device_controller.cpp).
  void on_cpu_done();
  // Books command `tag` on the firmware CPU from now (or when it is free): its end timer, its
  // anatomy's firmware queue and firmware parts.
  void book_cpu(std::uint8_t tag);
  void dispatch(std::uint8_t tag);
  void start_read(std::uint8_t tag);
  // Read-ahead: the next units of the stream from flash, behind the command just planned.
  void read_ahead();
  void read_ahead_landed(const NandOp& op, std::uint32_t record);
  void start_write(std::uint8_t tag);
  void request_buffer(std::uint8_t tag);
  // Lets waiting writes' data come while the buffer has room. The test is inline: most calls
  // (one per flash completion) find nobody waiting, or the first waiter still too large.
  void grant_buffer_space() {
    if (m_buffer.waiting() && m_buffer.fits(m_commands[m_buffer.first_waiter()].units)) grant_waiting();
  }
  void grant_waiting();
  void data_arrived(std::uint8_t tag);
  void trim_arrived(std::uint8_t tag);
  void complete(std::uint8_t tag, bool error = false);
  void check_flush_command();

  // Flash side (device_backend.cpp).
  void flush();
  // Grown bad blocks: when no die can take a page any more the drive is worn out (read-only);
  // writes waiting for buffer space then fail, as nothing will make room.
  [[gnu::noinline]] void check_worn_out();
  bool partial_flush_allowed() const {
    return m_buffer.partial_flush_allowed(!m_config.controller.write_cache || m_draining || m_flush_tag >= 0,
                                          m_commands);
  }
  void submit_ops(bool background = false);  // `background`: idle-time GC work
  // One op to its die, through the flash scheduler (`holds`: read priority may hold it there).
  void dispatch(const NandOp& op, bool background, bool holds) {
    m_scheduler.submitted(op.die);
    if (!holds || m_scheduler.admit(op, background)) flash->submit(op);
  }
  void report_op(const NandOp& op, const OpTicket& ticket);  // to the probe
  void drop_slot(std::uint32_t slot);
  [[gnu::noinline]] void complete_write_through(std::uint8_t tag);  // rare: kept out of drop_slot
  void check_quiescent();
  // Striped relocation: a completed GC read lets the programs of its units go (relocation_gate.h).
  void release_relocated(const NandOp& op);
  // submit_ops() with a probe attached or striped relocation (one test on the common path).
  void submit_ops_hooked(bool background);
  void on_idle();
  void background_step(std::uint32_t die);
  void relocated(Lpn lpn, Pua from, Pua to) override;
  // Read data goes to the host as each flash read completes (cut-through, one DMA Setup +
  // Data FIS burst per page); send_read_data() sends what is left and completes.
  LinkBooking send_read_chunk(std::uint8_t tag, std::uint32_t bytes, Picos not_before = 0);
  void send_read_data(std::uint8_t tag);
  void erased(std::uint32_t block) override;

  // 20 members, over the ~15 guideline because this is the hub: one per firmware part (9: FTL,
  // commands, CPU, buffer, scheduler, read spread, map traffic, idle GC, data), the configuration, the
  // statistics and the drive size, the ops being handed to the flash, and the module's own
  // time-keeping state (timeline, CPU lane, quiescence event and its two edges, drain and
  // FLUSH state). Each is a handle or a part, none a table of its own.
  DriveConfig m_config;
  Timeline& m_timeline;
  Timeline::Lane m_cpu_lane;  // one command at a time on the firmware CPU
  ControllerStats m_stats;    // before the parts that count into it
  Ftl m_ftl;
  CommandQueue m_commands;
  FirmwareCpu m_cpu;
  BufferManager m_buffer;
  FlashScheduler m_scheduler;
  ReadSpread m_read_spread;  // per-die page reads of the command being planned (statistics only)
  ReadAhead m_read_ahead;    // controller.read_ahead: the stream and its window (off: depth 0)
  RelocationGate m_gate;     // striped GC relocation: a program waits for its reads on another die
  MapTraffic m_map;
  BackgroundGc m_background;
  std::unique_ptr<DataStore> m_data;     // the bytes (keep_data only)
  std::unique_ptr<MediaHealth> m_media;  // bit errors (nand.errors.enabled only)
  std::uint64_t m_user_sectors;
  OpList m_ops;
  bool m_draining = false;
  int m_flush_tag = -1;  // FLUSH CACHE waiting for the buffer to reach flash
  sc_core::sc_event m_quiescent_event;
  bool m_was_quiescent = true, m_was_drained = true;  // m_quiescent_event fires when one turns true
  // Latency anatomy and instruments: beside the 19 above, not part of the firmware.
  const NandOp* m_completing_op = nullptr;  // in flash_done(): the program op that completes writes
  Anatomy m_scratch_anatomy;                // stamped for commands whose FIS carried no anatomy
  Probe* m_probe = nullptr;
  bool m_submit_hooks = false;               // a probe, the relocation gate or bit errors: submit_ops_hooked()
  bool m_completion_hooks = false;           // the scheduler holds ops or the relocation gate is on
  std::uint32_t m_write_through_writes = 0;  // in flight: their programs are timed (kOpTimedBit)
};

}  // namespace ssdlab
