// ReadSpread (controller/sched/read_spread.h): per command, the dies its page reads need and the
// page reads of its busiest die; nothing carried from one command to the next.
#include <catch2/catch.hpp>

#include "controller/sched/read_spread.h"

using namespace ssdlab;

namespace {
std::vector<NandOp> reads_on(std::initializer_list<std::uint32_t> dies) {
  std::vector<NandOp> ops;
  for (const std::uint32_t die : dies) ops.push_back(NandOp{NandOpKind::kRead, OpOrigin::kHost, die, 0, 0, 4096, 0});
  return ops;
}
}  // namespace

TEST_CASE("read spread counts the dies of a command and its busiest die's reads", "[spread]") {
  ReadSpread spread(8);
  ReadSpreadTotals t;
  spread.count(reads_on({3, 3, 5, 3, 0}), t);
  CHECK(t.commands == 1);
  CHECK(t.pages == 5);
  CHECK(t.dies == 3);
  CHECK(t.busiest_pages == 3);
  // The next command starts from zero on every die (die 3 read once, not four times).
  spread.count(reads_on({3, 7}), t);
  CHECK(t.commands == 2);
  CHECK(t.pages == 7);
  CHECK(t.dies == 5);
  CHECK(t.busiest_pages == 4);
  // A command that reads no flash (unmapped, in the buffer) is not counted.
  spread.count({}, t);
  CHECK(t.commands == 2);
  CHECK(t.pages == 7);
}
