// Striped GC relocation (controller.gc.relocation: striped) and time: a GC page program on die e
// that carries units read from a victim on die d (its cookie says d: relocation_source() in
// op_ticket.h) must not start before those reads are done. With in_die relocation both sit in
// the same die's FIFO and the order is implied; across dies it is not, so the controller asks
// this gate about every op it submits, in the FTL's order:
//
// - a GC read of die d counts as d's next read (reads_submitted);
// - a GC program from d waits when d has GC reads not yet done: its units were read by GC reads
//   the FTL emitted before it, the last of which is d's reads_submitted-th; the program is held
//   here until that many of d's GC reads have completed (reads_done), then handed back.
//
// A die's GC reads complete in the order they were submitted (the die is a FIFO, and the flash
// scheduler keeps GC ops in order among themselves), so one count per die and one FIFO of waiting
// programs per source die are enough: a completion looks only at its own die's FIFO (no scan of
// the dies, nothing allocated per op once the rings have grown). No deadlock: a held program
// waits only for reads submitted before it, and reads are never held here.
//
// A host read of a unit whose GC program is held reads the new location at once (as with read
// priority's held GC programs: the FTL's map runs ahead of the flash; a drive would serve it from
// the GC buffer). Plain C++, no SystemC.
#pragma once

#include <cstdint>
#include <vector>

#include "base/core/nand_op.h"
#include "base/core/ring.h"
#include "controller/sched/op_ticket.h"

namespace ssdlab {

class RelocationGate {
 public:
  // `on`: striped relocation (off: every call is a no-op and nothing is allocated).
  RelocationGate(std::uint32_t dies, bool on) : m_on(on) {
    if (on) m_sources.resize(dies);
  }
  bool on() const { return m_on; }

  // `op` is being submitted (after every op the FTL emitted before it). True: a program whose
  // reads are not done, held here until read_done() hands it back. `background`: idle-time GC.
  bool hold(const NandOp& op, bool background) {
    if (op.origin != OpOrigin::kGc) return false;
    if (op.kind == NandOpKind::kRead) {
      ++m_sources[op.die].reads_submitted;
      return false;
    }
    const std::int64_t source = relocation_source(op);
    if (source < 0) return false;
    Source& s = m_sources[static_cast<std::size_t>(source)];
    if (s.reads_done == s.reads_submitted) return false;  // its data is already read
    s.waiting.push(Waiting{op, s.reads_submitted, background});
    ++m_held;
    return true;
  }

  // `op` completed. A GC read hands the programs it frees to `release(program, background)`, in
  // the order they were held.
  template <typename Release>
  void completed(const NandOp& op, Release release) {
    if (op.origin != OpOrigin::kGc || op.kind != NandOpKind::kRead) return;
    Source& s = m_sources[op.die];
    ++s.reads_done;
    while (!s.waiting.empty() && s.waiting.front().needed <= s.reads_done) {
      const Waiting w = s.waiting.pop();
      --m_held;
      release(w.op, w.background);
    }
  }

  std::uint64_t held() const { return m_held; }  // programs waiting now

 private:
  struct Waiting {
    NandOp op;
    std::uint64_t needed;  // the source die's GC reads that must be done first
    bool background;
  };
  struct Source {
    std::uint64_t reads_submitted = 0, reads_done = 0;
    Ring<Waiting> waiting{16};
  };
  bool m_on;
  std::uint64_t m_held = 0;
  std::vector<Source> m_sources;  // per die, as the source of relocated units
};

}  // namespace ssdlab
