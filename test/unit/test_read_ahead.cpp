// Sequential read-ahead's firmware part (controller/hil/read_ahead.h): the stream it detects,
// the window it reads ahead into, the commands that wait for reads in flight.
#include <catch2/catch.hpp>

#include "controller/hil/read_ahead.h"

using namespace ssdlab;

namespace {
using State = ReadAhead::State;

// Issues what the window wants, one unit a record, every unit on flash. Returns the count.
std::uint32_t issue_all(ReadAhead& ra, Lpn user_units, std::vector<std::uint32_t>& records) {
  const auto [from, to] = ra.wanted(user_units);
  std::uint32_t n = 0;
  for (Lpn lpn = from; lpn < to; ++lpn) {
    std::uint32_t r;
    if (!ra.issue(lpn, 1, r)) break;
    records.push_back(r);
    ++n;
  }
  return n;
}
}  // namespace

TEST_CASE("Read-ahead: a stream is `trigger` commands in a row, each starting where the last ended", "[read_ahead]") {
  ReadAhead ra(64, 3);
  CHECK(!ra.observe(100, 8));
  CHECK(!ra.observe(108, 8));
  CHECK(ra.observe(116, 8));  // the third in a row
  CHECK(ra.observe(124, 8));
  CHECK(!ra.observe(500, 8));  // a jump starts over
  CHECK(!ra.observe(508, 8));
  CHECK(ra.observe(516, 8));
  ReadAhead once(64, 1);
  CHECK(once.observe(7, 1));  // trigger 1: every command
  // Not a stream: nothing wanted.
  ReadAhead two(64, 2);
  two.observe(0, 4);
  const auto [from, to] = two.wanted(1000);
  CHECK(from == to);
}

TEST_CASE("Read-ahead: the window reads `depth` units past the stream and no further, nor past the drive",
          "[read_ahead]") {
  ReadAhead ra(32, 2);
  ra.observe(0, 8);
  REQUIRE(ra.observe(8, 8));
  auto [from, to] = ra.wanted(1000);
  CHECK(from == 16);
  CHECK(to == 16 + 32);
  std::vector<std::uint32_t> records;
  CHECK(issue_all(ra, 1000, records) == 32);
  CHECK(ra.state(16) == State::kInFlight);
  CHECK(ra.state(47) == State::kInFlight);
  CHECK(ra.state(48) == State::kAbsent);
  CHECK(ra.records_in_flight() == 32);
  // Full: the window holds `depth` units, and every record is in flight.
  std::tie(from, to) = ra.wanted(1000);
  CHECK(from == to);
  // The host reads 16..24 (in flight: it waits) and the window moves past 16.
  CHECK(ra.observe(16, 8));
  CHECK(ra.lo() == 16);
  CHECK(ra.wait(ra.record_of(16), 5));
  CHECK(!ra.wait(ra.record_of(16), 5));  // counted once
  CHECK(ra.landed(ra.record_of(16)) == (1u << 5));
  CHECK(ra.state(16) == State::kReady);
  // The end of the drive bounds it.
  ReadAhead end(32, 1);
  end.observe(90, 4);
  std::tie(from, to) = end.wanted(100);
  CHECK(from == 94);
  CHECK(to == 100);
}

TEST_CASE("Read-ahead: writes and TRIM take units out, and a broken stream keeps its records until they land",
          "[read_ahead]") {
  ReadAhead ra(16, 1);
  ra.observe(0, 4);
  std::vector<std::uint32_t> records;
  REQUIRE(issue_all(ra, 1000, records) == 16);
  for (std::uint32_t r : records) ra.landed(r);
  CHECK(ra.state(4) == State::kReady);
  ra.invalidate(5);
  CHECK(ra.state(5) == State::kAbsent);
  CHECK(ra.state(6) == State::kReady);
  // Units the window passes without reading (unmapped, buffered) are absent.
  ReadAhead skip(8, 1);
  skip.observe(0, 1);
  skip.skip(1);
  std::uint32_t r;
  REQUIRE(skip.issue(2, 2, r));
  CHECK(skip.state(1) == State::kAbsent);
  CHECK(skip.state(2) == State::kInFlight);
  CHECK(skip.state(3) == State::kInFlight);
  CHECK(skip.record_of(3) == r);
  // A command waits for the read; the stream breaks before it lands: the window forgets the
  // units, the record still names its waiter.
  CHECK(skip.wait(r, 9));
  skip.observe(400, 1);  // a jump: the window starts again past it
  CHECK(skip.state(2) == State::kAbsent);
  CHECK(skip.landed(r) == (1u << 9));
  CHECK(skip.state(2) == State::kAbsent);
  CHECK(skip.records_in_flight() == 0);
  // A failed read leaves its units absent.
  ReadAhead fail(8, 1);
  fail.observe(0, 1);
  REQUIRE(fail.issue(1, 1, r));
  fail.landed(r, false);
  CHECK(fail.state(1) == State::kAbsent);
}

TEST_CASE("Read-ahead: records run out before the window does, and reset forgets the stream", "[read_ahead]") {
  ReadAhead ra(4, 1);
  ra.observe(0, 1);
  std::vector<std::uint32_t> records;
  CHECK(issue_all(ra, 1000, records) == 4);
  std::uint32_t r;
  CHECK(!ra.issue(5, 1, r));  // all four records in flight
  ra.reset();
  CHECK(ra.state(1) == State::kAbsent);
  CHECK(ra.observe(5, 1));  // trigger 1: a new stream at once
  for (std::uint32_t rec : records) ra.landed(rec);
  CHECK(ra.records_in_flight() == 0);
}
