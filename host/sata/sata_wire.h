// The SATA wire: the frames and primitives a FIS exchange puts on the link, counted in Dwords,
// and the time they take at a line rate. Sources: Serial ATA 2.6 / 3.0, link layer and FIS
// formats (the same rules since SATA 1.0a):
// - 8b/10b coding: a Dword is 40 line bits (13.33 ns at 3 Gb/s).
// - A frame is SOF, the FIS (its first Dword holds the FIS type), CRC and EOF: 3 Dwords around it.
// - Frame handshake: the transmitter sends X_RDY until the receiver answers R_RDY, and after EOF
//   sends WTRM until the receiver answers R_OK. Each is a round trip through both link layers;
//   the specification bounds neither. `round_trip_dwords` (host.link_round_trip) sets it.
// - FIS sizes: Register Host to Device and Device to Host 5 Dwords, DMA Activate 1, DMA Setup 7,
//   Set Device Bits 2, Data 1 (its header) + 1..2048 Dwords of data: 8 KiB at most per frame.
// - An NCQ (first-party DMA) transfer opens with the device's DMA Setup, which the link sends
//   only when the port's DMA context is another command's (a drive sending a command's data in
//   pieces, as its pages are read, sets it up once unless another tag's data came between); each
//   Data FIS to the device waits for the device's DMA Activate (auto-activate not used: assumed). A non-queued
//   command (DATA SET MANAGEMENT) has no DMA Setup; it completes with a Register Device to Host
//   FIS, a queued one with Set Device Bits.
// - ALIGN: a transmitter sends an ALIGN pair in every 256 Dwords, the pair included (clock
//   compensation), whatever else it sends: everything else moves at 254/256 of the Dword rate.
// Flow control (HOLD/HOLDA) is not modelled: both ends here take data as fast as the wire brings
// it (docs/sata-link.md).
#pragma once

#include <cstdint>
#include <limits>

#include "base/core/sata_fis.h"
#include "base/core/types.h"

namespace ssdlab {

namespace sata {
constexpr std::uint32_t kFrameDelimiterDwords = 3;  // SOF, CRC, EOF
constexpr std::uint32_t kRegisterFisDwords = 5;
constexpr std::uint32_t kDmaActivateFisDwords = 1;
constexpr std::uint32_t kDmaSetupFisDwords = 7;
constexpr std::uint32_t kSetDeviceBitsFisDwords = 2;
constexpr std::uint32_t kDataFisHeaderDwords = 1;
constexpr std::uint32_t kMaxDataFisDwords = 2048;
constexpr std::uint32_t kAlignPeriodDwords = 256;  // one ALIGN pair in every 256 Dwords
constexpr std::uint32_t kAlignPairDwords = 2;
constexpr std::uint32_t kLineBitsPerDword = 40;  // 32 data bits, 8b/10b coded
}  // namespace sata

class SataWire {
 public:
  SataWire(std::uint64_t line_bps, std::uint32_t round_trip_dwords)
      : m_line_bps(line_bps), m_round_trip(round_trip_dwords) {}

  // One frame carrying a FIS of `fis_dwords`: its handshakes, delimiters and the FIS.
  std::uint64_t frame_dwords(std::uint64_t fis_dwords) const {
    return 2 * std::uint64_t(m_round_trip) + sata::kFrameDelimiterDwords + fis_dwords;
  }

  // The Dwords (ALIGNs aside) of the FIS exchange `f` stands for: a command, a completion, or a
  // data transfer with the frames that set it up (`dma_setup`: with a DMA Setup if queued).
  std::uint64_t dwords(const Fis& f, bool dma_setup = true) const {
    switch (f.kind) {
      case FisKind::kCommand:
        return frame_dwords(sata::kRegisterFisDwords);
      case FisKind::kSetDeviceBits:
        return frame_dwords(is_queued(f.command) ? sata::kSetDeviceBitsFisDwords : sata::kRegisterFisDwords);
      case FisKind::kDataToDevice:
      case FisKind::kDataToHost: {
        const std::uint64_t data = (std::uint64_t(f.data_bytes) + 3) / 4;
        const std::uint64_t frames = (data + sata::kMaxDataFisDwords - 1) / sata::kMaxDataFisDwords;
        std::uint64_t n = frames * frame_dwords(sata::kDataFisHeaderDwords) + data;
        if (dma_setup && is_queued(f.command)) n += frame_dwords(sata::kDmaSetupFisDwords);
        if (f.kind == FisKind::kDataToDevice) n += frames * frame_dwords(sata::kDmaActivateFisDwords);
        return n;
      }
    }
    return 0;
  }

  // Time on the wire of `dwords` Dwords: 40 line bits each, stretched by the ALIGN pairs
  // (256/254). Rounded up to the picosecond.
  Picos picos(std::uint64_t dwords) const {
    constexpr std::uint64_t kPerDword =
        std::uint64_t(sata::kAlignPeriodDwords) * sata::kLineBitsPerDword * kPicosPerSec;
    const std::uint64_t den = m_line_bps * (sata::kAlignPeriodDwords - sata::kAlignPairDwords);
    if (dwords < std::numeric_limits<std::uint64_t>::max() / 2 / kPerDword) {  // a command, a completion, 4 KiB
      return (dwords * kPerDword + den - 1) / den;
    }
    const unsigned __int128 num = static_cast<unsigned __int128>(dwords) * kPerDword;
    return static_cast<Picos>((num + den - 1) / den);
  }

  Picos time(const Fis& f, bool dma_setup = true) const { return picos(dwords(f, dma_setup)); }

  // A transfer's first (last) Data FIS frame alone, as a bridge forwarding it sees it: the
  // transfer cut to that frame's bytes, without a DMA Setup (with the DMA Activate to the device).
  Picos first_frame_ps(const Fis& f) const { return frame_ps(f, first_frame_bytes(f.data_bytes)); }
  Picos last_frame_ps(const Fis& f) const { return frame_ps(f, last_frame_bytes(f.data_bytes)); }

  std::uint64_t line_bps() const { return m_line_bps; }
  std::uint32_t round_trip_dwords() const { return m_round_trip; }

 private:
  // The bytes of a data transfer's first and last frames.
  static std::uint32_t first_frame_bytes(std::uint32_t bytes) {
    return bytes < kMaxFrameBytes ? bytes : kMaxFrameBytes;
  }
  static std::uint32_t last_frame_bytes(std::uint32_t bytes) {
    const std::uint32_t rest = bytes % kMaxFrameBytes;
    return rest || bytes == 0 ? rest : kMaxFrameBytes;
  }
  Picos frame_ps(Fis f, std::uint32_t bytes) const {
    f.data_bytes = bytes;
    return time(f, false);
  }
  static constexpr std::uint32_t kMaxFrameBytes = sata::kMaxDataFisDwords * 4;
  std::uint64_t m_line_bps;
  std::uint32_t m_round_trip;
};

}  // namespace ssdlab
