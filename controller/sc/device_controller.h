// The drive's controller: receives ATA commands over SATA (NCQ), pays the firmware cost,
// runs the write buffer and the FTL, and turns their decisions into flash operations.
// The firmware objects (Ftl, WriteBuffer) are plain C++; this module only keeps time.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "controller/ftl/ftl.h"
#include "controller/ftl/write_buffer.h"
#include "controller/sc/sata_if.h"
#include "model/core/config.h"
#include "model/core/ring.h"
#include "nand/flash_if.h"

namespace ssdlab {

struct ControllerStats {
  std::uint64_t commands = 0;
  std::uint64_t read_units_from_buffer = 0;   // served from the write buffer
  std::uint64_t read_units_unmapped = 0;      // never written / trimmed: zeros, no NAND read
  std::uint64_t read_units_from_nand = 0;
  std::uint64_t rmw_reads = 0;                // reads for partially written mapping units
  std::uint64_t buffer_waits = 0;             // writes that waited for buffer space
  std::uint64_t rejected = 0;                 // commands completed with an error
};

class DeviceController : public sc_core::sc_module, public SataDeviceIf, public FlashCompletionIf {
 public:
  sc_core::sc_port<FlashIf> flash;
  sc_core::sc_port<SataLinkIf> link;

  SC_HAS_PROCESS(DeviceController);
  DeviceController(sc_core::sc_module_name name, const DriveConfig& config);

  void receive_from_host(const Fis& fis) override;
  void flash_done(const NandOp& op) override;

  // No command in flight and no flash operation outstanding.
  bool quiescent() const { return m_active_commands == 0 && m_flash_ops == 0; }
  const sc_core::sc_event& quiescent_event() const { return m_quiescent_event; }
  // The host went idle: program whatever the buffer holds, partial pages included.
  // drained() turns true (and quiescent_event fires) once all of it is on flash.
  void request_drain();
  bool drained() const { return quiescent() && m_buffer.dirty() == 0 && m_stage.empty(); }
  // ATA SECURITY ERASE on a quiescent drive: buffer dropped, every block erased.
  void secure_erase();

  const Ftl& ftl() const { return m_ftl; }
  const WriteBuffer& buffer() const { return m_buffer; }
  const ControllerStats& stats() const { return m_stats; }
  std::uint64_t user_sectors() const { return m_user_sectors; }

 private:
  static constexpr std::uint32_t kMaxTags = 32;
  static constexpr std::uint32_t kRmwCookie = 0x100;
  // A die is offered new host pages only while it has fewer operations than this queued,
  // so writes flow to the dies that are free (write combining striped over dies).
  static constexpr std::size_t kMaxQueuedOpsPerDie = 2;

  struct Command {
    bool active = false;
    AtaCommand op = AtaCommand::kReadFpdma;
    Lba lba = 0;
    std::uint32_t sectors = 0;
    Lpn first_lpn = 0;
    std::uint32_t units = 0;
    std::uint32_t pending = 0;  // NAND reads (read, RMW) or unprogrammed units (write-through)
  };

  void on_cpu_done();
  void dispatch(std::uint8_t tag);
  void start_read(std::uint8_t tag);
  void start_write(std::uint8_t tag);
  void request_buffer(std::uint8_t tag);
  void grant_buffer_space();
  void data_arrived(std::uint8_t tag);
  void complete(std::uint8_t tag, bool error = false);
  void flush();
  bool partial_flush_allowed() const;
  std::int64_t pick_die();
  void submit_ops();
  void drop_slot(std::uint32_t slot);
  void program_done(std::uint32_t record);
  void check_quiescent();

  DriveConfig m_config;
  Ftl m_ftl;
  WriteBuffer m_buffer;
  std::uint64_t m_user_sectors;
  std::array<Command, kMaxTags> m_commands{};
  Ring<std::uint8_t> m_cpu_queue;
  bool m_cpu_busy = false;
  std::uint8_t m_cpu_tag = 0;
  sc_core::sc_event m_cpu_event;
  Ring<std::uint8_t> m_buffer_waiters;
  std::uint32_t m_reserved_slots = 0;
  // Flush staging: live slots gathered for the next page program.
  std::vector<std::uint32_t> m_stage;
  std::vector<Lpn> m_stage_lpns;
  // Page programs in flight: units_per_page slots each.
  std::vector<std::uint32_t> m_record_slots;
  std::vector<std::uint32_t> m_record_count;
  std::vector<std::uint32_t> m_free_records;
  std::vector<std::uint32_t> m_die_ops;  // operations queued per die
  std::uint32_t m_next_die = 0;
  OpList m_ops;
  std::uint32_t m_active_commands = 0;
  bool m_draining = false;
  std::uint64_t m_flash_ops = 0;
  sc_core::sc_event m_quiescent_event;
  ControllerStats m_stats;
};

}  // namespace ssdlab
