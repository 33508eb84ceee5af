// The controller|flash boundary: the controller submits operations, the flash array reports
// each one back when it is done. Both are SystemC interfaces bound through ports.
#pragma once

#include <systemc>

#include "model/core/anatomy.h"
#include "model/core/nand_op.h"

namespace ssdlab {

struct FlashIf : virtual sc_core::sc_interface {
  // Queues `op` on its die; dies execute their queue in order.
  virtual void submit(const NandOp& op) = 0;
};

struct FlashCompletionIf : virtual sc_core::sc_interface {
  // `t`: the op's timing on its die (submission, die queue, bus, array; model/core/anatomy.h).
  virtual void flash_done(const NandOp& op, const OpTiming& t) = 0;
};

}  // namespace ssdlab
