// fio-like job: turns a JobSpec into a stream of I/O requests (plain C++, seeded).
#pragma once

#include <cstdint>

#include "host/workload/io_source.h"
#include "model/config/scenario.h"
#include "model/core/permutation.h"
#include "model/core/rng.h"

namespace ssdlab {

class JobGenerator : public IoSource {
 public:
  // `capacity_bytes` is the drive's user capacity; throws std::invalid_argument when the
  // job does not fit it (region smaller than one block, offset past the end...).
  JobGenerator(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed);

  // Next request; false once io_size bytes were issued (never, for time_based jobs).
  bool next(IoSpec& io) override;

  std::uint64_t region_start() const { return m_start; }
  std::uint64_t region_bytes() const { return m_length; }
  std::uint64_t total_bytes() const { return m_total; }  // 0 = unlimited (time_based)

 private:
  bool is_write();

  JobSpec m_job;
  Rng m_rng;
  std::uint64_t m_start = 0, m_length = 0, m_total = 0, m_issued = 0;
  std::uint64_t m_align = 0;
  std::uint64_t m_slots = 0;   // random offsets: number of aligned start positions
  std::uint64_t m_cursor = 0;  // sequential position within the region
  bool m_random = false;
  Permutation m_map;  // random map: this pass's order of blocks
  std::uint64_t m_map_next = 0;
};

}  // namespace ssdlab
