#include "base/stats/sparse_histogram.h"

#include <algorithm>

namespace ssdlab {

namespace {
constexpr std::size_t kSlack = std::size_t(1) << (Histogram::kSubBits - 1);  // one octave of buckets
}  // namespace

void SparseHistogram::grow(std::size_t i) {
  const std::size_t lo = m_buckets.empty() ? i : std::min(i, m_first);
  const std::size_t hi = m_buckets.empty() ? i : std::max(i, m_first + m_buckets.size() - 1);
  const std::size_t first = lo > kSlack ? lo - kSlack : 0;
  const std::size_t last = std::min(Histogram::kBuckets - 1, hi + kSlack);
  std::vector<Histogram::Bucket> grown(last - first + 1);
  if (!m_buckets.empty()) std::copy(m_buckets.begin(), m_buckets.end(), grown.begin() + (m_first - first));
  m_buckets.swap(grown);
  m_first = first;
}

void SparseHistogram::add_to(Histogram& h) const {
  if (m_count == 0) return;
  for (std::size_t k = 0; k < m_buckets.size(); ++k) {
    h.m_buckets[m_first + k].count += m_buckets[k].count;
    h.m_buckets[m_first + k].offset_sum += m_buckets[k].offset_sum;
  }
  h.m_count += m_count;
  h.m_sum += m_sum;
  h.m_max = std::max(h.m_max, m_max);
  h.m_min = std::min(h.m_min, m_min);
}

}  // namespace ssdlab
