#include <catch2/catch.hpp>

#include "model/core/rng.h"
#include "model/stats/histogram.h"

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
