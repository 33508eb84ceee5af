// Static wear levelling's bookkeeping (controller.wear_leveling.mode: static): per die, its closed
// blocks by erase count and its highest erase count, so that GC can ask for a block whose erase
// count lags the die's most-erased block by more than the threshold (the coldest such block) and
// collect it as its next victim: the cold data it holds moves, and the block returns to use.
//
// Dynamic wear levelling (a die opens its least-erased free block) is the free pool's order,
// kept by FtlCore (take_free/push_free); this class is for static only and does nothing when off.
//
// The closed blocks are a lazy min-heap per die: an entry (erase count, block) is pushed when a
// block closes; a block erased since (GC took it, then it closed again with a higher count, or is
// free or open now) leaves a stale entry, dropped when it reaches the top. So finding the coldest
// closed block costs O(log n) amortised per block closed, never a scan of the die; the heap is
// compacted (stale entries dropped) when it reaches twice the die's blocks.
//
// Derived state: not in the drive image. FtlCore rebuilds it from the erase counts and block
// states after an image load, a replication and a secure erase (FtlCore::rebuild_wear()). Plain C++.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ssdlab {

class ColdBlocks {
 public:
  static constexpr std::int64_t kNone = -1;

  ColdBlocks() = default;
  // `on`: static wear levelling; off, every call returns at once and nothing is allocated.
  ColdBlocks(bool on, std::uint32_t dies, std::uint32_t blocks_per_die, std::uint32_t threshold)
      : m_on(on), m_threshold(threshold), m_blocks_per_die(blocks_per_die) {
    if (!m_on) return;
    m_dies.resize(dies);
    for (Die& d : m_dies) d.heap.reserve(2 * std::size_t(blocks_per_die) + 1);
  }
  bool on() const { return m_on; }
  std::uint32_t threshold() const { return m_threshold; }

  // Every die empty and its highest erase count 0 (before a rebuild).
  void clear() {
    for (Die& d : m_dies) {
      d.heap.clear();
      d.max_erases = 0;
    }
  }
  // `block` of `die` closed with `erases` erases. `current(block, erases)` says whether an entry
  // still stands (the block is closed with that count): used to compact a heap grown too large.
  template <class Current>
  void closed(std::uint32_t die, std::uint32_t block, std::uint32_t erases, const Current& current) {
    if (!m_on) return;
    Die& d = m_dies[die];
    if (d.heap.size() >= 2 * std::size_t(m_blocks_per_die)) compact(d, current);
    d.heap.push_back(Entry{erases, block});
    std::push_heap(d.heap.begin(), d.heap.end(), Later{});
  }
  // A block of `die` was erased and now has `erases` erases.
  void erased(std::uint32_t die, std::uint32_t erases) {
    if (m_on && erases > m_dies[die].max_erases) m_dies[die].max_erases = erases;
  }
  std::uint32_t max_erases(std::uint32_t die) const { return m_on ? m_dies[die].max_erases : 0; }

  // The coldest closed block of `die` if its erase count is more than the threshold below the
  // die's highest, else kNone. Stale entries on top are dropped on the way (hence not const).
  template <class Current>
  std::int64_t lagging(std::uint32_t die, const Current& current) {
    if (!m_on) return kNone;
    Die& d = m_dies[die];
    while (!d.heap.empty() && !current(d.heap.front().block, d.heap.front().erases)) {
      std::pop_heap(d.heap.begin(), d.heap.end(), Later{});
      d.heap.pop_back();
    }
    if (d.heap.empty()) return kNone;
    const Entry& top = d.heap.front();
    return std::uint64_t(top.erases) + m_threshold < d.max_erases ? std::int64_t(top.block) : kNone;
  }
  // Entries held for `die`, stale ones included (tests: the heap stays bounded).
  std::size_t held(std::uint32_t die) const { return m_on ? m_dies[die].heap.size() : 0; }

 private:
  struct Entry {
    std::uint32_t erases, block;
  };
  // std heaps keep the largest on top: "later" = more erases, then the higher block number, so
  // the top is the least-erased block, the lowest-numbered among equals (a fixed order: runs
  // repeat exactly).
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.erases != b.erases ? a.erases > b.erases : a.block > b.block;
    }
  };
  struct Die {
    std::vector<Entry> heap;
    std::uint32_t max_erases = 0;
  };
  template <class Current>
  static void compact(Die& d, const Current& current) {
    d.heap.erase(std::remove_if(d.heap.begin(), d.heap.end(),
                                [&current](const Entry& e) { return !current(e.block, e.erases); }),
                 d.heap.end());
    std::make_heap(d.heap.begin(), d.heap.end(), Later{});
  }

  bool m_on = false;
  std::uint32_t m_threshold = 0;
  std::uint32_t m_blocks_per_die = 0;
  std::vector<Die> m_dies;
};

}  // namespace ssdlab
