// Typed tickets: what a flash operation's completion is for (OpTicket, carried in
// NandOp::cookie) and which command wrote a write-buffer slot (SlotOwner). Used by the
// controller's parts; this header is the only place that packs either into an integer.
#pragma once

#include <cstdint>

#include "base/core/nand_op.h"

namespace ssdlab {

struct OpTicket {
  enum class Kind : std::uint8_t {
    kNone,       // nobody waits (GC, translation-page writes, map reads of a write or TRIM)
    kHostRead,   // data read of command `index` (a tag)
    kRmwRead,    // old contents of a partly written unit, for write command `index`
    kMapRead,    // translation page that read command `index` waits for
    kProgram,    // host page program: program record `index`
    kReadAhead,  // a read ahead of a sequential stream: read-ahead record `index` (controller/hil/read_ahead.h)
  };
  Kind kind = Kind::kNone;
  std::uint32_t index = 0;

  static OpTicket none() { return {}; }
  static OpTicket host_read(std::uint8_t tag) { return {Kind::kHostRead, tag}; }
  static OpTicket rmw_read(std::uint8_t tag) { return {Kind::kRmwRead, tag}; }
  static OpTicket map_read(std::uint8_t tag) { return {Kind::kMapRead, tag}; }
  static OpTicket program(std::uint32_t record) { return {Kind::kProgram, record}; }
  static OpTicket read_ahead(std::uint32_t record) { return {Kind::kReadAhead, record}; }

  std::uint8_t tag() const { return static_cast<std::uint8_t>(index); }

  // The cookie an op carrying this ticket holds. A read's tag is in the low byte, with a bit
  // that tells an RMW read (host ops) or a read a command waits for (map ops); a program's
  // cookie is its record. Kinds are told apart with the op's origin and kind (decode()).
  std::uint32_t cookie() const {
    switch (kind) {
      case Kind::kHostRead:
        return index & kTagMask;
      case Kind::kRmwRead:
        return (index & kTagMask) | kRmwBit;
      case Kind::kMapRead:
        return (index & kTagMask) | kMapWaitBit;
      case Kind::kProgram:
        return index;
      case Kind::kReadAhead:
        return kReadAheadBit | (index & kRecordMask) << kRecordShift;
      case Kind::kNone:
        break;
    }
    return 0;
  }
  static OpTicket decode(NandOpKind op_kind, OpOrigin origin, std::uint32_t cookie) {
    cookie &= ~kOpTimedBit;
    if (origin == OpOrigin::kHost) {
      if (op_kind == NandOpKind::kProgram) return program(cookie);
      if (op_kind == NandOpKind::kRead) {
        if (cookie & kReadAheadBit) return read_ahead((cookie >> kRecordShift) & kRecordMask);
        return {cookie & kRmwBit ? Kind::kRmwRead : Kind::kHostRead, cookie & kTagMask};
      }
    } else if (origin == OpOrigin::kMap && op_kind == NandOpKind::kRead && (cookie & kMapWaitBit)) {
      return map_read(static_cast<std::uint8_t>(cookie & kTagMask));
    }
    return none();
  }
  static OpTicket of(const NandOp& op) { return decode(op.kind, op.origin, op.cookie); }

  friend bool operator==(const OpTicket& a, const OpTicket& b) { return a.kind == b.kind && a.index == b.index; }

 private:
  static constexpr std::uint32_t kTagMask = 0xff;
  static constexpr std::uint32_t kRmwBit = 0x100;
  static constexpr std::uint32_t kMapWaitBit = 0x200;
  static constexpr std::uint32_t kReadAheadBit = 0x400;
  static constexpr std::uint32_t kRecordShift = 11;
  static constexpr std::uint32_t kRecordMask = 0xffff;  // 65536 records: controller.read_ahead.depth's bound
};

// A GC page program that carries units read on another die (controller.gc.relocation: striped)
// holds that die + 1 in its cookie; 0 (every other GC op) means read on its own die. The
// controller holds such a program until the reads are done (controller/sched/relocation_gate.h).
constexpr std::uint32_t relocation_cookie(std::uint32_t source_die) { return source_die + 1; }
// The die whose GC reads `op` waits for, or -1.
inline std::int64_t relocation_source(const NandOp& op) {
  const std::uint32_t c = op.cookie & ~kOpTimedBit;
  if (op.origin != OpOrigin::kGc || op.kind != NandOpKind::kProgram || c == 0) return -1;
  return std::int64_t(c) - 1;
}

// The command that wrote a buffer slot: its tag and serial number. Tags are reused while a
// write-back write's slots still wait for flash, so the serial tells the tag's next command
// apart (CommandQueue::running).
struct SlotOwner {
  std::uint64_t serial = 0;
  std::uint8_t tag = 0;

  // As WriteBuffer keeps it: serial << 8 | tag.
  std::uint64_t id() const { return serial << 8 | tag; }
  static SlotOwner from_id(std::uint64_t id) { return {id >> 8, static_cast<std::uint8_t>(id & 0xff)}; }
  friend bool operator==(const SlotOwner& a, const SlotOwner& b) { return a.serial == b.serial && a.tag == b.tag; }
};

}  // namespace ssdlab
