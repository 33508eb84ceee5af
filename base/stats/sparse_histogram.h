// A Histogram's buckets, kept only between the smallest and the largest value recorded (with
// an octave of slack each side): the same counts, sums and extremes as a Histogram that
// recorded the same values, in about 1 KiB per octave of latency spread instead of 60 KiB.
// For figures kept per job (up to 4096 jobs in a phase); add_to() makes the full histogram
// the reports read. Recording grows the range (an allocation) only when a value falls
// outside it, which stops after the first few values of each new octave.
#pragma once

#include <cstdint>
#include <vector>

#include "base/stats/histogram.h"

namespace ssdlab {

class SparseHistogram {
 public:
  void record(std::uint64_t v) {
    std::uint64_t offset;
    const std::size_t i = Histogram::index(v, offset);
    if (i < m_first || i - m_first >= m_buckets.size()) grow(i);
    Histogram::Bucket& b = m_buckets[i - m_first];
    ++b.count;
    b.offset_sum += offset;
    ++m_count;
    m_sum += v;
    if (v > m_max) m_max = v;
    if (v < m_min) m_min = v;
  }
  std::uint64_t count() const { return m_count; }
  // Merges what was recorded into `h` (exactly as if `h` had recorded the same values).
  void add_to(Histogram& h) const;
  // Buckets held (for the memory bound's test).
  std::size_t buckets_held() const { return m_buckets.size(); }

 private:
  void grow(std::size_t i);

  std::vector<Histogram::Bucket> m_buckets;  // indices [m_first, m_first + size)
  std::size_t m_first = 0;
  std::uint64_t m_count = 0;
  unsigned __int128 m_sum = 0;
  std::uint64_t m_max = 0;
  std::uint64_t m_min = ~std::uint64_t(0);
};

}  // namespace ssdlab
