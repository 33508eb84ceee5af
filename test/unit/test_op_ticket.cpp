// Typed op tickets and buffer-slot owners: every kind survives the trip through a NandOp's
// cookie, and ops nobody waits for decode to kNone whatever their cookie.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "controller/sched/op_ticket.h"

using namespace ssdlab;

namespace {

// The op a ticket of this kind rides on.
NandOp op_for(const OpTicket& t) {
  NandOp op;
  op.origin = t.kind == OpTicket::Kind::kMapRead ? OpOrigin::kMap : OpOrigin::kHost;
  op.kind = t.kind == OpTicket::Kind::kProgram ? NandOpKind::kProgram : NandOpKind::kRead;
  op.cookie = t.cookie();
  return op;
}

}  // namespace

TEST_CASE("op tickets round trip through the cookie", "[op_ticket]") {
  std::vector<OpTicket> tickets;
  for (std::uint32_t tag : {0u, 1u, 17u, 31u, 255u}) {
    const auto t = static_cast<std::uint8_t>(tag);
    tickets.push_back(OpTicket::host_read(t));
    tickets.push_back(OpTicket::rmw_read(t));
    tickets.push_back(OpTicket::map_read(t));
  }
  for (std::uint32_t record : {0u, 1u, 255u, 256u, 0x300u, 1000000u}) tickets.push_back(OpTicket::program(record));
  for (std::uint32_t record : {0u, 1u, 255u, 0x400u, 65535u}) tickets.push_back(OpTicket::read_ahead(record));
  for (const OpTicket& t : tickets) {
    INFO("kind " << int(t.kind) << " index " << t.index);
    const OpTicket back = OpTicket::of(op_for(t));
    CHECK(back == t);
  }
  // Reads of the same tag are told apart by the cookie alone.
  CHECK(OpTicket::host_read(5).cookie() != OpTicket::rmw_read(5).cookie());
  CHECK(OpTicket::host_read(5).tag() == 5);
  // A read-ahead read is a host read by origin and kind: the cookie tells it apart, the timed
  // bit aside.
  NandOp ahead = op_for(OpTicket::read_ahead(7));
  ahead.cookie |= kOpTimedBit;
  CHECK(OpTicket::of(ahead) == OpTicket::read_ahead(7));
}

TEST_CASE("ops nobody waits for decode to no ticket", "[op_ticket]") {
  for (std::uint32_t cookie : {0u, 7u, 0x100u, 0x207u, 0xffffffffu}) {
    for (NandOpKind kind : {NandOpKind::kRead, NandOpKind::kProgram, NandOpKind::kErase}) {
      CHECK(OpTicket::decode(kind, OpOrigin::kGc, cookie).kind == OpTicket::Kind::kNone);
    }
    // Translation-page write-backs, and host erases.
    CHECK(OpTicket::decode(NandOpKind::kProgram, OpOrigin::kMap, cookie).kind == OpTicket::Kind::kNone);
    CHECK(OpTicket::decode(NandOpKind::kErase, OpOrigin::kHost, cookie).kind == OpTicket::Kind::kNone);
  }
  // A translation-page read that no command waits for (a write's or a TRIM's).
  CHECK(OpTicket::decode(NandOpKind::kRead, OpOrigin::kMap, OpTicket::none().cookie()).kind == OpTicket::Kind::kNone);
  // ...while the read for command 0 is one.
  CHECK(OpTicket::decode(NandOpKind::kRead, OpOrigin::kMap, OpTicket::map_read(0).cookie()) == OpTicket::map_read(0));
}

TEST_CASE("slot owners round trip and tell reused tags apart", "[op_ticket]") {
  for (std::uint64_t serial : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(1) << 40}) {
    for (std::uint32_t tag : {0u, 31u, 255u}) {
      const SlotOwner o{serial, static_cast<std::uint8_t>(tag)};
      CHECK(SlotOwner::from_id(o.id()) == o);
    }
  }
  CHECK(SlotOwner{1, 3}.id() != SlotOwner{2, 3}.id());
  CHECK(SlotOwner{1, 3}.id() != SlotOwner{1, 4}.id());
}
