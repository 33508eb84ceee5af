// The channel bus's calendar (base/core/bus_calendar.h): transfers booked ahead of time keep
// their slot; later ones use a gap before them only when they fit there entirely.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/core/bus_calendar.h"
#include "base/core/rng.h"

using namespace ssdlab;

TEST_CASE("bus calendar: bookings made at their own time are served in request order", "[bus_calendar]") {
  BusCalendar bus;
  CHECK(bus.reserve(0, 10) == 10);
  CHECK(bus.reserve(5, 10) == 20);  // waits for the first
  CHECK(bus.reserve(30, 5) == 35);  // the bus was free
  CHECK(bus.reserve(31, 0) == 31);  // nothing to carry: no booking
  CHECK(bus.busy_ps() == 25);
  CHECK(bus.busy_until(32) == 22);
  CHECK(bus.busy_until(40) == 25);
}

TEST_CASE("bus calendar: a booking ahead keeps its slot, a later one fills the gap before it only if it fits",
          "[bus_calendar]") {
  BusCalendar bus;
  CHECK(bus.reserve(0, 100, 10) == 110);  // a read's data-out, booked when its tR starts
  CHECK(bus.reserve(10, 20) == 30);       // fits before it
  CHECK(bus.reserve(20, 80) == 190);      // 70 left before 100: goes after 110
  CHECK(bus.reserve(25, 70) == 100);      // exactly fills [30, 100)
  CHECK(bus.reserve(26, 1) == 191);       // no gap left before 190
  CHECK(bus.busy_ps() == 10 + 20 + 80 + 70 + 1);
  CHECK(bus.busy_until(50) == 40);   // [10, 30) and [30, 50)
  CHECK(bus.busy_until(105) == 95);  // [10, 105)
  CHECK(bus.busy_until(1000) == bus.busy_ps());
}

// A reference that keeps every booking ever made and searches them all.
namespace {
struct Reference {
  std::vector<std::pair<Picos, Picos>> all;
  Picos reserve(Picos at, Picos duration) {
    if (duration == 0) return at;
    std::sort(all.begin(), all.end());
    Picos start = at;
    for (const auto& [s, e] : all) {
      if (start + duration <= s) break;
      if (e > start) start = e;
    }
    all.emplace_back(start, start + duration);
    return start + duration;
  }
  Picos busy_until(Picos now) const {
    Picos busy = 0;
    for (const auto& [s, e] : all) busy += std::min(e, now) > s ? std::min(e, now) - s : 0;
    return busy;
  }
};
}  // namespace

TEST_CASE("bus calendar: agrees with a search of every booking over random requests", "[bus_calendar]") {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    Rng rng(seed);
    BusCalendar bus;
    Reference ref;
    Picos now = 0;
    for (int i = 0; i < 4000; ++i) {
      now += rng.below(40);
      // Mostly at once; a third ahead by up to 400 (a read's tR), lengths 1..60.
      const Picos at = now + (rng.below(3) == 0 ? rng.below(400) : 0);
      const Picos duration = 1 + rng.below(60);
      INFO("seed " << seed << " request " << i);
      REQUIRE(bus.reserve(now, at, duration) == ref.reserve(at, duration));
      if (i % 97 == 0) REQUIRE(bus.busy_until(now) == ref.busy_until(now));
    }
  }
}
