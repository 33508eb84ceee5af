// Anatomy (telescoping stamps) and AnatomyStats (mean and tail composition) without SystemC.
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "base/stats/anatomy_stats.h"

using namespace ssdlab;

TEST_CASE("Anatomy stamps telescope: the parts sum to the last stamp minus the first", "[anatomy]") {
  Anatomy a;
  a.start(1000);
  a.to(Part::kHostQueue, 1500);
  a.link(1700, 2000);                  // waited 200, on the wire 300
  a.wait_until(Part::kStaging, 1900);  // the mark is past it: nothing charged
  OpTiming t;
  t.submitted = 2600;
  t.behind = {100, 250, 50};
  t.started = 3000;
  t.cmd_bus_start = 3100;
  t.array_start = 3300;
  t.array_end = 8300;
  t.out_bus_start = 8400;
  t.out_end = t.finished = 9000;
  a.flash_op(t);
  CHECK(a[Part::kHostQueue] == 500);
  CHECK(a[Part::kLinkWait] == 200);
  CHECK(a[Part::kLinkTransfer] == 300);
  CHECK(a[Part::kStaging] == 600);
  CHECK(a[Part::kDieWaitHost] == 100);
  CHECK(a[Part::kDieWaitGc] == 250);
  CHECK(a[Part::kDieWaitMap] == 50);
  CHECK(a[Part::kBusWait] == 100 + 100);
  CHECK(a[Part::kBusTransfer] == 200 + 600);
  CHECK(a[Part::kArray] == 5000);
  CHECK(a.total() == 9000 - 1000);
  CHECK(a.mark == 9000);
  CHECK(a[Part::kReadRetry] == 0);
  CHECK(a[Part::kEcc] == 0);
}

TEST_CASE("A read's ECC decodes and read retries are parts of their own after its first data-out", "[anatomy]") {
  Anatomy a;
  a.start(0);
  OpTiming t;
  t.submitted = t.started = t.cmd_bus_start = 0;
  t.array_start = 100;
  t.array_end = 5100;
  t.out_bus_start = 5100;
  t.out_end = 6000;
  // Two retries of (100 command + 5000 tR + 900 out) and three decodes of 700.
  t.ecc = 3 * 700;
  t.finished = t.out_end + t.ecc + 2 * 6000;
  a.flash_op(t);
  CHECK(a[Part::kArray] == 5000);
  CHECK(a[Part::kBusTransfer] == 100 + 900);
  CHECK(a[Part::kEcc] == 2100);
  CHECK(a[Part::kReadRetry] == 12000);
  CHECK(a.total() == t.finished);
  CHECK(a.mark == t.finished);
  CHECK(std::string(part_name(Part::kReadRetry)) == "read_retry");
  CHECK(std::string(part_name(Part::kEcc)) == "ecc");
}

namespace {

struct Req {
  Picos latency;
  Anatomy a;
};

// Requests whose latency is split over three parts at random.
std::vector<Req> random_requests(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> lat(12.0, 1.0);
  std::vector<Req> out(n);
  for (Req& r : out) {
    r.latency = static_cast<Picos>(lat(rng)) + 1;
    r.a.start(0);
    const Picos one = r.latency * (rng() % 100) / 100;
    const Picos two = (r.latency - one) * (rng() % 100) / 100;
    r.a.to(Part::kBufferWait, one);
    r.a.to(Part::kDieWaitGc, one + two);
    r.a.to(Part::kArray, r.latency);
  }
  return out;
}

}  // namespace

TEST_CASE("AnatomyStats: means are exact and the tail composition matches a brute-force one", "[anatomy]") {
  const std::vector<Req> reqs = random_requests(20000, 7);
  AnatomyStats s;
  for (const Req& r : reqs) s.record(r.latency, r.a);
  REQUIRE(s.count() == reqs.size());
  double mean_array = 0;
  std::uint64_t gc = 0;
  for (const Req& r : reqs) {
    mean_array += double(r.a[Part::kArray]);
    gc += r.a[Part::kDieWaitGc] > 0;
  }
  CHECK(s.mean(Part::kArray) == Approx(mean_array / double(reqs.size())).epsilon(1e-12));
  CHECK(s.gc_waited() == gc);

  // Brute force: the slowest 1 %, sorted.
  std::vector<Req> sorted = reqs;
  std::sort(sorted.begin(), sorted.end(), [](const Req& a, const Req& b) { return a.latency > b.latency; });
  const std::size_t k = reqs.size() / 100;
  double tail_total = 0, brute_total = 0;
  const auto tail = s.tail_mean(0.99);
  for (std::size_t i = 0; i < kParts; ++i) tail_total += tail[i];
  for (std::size_t i = 0; i < k; ++i) brute_total += double(sorted[i].latency);
  brute_total /= double(k);
  // The boundary bucket is at most 25 % wide and only part of it is taken: the total lies within it.
  CHECK(tail_total == Approx(brute_total).epsilon(0.05));
  for (Part p : {Part::kBufferWait, Part::kDieWaitGc, Part::kArray}) {
    double brute = 0;
    for (std::size_t i = 0; i < k; ++i) brute += double(sorted[i].a[p]);
    brute /= double(k);
    CHECK(tail[std::size_t(p)] == Approx(brute).epsilon(0.08));
  }
}

TEST_CASE("AnatomyStats: a tail far above the rest is read exactly", "[anatomy]") {
  AnatomyStats s;
  Anatomy fast, slow;
  fast.start(0);
  fast.to(Part::kArray, 100000);
  slow.start(0);
  slow.to(Part::kDieWaitGc, 9000000);
  slow.to(Part::kArray, 10000000);
  for (int i = 0; i < 990; ++i) s.record(100000, fast);
  for (int i = 0; i < 10; ++i) s.record(10000000, slow);
  const auto tail = s.tail_mean(0.99);
  CHECK(tail[std::size_t(Part::kDieWaitGc)] == Approx(9000000.0));
  CHECK(tail[std::size_t(Part::kArray)] == Approx(1000000.0));
  const auto all = s.tail_mean(0.0);
  CHECK(all[std::size_t(Part::kArray)] == Approx(s.mean(Part::kArray)));
  CHECK(s.gc_waited() == 10);
  CHECK(s.gc_wait_mean() == Approx(9000000.0));
}
