#include "host/workload/job_generator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdlab {

JobGenerator::JobGenerator(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed)
    : m_job(job), m_rng(seed) {
  const std::uint64_t bs = job.bs_bytes;
  m_align = job.blockalign_bytes ? job.blockalign_bytes : bs;
  if (bs == 0 || bs % kSectorBytes != 0 || m_align % kSectorBytes != 0) {
    throw std::invalid_argument("bs and blockalign must be whole, non-zero numbers of 512-byte sectors");
  }
  m_start = job.offset.resolve(capacity_bytes);
  m_start -= m_start % m_align;
  if (m_start >= capacity_bytes) {
    throw std::invalid_argument("offset " + std::to_string(m_start) + " is past the end of the drive (" +
                                std::to_string(capacity_bytes) + " bytes)");
  }
  m_length = std::min(job.size.resolve(capacity_bytes), capacity_bytes - m_start);
  if (m_length < bs) {
    throw std::invalid_argument("the job's region (" + std::to_string(m_length) +
                                " bytes) is smaller than one block of bs=" + std::to_string(bs));
  }
  m_random = job.rw == RwMode::kRandRead || job.rw == RwMode::kRandWrite || job.rw == RwMode::kRandRw;
  m_slots = (m_length - bs) / m_align + 1;
  if (job.time_based) {
    m_total = 0;
  } else if (job.io_size_set) {
    m_total = job.io_size.resolve(capacity_bytes);
  } else {
    m_total = m_length;
  }
}

bool JobGenerator::is_write() {
  switch (m_job.rw) {
    case RwMode::kRead:
    case RwMode::kRandRead:
      return false;
    case RwMode::kWrite:
    case RwMode::kRandWrite:
      return true;
    case RwMode::kRandRw:
    case RwMode::kReadWrite:
      return m_rng.percent() >= m_job.rwmixread;
  }
  return false;
}

bool JobGenerator::next(IoSpec& io) {
  if (m_total != 0 && m_issued >= m_total) return false;
  const std::uint64_t bs = m_job.bs_bytes;
  std::uint64_t offset;
  if (m_random && (m_job.norandommap || m_align != bs)) {
    // Independent draws (fio's norandommap); also used when blockalign differs from bs.
    offset = m_start + m_rng.below(m_slots) * m_align;
  } else if (m_random) {
    // fio's random map: each of the region's bs-sized blocks once per pass, in random order.
    if (m_map_next == m_map.size()) {
      m_map = Permutation((m_length - bs) / bs + 1, m_rng);
      m_map_next = 0;
    }
    offset = m_start + m_map.at(m_map_next++) * bs;
  } else {
    if (m_cursor + bs > m_length) m_cursor = 0;  // wrap, as fio does at the end of the region
    offset = m_start + m_cursor;
    m_cursor += bs;
  }
  io.write = is_write();
  io.trim = false;
  io.lba = offset / kSectorBytes;
  io.sectors = static_cast<std::uint32_t>(bs / kSectorBytes);
  m_issued += bs;
  return true;
}

}  // namespace ssdlab
