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
using ssdlab::to_string;
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
  Model(GcPolicyKind kind, std::uint32_t dies, std::uint32_t blocks_per_die, std::uint32_t d_choices = 4,
        std::uint64_t seed = 1)
      : policy(kind, dies, blocks_per_die, kUnitsPerBlock, d_choices, seed),
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
    const std::int64_t victim = peek(die);
    if (victim < 0) return victim;
    const auto block = static_cast<std::uint32_t>(victim);
    policy.take(block, blocks[block].valid);
    blocks[block].state = State::kOpen;
    return victim;
  }
  void erase(std::uint32_t block) { blocks[block] = Block{}; }
  std::int64_t peek(std::uint32_t die) const {
    return policy.peek(die, now, [this](std::uint32_t b) { return blocks[b].valid; });
  }

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
  // Random and d-choice: the candidates (closed, holding invalid data) of `die`, by a scan.
  std::vector<std::uint32_t> candidates(std::uint32_t die) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < blocks_per_die; ++i) {
      const std::uint32_t id = die * blocks_per_die + i;
      if (blocks[id].state == State::kClosed && blocks[id].valid < kUnitsPerBlock) out.push_back(id);
    }
    return out;
  }
  // Random and d-choice: empty if `peeked` is what the definition allows, given the sample the
  // policy reports: none without candidates; greedy's block when d covers them all; else the
  // fewest valid (the least recently changed among equals) of d distinct candidates.
  std::string check_sampled(std::uint32_t die, std::int64_t peeked) const {
    const std::vector<std::uint32_t> all = candidates(die);
    if (policy.candidates(die) != all.size()) return "candidate count differs from a scan";
    if (all.empty()) return peeked == VictimPolicy::kNone ? "" : "a victim without candidates";
    if (policy.sample_size() >= all.size()) {
      std::int64_t greedy = -1;
      for (std::uint32_t b : all) {
        if (greedy < 0 || blocks[b].valid < blocks[greedy].valid ||
            (blocks[b].valid == blocks[greedy].valid && blocks[b].changed < blocks[greedy].changed))
          greedy = b;
      }
      return peeked == greedy ? "" : "d covers every candidate but the choice is not greedy's";
    }
    std::vector<std::uint32_t> sample = policy.sample(die);
    if (sample.size() != policy.sample_size()) return "the sample holds " + std::to_string(sample.size()) + " blocks";
    std::int64_t best = -1;
    for (std::uint32_t b : sample) {
      if (std::find(all.begin(), all.end(), b) == all.end()) return "the sample holds a non-candidate";
      if (best < 0 || blocks[b].valid < blocks[best].valid ||
          (blocks[b].valid == blocks[best].valid && blocks[b].changed < blocks[best].changed))
        best = b;
    }
    std::sort(sample.begin(), sample.end());
    if (std::adjacent_find(sample.begin(), sample.end()) != sample.end()) return "the sample repeats a block";
    return peeked == best ? "" : "not the best block of its sample";
  }
  bool sampled() const { return policy.sample_size() != 0; }
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
      case GcPolicyKind::kRandom:  // no single answer: check_sampled()
      case GcPolicyKind::kDChoice:
        return false;
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
  CHECK(m.peek(0) == VictimPolicy::kNone);
  m.close(0, 6);
  m.close(1, 3);
  m.close(2, 3);
  m.close(8, 1);  // die 1: not a candidate on die 0
  CHECK(m.peek(0) == 1);
  CHECK(m.peek(1) == 8);
  // Block 0 drops to 3 valid units: it joins the bucket last, behind 1 and 2.
  for (int i = 0; i < 3; ++i) m.invalidate(0);
  CHECK(m.peek(0) == 1);
  m.invalidate(2);
  CHECK(m.peek(0) == 2);
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
  CHECK(m.peek(0) == 0);
  m.now = 1700;
  CHECK(m.peek(0) == 0);
  m.now = 1800;
  CHECK(m.peek(0) == 1);
  CHECK(m.peek(0) == m.expected(0));
  // A fully valid block frees nothing: never a cost-benefit victim, however old.
  Model full(GcPolicyKind::kCostBenefit, 1, 8);
  full.close(0, kUnitsPerBlock);
  full.now += 100000;
  CHECK(full.peek(0) == VictimPolicy::kNone);
  // An empty block wins at once, whatever its age.
  m.close(2, 0);
  CHECK(m.peek(0) == 2);
  // Greedy on the same blocks takes the fewest valid units regardless of age.
  Model g(GcPolicyKind::kGreedy, 1, 8);
  g.close(0, 4);
  g.now += 1000;
  g.close(1, 1);
  CHECK(g.peek(0) == 1);
}

TEST_CASE("FIFO takes the oldest closed block holding invalid data and else the oldest", "[victim_policy]") {
  Model m(GcPolicyKind::kFifo, 1, 8);
  m.close(3, kUnitsPerBlock);  // fully valid: frees nothing
  m.close(5, kUnitsPerBlock);
  m.close(1, kUnitsPerBlock);
  CHECK(m.peek(0) == 3);  // nothing holds invalid data: the oldest
  m.invalidate(1);
  CHECK(m.peek(0) == 1);  // the only one with something to free
  m.invalidate(5);
  CHECK(m.peek(0) == 5);  // older than 1
  m.close(0, 2);          // younger than all: behind them
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
  for (const GcPolicyKind kind : {GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo,
                                  GcPolicyKind::kRandom, GcPolicyKind::kDChoice}) {
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
    CHECK(m.peek(0) == VictimPolicy::kNone);
    CHECK(m.peek(1) == VictimPolicy::kNone);
    CHECK(m.policy.ages() == ages);
    CHECK(m.check().empty());
  }
}

TEST_CASE("every policy names what a scan of all blocks names and take follows peek", "[victim_policy]") {
  constexpr std::uint32_t kDies = 3, kBlocksPerDie = 12;
  struct Case {
    GcPolicyKind kind;
    std::uint32_t d;
  };
  // d-choice with d = 3 samples, with d = 12 (a die's blocks) always covers every candidate.
  for (const Case c :
       {Case{GcPolicyKind::kGreedy, 0}, Case{GcPolicyKind::kCostBenefit, 0}, Case{GcPolicyKind::kFifo, 0},
        Case{GcPolicyKind::kRandom, 0}, Case{GcPolicyKind::kDChoice, 3}, Case{GcPolicyKind::kDChoice, kBlocksPerDie}}) {
    const GcPolicyKind kind = c.kind;
    CAPTURE(to_string(kind), c.d);
    Model m(kind, kDies, kBlocksPerDie, c.d == 0 ? 4 : c.d, 77);
    std::vector<std::vector<std::uint32_t>> kept(kDies);  // sampled: the sample seen since the last take
    std::mt19937 rng(2026 + static_cast<unsigned>(kind) + c.d);
    const auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng); };
    // Sampled policies: the victim as the definition allows, and a kept sample unchanged until
    // take (peek is asked by can_place and idle GC without taking).
    const auto check_sampled = [&](std::uint32_t die, std::int64_t peeked) {
      REQUIRE(m.check_sampled(die, peeked) == "");
      const std::vector<std::uint32_t> sample = m.policy.sample(die);
      if (m.policy.sample_size() >= m.policy.candidates(die)) return;
      if (kept[die].empty()) kept[die] = sample;
      REQUIRE(sample == kept[die]);
    };
    std::uint64_t taken = 0;
    for (int step = 0; step < 20000; ++step) {
      const std::uint32_t block = pick(kDies * kBlocksPerDie);
      const std::uint32_t die = block / kBlocksPerDie;
      Model::Block& b = m.blocks[block];
      const std::uint32_t action = pick(4);
      if (m.sampled() && action == 1 && step % 3 == 0) check_sampled(die, m.peek(die));  // asked, not taken
      switch (action) {
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
          const std::int64_t peeked = m.peek(die);
          if (m.sampled()) {
            check_sampled(die, peeked);
          } else {
            REQUIRE(peeked == m.expected(die));
          }
          REQUIRE(m.peek(die) == peeked);  // asking again changes nothing
          REQUIRE(m.take(die) == peeked);
          kept[die].clear();
          taken += peeked >= 0;
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

namespace {

// Pearson's chi-square statistic of `counts` against `expected` (same length, expected > 0).
double chi_square(const std::vector<double>& counts, const std::vector<double>& expected) {
  double x2 = 0;
  for (std::size_t i = 0; i < counts.size(); ++i)
    x2 += (counts[i] - expected[i]) * (counts[i] - expected[i]) / expected[i];
  return x2;
}

// Takes the die's victim `trials` times, each time closing it again with the valid units it had
// (the candidates stay the same), and counts how often each block was the victim.
std::vector<double> victim_counts(Model& m, int trials) {
  std::vector<double> counts(m.blocks.size(), 0);
  for (int t = 0; t < trials; ++t) {
    const std::int64_t victim = m.take(0);
    REQUIRE(victim >= 0);
    const auto block = static_cast<std::uint32_t>(victim);
    ++counts[block];
    const std::uint32_t valid = m.blocks[block].valid;
    m.erase(block);
    m.close(block, valid);
  }
  return counts;
}

}  // namespace

TEST_CASE("random takes each block holding invalid data equally often and never a full one", "[victim_policy]") {
  constexpr std::uint32_t kBlocks = 20;
  Model m(GcPolicyKind::kRandom, 1, kBlocks, 4, 2026);
  // 16 candidates of every valid count, and 4 fully valid blocks (they free nothing).
  for (std::uint32_t b = 0; b < kBlocks; ++b) m.close(b, b < 16 ? b % kUnitsPerBlock : kUnitsPerBlock);
  constexpr int kTrials = 16000;
  const std::vector<double> counts = victim_counts(m, kTrials);
  for (std::uint32_t b = 16; b < kBlocks; ++b) CHECK(counts[b] == 0);
  const std::vector<double> observed(counts.begin(), counts.begin() + 16);
  // 15 degrees of freedom: above 37.70 with probability 0.001 if the choice is uniform.
  const double x2 = chi_square(observed, std::vector<double>(16, kTrials / 16.0));
  CAPTURE(x2);
  CHECK(x2 < 37.70);
  CHECK(m.check().empty());
}

TEST_CASE("d-choice takes the k-th fewest valid block as often as a d-sample makes it the best", "[victim_policy]") {
  // 8 candidates with 0..7 valid units, d = 3: the block of rank r (0 = fewest valid) is the
  // victim when it is sampled and the other two come from the 7 - r blocks above it:
  // C(7 - r, 2) / C(8, 3). Ranks 6 and 7 are never the best of three.
  constexpr std::uint32_t kBlocks = 8;
  Model m(GcPolicyKind::kDChoice, 1, kBlocks, 3, 99);
  for (std::uint32_t b = 0; b < kBlocks; ++b) m.close(b, b);  // block b holds b valid units
  constexpr int kTrials = 20000;
  const std::vector<double> counts = victim_counts(m, kTrials);
  CHECK(counts[6] == 0);
  CHECK(counts[7] == 0);
  const std::vector<double> pairs = {21, 15, 10, 6, 3, 1};  // C(7 - r, 2)
  std::vector<double> expected;
  for (double p : pairs) expected.push_back(kTrials * p / 56.0);
  const double x2 = chi_square(std::vector<double>(counts.begin(), counts.begin() + 6), expected);
  CAPTURE(x2);
  CHECK(x2 < 20.52);  // 5 degrees of freedom, p = 0.001
}

TEST_CASE("d-choice with d equal to the candidates takes what greedy takes", "[victim_policy]") {
  // Two models fed the same history: greedy, and d-choice whose d is a die's block count (so a
  // sample would hold every candidate).
  constexpr std::uint32_t kDies = 2, kBlocksPerDie = 10;
  Model greedy(GcPolicyKind::kGreedy, kDies, kBlocksPerDie);
  Model dchoice(GcPolicyKind::kDChoice, kDies, kBlocksPerDie, kBlocksPerDie, 5);
  std::mt19937 rng(31);
  const auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng); };
  int taken = 0;
  for (int step = 0; step < 20000; ++step) {
    const std::uint32_t block = pick(kDies * kBlocksPerDie);
    const std::uint32_t die = block / kBlocksPerDie;
    const Model::Block& b = greedy.blocks[block];
    const std::uint32_t action = pick(3);
    if (action == 0 && b.state == Model::State::kFree) {
      const std::uint32_t valid = kUnitsPerBlock - std::min(pick(10), kUnitsPerBlock);
      greedy.close(block, valid);
      dchoice.close(block, valid);
    } else if (action == 1 && b.state != Model::State::kFree && b.valid > 0) {
      greedy.invalidate(block);
      dchoice.invalidate(block);
    } else if (action == 2) {
      for (std::uint32_t i = 0; i < kBlocksPerDie; ++i) {
        const std::uint32_t other = die * kBlocksPerDie + i;
        if (greedy.blocks[other].state == Model::State::kOpen) {
          greedy.erase(other);
          dchoice.erase(other);
        }
      }
      const std::int64_t want = greedy.peek(die);
      // Greedy falls back to a fully valid block; d-choice has no candidate then.
      const bool frees = want >= 0 && greedy.blocks[want].valid < kUnitsPerBlock;
      REQUIRE(dchoice.peek(die) == (frees ? want : VictimPolicy::kNone));
      if (!frees) continue;
      REQUIRE(greedy.take(die) == want);
      REQUIRE(dchoice.take(die) == want);
      ++taken;
    }
  }
  CHECK(taken > 1000);
  CHECK(dchoice.check().empty());
}

TEST_CASE("random and d-choice victims follow the seed", "[victim_policy]") {
  const auto history = [](GcPolicyKind kind, std::uint64_t seed) {
    Model m(kind, 1, 32, 4, seed);
    std::vector<std::int64_t> victims;
    for (std::uint32_t b = 0; b < 32; ++b) m.close(b, b % kUnitsPerBlock);
    for (int t = 0; t < 200; ++t) {
      const std::int64_t v = m.take(0);
      victims.push_back(v);
      m.erase(static_cast<std::uint32_t>(v));
      m.close(static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(t % kUnitsPerBlock));
    }
    return victims;
  };
  for (const GcPolicyKind kind : {GcPolicyKind::kRandom, GcPolicyKind::kDChoice}) {
    CAPTURE(to_string(kind));
    CHECK(history(kind, 3) == history(kind, 3));
    CHECK(history(kind, 3) != history(kind, 4));
  }
}
