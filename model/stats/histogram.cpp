#include "model/stats/histogram.h"

#include <algorithm>
#include <cmath>

namespace ssdlab {

namespace {
constexpr std::size_t kLinear = std::size_t(1) << Histogram::kSubBits;
constexpr std::size_t kHalf = kLinear / 2;
}  // namespace

std::uint64_t Histogram::bucket_low(std::size_t i) {
  if (i < kLinear) return i;
  const std::size_t shift = i / kHalf - 1;
  const std::uint64_t mantissa = i % kHalf + kHalf;
  return mantissa << shift;
}

std::uint64_t Histogram::bucket_width(std::size_t i) {
  if (i < kLinear) return 1;
  return std::uint64_t(1) << (i / kHalf - 1);
}

void Histogram::merge(const Histogram& other) {
  for (std::size_t i = 0; i < kBuckets; ++i) m_buckets[i] += other.m_buckets[i];
  m_count += other.m_count;
  m_sum += other.m_sum;
  m_max = std::max(m_max, other.m_max);
  m_min = std::min(m_min, other.m_min);
}

std::uint64_t Histogram::quantile(double q) const {
  if (m_count == 0) return 0;
  const double clamped = std::min(1.0, std::max(0.0, q));
  const auto rank = static_cast<std::uint64_t>(std::ceil(clamped * double(m_count)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += m_buckets[i];
    if (seen >= std::max<std::uint64_t>(rank, 1)) {
      const std::uint64_t mid = bucket_low(i) + bucket_width(i) / 2;
      return std::min(m_max, std::max(m_min, mid));
    }
  }
  return m_max;
}

}  // namespace ssdlab
