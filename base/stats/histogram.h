// Fixed-bucket log-linear histogram (64 linear sub-buckets per power of two, <= 1.6 %
// relative error): records in O(1) without allocating. Mean, min and max are exact; each
// bucket keeps its count and the sum of its values (as offsets from its low edge), so a quantile is placed inside its
// bucket around the bucket's own mean (exact when the bucket holds one value).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace ssdlab {

class Histogram {
 public:
  static constexpr int kSubBits = 7;  // values below 2^kSubBits are exact
  static constexpr std::size_t kBuckets = std::size_t(64 - kSubBits + 2) << (kSubBits - 1);

  void record(std::uint64_t v) {
    std::uint64_t offset;
    Bucket& b = m_buckets[index(v, offset)];
    ++b.count;
    b.offset_sum += offset;
    ++m_count;
    m_sum += v;
    if (v > m_max) m_max = v;
    if (v < m_min) m_min = v;
  }
  void merge(const Histogram& other);
  // Every non-empty bucket lies in [index(min), index(max)]: clearing, merging and walking the
  // buckets touch that range only (an interval histogram is cleared every sample).
  void clear() {
    if (m_count) std::fill(m_buckets.begin() + index(m_min), m_buckets.begin() + index(m_max) + 1, Bucket{});
    m_count = 0;
    m_sum = 0;
    m_max = 0;
    m_min = ~std::uint64_t(0);
  }

  std::uint64_t count() const { return m_count; }
  std::uint64_t max() const { return m_count ? m_max : 0; }
  std::uint64_t min() const { return m_count ? m_min : 0; }
  double mean() const { return m_count ? double(m_sum) / double(m_count) : 0.0; }
  // Value at quantile q in [0, 1]: of the ceil(q n)-th smallest sample (the first for q = 0),
  // exact for the first and the last, else interpolated inside the bucket holding it. Within [min, max], in that
  // sample's bucket (so within one bucket width of it), monotone in q. In the bucket, samples are taken as spread
  // evenly over the widest interval centred on the bucket's mean that fits the bucket and
  // [min, max]; a bucket midpoint instead put p99 below the mean when every sample sat at
  // the top of its bucket.
  std::uint64_t quantile(double q) const;

  static std::size_t index(std::uint64_t v) {
    std::uint64_t offset;
    return index(v, offset);
  }
  // Also sets `offset` to v - bucket_low(index).
  static std::size_t index(std::uint64_t v, std::uint64_t& offset) {
    if (v < (1u << kSubBits)) {
      offset = 0;
      return static_cast<std::size_t>(v);
    }
    const int msb = 63 - __builtin_clzll(v);
    const int shift = msb - (kSubBits - 1);
    offset = v & ((std::uint64_t(1) << shift) - 1);
    return (std::size_t(shift) << (kSubBits - 1)) + static_cast<std::size_t>(v >> shift);
  }
  // f(low, width, count) for every non-empty bucket, ascending: the bucket holds [low, low + width).
  template <class F>
  void for_each_bucket(F&& f) const {
    if (m_count == 0) return;
    for (std::size_t i = index(m_min), last = index(m_max); i <= last; ++i)
      if (m_buckets[i].count) f(bucket_low(i), bucket_width(i), m_buckets[i].count);
  }

  static std::uint64_t bucket_low(std::size_t i);
  static std::uint64_t bucket_width(std::size_t i);

  // Integers only: recording converts nothing to floating point, and merging is exact (the
  // merged histogram equals one that recorded every value). The offset sum overflows only
  // after 2^(70 - msb) values of bit length msb in one bucket (2^30 values above 1 s in ps).
  struct Bucket {
    std::uint64_t count = 0;
    std::uint64_t offset_sum = 0;  // of (value - the bucket's low edge) over its values
  };

 private:
  friend class SparseHistogram;  // the same buckets over a range (sparse_histogram.h)
  // The j-th smallest (1-based) of the samples in bucket i.
  std::uint64_t in_bucket(std::size_t i, std::uint64_t j) const;

  std::array<Bucket, kBuckets> m_buckets{};
  std::uint64_t m_count = 0;
  unsigned __int128 m_sum = 0;
  std::uint64_t m_max = 0;
  std::uint64_t m_min = ~std::uint64_t(0);
};

}  // namespace ssdlab
