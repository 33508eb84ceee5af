// Instruments' view of a run (VCD, Perfetto trace, latency log). The drive's modules call a
// Probe when one is attached (a null pointer test otherwise); every method has an empty
// default, so an instrument overrides what it needs. Times are simulated picoseconds; an
// interval may be booked ahead of the current time (a bus or link reservation), never behind it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/core/anatomy.h"
#include "base/core/nand_op.h"
#include "base/core/sata_fis.h"
#include "base/core/types.h"

namespace ssdlab {

struct IoRequest;  // host/io_request.h

class Probe {
 public:
  virtual ~Probe() = default;
  // A flash op completed (called at `t.finished`). `serials` are the drive's command serials of
  // the host commands it served (a read's command, or every command whose data a page program
  // carries); empty for GC and mapping-table work and for ops no command waits for.
  virtual void nand_op(const NandOp& /*op*/, const OpTiming& /*t*/, const std::uint64_t* /*serials*/,
                       std::uint32_t /*count*/) {}
  // The controller submits `count` ops the firmware planned, in the firmware's order (before any
  // is held back by the flash scheduler or, with striped GC relocation, waits for its reads).
  virtual void nand_ops_planned(const NandOp* /*ops*/, std::size_t /*count*/) {}
  // The channel bus of `channel` is booked [start, end) by an op of die `die`.
  virtual void bus(std::uint32_t /*channel*/, std::uint32_t /*die*/, Picos /*start*/, Picos /*end*/) {}
  // A FIS is booked on the SATA wire [start, end).
  virtual void fis(const Fis& /*fis*/, Picos /*start*/, Picos /*end*/) {}
  // The firmware CPU runs command `serial` (on NCQ tag `tag`) over [start, end).
  virtual void firmware(std::uint64_t /*serial*/, std::uint8_t /*tag*/, AtaCommand /*command*/, Picos /*start*/,
                        Picos /*end*/) {}
  // GC picked a victim block on `die` with `valid_units` still to relocate.
  virtual void gc_victim(std::uint32_t /*die*/, std::uint32_t /*block*/, std::uint32_t /*valid_units*/) {}
  // A host request completed (host side); its anatomy is complete.
  virtual void command_done(const IoRequest& /*request*/) {}
};

// Several instruments at once: forwards every event to each attached probe in order.
class ProbeFanout final : public Probe {
 public:
  void add(Probe& p) { m_probes.push_back(&p); }
  bool empty() const { return m_probes.empty(); }
  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t* serials, std::uint32_t count) override {
    for (Probe* p : m_probes) p->nand_op(op, t, serials, count);
  }
  void nand_ops_planned(const NandOp* ops, std::size_t count) override {
    for (Probe* p : m_probes) p->nand_ops_planned(ops, count);
  }
  void bus(std::uint32_t channel, std::uint32_t die, Picos start, Picos end) override {
    for (Probe* p : m_probes) p->bus(channel, die, start, end);
  }
  void fis(const Fis& fis, Picos start, Picos end) override {
    for (Probe* p : m_probes) p->fis(fis, start, end);
  }
  void firmware(std::uint64_t serial, std::uint8_t tag, AtaCommand command, Picos start, Picos end) override {
    for (Probe* p : m_probes) p->firmware(serial, tag, command, start, end);
  }
  void gc_victim(std::uint32_t die, std::uint32_t block, std::uint32_t valid_units) override {
    for (Probe* p : m_probes) p->gc_victim(die, block, valid_units);
  }
  void command_done(const IoRequest& request) override {
    for (Probe* p : m_probes) p->command_done(request);
  }

 private:
  std::vector<Probe*> m_probes;
};

}  // namespace ssdlab
