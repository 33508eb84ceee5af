#include "controller/gc/victim_policy.h"

namespace ssdlab {

VictimPolicy::VictimPolicy(GcPolicyKind kind, std::uint32_t dies, std::uint32_t blocks_per_die,
                           std::uint32_t units_per_block)
    : m_kind(kind),
      m_blocks_per_die(blocks_per_die),
      m_units_per_block(units_per_block),
      m_index(dies, blocks_per_die, units_per_block),
      m_fifo(kind == GcPolicyKind::kFifo ? FifoOrder(dies, blocks_per_die) : FifoOrder()),
      m_ages(std::size_t(dies) * blocks_per_die, 0) {}

void VictimPolicy::clear() {
  m_index.clear();
  m_fifo.clear();
}

std::vector<std::uint32_t> VictimPolicy::fifo_order(std::uint32_t die) const {
  return m_kind == GcPolicyKind::kFifo ? m_fifo.order(die) : std::vector<std::uint32_t>();
}

}  // namespace ssdlab
