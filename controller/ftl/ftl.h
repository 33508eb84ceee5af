// Page-level FTL: mapping, write combining, per-die allocation, TRIM; garbage collection is
// its GarbageCollector (controller/gc/garbage_collector.h), victim choice that one's
// VictimPolicy (controller/gc/victim_policy.h). Plain C++: it never sees time. Callers ask it
// for placements and it appends the NAND operations they imply (GC reads/programs/erases, then
// the program) to an OpList; the timing layer executes them in order, per die.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "base/config/geometry.h"
#include "base/core/nand_op.h"
#include "controller/ftl/hybrid/hybrid_map.h"
#include "controller/ftl/p2l_table.h"
#include "controller/ftl/read_plan.h"
#include "controller/gc/garbage_collector.h"

namespace ssdlab {

using OpList = std::vector<NandOp>;  // reused by callers: cleared, never shrunk

// Told when data moves between physical units or a block is erased (data-carrying simulations
// move the bytes with it).
struct FtlListener {
  virtual void relocated(Lpn lpn, Pua from, Pua to) = 0;
  virtual void erased(std::uint32_t block) = 0;
  virtual ~FtlListener() = default;
};

// Striped GC relocation (controller.gc.relocation: striped): the cursor of the next destination
// die and what moved across dies. Saved by the drive image (section RELC) when striped.
struct RelocationState {
  std::uint32_t cursor = 0;             // die of the next GC page
  std::uint64_t cross_die_units = 0;    // relocated units written to a die other than their victim's
  std::uint64_t own_die_fallbacks = 0;  // GC pages whose cursor die was near its reserve
};

struct FtlStats {
  std::uint64_t host_units_written = 0;  // units accepted from the host (into the buffer)
  std::uint64_t host_units_programmed = 0;
  std::uint64_t gc_units_copied = 0;
  std::uint64_t pad_units = 0;  // slots of partially filled pages
  std::uint64_t pages_programmed = 0;
  std::uint64_t erases = 0;
  std::uint64_t gc_erases = 0;
  std::uint64_t gc_victims = 0;
  std::uint64_t units_trimmed = 0;
  std::uint64_t nand_units_programmed() const { return host_units_programmed + gc_units_copied + pad_units; }
};

// How Ftl::load treats an image (ftl_image.h).
struct FtlLoadOptions {
  bool allow_buffered = true;    // L2P entries may name write-buffer slots (a drive image: false)
  bool verify_checksums = true;  // false only to fuzz or test the range checks behind them
};

class Ftl {
 public:
  // An L2P entry is a physical unit, kUnmapped, or (kBufferedBit | slot) while the newest
  // data of that LPN sits in the controller's write buffer.
  static constexpr std::uint32_t kBufferedBit = 0x80000000u;
  static constexpr std::uint32_t kNoLpn = 0xffffffffu;
  static constexpr Pua kMaxPhysicalUnits = kBufferedBit - 1;

  // The P2L table moves to a spill file above `p2l_memory_budget` bytes, keeping
  // `p2l_cache_blocks` blocks (0: automatic) in memory (p2l_table.h).
  explicit Ftl(const DriveConfig& config, std::uint64_t p2l_memory_budget = P2lTable::kDefaultMemoryBudget,
               std::uint32_t p2l_cache_blocks = 0);
  const P2lTable& p2l() const { return m_p2l; }

  // The FTL scheme (controller.ftl). Page mapping is the Ftl's own code; a hybrid log-block
  // FTL (hybrid/hybrid_map.h) is a mapping policy inside it: the same L2P entries (where each
  // unit's newest copy is), reads, TRIM and buffer interplay, but its own placement and merges
  // instead of GC. Both answer the same calls and return their flash work in the OpList; the
  // scheme is tested once per page placed (no virtual call, nothing per unit).
  const HybridMap* hybrid() const { return m_hybrid ? &*m_hybrid : nullptr; }
  // Hybrid: the die a page of `lpn` must go to (its logical block's); page mapping: any (-1).
  std::int64_t home_die(Lpn lpn) const { return m_hybrid ? std::int64_t(m_hybrid->home_die(lpn)) : -1; }
  // Bytes the scheme's mapping table needs: page mapping 4 per unit, hybrid HybridMap::map_bytes().
  std::uint64_t map_bytes() const;

  const Geometry& geometry() const { return m_geo; }
  void set_listener(FtlListener* listener) { m_listener = listener; }
  std::uint32_t user_units() const { return static_cast<std::uint32_t>(m_l2p.size()); }
  const FtlStats& stats() const { return m_stats; }
  void register_stats(const class StatGroup& group) const;  // ftl_stats.cpp

  std::uint32_t lookup(Lpn lpn) const { return m_l2p[lpn]; }
  ReadPlan plan_read(Lpn lpn) const { return ReadPlan::of(m_l2p[lpn], kBufferedBit, m_geo); }  // where lpn is
  // Starts loading lpn's mapping entry into the cache, for a lookup a little later: on a large
  // drive every random lookup is a cache miss, and misses started early overlap.
  void prefetch(Lpn lpn) const { __builtin_prefetch(&m_l2p[lpn]); }
  // For a host write of lpn coming soon: starts loading what invalidating its old copy touches
  // (the old block's counters and its place in the victim index). Call it once the mapping
  // entry itself has had time to arrive (after prefetch()).
  void prefetch_overwrite(Lpn lpn) const {
    const std::uint32_t old = m_l2p[lpn];
    if (old == kUnmapped || (old & kBufferedBit)) return;
    const std::uint32_t block = m_geo.block_of_unit(old);
    __builtin_prefetch(&m_valid[block]);
    __builtin_prefetch(&m_state[block]);
    m_gc.policy().prefetch(block);
  }
  static bool is_buffered(std::uint32_t entry) { return entry != kUnmapped && (entry & kBufferedBit); }
  static std::uint32_t buffer_slot(std::uint32_t entry) { return entry & ~kBufferedBit; }

  // The host wrote `lpn`; its data now lives in buffer slot `slot`. Invalidates the old copy.
  void write_to_buffer(Lpn lpn, std::uint32_t slot);
  // TRIM: the LPN's data is no longer needed.
  void trim(Lpn lpn);

  // Can `die` take a host page now (possibly after foreground GC)?
  bool can_place(std::uint32_t die) const;
  // Programs one page on `die` holding `lpns` (1..units_per_page LPNs whose L2P entry is
  // buffered; missing slots are padding). Appends foreground GC work (if the die's free
  // blocks fell below the low threshold) and the program to `ops`; the program op carries
  // `cookie`. Returns false, appending nothing, when the die cannot take a page.
  bool place(std::uint32_t die, const Lpn* lpns, std::uint32_t count, std::uint32_t cookie, OpList& ops);

  // Garbage collection is incremental (controller/gc/garbage_collector.h): a die below
  // `free_blocks_low` free blocks picks a victim and relocates a share of it for every host
  // page placed on it. Only when a die is down to its reserve does a host write wait for a
  // whole victim.
  //
  // Collects one whole victim now (finishing the one in progress first).
  // Returns false if no victim frees space.
  bool collect_one(std::uint32_t die, OpList& ops) { return m_gc.collect_one(*this, die, ops); }
  bool needs_gc(std::uint32_t die) const { return m_dies[die].free_count < m_gc.config().free_blocks_low; }

  // Background GC step on an idle die: continues the victim in progress or starts one while
  // the die has fewer than `target_free` free blocks, relocating at most about `max_units`.
  // Returns false (appending nothing) when there is nothing worth doing.
  bool background_collect(std::uint32_t die, std::uint32_t target_free, std::uint32_t max_units, OpList& ops) {
    if (m_hybrid) return false;  // a hybrid FTL merges only when it has to
    return m_gc.background_collect(*this, die, target_free, max_units, ops);
  }

  // Secure erase: every block erased, every LPN unmapped.
  void secure_erase();

  std::uint32_t free_blocks(std::uint32_t die) const { return m_dies[die].free_count; }
  std::uint64_t free_blocks_total() const;
  std::uint32_t valid_units(std::uint32_t block) const { return m_valid[block]; }
  std::uint32_t erase_count(std::uint32_t block) const { return m_erase_count[block]; }
  bool is_closed(std::uint32_t block) const { return m_state[block] == BlockState::kClosed; }
  // Block being collected on `die`, or -1.
  std::int64_t active_victim(std::uint32_t die) const { return m_gc.active_victim(die); }
  // Valid-unit count of the block the configured policy would collect next on `die`, or -1.
  std::int64_t next_victim(std::uint32_t die) const;
  // Striped relocation's cursor and counters (all zero with in_die).
  const RelocationState& relocation() const { return m_relocation; }
  bool striped_relocation() const { return m_striped; }
  // Free blocks below which a die takes no other die's GC copies (striped relocation).
  std::uint32_t foreign_copy_floor() const { return m_foreign_floor; }

  // The whole mapping state as bytes (an aged drive saved and restored by `ssdlab serve
  // --image`), in checksummed sections (ftl_image.h); load() throws ImageFormatError (a
  // std::runtime_error) naming the section on a damaged stream or one made for another
  // geometry, and then leaves the FTL as it was. Implemented in ftl_image.cpp.
  void save(std::ostream& out) const;
  void load(std::istream& in, const FtlLoadOptions& options = {});

  // Checks every structural invariant: each mapped LPN's unit points back to it, per-block
  // valid counts equal a recount, free/open/closed accounting and the victim index agree.
  // Returns an empty string when all hold, else a description of the first violation.
  std::string check_invariants() const;

 private:
  enum class BlockState : std::uint8_t { kFree, kOpen, kClosed };
  struct OpenBlock {
    std::int64_t block = -1;
    std::uint32_t next_page = 0;
  };
  struct DieState {  // the die's write points and free pool (its GC progress: m_gc.die(die))
    OpenBlock host, gc;
    std::vector<std::uint32_t> free_ring;  // capacity blocks_per_die
    std::uint32_t free_head = 0, free_count = 0;
  };

  // ---- The narrow interface GarbageCollector works through (besides the public queries) ----
  friend class GarbageCollector;
  friend class HybridMap;  // works on the same tables (hybrid/hybrid_map.h)
  std::uint64_t sequence() const { return m_sequence; }
  // GC starts collecting `block`, which it has just taken out of its victim policy.
  void start_collecting(std::uint32_t block);
  // Programs one GC page of `count` relocated LPNs on the die's GC write point (a new block
  // from the free pool when needed: the host's reserve is for this). That is the die's GC block,
  // or with `destination: shared` the host's open block (a GC block left open by an image of a
  // drive with separate GC blocks is filled first).
  // Inline: one GC page program per relocated page (the hot path of steady-state random writes).
  // With `relocation: striped` GC calls program_copies_striped instead (it tests that once per
  // share of copies, not per page: GarbageCollector::copy_share).
  void program_copies(std::uint32_t die, const Lpn* lpns, std::uint32_t count, OpList& ops) {
    program_page(die, gc_write_point(die), lpns, count, OpOrigin::kGc, 0, ops);
  }
  // Striped relocation: the GC page of units read on `die` goes to the cursor's die, onto its GC
  // write point (its host block with `destination: shared`), or to `die` itself when the cursor's
  // die is down to m_foreign_floor free blocks. A program on another die carries
  // relocation_cookie(die): the controller holds it until die's reads are done.
  void program_copies_striped(std::uint32_t die, const Lpn* lpns, std::uint32_t count, OpList& ops);
  // The GC write point of `die`: its GC block, or with `destination: shared` the host's open
  // block (a GC block left open by an image of a drive with separate GC blocks is filled first),
  // opening a block from its pool when there is none.
  OpenBlock& gc_write_point(std::uint32_t die) {
    DieState& d = m_dies[die];
    if (d.gc.block >= 0) return d.gc;  // the open GC block, the common case, is the only test on the way
    OpenBlock& open = m_host_floor != 0 ? d.host : d.gc;  // shared: the host's block
    if (open.block < 0) open_gc_block(die, open);
    return open;
  }
  void open_gc_block(std::uint32_t die, OpenBlock& open);  // throws when the die has no free block left
  // The collected (now empty) block is erased and goes back to the die's free pool.
  void erase_victim(std::uint32_t die, std::uint32_t block, OpList& ops);
  // ----

  // check_invariants() of one die: free pool, open blocks, victim policy lists.
  std::string check_die_invariants(std::uint32_t die) const;
  void invalidate(Pua unit);
  bool open_block(std::uint32_t die, OpenBlock& open, std::uint32_t reserve);
  void close_block(std::uint32_t block);
  std::uint32_t take_free(std::uint32_t die);
  void push_free(std::uint32_t die, std::uint32_t block);
  // Appends one page program of `units` (with their LPNs) to the open block.
  void program_page(std::uint32_t die, OpenBlock& open, const Lpn* lpns, std::uint32_t count, OpOrigin origin,
                    std::uint32_t cookie, OpList& ops);

  Geometry m_geo;
  std::vector<std::uint32_t> m_l2p;          // per LPN
  P2lTable m_p2l;                            // per physical unit: LPN written there
  std::vector<std::uint32_t> m_valid;        // per block: valid units
  std::vector<std::uint32_t> m_erase_count;  // per block
  std::vector<BlockState> m_state;           // per block
  std::vector<DieState> m_dies;
  GarbageCollector m_gc;  // victim in progress per die, victim policy (and block ages)
  // Free blocks a die keeps before the host may write into an open block: 0 with separate GC
  // blocks, the reserve with `destination: shared` (see Ftl::place).
  std::uint32_t m_host_floor = 0;
  // Striped relocation (controller.gc.relocation): on, and the free blocks a die keeps from other
  // dies' copies (they may open a block there only while it has more): the host's reserve plus
  // one, so others' copies leave the die in a state its own GC can reach by itself (at least one
  // free block beyond the reserve); below free_blocks_low its GC starts with its next host page.
  bool m_striped = false;
  std::uint32_t m_foreign_floor = 0;
  RelocationState m_relocation;
  std::uint64_t m_sequence = 0;  // units written, the clock of cost-benefit ages
  FtlListener* m_listener = nullptr;
  FtlStats m_stats;
  std::optional<HybridMap> m_hybrid;  // controller.ftl: hybrid; empty: page mapping
  [[gnu::noinline]] bool place_hybrid(std::uint32_t die, const Lpn* lpns, std::uint32_t count, std::uint32_t cookie,
                                      OpList& ops);
};

// Defined here, where Ftl is complete, so that Ftl::place and the collector inline it: called
// for every host page program while a victim is in progress.
inline void GarbageCollector::pay_for_host_page(Ftl& ftl, std::uint32_t die, std::uint32_t units, OpList& ops) {
  Die& d = m_dies[die];
  if (d.victim < 0 && ftl.free_blocks(die) < m_config.free_blocks_low) start_victim(ftl, die, ops);
  if (d.victim < 0) return;
  // Pay-as-you-go: valid/invalid copies of the victim for every host unit.
  d.credit += std::uint64_t(units) * d.victim_valid_at_start;
  const std::uint64_t copies = d.credit / d.victim_invalid_at_start;
  d.credit -= copies * d.victim_invalid_at_start;
  if (copies) copy_share(ftl, die, copies, ops);
}

}  // namespace ssdlab
