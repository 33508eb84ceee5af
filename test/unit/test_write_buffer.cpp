#include <catch2/catch.hpp>

#include <set>

#include "controller/ftl/write_buffer.h"

using namespace ssdlab;

TEST_CASE("the write buffer hands out each slot once and flushes in arrival order", "[buffer]") {
  WriteBuffer buffer(4);
  std::set<std::uint32_t> slots;
  for (Lpn lpn = 10; lpn < 14; ++lpn) slots.insert(buffer.insert(lpn, lpn % 3));
  CHECK(slots.size() == 4);
  CHECK(buffer.free_slots() == 0);
  CHECK_THROWS(buffer.insert(99, 0));
  for (Lpn expected = 10; expected < 14; ++expected) {
    const std::uint32_t slot = buffer.pop_dirty();
    CHECK(buffer.lpn(slot) == expected);
    CHECK(buffer.owner(slot) == expected % 3);
    buffer.release(slot);
  }
  CHECK(buffer.dirty() == 0);
  CHECK(buffer.free_slots() == 4);
  CHECK_THROWS(buffer.pop_dirty());
}
