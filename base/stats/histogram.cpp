#include "base/stats/histogram.h"

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
  if (other.m_count == 0) return;
  for (std::size_t i = index(other.m_min), last = index(other.m_max); i <= last; ++i) {
    m_buckets[i].count += other.m_buckets[i].count;
    m_buckets[i].offset_sum += other.m_buckets[i].offset_sum;
  }
  m_count += other.m_count;
  m_sum += other.m_sum;
  m_max = std::max(m_max, other.m_max);
  m_min = std::min(m_min, other.m_min);
}

std::uint64_t Histogram::in_bucket(std::size_t i, std::uint64_t j) const {
  const Bucket& b = m_buckets[i];
  const std::uint64_t lo = std::max(bucket_low(i), m_min);
  const std::uint64_t hi = std::min(bucket_low(i) + (bucket_width(i) - 1), m_max);
  const double bucket_mean = double(bucket_low(i)) + double(b.offset_sum) / double(b.count);
  const double mean = std::min(double(hi), std::max(double(lo), bucket_mean));
  const double half = std::min(mean - double(lo), double(hi) - mean);
  const double v = mean - half + 2.0 * half * ((double(j) - 0.5) / double(b.count));
  const auto rounded = static_cast<std::uint64_t>(std::llround(std::max(0.0, v)));
  return std::min(hi, std::max(lo, rounded));
}

std::uint64_t Histogram::quantile(double q) const {
  if (m_count == 0) return 0;
  const double clamped = std::min(1.0, std::max(0.0, q));
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(clamped * double(m_count))));
  if (rank == 1) return m_min;  // the smallest and the largest sample are known exactly
  if (rank >= m_count) return m_max;
  std::uint64_t before = 0;
  for (std::size_t i = index(m_min), last = index(m_max); i <= last; ++i) {
    const std::uint64_t n = m_buckets[i].count;
    if (before + n >= rank) return in_bucket(i, rank - before);
    before += n;
  }
  return m_max;
}

}  // namespace ssdlab
