// A host I/O request as the host side sees it, with the time stamps of its life.
#pragma once

#include <cstdint>

#include "base/core/anatomy.h"
#include "base/core/sata_fis.h"
#include "base/core/types.h"

namespace ssdlab {

struct IoRequest {
  AtaCommand command = AtaCommand::kReadFpdma;
  bool fua = false;
  std::uint8_t* data = nullptr;  // host memory for the payload (data-carrying runs only)
  Lba lba = 0;
  std::uint32_t sectors = 0;
  std::uint8_t tag = 0;  // NCQ tag while in flight
  bool error = false;
  Picos issued_ps = 0, tagged_ps = 0, completed_ps = 0;
  std::uint32_t id = 0;   // owner's index
  std::uint64_t seq = 0;  // issue order
  Anatomy anatomy;        // where its latency went (base/core/anatomy.h)
  bool is_write() const { return command == AtaCommand::kWriteFpdma; }
};

}  // namespace ssdlab
