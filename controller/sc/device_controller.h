// The drive's controller: receives ATA commands over SATA (NCQ), pays the firmware cost,
// runs the write buffer and the FTL, and turns their decisions into flash operations.
// The firmware objects (Ftl, WriteBuffer) are plain C++; this module only keeps time.
// Implementation: device_controller.cpp (commands), device_backend.cpp (flash side).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/ftl/ftl.h"
#include "controller/ftl/mapping_cache.h"
#include "controller/ftl/page_store.h"
#include "controller/ftl/precondition.h"
#include "controller/ftl/write_buffer.h"
#include "controller/sc/sata_if.h"
#include "model/config/config.h"
#include "model/core/ring.h"
#include "model/core/round_robin_set.h"
#include "model/time/timeline.h"
#include "nand/flash_if.h"

namespace ssdlab {

struct ControllerStats {
  std::uint64_t commands = 0;
  std::uint64_t read_units_from_buffer = 0;  // served from the write buffer
  std::uint64_t read_units_unmapped = 0;     // never written / trimmed: zeros, no NAND read
  std::uint64_t read_units_from_nand = 0;
  std::uint64_t rmw_reads = 0;     // reads for partially written mapping units
  std::uint64_t buffer_waits = 0;  // writes that waited for buffer space
  std::uint64_t rejected = 0;      // commands completed with an error
  std::uint64_t trims = 0, flushes = 0;
  std::uint64_t background_gc_ops = 0;          // flash operations issued by idle-time GC
  std::uint64_t map_reads = 0, map_writes = 0;  // translation pages read on a miss / written back
};

class DeviceController : public sc_core::sc_module,
                         public SataDeviceIf,
                         public FlashCompletionIf,
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

  // No command in flight and no flash operation outstanding.
  bool quiescent() const { return m_active_commands == 0 && m_flash_ops == 0; }
  const sc_core::sc_event& quiescent_event() const { return m_quiescent_event; }
  // The host went idle: program whatever the buffer holds, partial pages included.
  // drained() turns true (and quiescent_event fires) once all of it is on flash.
  void request_drain();
  // Idle-time GC may still be running: it stops by itself when a command arrives.
  bool drained() const {
    return m_active_commands == 0 && m_host_programs == 0 && m_buffer.dirty() == 0 && m_stage.empty();
  }
  // Stop idle-time GC from issuing more work (before a secure erase, say).
  void hold_background();
  // ATA SECURITY ERASE on a quiescent drive: buffer dropped, every block erased, the
  // mapping cache empty.
  void secure_erase();

  // Work done without simulated time (device_untimed.cpp). Each leaves the drive as the timed
  // path would: nothing queued for later, the mapping cache consistent with the mapping.
  //
  // Fast preconditioning of a quiescent drive with an empty buffer (precondition.h): the
  // mapping cache goes through the same accesses as when the controller writes those pages,
  // and their translation-page reads and write-backs are counted now (they are the fill's)
  // but never executed. Afterwards the host counts as just gone idle (idle-time GC may start).
  PreconditionResult precondition(const PreconditionSpec& spec);
  // The FTL's mapping was replaced through ftl() (a saved mapping loaded): every translation
  // page that maps anything to flash is marked as on flash, so that a miss on it reads it.
  // Runs at start_of_simulation too: a mapping loaded (or an FTL written) through ftl()
  // before the simulation needs no call.
  void mapping_loaded();

  const Ftl& ftl() const { return m_ftl; }
  // Changing the FTL through this is untimed and bypasses the mapping cache: do it before the
  // simulation starts, or call mapping_loaded() after replacing the mapping.
  Ftl& ftl() { return m_ftl; }
  const WriteBuffer& buffer() const { return m_buffer; }
  const MappingCache& mapping_cache() const { return m_map_cache; }
  const ControllerStats& stats() const { return m_stats; }
  void register_stats(const class StatGroup& group) const;  // controller_stats.cpp
  std::uint64_t user_sectors() const { return m_user_sectors; }
  const PageStore* page_store() const { return m_store.get(); }
  PageStore* page_store() { return m_store.get(); }

 private:
  static constexpr std::uint32_t kMaxTags = 32;
  static constexpr std::uint32_t kRmwCookie = 0x100;
  static constexpr std::uint32_t kMapCookie = 0x200;  // a translation-page read a command waits for
  // A die is offered new host pages only while it has fewer operations than this queued,
  // so writes flow to the dies that are free (write combining striped over dies).
  static constexpr std::size_t kMaxQueuedOpsPerDie = 4;

  struct Command {
    bool active = false;
    AtaCommand op = AtaCommand::kReadFpdma;
    Lba lba = 0;
    std::uint32_t sectors = 0;
    bool write_through = false;  // write cache off, or FUA
    std::uint8_t* host_data = nullptr;
    Lpn first_lpn = 0;
    std::uint32_t units = 0;
    std::uint32_t pending = 0;      // NAND reads (read, RMW) or unprogrammed units (write-through)
    std::uint32_t map_pending = 0;  // translation pages being read before the data reads
    std::uint32_t bytes_sent = 0;   // read data already on its way to the host
    std::uint64_t serial = 0;       // which command this is: tags are reused (see slot_owner)
  };

  enum Timer : std::uint32_t { kCpuTimer, kIdleTimer };
  void on_timer(std::uint32_t what) override;
  void start_of_simulation() override;
  // No command left: idle-time GC starts after idle_delay unless one arrives.
  void host_went_idle();
  void page_placed(const Lpn* lpns, std::uint32_t count) override;
  // Commands (device_controller.cpp).
  void on_cpu_done();
  Picos cpu_cost(AtaCommand op);
  void dispatch(std::uint8_t tag);
  void start_read(std::uint8_t tag);
  void copy_read_data(const Command& c);
  void start_write(std::uint8_t tag);
  void request_buffer(std::uint8_t tag);
  void grant_buffer_space();
  void data_arrived(std::uint8_t tag);
  void fill_unit(Lpn lpn, std::uint8_t* out) const;
  void trim_arrived(std::uint8_t tag);
  void complete(std::uint8_t tag, bool error = false);
  void check_flush_command();

  // Flash side (device_backend.cpp).
  void flush();
  bool partial_flush_allowed() const;
  std::int64_t pick_die();
  void submit_ops();
  void drop_slot(std::uint32_t slot);
  void program_done(std::uint32_t record);
  void check_quiescent();
  void on_idle();
  void background_step(std::uint32_t die);
  void relocated(Lpn lpn, Pua from, Pua to) override;
  // Mapping-table traffic: touching `lpn`'s translation page may cost a flash read (its op
  // carries `read_cookie`) and the write-back of an evicted dirty page. Returns true on a read.
  bool map_access(Lpn lpn, bool update, std::uint32_t read_cookie);
  NandOp map_op(NandOpKind kind, std::uint64_t translation_page, std::uint32_t cookie) const;
  // Read data goes to the host as each flash read completes (cut-through, one DMA Setup +
  // Data FIS burst per page); send_read_data() sends what is left and completes.
  void send_read_chunk(std::uint8_t tag, std::uint32_t bytes);
  void send_read_data(std::uint8_t tag);
  void erased(std::uint32_t block) override;

  DriveConfig m_config;
  Timeline& m_timeline;
  Timeline::Lane m_cpu_lane;  // one command at a time on the firmware CPU
  Ftl m_ftl;
  // The configured write buffer plus one spare unit. A command of max_transfer bytes (at most
  // the buffer) that starts or ends inside a mapping unit touches one unit more than its size:
  // only such a command may use the spare, so every other one sees the configured size.
  std::uint32_t m_buffer_units;
  WriteBuffer m_buffer;
  // Buffer slots command c may still be granted (negative: none).
  std::int64_t room_for(const Command& c) const {
    return std::int64_t(m_buffer.free_slots()) - m_reserved_slots - (c.units > m_buffer_units ? 0 : 1);
  }
  std::uint64_t m_serial = 0;  // commands received so far
  // The tag of the command whose data `slot` holds if that command is still running, else -1.
  // Slots are owned by serial << 8 | tag: a write-back write's tag is reused while its slots
  // wait for flash, and they must not count for the tag's next command.
  int slot_owner(std::uint32_t slot) const {
    const std::uint64_t id = m_buffer.owner(slot);
    const Command& c = m_commands[id & 0xff];
    return c.active && c.serial == id >> 8 ? int(id & 0xff) : -1;
  }
  std::unique_ptr<PageStore> m_store;  // flash data (keep_data only)
  MappingCache m_map_cache;
  std::array<std::vector<NandOp>, kMaxTags> m_deferred;  // data reads waiting for translation pages
  std::vector<std::uint8_t> m_slot_data;                 // buffer data, one mapping unit per slot (keep_data only)
  std::vector<std::uint8_t> m_read_scratch;  // one mapping unit: a read's data is assembled here (keep_data only)
  std::uint64_t m_user_sectors;
  std::array<Command, kMaxTags> m_commands{};
  Ring<std::uint8_t> m_cpu_queue;
  bool m_cpu_busy = false;
  Picos m_cpu_free_at_ps = 0;  // end of all firmware CPU work scheduled (commands, GC bookkeeping)
  std::uint8_t m_cpu_tag = 0;
  Ring<std::uint8_t> m_buffer_waiters;
  std::uint32_t m_reserved_slots = 0;
  // Flush staging: live slots gathered for the next page program.
  std::vector<std::uint32_t> m_stage;
  std::vector<Lpn> m_stage_lpns;
  // Page programs in flight: units_per_page slots each.
  std::vector<std::uint32_t> m_record_slots;
  std::vector<std::uint32_t> m_record_count;
  std::vector<std::uint32_t> m_free_records;
  std::uint32_t m_host_programs = 0;
  std::vector<std::uint32_t> m_die_ops;  // operations queued per die
  RoundRobinSet m_dies_with_room;        // dies with fewer than kMaxQueuedOpsPerDie queued
  std::uint32_t m_next_die = 0;
  OpList m_ops;
  std::uint32_t m_active_commands = 0;
  std::uint64_t m_flash_ops = 0;
  bool m_draining = false;
  int m_flush_tag = -1;  // FLUSH CACHE waiting for the buffer to reach flash
  sc_core::sc_event m_quiescent_event;
  bool m_was_quiescent = true, m_was_drained = true;  // quiescent_event fires when one turns true
  // Background (idle-time) GC.
  bool m_idle_armed = false;
  bool m_background = false;
  ControllerStats m_stats;
};

}  // namespace ssdlab
