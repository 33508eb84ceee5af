// RoundRobinSet: the die picker's bit set against a plain scan of a bool array.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "base/core/round_robin_set.h"

using ssdlab::RoundRobinSet;

namespace {

// The reference: the loop pick_die() used to run.
std::int64_t scan(const std::vector<bool>& member, const std::vector<bool>& accepted, std::uint32_t start) {
  const auto n = static_cast<std::uint32_t>(member.size());
  std::uint32_t i = start < n ? start : 0;
  for (std::uint32_t k = 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1) {
    if (member[i] && accepted[i]) return i;
  }
  return -1;
}

}  // namespace

TEST_CASE("RoundRobinSet finds what a wrapping scan finds, across word boundaries", "[round_robin_set]") {
  std::mt19937_64 rng(11);
  for (std::uint32_t size : {1u, 7u, 63u, 64u, 65u, 128u, 130u, 200u}) {
    RoundRobinSet set(size);
    std::vector<bool> member(size, false), accepted(size, true);
    for (int step = 0; step < 4000; ++step) {
      const auto i = static_cast<std::uint32_t>(rng() % size);
      // Dense sets first (mostly inserts), then sparse ones (mostly erases).
      if (rng() % 10 < (step < 2000 ? 9u : 2u)) {
        set.insert(i);
        member[i] = true;
      } else {
        set.erase(i);
        member[i] = false;
      }
      if (step % 7 == 0) accepted[rng() % size] = rng() % 3 != 0;
      const auto start = static_cast<std::uint32_t>(rng() % (size + 2));  // past the end too
      const std::int64_t got = set.first_from(start, [&](std::uint32_t d) { return bool(accepted[d]); });
      REQUIRE(got == scan(member, accepted, start));
    }
    std::uint32_t members = 0;
    for (bool m : member) members += m;
    CHECK(set.count() == members);
  }
}

TEST_CASE("RoundRobinSet: an empty set, a full one, repeated inserts", "[round_robin_set]") {
  RoundRobinSet set(70);
  CHECK(set.first_from(5, [](std::uint32_t) { return true; }) == -1);
  set.fill();
  CHECK(set.count() == 70);
  set.insert(3);
  CHECK(set.count() == 70);
  CHECK(set.first_from(69, [](std::uint32_t) { return true; }) == 69);
  CHECK(set.first_from(69, [](std::uint32_t d) { return d != 69; }) == 0);
  CHECK(set.first_from(66, [](std::uint32_t d) { return d < 10; }) == 0);
  set.erase(0);
  set.erase(0);
  CHECK(set.count() == 69);
  CHECK(set.first_from(66, [](std::uint32_t d) { return d < 10; }) == 1);
  CHECK(set.first_from(3, [](std::uint32_t) { return false; }) == -1);
}
