#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "host/workload/job_generator.h"

using namespace ssdlab;

namespace {
JobSpec job(RwMode rw, std::uint64_t bs, std::uint64_t region_bytes) {
  JobSpec j;
  j.rw = rw;
  j.bs_bytes = bs;
  j.size = Amount{false, 0.0, region_bytes};
  return j;
}
}  // namespace

TEST_CASE("a sequential job covers its region once, in order", "[workload]") {
  JobSpec j = job(RwMode::kWrite, 8192, 1 << 20);
  j.offset = Amount{false, 0.0, 65536};
  JobGenerator gen(j, 16 << 20, 1);
  IoSpec io;
  Lba expected = 65536 / 512;
  std::uint64_t count = 0;
  while (gen.next(io)) {
    CHECK(io.write);
    CHECK(io.lba == expected);
    CHECK(io.sectors == 16);
    expected += 16;
    ++count;
  }
  CHECK(count == (1 << 20) / 8192);
}

TEST_CASE("random offsets stay in the region, on blockalign, and repeat with the seed", "[workload]") {
  JobSpec j = job(RwMode::kRandRead, 4096, 1 << 20);
  j.blockalign_bytes = 512;
  j.io_size = Amount{false, 0.0, 4 << 20};
  j.io_size_set = true;
  JobGenerator a(j, 8 << 20, 99), b(j, 8 << 20, 99), c(j, 8 << 20, 100);
  IoSpec x, y, z;
  std::set<Lba> seen;
  bool any_difference = false, any_misaligned_4k = false;
  std::uint64_t n = 0;
  while (a.next(x)) {
    REQUIRE(b.next(y));
    REQUIRE(c.next(z));
    CHECK(x.lba == y.lba);
    any_difference |= x.lba != z.lba;
    CHECK(x.lba * 512 + 4096 <= (1u << 20));
    any_misaligned_4k |= x.lba % 8 != 0;
    seen.insert(x.lba);
    ++n;
  }
  CHECK(n == 1024);
  CHECK(any_difference);
  CHECK(any_misaligned_4k);  // blockalign=512 really allows 512-byte steps
  CHECK(seen.size() > 500);
}

TEST_CASE("rwmixread sets the share of reads", "[workload]") {
  JobSpec j = job(RwMode::kRandRw, 4096, 1 << 20);
  j.rwmixread = 70;
  j.time_based = true;
  JobGenerator gen(j, 1 << 20, 5);
  IoSpec io;
  int reads = 0;
  for (int i = 0; i < 100000; ++i) {
    REQUIRE(gen.next(io));  // time_based: never runs out
    reads += !io.write;
  }
  CHECK(reads > 69000);
  CHECK(reads < 71000);
}

TEST_CASE("percent sizes resolve against the drive and bad regions are refused", "[workload]") {
  JobSpec j;
  j.rw = RwMode::kRead;
  j.bs_bytes = 4096;
  j.size = Amount{true, 50.0, 0};
  JobGenerator gen(j, 1 << 20, 1);
  CHECK(gen.region_bytes() == (1 << 19));
  j.offset = Amount{false, 0.0, 2 << 20};
  CHECK_THROWS_AS(JobGenerator(j, 1 << 20, 1), std::invalid_argument);
  j.offset = Amount{false, 0.0, 0};
  j.bs_bytes = 2 << 20;
  CHECK_THROWS_AS(JobGenerator(j, 1 << 20, 1), std::invalid_argument);
}

TEST_CASE("fio's default random map visits every block once per pass", "[workload]") {
  JobSpec j = job(RwMode::kRandWrite, 4096, 1000 * 4096);
  j.io_size = Amount{false, 0.0, 3000 * 4096};
  j.io_size_set = true;
  JobGenerator gen(j, 1 << 30, 17);
  IoSpec io;
  for (int pass = 0; pass < 3; ++pass) {
    std::set<Lba> seen;
    std::vector<Lba> order;
    for (int i = 0; i < 1000; ++i) {
      REQUIRE(gen.next(io));
      seen.insert(io.lba);
      order.push_back(io.lba);
    }
    CHECK(seen.size() == 1000);
    CHECK(*seen.rbegin() == 999 * 8);
    CHECK_FALSE(std::is_sorted(order.begin(), order.end()));
  }
  CHECK_FALSE(gen.next(io));
}

TEST_CASE("norandommap draws blocks independently, so some repeat", "[workload]") {
  JobSpec j = job(RwMode::kRandWrite, 4096, 1000 * 4096);
  j.norandommap = true;
  JobGenerator gen(j, 1 << 30, 17);
  IoSpec io;
  std::set<Lba> seen;
  while (gen.next(io)) seen.insert(io.lba);
  CHECK(seen.size() < 1000);  // ~632 distinct expected
  CHECK(seen.size() > 500);
}
