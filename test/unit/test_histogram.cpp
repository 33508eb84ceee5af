#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "base/core/rng.h"
#include "base/stats/histogram.h"
#include "base/stats/sparse_histogram.h"

using namespace ssdlab;

TEST_CASE("histogram quantiles are within the bucket resolution", "[stats]") {
  Histogram h;
  for (std::uint64_t v = 1; v <= 100000; ++v) h.record(v * 1000);
  CHECK(h.count() == 100000);
  CHECK(h.min() == 1000);
  CHECK(h.max() == 100000000);
  CHECK(h.mean() == Approx(50000500.0));
  CHECK(double(h.quantile(0.5)) == Approx(50000000.0).epsilon(0.016));
  CHECK(double(h.quantile(0.99)) == Approx(99000000.0).epsilon(0.016));
  CHECK(double(h.quantile(0.999)) == Approx(99900000.0).epsilon(0.016));
  CHECK(h.quantile(1.0) == 100000000);
}

TEST_CASE("histogram buckets tile the value range", "[stats]") {
  Rng rng(1);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t v = rng.next() >> (rng.below(64));
    const std::size_t idx = Histogram::index(v);
    REQUIRE(idx < Histogram::kBuckets);
    REQUIRE(Histogram::bucket_low(idx) <= v);
    REQUIRE(v - Histogram::bucket_low(idx) < Histogram::bucket_width(idx));
  }
  Histogram a, b;
  a.record(5);
  b.record(500);
  a.merge(b);
  CHECK(a.count() == 2);
  CHECK(a.max() == 500);
  CHECK(a.min() == 5);
}

namespace {

// The exact quantile of sorted samples with the histogram's rank rule: the ceil(q n)-th smallest.
std::uint64_t exact_quantile(const std::vector<std::uint64_t>& sorted, double q) {
  const auto rank = static_cast<std::size_t>(std::ceil(q * double(sorted.size())));
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}

// Samples of one of several shapes: uniform, exponential-like, bimodal with a far tail,
// constant, and latencies packed at the top of one bucket.
std::vector<std::uint64_t> draw(Rng& rng, int shape, std::size_t n) {
  std::vector<std::uint64_t> v(n);
  const std::uint64_t base = 1000 + rng.below(100000000);
  for (std::size_t i = 0; i < n; ++i) {
    switch (shape) {
      case 0:
        v[i] = base + rng.below(base);
        break;
      case 1:
        v[i] = base >> rng.below(12) | rng.below(64);
        break;
      case 2:
        v[i] = rng.below(100) < 2 ? base * 50 + rng.below(base) : base + rng.below(base / 10 + 1);
        break;
      case 3:
        v[i] = base;
        break;
      default:
        v[i] = Histogram::bucket_low(Histogram::index(base)) + Histogram::bucket_width(Histogram::index(base)) - 1 -
               rng.below(2);
        break;
    }
  }
  return v;
}

}  // namespace

TEST_CASE("histogram quantiles stay in the bucket of the exact sample and are monotone", "[stats]") {
  Rng rng(7);
  const double qs[] = {0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9999, 1.0};
  for (int trial = 0; trial < 200; ++trial) {
    const int shape = trial % 5;
    const std::size_t n = 1 + rng.below(trial % 3 == 0 ? 20 : 5000);
    std::vector<std::uint64_t> v = draw(rng, shape, n);
    Histogram h;
    for (std::uint64_t x : v) h.record(x);
    std::sort(v.begin(), v.end());
    std::uint64_t last = 0;
    for (double q : qs) {
      INFO("trial " << trial << " shape " << shape << " n " << n << " q " << q);
      const std::uint64_t got = h.quantile(q);
      const std::uint64_t want = exact_quantile(v, q);
      REQUIRE(got >= h.min());
      REQUIRE(got <= h.max());
      REQUIRE(got >= last);
      last = got;
      // Same bucket as the sample it describes, so within one bucket width (<= 1/64 relative).
      REQUIRE(Histogram::index(got) == Histogram::index(want));
      const std::uint64_t diff = got > want ? got - want : want - got;
      REQUIRE(diff < Histogram::bucket_width(Histogram::index(want)));
    }
  }
}

TEST_CASE("histogram quantiles of a value repeated at the top of a bucket are that value", "[stats]") {
  // The d3 fresh_read shape: every read 619.58 us but one early fast one. A bucket midpoint
  // printed p50 = p99 = 616.56 us, below the mean.
  Histogram h;
  h.record(100000000);
  for (int i = 0; i < 1000; ++i) h.record(619580956);
  CHECK(h.quantile(0.5) == 619580956);
  CHECK(h.quantile(0.99) == 619580956);
  CHECK(double(h.quantile(0.99)) >= h.mean());
}

TEST_CASE("histogram p99 below the mean is a skewed distribution not an artefact", "[stats]") {
  // 99.5 % at 100 us, 0.5 % at 100 ms: mean ~600 us, p99 exactly 100 us.
  Histogram h;
  for (int i = 0; i < 995; ++i) h.record(100000000);
  for (int i = 0; i < 5; ++i) h.record(100000000000);
  CHECK(h.quantile(0.99) == 100000000);
  CHECK(h.mean() > 5.0 * double(h.quantile(0.99)));
  CHECK(h.quantile(0.999) == 100000000000);
}

TEST_CASE("histogram buckets list the non-empty buckets in ascending order", "[stats]") {
  Histogram h;
  h.record(3);
  h.record(3);
  h.record(1000000);
  h.record(200);
  std::vector<std::array<std::uint64_t, 3>> seen;
  h.for_each_bucket([&](std::uint64_t low, std::uint64_t width, std::uint64_t count) {
    seen.push_back({low, width, count});
  });
  REQUIRE(seen.size() == 3);
  CHECK(seen[0] == std::array<std::uint64_t, 3>{3, 1, 2});
  CHECK(seen[1][0] <= 200);
  CHECK(seen[1][0] + seen[1][1] > 200);
  CHECK(seen[2][0] <= 1000000);
  CHECK(seen[2][0] + seen[2][1] > 1000000);
  CHECK(seen[2][2] == 1);
}

TEST_CASE("a cleared histogram keeps nothing of what it held", "[stats]") {
  Histogram h;
  for (std::uint64_t v = 1000; v < 5000000; v += 977) h.record(v);
  h.clear();
  CHECK(h.count() == 0);
  CHECK(h.quantile(0.5) == 0);
  h.record(300);
  h.record(301);
  std::uint64_t buckets = 0, total = 0;
  h.for_each_bucket([&](std::uint64_t, std::uint64_t, std::uint64_t count) {
    ++buckets;
    total += count;
  });
  CHECK(total == 2);
  CHECK(buckets <= 2);
  CHECK(h.quantile(1.0) == 301);
  Histogram empty, sum;
  sum.merge(empty);
  CHECK(sum.count() == 0);
  sum.merge(h);
  CHECK(sum.quantile(0.0) == 300);
  CHECK(sum.quantile(1.0) == 301);
}

// Issue 23: a phase's concurrent jobs (up to 4096) keep their latencies in SparseHistograms.
TEST_CASE("a SparseHistogram adds to a Histogram exactly what a Histogram would have recorded", "[histogram]") {
  Histogram full, from_sparse;
  SparseHistogram sparse;
  std::uint64_t x = 88172645463325252ull;  // xorshift64: values over many octaves, growing both ways
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const std::uint64_t v = (x >> (x % 50)) + (i % 7 == 0 ? 0 : 1000);
    full.record(v);
    sparse.record(v);
  }
  sparse.add_to(from_sparse);
  CHECK(sparse.count() == full.count());
  CHECK(from_sparse.count() == full.count());
  CHECK(from_sparse.min() == full.min());
  CHECK(from_sparse.max() == full.max());
  CHECK(from_sparse.mean() == full.mean());
  for (double q : {0.0, 0.01, 0.5, 0.9, 0.99, 0.999, 1.0}) CHECK(from_sparse.quantile(q) == full.quantile(q));
  std::vector<std::uint64_t> a, b;
  full.for_each_bucket([&a](std::uint64_t low, std::uint64_t, std::uint64_t n) { a.insert(a.end(), {low, n}); });
  from_sparse.for_each_bucket([&b](std::uint64_t low, std::uint64_t, std::uint64_t n) { b.insert(b.end(), {low, n}); });
  CHECK(a == b);
  // Values within one octave hold that octave and the slack either side, not 3776 buckets.
  SparseHistogram narrow;
  for (std::uint64_t v = 100000; v < 200000; v += 7) narrow.record(v);
  CHECK(narrow.buckets_held() <= 3 * 64 + 1);
  // Adding to a histogram that holds values merges, as Histogram::merge does.
  Histogram merged = full;
  narrow.add_to(merged);
  Histogram expected = full;
  for (std::uint64_t v = 100000; v < 200000; v += 7) expected.record(v);
  CHECK(merged.count() == expected.count());
  CHECK(merged.quantile(0.5) == expected.quantile(0.5));
}
