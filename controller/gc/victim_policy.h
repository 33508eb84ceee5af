// GC victim selection: which closed block of a die the garbage collector erases next. This file
// is the whole answer to "where is victim selection": every policy (greedy, cost-benefit, FIFO,
// random, d-choice) is one case of the switch in peek(), and the bookkeeping each needs is kept
// here too.
//
// One concrete class, no virtual calls: the FTL tells it about every invalidated unit (the
// host's hot path), so the configured kind is dispatched by a switch on a member inside inline
// functions, which the compiler folds into the caller.
//
// What it keeps, for every policy (the drive image stores all of it, whatever the policy):
// - the VictimIndex: closed blocks per die bucketed by valid count, oldest first in each bucket
//   (greedy takes the head of the lowest bucket; cost-benefit the best head of all buckets);
// - each block's age: the write sequence number of its last change (cost-benefit's "age");
// for FIFO only the FifoOrder (closed blocks in close order, those with invalid data marked);
// for random and d-choice only the CandidateSet (each die's closed blocks holding invalid data,
// in an array, so that a sample costs O(d)) and a seeded generator.
//
// Random is d-choice with d = 1: a uniform sample without replacement of d of the die's
// candidates, and the one with the fewest valid units among them (the oldest among equals). A
// sample is drawn when a victim is first asked for and kept until take(): peek() is also asked
// by Ftl::next_victim() and can_place(), and must give the same block each time. While it is
// kept, the choice among its blocks follows their valid counts. When d covers every candidate
// the sample would be all of them, and the choice is greedy's (no draw). The image does not
// store the generator or the array order: a loaded drive rebuilds the array bucket by bucket
// and restarts the generator from the configured seed.
//
// The FTL calls closed() when a block's last page is programmed, invalidated() for every unit
// that loses its data, and take() when GC starts collecting the block peek() named. It keeps
// the valid counts itself and passes them in (peek() gets them as valid(block)).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "base/config/config.h"
#include "base/core/rng.h"
#include "controller/gc/candidate_set.h"
#include "controller/gc/fifo_order.h"
#include "controller/gc/victim_index.h"

namespace ssdlab {

class VictimPolicy {
 public:
  static constexpr std::int64_t kNone = -1;

  // `d_choices` and `seed`: the d-choice sample size (random samples 1) and its generator's seed.
  VictimPolicy(GcPolicyKind kind, std::uint32_t dies, std::uint32_t blocks_per_die, std::uint32_t units_per_block,
               std::uint32_t d_choices = GcConfig{}.d_choices, std::uint64_t seed = GcConfig{}.seed);
  GcPolicyKind kind() const { return m_kind; }
  // Blocks a random or d-choice sample holds (0 for the other policies).
  std::uint32_t sample_size() const { return m_sample_size; }

  // Every block is free again (secure erase). Ages stay: each block gets a new one when it closes.
  void clear();

  // `block` closed at write sequence `now` holding `valid` units.
  void closed(std::uint32_t block, std::uint32_t valid, std::uint64_t now) {
    m_ages[block] = now;
    m_index.insert(block, valid);
    if (m_kind == GcPolicyKind::kFifo) m_fifo.closed(die_of(block), block, valid < m_units_per_block);
    if (m_sample_size != 0 && valid < m_units_per_block) m_candidates.add(block);
  }
  // A unit of `block` lost its data at write sequence `now`; `valid` units are left. `closed`:
  // the block is closed (an open block, being written or collected, is in no policy's list).
  void invalidated(std::uint32_t block, std::uint32_t valid, bool closed, std::uint64_t now) {
    m_ages[block] = now;
    if (!closed) return;
    m_index.demote(block, valid);
    if (valid + 1 == m_units_per_block) first_invalid(block);  // once per closed block: one test here
  }
  // GC starts collecting `block` (holding `valid` units), which peek() named: out of the lists.
  void take(std::uint32_t block, std::uint32_t valid) {
    // FIFO victims are the oldest closed block with invalid data (fully valid blocks before it
    // keep their place), else the oldest; FifoOrder refuses any other block (before anything
    // here changes).
    if (m_kind == GcPolicyKind::kFifo) m_fifo.remove(die_of(block), block);
    if (m_sample_size != 0) {  // the die's next victim comes from a new sample
      m_candidates.remove(block);
      m_drawn[die_of(block)] = 0;
    }
    m_index.remove(block, valid);
  }

  // The closed block of `die` the configured policy collects next at write sequence `now`, or
  // kNone when the die has none (random and d-choice: none holding invalid data); `valid(block)`
  // gives a block's valid units. Changes nothing the choice depends on: asking twice gives the
  // same block, and take() of it is what collecting it means.
  template <class Valid>
  std::int64_t peek(std::uint32_t die, std::uint64_t now, const Valid& valid) const {
    switch (m_kind) {
      case GcPolicyKind::kGreedy:  // fewest valid units, the oldest among equals
        return m_index.fewest_valid(die);
      case GcPolicyKind::kFifo:  // the oldest closed block that holds anything invalid, else the oldest
        return m_fifo.victim(die);
      case GcPolicyKind::kCostBenefit:
        return cost_benefit(die, now);
      case GcPolicyKind::kRandom:   // one sampled block (d = 1)
      case GcPolicyKind::kDChoice:  // the fewest valid units of d sampled blocks
        return sampled(die, valid);
    }
    return kNone;
  }
  // The sample peek() chooses from on `die`, as it stands (empty before the first peek() after a
  // take(), and when d covers every candidate). For checks and tests.
  std::vector<std::uint32_t> sample(std::uint32_t die) const;
  // The die's closed blocks holding invalid data (random and d-choice only).
  std::uint32_t candidates(std::uint32_t die) const { return m_sample_size ? m_candidates.size(die) : 0; }

  // A closed block holds invalid data for the first time: FIFO marks it, random and d-choice
  // make it a candidate.
  void first_invalid(std::uint32_t block) {
    if (m_kind == GcPolicyKind::kFifo) m_fifo.first_invalid(die_of(block), block);
    if (m_sample_size != 0) m_candidates.add(block);
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
  // (Random and d-choice: the candidate array is rebuilt from it.)
  void load_index(std::istream& in);
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
  // Random and d-choice: the fewest valid units (the oldest among equals) of the die's sample,
  // drawn now if none is kept. A sample of every candidate is greedy's choice.
  template <class Valid>
  std::int64_t sampled(std::uint32_t die, const Valid& valid) const {
    const std::uint32_t n = m_candidates.size(die);
    if (n == 0) return kNone;
    if (m_sample_size >= n) return m_index.fewest_valid(die);
    if (!m_drawn[die]) {
      m_candidates.draw(die, m_sample_size, m_rng);
      m_drawn[die] = 1;
    }
    std::uint32_t best = m_candidates.at(die, 0);
    std::uint32_t best_valid = valid(best);
    for (std::uint32_t i = 1; i < m_sample_size; ++i) {
      const std::uint32_t b = m_candidates.at(die, i);
      const std::uint32_t v = valid(b);
      if (v < best_valid || (v == best_valid && m_ages[b] < m_ages[best])) {
        best = b;
        best_valid = v;
      }
    }
    return best;
  }

  GcPolicyKind m_kind;
  std::uint32_t m_blocks_per_die;
  std::uint32_t m_units_per_block;
  std::uint32_t m_sample_size;  // random: 1, d-choice: d, else 0
  VictimIndex m_index;
  FifoOrder m_fifo;                   // FIFO only (empty otherwise)
  std::vector<std::uint64_t> m_ages;  // per block: write sequence at its last change
  // Random and d-choice only (empty otherwise). peek() draws a sample and keeps it: the array's
  // order, the generator and the flags change, never the choice a caller saw.
  mutable CandidateSet m_candidates;
  mutable Rng m_rng;
  mutable std::vector<std::uint8_t> m_drawn;  // per die: a sample is kept
};

template <class IsClosed, class Valid>
std::string VictimPolicy::check_die(std::uint32_t die, std::uint32_t closed, IsClosed is_closed, Valid valid) const {
  if (closed != m_index.closed_blocks(die)) {
    return "die " + std::to_string(die) + " has " + std::to_string(closed) + " closed blocks, victim index " +
           std::to_string(m_index.closed_blocks(die));
  }
  if (m_sample_size != 0) {
    return m_candidates.check(die, [&](std::uint32_t b) { return is_closed(b) && valid(b) < m_units_per_block; });
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
