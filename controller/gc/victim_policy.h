// GC victim selection: which closed block of a die the garbage collector erases next. This file
// is the whole answer to "where is victim selection": every policy (greedy, cost-benefit, FIFO)
// is one case of the switch in peek(), and the bookkeeping each needs is kept here too.
//
// One concrete class, no virtual calls: the FTL tells it about every invalidated unit (the
// host's hot path), so the configured kind is dispatched by a switch on a member inside inline
// functions, which the compiler folds into the caller. Adding a policy (issue 14: random and
// d-choice) means one new GcPolicyKind, one new case in peek() and, if it needs state, a member
// here (a seeded random generator passed to the constructor; note that peek() is also asked by
// Ftl::next_victim() and can_place(), so a random choice is drawn once and kept until take()).
//
// What it keeps, for every policy (the drive image stores all of it, whatever the policy):
// - the VictimIndex: closed blocks per die bucketed by valid count, oldest first in each bucket
//   (greedy takes the head of the lowest bucket; cost-benefit the best head of all buckets);
// - each block's age: the write sequence number of its last change (cost-benefit's "age");
// and for FIFO only the FifoOrder (closed blocks in close order, those with invalid data marked).
//
// The FTL calls closed() when a block's last page is programmed, invalidated() for every unit
// that loses its data, and take() when GC starts collecting the block peek() named. It keeps
// the valid counts itself and passes them in.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "controller/gc/fifo_order.h"
#include "controller/gc/victim_index.h"
#include "model/config/config.h"

namespace ssdlab {

class VictimPolicy {
 public:
  static constexpr std::int64_t kNone = -1;

  VictimPolicy(GcPolicyKind kind, std::uint32_t dies, std::uint32_t blocks_per_die, std::uint32_t units_per_block);
  GcPolicyKind kind() const { return m_kind; }

  // Every block is free again (secure erase). Ages stay: each block gets a new one when it closes.
  void clear();

  // `block` closed at write sequence `now` holding `valid` units.
  void closed(std::uint32_t block, std::uint32_t valid, std::uint64_t now) {
    m_ages[block] = now;
    m_index.insert(block, valid);
    if (m_kind == GcPolicyKind::kFifo) m_fifo.closed(die_of(block), block, valid < m_units_per_block);
  }
  // A unit of `block` lost its data at write sequence `now`; `valid` units are left. `closed`:
  // the block is closed (an open block, being written or collected, is in no policy's list).
  void invalidated(std::uint32_t block, std::uint32_t valid, bool closed, std::uint64_t now) {
    m_ages[block] = now;
    if (!closed) return;
    m_index.demote(block, valid);
    if (m_kind == GcPolicyKind::kFifo && valid + 1 == m_units_per_block) m_fifo.first_invalid(die_of(block), block);
  }
  // GC starts collecting `block` (holding `valid` units), which peek() named: out of the lists.
  void take(std::uint32_t block, std::uint32_t valid) {
    // FIFO victims are the oldest closed block with invalid data (fully valid blocks before it
    // keep their place), else the oldest; FifoOrder refuses any other block (before anything
    // here changes).
    if (m_kind == GcPolicyKind::kFifo) m_fifo.remove(die_of(block), block);
    m_index.remove(block, valid);
  }

  // The closed block of `die` the configured policy collects next at write sequence `now`, or
  // kNone when the die has none. Changes nothing the choice depends on: asking twice gives the
  // same block, and take() of it is what collecting it means.
  std::int64_t peek(std::uint32_t die, std::uint64_t now) const {
    switch (m_kind) {
      case GcPolicyKind::kGreedy:  // fewest valid units, the oldest among equals
        return m_index.fewest_valid(die);
      case GcPolicyKind::kFifo:  // the oldest closed block that holds anything invalid, else the oldest
        return m_fifo.victim(die);
      case GcPolicyKind::kCostBenefit:
        return cost_benefit(die, now);
    }
    return kNone;
  }

  // Starts loading what invalidated(block, ...) touches (see Ftl::prefetch_overwrite).
  void prefetch(std::uint32_t block) const {
    __builtin_prefetch(&m_ages[block]);
    m_index.prefetch(block);
  }

  // For drive images, checks and tests.
  const VictimIndex& index() const { return m_index; }
  std::uint32_t closed_blocks(std::uint32_t die) const { return m_index.closed_blocks(die); }
  const std::vector<std::uint64_t>& ages() const { return m_ages; }
  // The die's closed blocks in FIFO order, oldest first (empty unless FIFO).
  std::vector<std::uint32_t> fifo_order(std::uint32_t die) const;
  // Restoring an image: ages as saved, the index's stream (VictimIndex::load), and for FIFO each
  // die's closed blocks appended oldest first.
  void restore_ages(std::vector<std::uint64_t> ages) { m_ages = std::move(ages); }
  void load_index(std::istream& in) { m_index.load(in); }
  void restore_fifo(std::uint32_t block, bool has_invalid) { m_fifo.closed(die_of(block), block, has_invalid); }

  // Checks the lists of `die` against the FTL's view: `closed` closed blocks there, and for each
  // block is_closed(block) and valid(block). Empty if consistent, else the first violation.
  template <class IsClosed, class Valid>
  std::string check_die(std::uint32_t die, std::uint32_t closed, IsClosed is_closed, Valid valid) const;
  // Every block the index lists of any die is closed and in the bucket of its valid count.
  template <class IsClosed, class Valid>
  std::string check_index(IsClosed is_closed, Valid valid) const;

 private:
  std::uint32_t die_of(std::uint32_t block) const { return block / m_blocks_per_die; }
  // LFS cost-benefit: maximise age * (1 - u) / (1 + u), u the block's valid share. The oldest
  // block of each valid-count bucket is that bucket's best candidate; an empty block wins at once.
  std::int64_t cost_benefit(std::uint32_t die, std::uint64_t now) const {
    const std::uint32_t upb = m_units_per_block;
    std::int64_t best = kNone;
    double best_score = -1.0;
    for (std::uint32_t v = 0; v < upb; ++v) {
      const std::int32_t b = m_index.oldest_with(die, v);
      if (b == VictimIndex::kNone) continue;
      if (v == 0) return b;
      const double age = double(now - m_ages[b]) + 1.0;
      const double score = age * double(upb - v) / double(upb + v);
      if (score > best_score) {
        best_score = score;
        best = b;
      }
    }
    return best;
  }

  GcPolicyKind m_kind;
  std::uint32_t m_blocks_per_die;
  std::uint32_t m_units_per_block;
  VictimIndex m_index;
  FifoOrder m_fifo;                   // FIFO only (empty otherwise)
  std::vector<std::uint64_t> m_ages;  // per block: write sequence at its last change
};

template <class IsClosed, class Valid>
std::string VictimPolicy::check_die(std::uint32_t die, std::uint32_t closed, IsClosed is_closed, Valid valid) const {
  if (closed != m_index.closed_blocks(die)) {
    return "die " + std::to_string(die) + " has " + std::to_string(closed) + " closed blocks, victim index " +
           std::to_string(m_index.closed_blocks(die));
  }
  if (m_kind != GcPolicyKind::kFifo) return {};
  if (closed != m_fifo.closed_count(die)) {
    return "die " + std::to_string(die) + " has " + std::to_string(closed) + " closed blocks, FIFO order " +
           std::to_string(m_fifo.closed_count(die));
  }
  const std::string broken = m_fifo.check(die, [&](std::uint32_t b) { return valid(b) < m_units_per_block; });
  if (!broken.empty()) return broken;
  for (std::uint32_t b : m_fifo.order(die)) {
    if (!is_closed(b) || die_of(b) != die) {
      return "FIFO order of die " + std::to_string(die) + " holds block " + std::to_string(b) +
             " which is not closed there";
    }
  }
  return {};
}

template <class IsClosed, class Valid>
std::string VictimPolicy::check_index(IsClosed is_closed, Valid valid) const {
  const auto dies = static_cast<std::uint32_t>(m_ages.size() / m_blocks_per_die);
  for (std::uint32_t die = 0; die < dies; ++die) {
    for (std::uint32_t v = 0; v <= m_units_per_block; ++v) {
      for (std::int32_t b = m_index.oldest_with(die, v); b != VictimIndex::kNone; b = m_index.next_in_bucket(b)) {
        const auto block = static_cast<std::uint32_t>(b);
        if (valid(block) != v || !is_closed(block)) {
          return "victim index lists block " + std::to_string(b) + " under " + std::to_string(v) + " valid units";
        }
      }
    }
  }
  return {};
}

}  // namespace ssdlab
