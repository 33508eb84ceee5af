// The page-mapped FTL's tables and the block-level steps taken on them: the L2P and P2L
// tables, per block its valid count, erase count and state, per die its free pool and write
// points, the victim index (controller/gc/victim_policy.h) kept up to date on every
// invalidation, the write sequence, the statistics. Plain C++.
//
// This is the narrow interface that garbage collection (controller/gc/garbage_collector.h) and
// the hybrid log-block map (controller/ftl/hybrid/hybrid_map.h) work through instead of being
// friends of the Ftl: the read-only queries below, and a handful of steps that keep the tables
// consistent (start collecting a block, program a GC page, erase a block, open a block for a
// merge, program one unit at a given page). The tables themselves are protected: only the Ftl
// (controller/ftl/ftl.h), which derives from this class privately, changes them directly. So an
// Ftl& gives no way to these steps from outside; the Ftl hands its core to its GC and hybrid
// map. The steps are defined in ftl.cpp, beside Ftl::place, as they were before the split (the
// compiler inlines them into the host's page program as before; no virtual call anywhere).
#pragma once

#include <cstdint>
#include <vector>

#include "base/config/config.h"
#include "base/config/geometry.h"
#include "base/core/nand_op.h"
#include "controller/ftl/p2l_table.h"
#include "controller/ftl/read_plan.h"
#include "controller/gc/victim_policy.h"
#include "controller/gc/wear_leveler.h"

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

// The blocks' erase counts against the NAND's rated endurance (nand.endurance).
struct WearSummary {
  std::uint32_t min = 0, max = 0;  // erase counts of the least and most erased block
  double mean = 0;
  std::uint32_t endurance = 0;                                                        // rated P/E cycles
  double life_used() const { return endurance ? mean / endurance : 0.0; }             // SMART's wear indicator
  double max_life_used() const { return endurance ? double(max) / endurance : 0.0; }  // the most worn block's
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
  // Static wear levelling: cold blocks GC collected for their wear, and the valid units it read
  // from them to relocate (part of gc_victims and gc_units_copied).
  std::uint64_t wl_victims = 0;
  std::uint64_t wl_units_copied = 0;
  // Grown bad blocks (nand.bad_blocks.grown): blocks retired after a failed erase.
  std::uint64_t bad_blocks = 0;
  std::uint64_t factory_bad_blocks = 0;  // nand.bad_blocks.factory: marked bad at shipment, never used
  // The SLC cache (controller.slc_cache): host units programmed into SLC-mode blocks, such blocks
  // opened, collected (folded: by GC or in idle time) and the valid units read from them to fold.
  std::uint64_t slc_units_written = 0;
  std::uint64_t slc_blocks_opened = 0;
  std::uint64_t slc_folds = 0;
  std::uint64_t slc_fold_units = 0;
  std::uint64_t nand_units_programmed() const { return host_units_programmed + gc_units_copied + pad_units; }
};

class FtlCore {
 public:
  // An L2P entry is a physical unit, kUnmapped, or (kBufferedBit | slot) while the newest
  // data of that LPN sits in the controller's write buffer.
  static constexpr std::uint32_t kBufferedBit = 0x80000000u;
  static constexpr std::uint32_t kNoLpn = 0xffffffffu;
  static constexpr Pua kMaxPhysicalUnits = kBufferedBit - 1;
  // The highest erase count a drive image may give a block: 40x an SLC block's rated 100,000
  // cycles. It bounds what the erase counts' distribution (wear()) allocates for a damaged or
  // crafted image (16 MiB), and keeps a count far from wrapping.
  static constexpr std::uint32_t kMaxEraseCount = 1u << 22;

  // ---- read-only queries ----
  const Geometry& geometry() const { return m_geo; }
  std::uint32_t user_units() const { return static_cast<std::uint32_t>(m_l2p.size()); }
  const FtlStats& stats() const { return m_stats; }
  const P2lTable& p2l() const { return m_p2l; }
  std::uint32_t lookup(Lpn lpn) const { return m_l2p[lpn]; }
  ReadPlan plan_read(Lpn lpn) const { return ReadPlan::of(m_l2p[lpn], kBufferedBit, m_geo); }  // where lpn is
  // Starts loading lpn's mapping entry into the cache, for a lookup a little later: on a large
  // drive every random lookup is a cache miss, and misses started early overlap.
  void prefetch(Lpn lpn) const { __builtin_prefetch(&m_l2p[lpn]); }
  static bool is_buffered(std::uint32_t entry) { return entry != kUnmapped && (entry & kBufferedBit); }
  static std::uint32_t buffer_slot(std::uint32_t entry) { return entry & ~kBufferedBit; }
  // A physical unit (neither unmapped nor in the write buffer).
  static bool on_flash(std::uint32_t entry) { return entry != kUnmapped && !(entry & kBufferedBit); }
  std::uint32_t free_blocks(std::uint32_t die) const { return m_dies[die].free_count; }
  std::uint32_t valid_units(std::uint32_t block) const { return m_valid[block]; }
  std::uint32_t erase_count(std::uint32_t block) const { return m_erase_count[block]; }
  bool is_closed(std::uint32_t block) const { return m_state[block] == BlockState::kClosed; }
  bool is_free(std::uint32_t block) const { return m_state[block] == BlockState::kFree; }
  bool is_bad(std::uint32_t block) const { return m_state[block] == BlockState::kBad; }
  // Grown bad blocks: a die's spare is used up (FtlCore::retire): the controller takes no more
  // writes. Never set without nand.bad_blocks.grown.
  bool read_only() const { return m_read_only; }
  bool grows_bad_blocks() const { return !m_fail_at.empty(); }
  // nand.bad_blocks.factory > 0 (whether or not the hash marked any block: the same statistics).
  bool has_factory_bad_blocks() const { return !m_factory_bad.empty(); }
  // Grown bad blocks: no die can take another page: the drive is worn out, read-only.
  void turn_read_only() {
    if (!m_fail_at.empty()) m_read_only = true;
  }
  // Good (not retired, not factory bad) blocks of the die with the fewest (with bad blocks only).
  std::uint32_t min_good_blocks() const {
    std::uint32_t most = 0;
    for (const std::uint32_t bad : m_die_bad) most = std::max(most, bad);
    return m_geo.blocks_per_die - most;
  }
  // The SLC cache (controller.slc_cache; all false / 0 when off): `block` is in SLC mode (one bit
  // per cell: its pages are the LSB pages, every page_types-th), blocks per die it may hold, and
  // the SLC-mode blocks `die` has now (open or closed, until erased).
  bool slc_cache() const { return m_slc_limit != 0; }
  bool is_slc(std::uint32_t block) const { return !m_slc_pos.empty() && m_slc_pos[block] != 0; }
  std::uint32_t slc_limit() const { return m_slc_limit; }
  std::uint32_t slc_blocks(std::uint32_t die) const {
    return m_slc_limit ? static_cast<std::uint32_t>(m_slc_dies[die].size()) : 0;
  }
  std::uint64_t slc_blocks_total() const;
  // The die's closed SLC-mode block with the fewest valid units (the next to fold), or -1; a scan
  // of the die's cache blocks only.
  std::int64_t fold_candidate(std::uint32_t die) const;
  // Fold the cache's closed blocks in idle time (controller.slc_cache.idle_fold)?
  bool idle_fold() const { return m_slc_idle_fold; }
  // The erase count at which `block`'s erase fails (grown bad blocks only).
  std::uint32_t fails_at(std::uint32_t block) const { return m_fail_at[block]; }
  // The erase counts now (kept up to date at every erase: no pass over the blocks).
  WearSummary wear() const {
    WearSummary w;
    w.min = m_ec_min;
    w.max = m_max_erases;
    w.mean = m_wear_blocks == 0 ? 0.0 : double(m_ec_sum) / double(m_wear_blocks);
    w.endurance = m_endurance;
    return w;
  }
  // The aging knob (a scenario's `wear:` phase): `pe_cycles` more erases on every block, as if
  // the drive had been cycled evenly before (capped at kMaxEraseCount). Counted as wear, not as
  // erases of any phase.
  void add_wear(std::uint32_t pe_cycles);
  // Rises of the highest erase count, summed (a counter: a phase's difference is how much its
  // most-erased block wore, beside the mean's erases / blocks).
  std::uint64_t max_erase_rises() const { return m_max_rises; }
  // Valid-unit count of the block the configured policy would collect next on `die`, or -1.
  std::int64_t next_victim(std::uint32_t die) const;
  // The write sequence: units written, the clock of cost-benefit ages.
  std::uint64_t sequence() const { return m_sequence; }
  // Striped relocation's cursor and counters (all zero with in_die).
  const RelocationState& relocation() const { return m_relocation; }
  bool striped_relocation() const { return m_striped; }
  // Free blocks below which a die takes no other die's GC copies (striped relocation).
  std::uint32_t foreign_copy_floor() const { return m_foreign_floor; }

  // ---- steps of garbage collection (controller/gc/garbage_collector.h) ----
  // The closed blocks GC chooses its victims from; GC takes the block it starts collecting out.
  VictimPolicy& victims() { return m_policy; }
  const VictimPolicy& victims() const { return m_policy; }
  // GC starts collecting `block`, which it has just taken out of the victim policy.
  void start_collecting(std::uint32_t block);
  // Static wear levelling: the closed block of `die` whose erase count lags the die's highest by
  // more than the threshold (the least-erased such block), or -1; always -1 when off.
  std::int64_t lagging_block(std::uint32_t die) {
    return m_cold.lagging(die, [this](std::uint32_t b, std::uint32_t erases) { return is_current(b, erases); });
  }
  bool static_wear_levelling() const { return m_cold.on(); }
  // GC collects `block` for its wear (already start_collecting'd), having read `units` of it so
  // far for relocation (counted as they are read).
  void wear_levelling_victim() { ++m_stats.wl_victims; }
  void wear_levelling_copies(std::uint64_t units) { m_stats.wl_units_copied += units; }
  // GC read `units` valid units of an SLC-mode victim to fold them into a full block.
  void fold_copies(std::uint64_t units) { m_stats.slc_fold_units += units; }
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
  // The collected (now empty) block is erased and goes back to the die's free pool (GC's erase
  // and the hybrid map's: both count as GC erases).
  void erase_victim(std::uint32_t die, std::uint32_t block, OpList& ops);

  // ---- steps of the hybrid log-block map (controller/ftl/hybrid/hybrid_map.h) ----
  // Takes a free block of `die` for a data or log block (it joins no victim list). Throws when
  // the die has none.
  std::uint32_t take_block(std::uint32_t die);
  // Programs `lpn` (buffered, or a valid unit being merged) alone into `page` of `block` (one
  // unit per page), invalidating its old copy.
  void program_unit(std::uint32_t die, std::uint32_t block, std::uint32_t page, Lpn lpn, OpOrigin origin,
                    std::uint32_t cookie, OpList& ops);

 protected:
  static constexpr std::uint32_t kHostReserveBlocks = 1;  // free blocks per die kept for GC destinations
  // The P2L table moves to a spill file above `p2l_memory_budget` bytes, keeping
  // `p2l_cache_blocks` blocks (0: automatic) in memory (p2l_table.h). Every block free.
  FtlCore(const DriveConfig& config, std::uint64_t p2l_memory_budget, std::uint32_t p2l_cache_blocks);

  enum class BlockState : std::uint8_t { kFree, kOpen, kClosed, kBad };
  struct OpenBlock {
    std::int64_t block = -1;
    std::uint32_t next_page = 0;
    std::uint32_t step = 1;  // pages from one programmed page to the next: page_types in SLC mode
  };
  struct DieState {  // the die's write points and free pool (its GC progress: the collector's)
    OpenBlock host, gc;
    std::vector<std::uint32_t> free_ring;  // capacity blocks_per_die
    std::uint32_t free_head = 0, free_count = 0;
  };

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
  void invalidate(Pua unit);
  // `most_erased`: with dynamic wear levelling, the die's most-erased free block (GC's own block:
  // data that has survived, colder than the host's), else its least-erased one.
  bool open_block(std::uint32_t die, OpenBlock& open, std::uint32_t reserve, bool most_erased = false);
  void close_block(std::uint32_t block);
  std::uint32_t take_free(std::uint32_t die, bool most_erased = false);
  void push_free(std::uint32_t die, std::uint32_t block);
  // Dynamic wear levelling: a die's free pool at free_ring[0..free_count) (free_head 0) sorted
  // most erased first (the higher number first among equals): the host opens the least-erased
  // block (the end), GC the most-erased one (the front). Not a heap: GC takes from the other
  // end. Inserting is a shift of the pool, a few blocks once the drive is written.
  bool later_erased(std::uint32_t a, std::uint32_t b) const {
    return m_erase_count[a] != m_erase_count[b] ? m_erase_count[a] > m_erase_count[b] : a > b;
  }
  // A static wear-levelling entry for `block` with `erases` still stands: closed, not erased since.
  bool is_current(std::uint32_t block, std::uint32_t erases) const {
    return m_state[block] == BlockState::kClosed && m_erase_count[block] == erases;
  }
  // After the tables were replaced or reset (image load, replication, secure erase): the free
  // pools in dynamic order, the static bookkeeping from the blocks' erase counts and states.
  void rebuild_wear();
  // Appends one page program of `units` (with their LPNs) to the open block.
  void program_page(std::uint32_t die, OpenBlock& open, const Lpn* lpns, std::uint32_t count, OpOrigin origin,
                    std::uint32_t cookie, OpList& ops);
  // Every block erased and free, every LPN unmapped, the victim lists empty.
  void erase_tables();
  // Empty victim lists for this geometry and GC configuration (a loaded image fills them).
  static VictimPolicy empty_victims(const Geometry& geo, const GcConfig& gc) {
    return VictimPolicy(gc.policy, geo.dies, geo.blocks_per_die, geo.units_per_block, gc.d_choices, gc.seed);
  }

  Geometry m_geo;
  std::vector<std::uint32_t> m_l2p;          // per LPN
  P2lTable m_p2l;                            // per physical unit: LPN written there
  std::vector<std::uint32_t> m_valid;        // per block: valid units
  std::vector<std::uint32_t> m_erase_count;  // per block
  std::vector<BlockState> m_state;           // per block
  std::vector<DieState> m_dies;
  VictimPolicy m_policy;  // closed blocks by valid count (and age, close order, candidates)
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
  // Wear levelling and wear, after the members the hot paths use (their layout unchanged).
  bool m_dynamic_wl = false;  // free pools by erase count (wear_leveling: dynamic or static)
  ColdBlocks m_cold;          // static wear levelling (controller/gc/wear_leveler.h)
  // The erase counts' distribution, kept at every erase: blocks per erase count, their sum, the
  // lowest count any block has, the highest.
  std::vector<std::uint32_t> m_ec_blocks;  // by erase count: blocks with that count
  std::uint64_t m_ec_sum = 0;
  std::uint32_t m_ec_min = 0;
  std::uint32_t m_max_erases = 0;
  std::uint64_t m_max_rises = 0;  // what m_max_erases has risen by, in all (never falls)
  std::uint32_t m_endurance = 0;  // rated P/E cycles (nand.endurance)
  // Grown bad blocks (nand.bad_blocks.grown; all empty or 0 without): per block the erase count
  // at which its erase fails, per die the blocks retired, the blocks a die keeps beyond its valid
  // data before the drive turns read-only, and whether it has.
  std::vector<std::uint32_t> m_fail_at;
  std::vector<std::uint32_t> m_die_bad;
  std::uint32_t m_retire_floor = 0;
  bool m_read_only = false;
  // nand.bad_blocks.factory (empty without): per block, marked bad at shipment. Such a block is
  // outside the drive's wear: never erased, not in the erase-count statistics.
  std::vector<std::uint8_t> m_factory_bad;
  std::uint32_t m_wear_blocks = 0;  // the blocks the erase-count statistics cover
  // The SLC cache (controller.slc_cache; all empty or 0 when off): SLC-mode blocks a die may hold,
  // the page step of such a block (page_types), whether only free blocks beyond m_slc_floor may
  // join it (dynamic), per die its SLC-mode blocks, per block its place there + 1 (0: MLC mode).
  std::uint32_t m_slc_limit = 0;
  std::uint32_t m_slc_step = 1;
  std::uint32_t m_slc_floor = 0;
  bool m_slc_dynamic = false;
  bool m_slc_idle_fold = false;
  std::vector<std::vector<std::uint32_t>> m_slc_dies;
  std::vector<std::uint32_t> m_slc_pos;
  void init_slc_cache(const DriveConfig& config);
  // The host's new block on `die` becomes an SLC-mode block if the cache has room there.
  void enter_slc(std::uint32_t die, OpenBlock& open);
  // `block` (SLC mode) was erased: it leaves the cache.
  void leave_slc(std::uint32_t die, std::uint32_t block);
  // Every block in MLC mode, the cache empty (the tables were reset or replaced).
  void clear_slc();
  // A block's erase failed: out of service for good; the die's spare checked.
  void retire(std::uint32_t die, std::uint32_t block);
  void init_bad_blocks(const DriveConfig& config);
  // nand.bad_blocks.factory: blocks marked bad at shipment, placed by the seed.
  void mark_factory_bad(const DriveConfig& config);
  // A block's count rose from erases - 1 to erases.
  void count_erase(std::uint32_t erases) {
    ++m_ec_sum;
    if (erases >= m_ec_blocks.size()) m_ec_blocks.resize(erases + 1, 0);
    --m_ec_blocks[erases - 1];
    ++m_ec_blocks[erases];
    while (m_ec_blocks[m_ec_min] == 0) ++m_ec_min;
    if (erases <= m_max_erases) return;
    m_max_rises += erases - m_max_erases;
    m_max_erases = erases;
  }
};

}  // namespace ssdlab
