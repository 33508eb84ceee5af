#include "host/workload/job_generator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdlab {

namespace {
// Seeds of the streams added for fio's options, derived from the job's seed.
constexpr std::uint64_t kBsStream = 0x62737370ULL;   // "bssp"
constexpr std::uint64_t kSeqStream = 0x73657172ULL;  // "seqr"
constexpr std::uint64_t kKeyStream = 0x64697374ULL;  // "dist"
}  // namespace

JobGenerator::JobGenerator(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed)
    : m_job(job), m_rng(seed), m_bs_rng(seed ^ kBsStream), m_seq_rng(seed ^ kSeqStream) {
  const std::uint64_t bs = job.bs_bytes;
  m_min_bs = bs;
  for (const BsWeight& w : job.bssplit) m_min_bs = std::min(m_min_bs, w.bs);
  m_align = job.blockalign_bytes ? job.blockalign_bytes : m_min_bs;
  check_sizes();
  place_region(capacity_bytes);
  m_random = is_random(job.rw);
  m_slots = (m_length - m_min_bs) / m_align + 1;
  const bool fixed_bs = job.bssplit.empty() && job.bs_max_bytes <= bs;
  m_use_map = !job.norandommap && m_align == bs && fixed_bs && job.distribution.kind == RandomDist::kRandom;
  if (job.distribution.kind != RandomDist::kRandom) {
    Rng keys(seed ^ kKeyStream);
    m_dist = AccessDistribution(job.distribution, m_slots, m_align, keys);
  }
  m_run_left = 1;  // fio: the first request of rw=randread:N is random, then N-1 sequential ones
  if (job.time_based) {
    m_total = 0;
  } else if (job.io_size_set) {
    m_total = job.io_size.resolve(capacity_bytes);
  } else if (job.seq_skip_bytes && !m_random) {
    // rw=write:N: one pass over the region with its holes (fio stops at the region's end).
    const std::uint64_t stride = m_min_bs + job.seq_skip_bytes;
    m_total = ((m_length - m_min_bs) / stride + 1) * m_min_bs;
  } else {
    m_total = m_length;
  }
}

void JobGenerator::check_sizes() const {
  const auto sectors = [](std::uint64_t v) { return v != 0 && v % kSectorBytes == 0; };
  bool ok = sectors(m_job.bs_bytes) && sectors(m_align);
  for (const BsWeight& w : m_job.bssplit) ok = ok && sectors(w.bs);
  if (m_job.bs_max_bytes) ok = ok && sectors(m_job.bs_max_bytes) && m_job.bs_max_bytes >= m_job.bs_bytes;
  if (!ok)
    throw std::invalid_argument(
        "bs, bsrange, bssplit and blockalign must be whole, non-zero numbers of 512-byte sectors");
}

void JobGenerator::place_region(std::uint64_t capacity_bytes) {
  const auto start_of = [&](const Amount& a) {
    std::uint64_t v = a.resolve(capacity_bytes);
    if (a.is_percent) {
      // fio: a percentage offset is aligned up to offset_align, else to the minimum block size.
      const std::uint64_t to = m_job.offset_align_bytes ? m_job.offset_align_bytes : m_min_bs;
      v = (v + to - 1) / to * to;
    }
    return v;
  };
  m_start = start_of(m_job.offset) + start_of(m_job.offset_increment) * m_job.clone_index;
  m_start -= m_start % m_align;
  if (m_start >= capacity_bytes) {
    throw std::invalid_argument("offset " + std::to_string(m_start) + " is past the end of the drive (" +
                                std::to_string(capacity_bytes) + " bytes)");
  }
  m_length = std::min(m_job.size.resolve(capacity_bytes), capacity_bytes - m_start);
  if (m_length < m_min_bs || (m_job.bssplit.empty() && m_length < m_job.bs_bytes)) {
    throw std::invalid_argument("the job's region (" + std::to_string(m_length) +
                                " bytes) is smaller than one block of bs=" + std::to_string(m_job.bs_bytes));
  }
}

bool JobGenerator::is_write() {
  switch (m_job.rw) {
    case RwMode::kRead:
    case RwMode::kRandRead:
    case RwMode::kTrim:
    case RwMode::kRandTrim:
    case RwMode::kTrimWrite:
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

// fio: bsrange draws min + U[0, max) rounded down to a multiple of the minimum (any sector
// with blocksize_unaligned) and capped at max; bssplit picks by cumulative weight.
std::uint64_t JobGenerator::next_bs() {
  if (!m_job.bssplit.empty()) {
    std::uint32_t v = static_cast<std::uint32_t>(m_bs_rng.below(100)), acc = 0;
    for (const BsWeight& w : m_job.bssplit) {
      acc += w.percent;
      if (v < acc) return w.bs;
    }
    return m_job.bssplit.back().bs;
  }
  const std::uint64_t lo = m_job.bs_bytes, hi = m_job.bs_max_bytes;
  if (hi <= lo) return lo;
  std::uint64_t bs = lo + m_bs_rng.below(hi);
  const std::uint64_t step = m_job.bs_unaligned ? kSectorBytes : lo;
  bs -= bs % step;
  return std::min(bs, hi);
}

bool JobGenerator::take_random() {
  if (!m_random) return false;
  if (--m_run_left != 0) return false;  // rw=randread:N: a new offset, then N-1 sequential I/Os
  m_run_left = std::max<std::uint32_t>(1, m_job.random_run);
  if (m_job.percentage_random >= 100) return true;
  return m_seq_rng.below(100) < m_job.percentage_random;
}

std::uint64_t JobGenerator::random_offset() {
  if (!m_dist.uniform()) return m_dist.slot(m_rng) * m_align;
  if (!m_use_map) {
    // Independent draws (fio's norandommap); also used when blockalign or the size varies.
    return m_rng.below(m_slots) * m_align;
  }
  // fio's random map: each of the region's bs-sized blocks once per pass, in random order.
  const std::uint64_t bs = m_job.bs_bytes;
  if (m_map_next == m_map.size()) {
    m_map = Permutation((m_length - bs) / bs + 1, m_rng);
    m_map_next = 0;
  }
  return m_map.at(m_map_next++) * bs;
}

// The region-relative offset of the next request of `bs` bytes.
std::uint64_t JobGenerator::next_offset(std::uint64_t bs) {
  std::uint64_t offset;
  if (take_random()) {
    offset = random_offset();
  } else {
    if (m_cursor + std::min(bs, m_min_bs) > m_length) m_cursor = 0;  // wrap, as fio does at the end
    offset = m_cursor;
  }
  return offset;
}

bool JobGenerator::next(IoSpec& io) {
  if (m_pending_write) {
    io = m_last;
    io.trim = false;
    io.write = true;
    m_pending_write = false;
    ++m_ios;
    return true;
  }
  if (m_total != 0 && m_issued >= m_total) return false;
  if (m_job.number_ios != 0 && m_ios >= m_job.number_ios) return false;
  std::uint64_t bs = next_bs();
  const std::uint64_t offset = next_offset(bs);
  // A size that does not fit before the end of the region shrinks to what does (fio redraws).
  if (offset + bs > m_length) bs = std::max(m_min_bs, (m_length - offset) / m_min_bs * m_min_bs);
  m_cursor = offset + bs + m_job.seq_skip_bytes;
  const bool trim = m_job.rw == RwMode::kTrim || m_job.rw == RwMode::kRandTrim || m_job.rw == RwMode::kTrimWrite;
  io.write = is_write();
  io.trim = trim;
  io.lba = (m_start + offset) / kSectorBytes;
  io.sectors = static_cast<std::uint32_t>(bs / kSectorBytes);
  m_issued += bs;
  ++m_ios;
  if (m_job.rw == RwMode::kTrimWrite) {
    m_last = io;
    m_pending_write = true;
  }
  return true;
}

}  // namespace ssdlab
