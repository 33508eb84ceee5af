// fio-like job: turns a JobSpec into a stream of I/O requests (plain C++, seeded).
#pragma once

#include <cstdint>

#include "base/config/scenario.h"
#include "base/core/permutation.h"
#include "base/core/rng.h"
#include "host/workload/access_distribution.h"
#include "host/workload/io_source.h"

namespace ssdlab {

class JobGenerator final : public IoSource {  // final: the host driver calls next() directly
 public:
  // `capacity_bytes` is the drive's user capacity; throws std::invalid_argument when the
  // job does not fit it (region smaller than one block, offset past the end...).
  JobGenerator(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed);

  // Next request; false once io_size bytes (or number_ios requests) were issued (never, for
  // time_based jobs).
  bool next(IoSpec& io) override;

  std::uint64_t region_start() const { return m_start; }
  std::uint64_t region_bytes() const { return m_length; }
  std::uint64_t total_bytes() const { return m_total; }  // 0 = unlimited (time_based)

 private:
  void check_sizes() const;
  void place_region(std::uint64_t capacity_bytes);
  bool is_write();
  std::uint64_t next_bs();
  std::uint64_t next_offset(std::uint64_t bs);
  std::uint64_t random_offset();
  bool take_random();

  JobSpec m_job;
  Rng m_rng;      // offsets and the read/write mix (the stream every job had before bs and skew)
  Rng m_bs_rng;   // bsrange / bssplit sizes
  Rng m_seq_rng;  // percentage_random
  std::uint64_t m_start = 0, m_length = 0, m_total = 0, m_issued = 0, m_ios = 0;
  std::uint64_t m_align = 0;
  std::uint64_t m_min_bs = 0;
  std::uint64_t m_slots = 0;   // random offsets: number of aligned start positions
  std::uint64_t m_cursor = 0;  // sequential position within the region
  bool m_random = false;
  bool m_use_map = false;        // fio's random map (fixed bs, blockalign = bs, uniform, no norandommap)
  std::uint32_t m_run_left = 1;  // rw=randread:N countdown to the next random offset
  Permutation m_map;             // random map: this pass's order of blocks
  std::uint64_t m_map_next = 0;
  AccessDistribution m_dist;
  bool m_pending_write = false;  // trimwrite: the write of the range just trimmed
  IoSpec m_last{};
};

}  // namespace ssdlab
