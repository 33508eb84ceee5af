// A flash operation as the firmware asks for it and the flash array executes it.
#pragma once

#include <cstdint>

namespace ssdlab {

enum class NandOpKind : std::uint8_t { kRead, kProgram, kErase };
enum class OpOrigin : std::uint8_t { kHost, kGc, kMap };  // kMap: translation pages of the mapping table

struct NandOp {
  NandOpKind kind = NandOpKind::kRead;
  OpOrigin origin = OpOrigin::kHost;
  std::uint32_t die = 0;
  std::uint32_t block = 0;  // global block number
  std::uint32_t page = 0;   // page within the block (decides LSB/MSB timing)
  std::uint32_t bytes = 0;  // data moved over the channel bus (0 for erase)
  std::uint32_t cookie = 0; // owner's completion context
};

}  // namespace ssdlab
