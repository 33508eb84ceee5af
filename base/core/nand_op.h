// A flash operation as the firmware asks for it and the flash array executes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ssdlab {

enum class NandOpKind : std::uint8_t { kRead, kProgram, kErase };
enum class OpOrigin : std::uint8_t { kHost, kGc, kMap };  // kMap: translation pages of the mapping table

// A read's outcome as the controller's error model decided it when the op was submitted
// (controller/media): the read-retry attempts after the first, whether ECC failed on all, and
// that its attempts are decoded at all (every read, with bit errors on; none without).
constexpr std::uint8_t kOpUncorrectable = 0x01;
constexpr std::uint8_t kOpDecoded = 0x02;
// Set by the die on a multi-plane host read whose first plane's page it reported at that page's
// data-out's end (FlashCompletionIf::flash_plane_out), before the op itself (docs/planes.md).
constexpr std::uint8_t kOpPlaneOut = 0x04;

struct NandOp {
  NandOp() = default;
  NandOp(NandOpKind kind_, OpOrigin origin_, std::uint32_t die_, std::uint32_t block_, std::uint32_t page_,
         std::uint32_t bytes_, std::uint32_t cookie_)
      : kind(kind_), origin(origin_), die(die_), block(block_), page(page_), bytes(bytes_), cookie(cookie_) {}

  NandOpKind kind = NandOpKind::kRead;
  OpOrigin origin = OpOrigin::kHost;
  std::uint8_t retries = 0;  // reads: read-retry attempts after the first (each a further tR and data-out)
  std::uint8_t status = 0;   // reads: kOpDecoded, kOpUncorrectable
  std::uint32_t die = 0;
  std::uint32_t block = 0;   // global block number
  std::uint32_t page = 0;    // page within the block (decides LSB/MSB timing)
  std::uint32_t bytes = 0;   // data moved over the channel bus (0 for erase)
  std::uint32_t cookie = 0;  // owner's completion context
};
// A cookie bit asking the die to keep the op's timing (Die::finished_timing): set for the ops a
// request's latency anatomy reads (host reads, RMW reads, write-through programs). Ops without
// it cost the die nothing extra; with an instrument attached every op is timed.
constexpr std::uint32_t kOpTimedBit = 0x80000000u;

static_assert(sizeof(NandOp) == 24, "append_op() writes a NandOp as 16 + 8 bytes");

// Appends an op to `ops` (a std::vector<NandOp>), written as one 16-byte and one 8-byte store:
// the widths its copies load with. An op built field by field (a temporary, or in place) makes
// the next copy's 16-byte load wait until the narrower stores reach the cache (a failed
// store-to-load forward), and ops are copied right after they are made: into the vector, then
// into a die. That wait was 5-6 % of steady-state random-write time.
template <typename Ops>
inline void append_op(Ops& ops, NandOpKind kind, OpOrigin origin, std::uint32_t die, std::uint32_t block,
                      std::uint32_t page, std::uint32_t bytes, std::uint32_t cookie) {
  NandOp& op = ops.emplace_back();
  // kind and origin are the first two bytes, then retries and status (0: decided at submission).
  const std::uint32_t head = std::uint32_t(kind) | std::uint32_t(origin) << 8;
  alignas(16) std::uint32_t first[4] = {head, die, block, page};
  const std::uint64_t second = std::uint64_t(bytes) | std::uint64_t(cookie) << 32;
  static_assert(offsetof(NandOp, retries) == 2 && offsetof(NandOp, status) == 3 && offsetof(NandOp, die) == 4 &&
                    offsetof(NandOp, page) == 12 && offsetof(NandOp, bytes) == 16 && offsetof(NandOp, cookie) == 20,
                "NandOp layout");
  std::memcpy(static_cast<void*>(&op), first, 16);
  std::memcpy(reinterpret_cast<unsigned char*>(static_cast<void*>(&op)) + 16, &second, 8);
}

}  // namespace ssdlab
