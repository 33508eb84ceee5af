// Where a host driver gets its requests from: a fio-like job or a list of TRIM ranges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/core/types.h"

namespace ssdlab {

struct IoSpec {
  bool write = false;
  bool trim = false;   // DATA SET MANAGEMENT (TRIM) of [lba, lba + sectors)
  bool flush = false;  // FLUSH CACHE EXT (lba and sectors unused)
  Lba lba = 0;
  std::uint32_t sectors = 0;
  // Earliest issue time, simulated picoseconds after the job's start (a trace's timestamp);
  // 0: issue as soon as a tag is free (closed loop).
  Picos issue_at_ps = 0;
};

class IoSource {
 public:
  virtual ~IoSource() = default;
  // Next request; false when the source is exhausted.
  virtual bool next(IoSpec& io) = 0;
};

// TRIM ranges as a host OS sends them: one DATA SET MANAGEMENT command per range of at most
// 64 entries x 65535 sectors (one 512-byte block of range entries).
class TrimSource : public IoSource {
 public:
  static constexpr std::uint64_t kMaxSectorsPerCommand = 64ull * 65535;
  explicit TrimSource(std::vector<std::pair<Lba, std::uint64_t>> ranges) : m_ranges(std::move(ranges)) {}
  bool next(IoSpec& io) override {
    while (m_index < m_ranges.size() && m_done >= m_ranges[m_index].second) {
      ++m_index;
      m_done = 0;
    }
    if (m_index == m_ranges.size()) return false;
    const auto& [lba, sectors] = m_ranges[m_index];
    const std::uint64_t n = std::min<std::uint64_t>(kMaxSectorsPerCommand, sectors - m_done);
    io = IoSpec{};
    io.trim = true;
    io.lba = lba + m_done;
    io.sectors = static_cast<std::uint32_t>(n);
    m_done += n;
    return true;
  }

 private:
  std::vector<std::pair<Lba, std::uint64_t>> m_ranges;  // (first LBA, sectors)
  std::size_t m_index = 0;
  std::uint64_t m_done = 0;
};

}  // namespace ssdlab
