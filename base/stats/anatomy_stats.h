// Latency anatomy over many requests (one phase, one direction): the mean composition of all
// requests, and of the slowest ones (those at or above a quantile), plus how many waited behind
// GC. Records in O(1) without allocating: sums per part, and per part within coarse latency
// buckets (log-linear, 4 per power of two) from which the tail's composition is read.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "base/core/anatomy.h"
#include "base/core/types.h"

namespace ssdlab {

class AnatomyStats {
 public:
  static constexpr int kSubBits = 3;  // latencies below 2^kSubBits ps are exact
  static constexpr std::size_t kBuckets = std::size_t(64 - kSubBits + 2) << (kSubBits - 1);

  void record(Picos latency, const Anatomy& a) {
    const std::size_t b = bucket(latency);
    ++m_count;
    ++m_bucket_count[b];
    add_parts(m_bucket_sum[b].data(), a.part.data());
    const Picos gc = a[Part::kDieWaitGc];
    if (gc) {
      ++m_gc_waited;
      m_gc_wait_sum += gc;
    }
  }

  std::uint64_t count() const { return m_count; }
  // Mean of part `p` over all requests, picoseconds (0 without requests).
  double mean(Part p) const;  // from the bucket sums (a record adds to one row only)
  // Mean composition of the slowest ceil((1 - q) * count) requests, picoseconds per part. The
  // bucket holding the boundary contributes its mean composition, prorated to the requests it
  // must give: exact above that bucket, the bucket's own mix within it (at most 25 % wide).
  std::array<double, kParts> tail_mean(double q) const;
  // Requests whose critical flash op waited behind GC work, and their mean such wait.
  std::uint64_t gc_waited() const { return m_gc_waited; }
  double gc_wait_mean() const { return m_gc_waited ? double(m_gc_wait_sum) / double(m_gc_waited) : 0.0; }

  // row[i] += parts[i] for every slot, two at a time (GCC's -O2 leaves the plain loop scalar).
  static void add_parts(Picos* row, const Picos* parts) {
    using Pair = Picos __attribute__((vector_size(16)));
#pragma GCC unroll 8
    for (std::size_t i = 0; i < kPartSlots; i += 2) {
      Pair r, p;
      std::memcpy(&r, row + i, sizeof r);
      std::memcpy(&p, parts + i, sizeof p);
      r += p;
      std::memcpy(row + i, &r, sizeof r);
    }
  }
  static std::size_t bucket(Picos v) {
    if (v < (Picos(1) << kSubBits)) return static_cast<std::size_t>(v);
    const int msb = 63 - __builtin_clzll(v);
    const int shift = msb - (kSubBits - 1);
    return (std::size_t(shift) << (kSubBits - 1)) + static_cast<std::size_t>(v >> shift);
  }

 private:
  std::uint64_t m_count = 0, m_gc_waited = 0;
  Picos m_gc_wait_sum = 0;
  std::array<std::uint64_t, kBuckets> m_bucket_count{};
  std::array<std::array<Picos, kPartSlots>, kBuckets> m_bucket_sum{};
};

}  // namespace ssdlab
