// Between the controller and the flash array when a mapping unit is k > 1 flash pages
// (docs/virtual-pages.md): the controller's operations address groups of k dies and virtual
// pages; each becomes the page operations on the group's dies (VirtualPageStriper,
// controller/ftl/virtual_page.h), all submitted at once so that they run in parallel, and the
// controller hears of it once, when the last of them is done. finished_timing() is that last
// flash operation's timing. Not in the drive at all with k = 1 (model/ssd.h binds the
// controller to the flash array directly).
#pragma once

#include <vector>

#include "controller/ftl/virtual_page.h"
#include "nand/flash_if.h"

namespace ssdlab {

class StripedFlash final : public FlashIf, public FlashCompletionIf {
 public:
  StripedFlash(const Geometry& geometry, std::uint32_t flash_page_bytes, FlashIf& flash, FlashCompletionIf& controller)
      : m_striper(geometry, flash_page_bytes), m_flash(flash), m_controller(controller) {
    m_ops.reserve(vpage::kMaxPagesPerUnit);
  }

  void submit(const NandOp& op) override {
    m_ops.clear();
    m_striper.expand(op, m_ops);
    for (const NandOp& o : m_ops) m_flash.submit(o);
  }
  OpTiming finished_timing(const NandOp& op) const override {
    return m_flash.finished_timing(m_finishing ? *m_finishing : op);
  }
  void flash_done(const NandOp& flash_op) override {
    NandOp op;
    if (!m_striper.finish(flash_op, op)) return;
    const NandOp* outer = m_finishing;
    m_finishing = &flash_op;
    m_controller.flash_done(op);
    m_finishing = outer;
  }
  const VirtualPageStriper& striper() const { return m_striper; }

 private:
  VirtualPageStriper m_striper;
  FlashIf& m_flash;
  FlashCompletionIf& m_controller;
  std::vector<NandOp> m_ops;
  const NandOp* m_finishing = nullptr;  // in flash_done(): the flash op that finished the controller's
};

}  // namespace ssdlab
