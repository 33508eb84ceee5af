// The host|drive vocabulary both sides speak: ATA commands and the Frame Information
// Structures that carry them over SATA. Plain C++; the link (host/sata) gives them wire time,
// the device (controller/) and the HBA (host/sata) receive them.
#pragma once

#include <cstdint>

#include "base/core/types.h"

namespace ssdlab {

struct Anatomy;  // base/core/anatomy.h

enum class AtaCommand : std::uint8_t {
  kReadFpdma,          // READ FPDMA QUEUED (READ DMA EXT when NCQ is off)
  kWriteFpdma,         // WRITE FPDMA QUEUED (WRITE DMA EXT when NCQ is off)
  kDataSetManagement,  // DATA SET MANAGEMENT with the TRIM bit: non-queued
  kFlushCache,         // FLUSH CACHE EXT: non-queued
};

// Non-queued commands may only be issued when no NCQ command is outstanding, and nothing
// else is issued until they complete (what the 2009-2011 generation of drives required).
constexpr bool is_queued(AtaCommand c) { return c == AtaCommand::kReadFpdma || c == AtaCommand::kWriteFpdma; }

// A DATA SET MANAGEMENT range entry: 48-bit LBA + 16-bit sector count, 64 entries per
// 512-byte block of the range list the host sends.
constexpr std::uint32_t kTrimRangeMaxSectors = 65535;
constexpr std::uint32_t kTrimEntriesPerBlock = 64;
inline std::uint32_t trim_payload_bytes(std::uint64_t sectors) {
  const std::uint64_t entries = (sectors + kTrimRangeMaxSectors - 1) / kTrimRangeMaxSectors;
  const std::uint64_t blocks = (entries + kTrimEntriesPerBlock - 1) / kTrimEntriesPerBlock;
  return static_cast<std::uint32_t>((blocks ? blocks : 1) * kSectorBytes);
}

enum class FisKind : std::uint8_t {
  kCommand,        // Register H2D FIS carrying the command
  kDataToDevice,   // DMA Setup (D2H) followed by the host's Data FISes (H2D)
  kDataToHost,     // DMA Setup (D2H) followed by the device's Data FISes (D2H)
  kSetDeviceBits,  // NCQ completion (D2H)
};

struct Fis {
  FisKind kind = FisKind::kCommand;
  std::uint8_t tag = 0;
  AtaCommand command = AtaCommand::kReadFpdma;
  Lba lba = 0;
  std::uint32_t sectors = 0;
  std::uint32_t data_bytes = 0;  // payload for the data kinds
  bool fua = false;              // write: forced unit access (complete only once on flash)
  bool error = false;            // completion with an error status
  // Host memory the command's data is moved from/to (the PRD table, reduced to one buffer);
  // null when the simulation does not carry data.
  std::uint8_t* host_data = nullptr;
  // The request's latency anatomy the drive stamps (base/core/anatomy.h); null: not kept.
  Anatomy* anatomy = nullptr;
};

}  // namespace ssdlab
