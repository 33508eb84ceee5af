// Host interface layer: the NCQ command table. One Command record per tag, each with a serial
// number (tags are reused), and the count of commands in flight. Owned by the controller's
// SystemC module, which opens a record when a command FIS arrives and closes it on completion.
#pragma once

#include <array>
#include <cstdint>

#include "base/core/anatomy.h"
#include "base/core/sata_fis.h"
#include "base/core/types.h"
#include "controller/sched/op_ticket.h"

namespace ssdlab {

struct Command {
  bool active = false;
  AtaCommand op = AtaCommand::kReadFpdma;
  Lba lba = 0;
  std::uint32_t sectors = 0;
  bool write_through = false;  // write cache off, or FUA
  bool media_error = false;    // a flash read of it was uncorrectable (bit errors): completes with an error
  std::uint8_t* host_data = nullptr;
  Lpn first_lpn = 0;
  std::uint32_t units = 0;
  std::uint32_t pending = 0;      // NAND reads (read, RMW) or unprogrammed units (write-through)
  std::uint32_t map_pending = 0;  // translation pages being read before the data reads
  std::uint32_t bytes_sent = 0;   // read data already on its way to the host
  std::uint32_t dram_units = 0;   // read units served from DRAM: zeros, the write buffer, read-ahead
  std::uint64_t serial = 0;       // which command this is: tags are reused (see SlotOwner)
  Anatomy* anatomy = nullptr;     // the request's latency anatomy (the command FIS's, or scratch)

  std::uint64_t first_byte() const { return lba * kSectorBytes; }
  std::uint64_t end_byte() const { return first_byte() + std::uint64_t(sectors) * kSectorBytes; }
  // Sets first_lpn and units: the mapping units of `unit_bytes` the command touches.
  void map_units(std::uint32_t unit_bytes) {
    first_lpn = static_cast<Lpn>(first_byte() / unit_bytes);
    units = static_cast<std::uint32_t>((end_byte() + unit_bytes - 1) / unit_bytes - first_lpn);
  }
};

class CommandQueue {
 public:
  static constexpr std::uint32_t kMaxTags = 32;

  Command& operator[](std::uint8_t tag) { return m_commands[tag]; }
  const Command& operator[](std::uint8_t tag) const { return m_commands[tag]; }
  std::uint32_t active() const { return m_active; }

  // A command arrived on `tag`: a fresh record with the next serial number.
  Command& open(std::uint8_t tag) {
    Command& c = m_commands[tag];
    c = Command{};
    c.serial = ++m_serial;
    c.active = true;
    ++m_active;
    return c;
  }
  // The command on `tag` completed. True when it was the last one in flight.
  bool close(std::uint8_t tag) {
    m_commands[tag].active = false;
    return --m_active == 0;
  }

  SlotOwner owner(std::uint8_t tag) const { return SlotOwner{m_commands[tag].serial, tag}; }
  // The tag of the command `owner` names if that command is still running, else -1.
  int running(SlotOwner owner) const {
    const Command& c = m_commands[owner.tag];
    return c.active && c.serial == owner.serial ? int(owner.tag) : -1;
  }

 private:
  std::array<Command, kMaxTags> m_commands{};
  std::uint64_t m_serial = 0;  // commands received so far
  std::uint32_t m_active = 0;  // commands in flight
};

}  // namespace ssdlab
