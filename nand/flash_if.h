// The controller|flash boundary: the controller submits operations, the flash array reports
// each one back when it is done. Both are SystemC interfaces bound through ports.
#pragma once

#include <systemc>

#include "base/core/anatomy.h"
#include "base/core/nand_op.h"

namespace ssdlab {

struct FlashIf : virtual sc_core::sc_interface {
  // Queues `op` on its die; dies execute their queue in order.
  virtual void submit(const NandOp& op) = 0;
  // Inside flash_done(op) only: when `op` was submitted, waited, used the bus and the array.
  virtual OpTiming finished_timing(const NandOp& op) const = 0;
};

struct FlashCompletionIf : virtual sc_core::sc_interface {
  // FlashIf::finished_timing(op) gives its timing (submission, die queue, bus, array).
  virtual void flash_done(const NandOp& op) = 0;
  // An op of a GC batch (nand/die.h) that ended before the batch did, reported at its end, while
  // enough ops stayed on its die that the controller had nothing to do but count it.
  virtual void flash_done_in_batch(const NandOp& op) { flash_done(op); }
  // A multi-plane host read's first plane's page is out of the die (docs/planes.md): its data
  // may go on; flash_done(op) follows at the op's end. finished_timing() is not valid here.
  virtual void flash_plane_out(const NandOp& op) { (void)op; }
};

}  // namespace ssdlab
