// VictimPolicy on its own (no FTL): each policy's choice against hand-made cases and against a
// brute-force scan of every block of a model drive, and the bookkeeping of closing,
// invalidating, taking and clearing blocks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "controller/gc/victim_policy.h"

using ssdlab::GcPolicyKind;
using ssdlab::VictimPolicy;

namespace {

constexpr std::uint32_t kUnitsPerBlock = 8;

// What the FTL knows of each block, and the calls it makes: the policy's view must follow it.
struct Model {
  enum class State { kFree, kOpen, kClosed };
  struct Block {
    State state = State::kFree;
    std::uint32_t valid = 0;
    std::uint64_t changed = 0;  // write sequence of the last change
    std::uint64_t closed_at = 0;
  };
  Model(GcPolicyKind kind, std::uint32_t dies, std::uint32_t blocks_per_die)
      : policy(kind, dies, blocks_per_die, kUnitsPerBlock),
        blocks(std::size_t(dies) * blocks_per_die),
        blocks_per_die(blocks_per_die) {}

  // Closes `block` holding `valid` units (its data was written while it was open).
  void close(std::uint32_t block, std::uint32_t valid) {
    Block& b = blocks[block];
    b = Block{State::kClosed, valid, ++now, ++closes};
    policy.closed(block, valid, now);
  }
  void invalidate(std::uint32_t block) {
    Block& b = blocks[block];
    --b.valid;
    b.changed = ++now;
    policy.invalidated(block, b.valid, b.state == State::kClosed, now);
  }
  // Takes what peek() names, as GC does; the block is then being collected (open).
  std::int64_t take(std::uint32_t die) {
    const std::int64_t victim = policy.peek(die, now);
    if (victim < 0) return victim;
    const auto block = static_cast<std::uint32_t>(victim);
    policy.take(block, blocks[block].valid);
    blocks[block].state = State::kOpen;
    return victim;
  }
  void erase(std::uint32_t block) { blocks[block] = Block{}; }

  std::uint32_t closed_count(std::uint32_t die) const {
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < blocks_per_die; ++i) n += blocks[die * blocks_per_die + i].state == State::kClosed;
    return n;
  }
  std::string check() const {
    const auto is_closed = [this](std::uint32_t b) { return blocks[b].state == State::kClosed; };
    const auto valid = [this](std::uint32_t b) { return blocks[b].valid; };
    for (std::uint32_t die = 0; die < blocks.size() / blocks_per_die; ++die) {
      const std::string broken = policy.check_die(die, closed_count(die), is_closed, valid);
      if (!broken.empty()) return broken;
    }
    return policy.check_index(is_closed, valid);
  }

  // The victim each policy's definition names, by a scan of every closed block of `die`.
  std::int64_t expected(std::uint32_t die) const {
    std::int64_t best = -1;
    for (std::uint32_t i = 0; i < blocks_per_die; ++i) {
      const std::uint32_t id = die * blocks_per_die + i;
      const Block& b = blocks[id];
      if (b.state != State::kClosed) continue;
      if (policy.kind() == GcPolicyKind::kCostBenefit && b.valid == kUnitsPerBlock) continue;  // frees nothing
      if (best < 0 || better(b, blocks[best])) best = id;
    }
    return best;
  }
  bool better(const Block& b, const Block& o) const {
    const bool fewer = b.valid < o.valid || (b.valid == o.valid && b.changed < o.changed);
    switch (policy.kind()) {
      case GcPolicyKind::kGreedy:  // fewest valid, then the longest unchanged
        return fewer;
      case GcPolicyKind::kFifo: {  // holds invalid data, then the first closed
        const bool bi = b.valid < kUnitsPerBlock, oi = o.valid < kUnitsPerBlock;
        return bi != oi ? bi : b.closed_at < o.closed_at;
      }
      case GcPolicyKind::kCostBenefit:  // an empty block, else the best score, fewer valid on a tie
        return score(b) > score(o) || (score(b) == score(o) && fewer);
    }
    return false;
  }
  // age * (1 - u) / (1 + u), with u the valid share; an empty block beats everything.
  double score(const Block& b) const {
    if (b.valid == 0) return 1e300;
    const double age = double(now - b.changed) + 1.0;
    return age * double(kUnitsPerBlock - b.valid) / double(kUnitsPerBlock + b.valid);
  }

  VictimPolicy policy;
  std::vector<Block> blocks;
  std::uint32_t blocks_per_die;
  std::uint64_t now = 0, closes = 0;
};

}  // namespace

TEST_CASE("greedy takes the closed block with the fewest valid units and the oldest among equals", "[victim_policy]") {
  Model m(GcPolicyKind::kGreedy, 2, 8);
  CHECK(m.policy.peek(0, m.now) == VictimPolicy::kNone);
  m.close(0, 6);
  m.close(1, 3);
  m.close(2, 3);
  m.close(8, 1);  // die 1: not a candidate on die 0
  CHECK(m.policy.peek(0, m.now) == 1);
  CHECK(m.policy.peek(1, m.now) == 8);
  // Block 0 drops to 3 valid units: it joins the bucket last, behind 1 and 2.
  for (int i = 0; i < 3; ++i) m.invalidate(0);
  CHECK(m.policy.peek(0, m.now) == 1);
  m.invalidate(2);
  CHECK(m.policy.peek(0, m.now) == 2);
  CHECK(m.take(0) == 2);
  CHECK(m.take(0) == 1);
  CHECK(m.take(0) == 0);
  CHECK(m.take(0) == VictimPolicy::kNone);
  CHECK(m.policy.closed_blocks(0) == 0);
  CHECK(m.policy.closed_blocks(1) == 1);
  CHECK(m.check().empty());
}

TEST_CASE("cost-benefit weighs a block's age against its valid share", "[victim_policy]") {
  Model m(GcPolicyKind::kCostBenefit, 1, 8);
  m.close(0, 4);  // at 1: half valid
  m.now += 1000;
  m.close(1, 1);  // at 1002: nearly empty
  // At t, block 0 scores t * 4 / 12, block 1 (t - 1001) * 7 / 9: block 0 until t = 1751.75.
  CHECK(m.policy.peek(0, m.now) == 0);
  m.now = 1700;
  CHECK(m.policy.peek(0, m.now) == 0);
  m.now = 1800;
  CHECK(m.policy.peek(0, m.now) == 1);
  CHECK(m.policy.peek(0, m.now) == m.expected(0));
  // A fully valid block frees nothing: never a cost-benefit victim, however old.
  Model full(GcPolicyKind::kCostBenefit, 1, 8);
  full.close(0, kUnitsPerBlock);
  full.now += 100000;
  CHECK(full.policy.peek(0, full.now) == VictimPolicy::kNone);
  // An empty block wins at once, whatever its age.
  m.close(2, 0);
  CHECK(m.policy.peek(0, m.now) == 2);
  // Greedy on the same blocks takes the fewest valid units regardless of age.
  Model g(GcPolicyKind::kGreedy, 1, 8);
  g.close(0, 4);
  g.now += 1000;
  g.close(1, 1);
  CHECK(g.policy.peek(0, g.now) == 1);
}

TEST_CASE("FIFO takes the oldest closed block holding invalid data and else the oldest", "[victim_policy]") {
  Model m(GcPolicyKind::kFifo, 1, 8);
  m.close(3, kUnitsPerBlock);  // fully valid: frees nothing
  m.close(5, kUnitsPerBlock);
  m.close(1, kUnitsPerBlock);
  CHECK(m.policy.peek(0, m.now) == 3);  // nothing holds invalid data: the oldest
  m.invalidate(1);
  CHECK(m.policy.peek(0, m.now) == 1);  // the only one with something to free
  m.invalidate(5);
  CHECK(m.policy.peek(0, m.now) == 5);  // older than 1
  m.close(0, 2);                        // younger than all: behind them
  CHECK(m.take(0) == 5);
  CHECK(m.take(0) == 1);
  CHECK(m.take(0) == 0);
  CHECK(m.take(0) == 3);
  CHECK(m.policy.fifo_order(0).empty());
  CHECK(m.check().empty());
  // Taking any block but the one peek() names is refused.
  m.close(2, 4);
  m.close(4, 4);
  CHECK_THROWS_AS(m.policy.take(4, 4), std::logic_error);
}

TEST_CASE("taking erasing reclosing and clearing blocks keep the policy lists consistent", "[victim_policy]") {
  for (const GcPolicyKind kind : {GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo}) {
    Model m(kind, 2, 6);
    for (std::uint32_t b = 0; b < 12; ++b) m.close(b, b % kUnitsPerBlock);
    REQUIRE(m.check().empty());
    const std::int64_t victim = m.take(1);
    REQUIRE(victim >= 6);
    CHECK(m.policy.closed_blocks(1) == 5);
    // Being collected, the block loses its units: ages change, no list does.
    while (m.blocks[victim].valid > 0) m.invalidate(static_cast<std::uint32_t>(victim));
    CHECK(m.check().empty());
    m.erase(static_cast<std::uint32_t>(victim));
    m.close(static_cast<std::uint32_t>(victim), kUnitsPerBlock - 1);
    CHECK(m.policy.closed_blocks(1) == 6);
    CHECK(m.check().empty());
    if (kind == GcPolicyKind::kFifo) CHECK(m.policy.fifo_order(1).back() == victim);
    // The checks see an FTL that disagrees.
    m.blocks[0].state = Model::State::kOpen;
    CHECK_THAT(m.check(), Catch::Contains("closed blocks"));
    m.blocks[0].state = Model::State::kClosed;
    ++m.blocks[1].valid;
    CHECK_FALSE(m.check().empty());
    --m.blocks[1].valid;
    // Secure erase: everything free; ages are kept (a block gets a new one when it closes).
    const std::vector<std::uint64_t> ages = m.policy.ages();
    m.policy.clear();
    for (auto& b : m.blocks) b = Model::Block{};
    CHECK(m.policy.peek(0, m.now) == VictimPolicy::kNone);
    CHECK(m.policy.peek(1, m.now) == VictimPolicy::kNone);
    CHECK(m.policy.ages() == ages);
    CHECK(m.check().empty());
  }
}

TEST_CASE("every policy names what a scan of all blocks names and take follows peek", "[victim_policy]") {
  for (const GcPolicyKind kind : {GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo}) {
    constexpr std::uint32_t kDies = 3, kBlocksPerDie = 12;
    Model m(kind, kDies, kBlocksPerDie);
    std::mt19937 rng(2026 + static_cast<unsigned>(kind));
    const auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng); };
    std::uint64_t taken = 0;
    for (int step = 0; step < 20000; ++step) {
      const std::uint32_t block = pick(kDies * kBlocksPerDie);
      const std::uint32_t die = block / kBlocksPerDie;
      Model::Block& b = m.blocks[block];
      switch (pick(4)) {
        case 0:  // a block fills up and closes (valid counts skewed towards full)
          if (b.state == Model::State::kFree) m.close(block, kUnitsPerBlock - std::min(pick(12), kUnitsPerBlock));
          break;
        case 1:
        case 2:  // a unit is overwritten somewhere
          if (b.state != Model::State::kFree && b.valid > 0) m.invalidate(block);
          break;
        default: {  // GC collects the die's victim; one being collected before is erased
          for (std::uint32_t i = 0; i < kBlocksPerDie; ++i) {
            const std::uint32_t other = die * kBlocksPerDie + i;
            if (m.blocks[other].state == Model::State::kOpen) m.erase(other);
          }
          const std::int64_t want = m.expected(die);
          const std::int64_t peeked = m.policy.peek(die, m.now);
          REQUIRE(peeked == want);
          REQUIRE(m.policy.peek(die, m.now) == peeked);  // asking again changes nothing
          REQUIRE(m.take(die) == want);
          taken += want >= 0;
          break;
        }
      }
      if (step % 97 == 0) REQUIRE(m.check().empty());
      for (std::uint32_t d = 0; d < kDies; ++d) REQUIRE(m.policy.closed_blocks(d) == m.closed_count(d));
    }
    CHECK(taken > 1000);
    CHECK(m.check().empty());
  }
}
