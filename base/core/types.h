// Shared vocabulary: addresses, time and size units used by every layer.
#pragma once

#include <cstdint>
#include <limits>

namespace ssdlab {

// Simulated time is kept in integer picoseconds everywhere outside SystemC
// (SATA symbol times are fractions of a nanosecond).
using Picos = std::uint64_t;
constexpr Picos kPicosPerNs = 1000;
constexpr Picos kPicosPerUs = 1000 * kPicosPerNs;
constexpr Picos kPicosPerMs = 1000 * kPicosPerUs;
constexpr Picos kPicosPerSec = 1000 * kPicosPerMs;

constexpr std::uint32_t kSectorBytes = 512;

using Lba = std::uint64_t;  // 512-byte logical sector address
using Lpn = std::uint32_t;  // logical mapping unit number (mapping_unit bytes)
// Physical unit address: ((block * pages_per_block) + page) * units_per_page + slot.
using Pua = std::uint32_t;
constexpr Pua kUnmapped = std::numeric_limits<Pua>::max();

// Time to move `bytes` over a medium of `bits_per_s`, where every byte costs
// `bits_per_byte` line bits (8 for a parallel bus, 10 for 8b/10b SATA). Rounded up.
constexpr Picos transfer_picos(std::uint64_t bytes, std::uint64_t bits_per_s, std::uint64_t bits_per_byte = 8) {
  if (bytes < (std::uint64_t(1) << 20)) {  // fits 64 bits: bytes * 10 * 1e12 < 2^64
    const std::uint64_t num = bytes * bits_per_byte * kPicosPerSec;
    return (num + bits_per_s - 1) / bits_per_s;
  }
  const unsigned __int128 num = static_cast<unsigned __int128>(bytes) * bits_per_byte * kPicosPerSec;
  return static_cast<Picos>((num + bits_per_s - 1) / bits_per_s);
}

}  // namespace ssdlab
