#include "controller/gc/victim_policy.h"

#include <algorithm>

namespace ssdlab {

namespace {
std::uint32_t sample_size_of(GcPolicyKind kind, std::uint32_t d_choices) {
  return kind == GcPolicyKind::kRandom ? 1 : kind == GcPolicyKind::kDChoice ? d_choices : 0;
}
}  // namespace

VictimPolicy::VictimPolicy(GcPolicyKind kind, std::uint32_t dies, std::uint32_t blocks_per_die,
                           std::uint32_t units_per_block, std::uint32_t d_choices, std::uint64_t seed)
    : m_kind(kind),
      m_blocks_per_die(blocks_per_die),
      m_units_per_block(units_per_block),
      m_sample_size(sample_size_of(kind, d_choices)),
      m_index(dies, blocks_per_die, units_per_block),
      m_fifo(kind == GcPolicyKind::kFifo ? FifoOrder(dies, blocks_per_die) : FifoOrder()),
      m_ages(std::size_t(dies) * blocks_per_die, 0),
      m_candidates(m_sample_size ? CandidateSet(dies, blocks_per_die) : CandidateSet()),
      m_rng(seed),
      m_drawn(m_sample_size ? dies : 0, 0) {}

void VictimPolicy::clear() {
  m_index.clear();
  m_fifo.clear();
  m_candidates.clear();
  std::fill(m_drawn.begin(), m_drawn.end(), 0);
}

std::vector<std::uint32_t> VictimPolicy::fifo_order(std::uint32_t die) const {
  return m_kind == GcPolicyKind::kFifo ? m_fifo.order(die) : std::vector<std::uint32_t>();
}

std::vector<std::uint32_t> VictimPolicy::sample(std::uint32_t die) const {
  std::vector<std::uint32_t> blocks;
  if (m_sample_size == 0) return blocks;
  const std::uint32_t n = m_candidates.size(die);
  if (m_sample_size >= n) {  // every candidate
    for (std::uint32_t i = 0; i < n; ++i) blocks.push_back(m_candidates.at(die, i));
  } else if (m_drawn[die]) {
    for (std::uint32_t i = 0; i < m_sample_size; ++i) blocks.push_back(m_candidates.at(die, i));
  }
  return blocks;
}

void VictimPolicy::load_index(std::istream& in) {
  m_index.load(in);
  if (m_sample_size == 0) return;
  m_candidates.clear();
  std::fill(m_drawn.begin(), m_drawn.end(), 0);
  const auto dies = static_cast<std::uint32_t>(m_drawn.size());
  for (std::uint32_t die = 0; die < dies; ++die) {
    for (std::uint32_t v = 0; v < m_units_per_block; ++v) {
      for (std::int32_t b = m_index.oldest_with(die, v); b != VictimIndex::kNone; b = m_index.next_in_bucket(b)) {
        m_candidates.add(static_cast<std::uint32_t>(b));
      }
    }
  }
}

}  // namespace ssdlab
