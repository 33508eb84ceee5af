// The SATA wire format: how many bytes each FIS occupies on the link, framing included.
#pragma once

#include <cstdint>

#include "base/core/sata_fis.h"

namespace ssdlab {

// Bytes a FIS occupies on the wire: payload plus SOF/CRC/EOF framing and the handshake
// primitives (X_RDY, R_RDY, R_IP, R_OK, WTRM) that surround every frame.
constexpr std::uint32_t kFisFramingBytes = 12 + 16;
constexpr std::uint32_t kRegisterFisBytes = 20;
constexpr std::uint32_t kDmaSetupFisBytes = 28;
constexpr std::uint32_t kSetDeviceBitsFisBytes = 8;
constexpr std::uint32_t kDataFisHeaderBytes = 4;
constexpr std::uint32_t kMaxDataFisPayload = 8192;

inline std::uint64_t fis_wire_bytes(const Fis& f) {
  switch (f.kind) {
    case FisKind::kCommand:
      return kRegisterFisBytes + kFisFramingBytes;
    case FisKind::kSetDeviceBits:
      return kSetDeviceBitsFisBytes + kFisFramingBytes;
    case FisKind::kDataToDevice:
    case FisKind::kDataToHost: {
      const std::uint64_t frames = (f.data_bytes + kMaxDataFisPayload - 1) / kMaxDataFisPayload;
      return kDmaSetupFisBytes + kFisFramingBytes + frames * (kDataFisHeaderBytes + kFisFramingBytes) + f.data_bytes;
    }
  }
  return 0;
}

}  // namespace ssdlab
