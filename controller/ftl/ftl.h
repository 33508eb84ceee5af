// Page-level FTL: mapping, write combining, per-die allocation, TRIM; its tables and the steps
// taken on them are FtlCore (ftl_core.h), garbage collection is its GarbageCollector
// (controller/gc/garbage_collector.h), victim choice the VictimPolicy the tables keep
// (controller/gc/victim_policy.h). Plain C++: it never sees time. Callers ask it
// for placements and it appends the NAND operations they imply (GC reads/programs/erases, then
// the program) to an OpList; the timing layer executes them in order, per die.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "base/config/geometry.h"
#include "base/core/nand_op.h"
#include "controller/ftl/ftl_core.h"
#include "controller/ftl/hybrid/hybrid_map.h"
#include "controller/gc/garbage_collector.h"

namespace ssdlab {

// How Ftl::load treats an image (ftl_image.h).
struct FtlLoadOptions {
  bool allow_buffered = true;    // L2P entries may name write-buffer slots (a drive image: false)
  bool verify_checksums = true;  // false only to fuzz or test the range checks behind them
};

// The tables (ftl_core.h) are a private base: their read-only queries are the Ftl's own public
// ones below, their steps reach only the Ftl's GarbageCollector and HybridMap.
class Ftl : private FtlCore {
 public:
  using FtlCore::kBufferedBit;
  using FtlCore::kMaxPhysicalUnits;
  using FtlCore::kNoLpn;

  // The P2L table moves to a spill file above `p2l_memory_budget` bytes, keeping
  // `p2l_cache_blocks` blocks (0: automatic) in memory (p2l_table.h).
  explicit Ftl(const DriveConfig& config, std::uint64_t p2l_memory_budget = P2lTable::kDefaultMemoryBudget,
               std::uint32_t p2l_cache_blocks = 0);
  using FtlCore::p2l;

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

  using FtlCore::geometry;
  void set_listener(FtlListener* listener) { m_listener = listener; }
  using FtlCore::stats;
  using FtlCore::user_units;
  void register_stats(const class StatGroup& group) const;  // ftl_stats.cpp

  using FtlCore::lookup;
  using FtlCore::plan_read;
  using FtlCore::prefetch;
  // For a host write of lpn coming soon: starts loading what invalidating its old copy touches
  // (the old block's counters and its place in the victim index). Call it once the mapping
  // entry itself has had time to arrive (after prefetch()).
  void prefetch_overwrite(Lpn lpn) const {
    const std::uint32_t old = m_l2p[lpn];
    if (old == kUnmapped || (old & kBufferedBit)) return;
    const std::uint32_t block = m_geo.block_of_unit(old);
    __builtin_prefetch(&m_valid[block]);
    __builtin_prefetch(&m_state[block]);
    m_policy.prefetch(block);
  }
  using FtlCore::buffer_slot;
  using FtlCore::is_buffered;

  // The host wrote `lpn`; its data now lives in buffer slot `slot`. Invalidates the old copy.
  void write_to_buffer(Lpn lpn, std::uint32_t slot);
  // TRIM: the LPN's data is no longer needed.
  void trim(Lpn lpn);

  // Can `die` take a host page now (possibly after foreground GC)?
  bool can_place(std::uint32_t die) const;
  // Grown bad blocks: `die` can take no page now or later (no room, no victim in progress, and
  // none can start: read-only with an empty free pool, or no closed block with invalid data).
  bool stuck(std::uint32_t die) const;
  // Programs one page on `die` holding `lpns` (1..units_per_page LPNs whose L2P entry is
  // buffered; missing slots are padding). Appends foreground GC work (if the die's free
  // blocks fell below the low threshold) and the program to `ops`; the program op carries
  // `cookie`. Returns false, appending nothing, when the die cannot take a page.
  bool place(std::uint32_t die, const Lpn* lpns, std::uint32_t count, std::uint32_t cookie, OpList& ops);
  // Untimed sequential fill: `pages` whole pages of LPNs from `first` on, a page to each die in
  // turn from `next_die` (advanced), leaving exactly the state write_to_buffer() and place() of
  // each page would, without their per-unit work. Stops at the first page that is not that
  // simple (an LPN already mapped, GC owed or the die at its reserve, a hybrid FTL) and returns
  // the pages placed (ftl_fill.cpp).
  std::uint64_t fill_fresh_pages(Lpn first, std::uint64_t pages, std::uint32_t& next_die);

  // Garbage collection is incremental (controller/gc/garbage_collector.h): a die below
  // `free_blocks_low` free blocks picks a victim and relocates a share of it for every host
  // page placed on it. Only when a die is down to its reserve does a host write wait for a
  // whole victim.
  //
  // Collects one whole victim now (finishing the one in progress first).
  // Returns false if no victim frees space.
  bool collect_one(std::uint32_t die, OpList& ops) { return m_gc.collect_one(core(), die, ops); }
  bool needs_gc(std::uint32_t die) const { return m_dies[die].free_count < m_gc.config().free_blocks_low; }

  // Background GC step on an idle die: continues the victim in progress or starts one while
  // the die has fewer than `target_free` free blocks, relocating at most about `max_units`.
  // Returns false (appending nothing) when there is nothing worth doing.
  bool background_collect(std::uint32_t die, std::uint32_t target_free, std::uint32_t max_units, OpList& ops) {
    if (m_hybrid) return false;  // a hybrid FTL merges only when it has to
    return m_gc.background_collect(core(), die, target_free, max_units, ops);
  }

  // Secure erase: every block erased, every LPN unmapped.
  void secure_erase();

  using FtlCore::free_blocks;
  std::uint64_t free_blocks_total() const;
  using FtlCore::add_wear;
  using FtlCore::erase_count;
  using FtlCore::fails_at;
  using FtlCore::fold_candidate;
  using FtlCore::grows_bad_blocks;
  using FtlCore::has_factory_bad_blocks;
  using FtlCore::idle_fold;
  using FtlCore::is_bad;
  using FtlCore::is_closed;
  using FtlCore::is_free;
  using FtlCore::is_slc;
  using FtlCore::max_erase_rises;
  using FtlCore::min_good_blocks;
  using FtlCore::read_only;
  using FtlCore::slc_blocks;
  using FtlCore::slc_blocks_total;
  using FtlCore::slc_cache;
  using FtlCore::slc_limit;
  using FtlCore::static_wear_levelling;
  using FtlCore::turn_read_only;
  using FtlCore::valid_units;
  using FtlCore::wear;
  // Block being collected on `die`, or -1.
  std::int64_t active_victim(std::uint32_t die) const { return m_gc.active_victim(die); }
  using FtlCore::foreign_copy_floor;
  using FtlCore::next_victim;
  using FtlCore::relocation;
  using FtlCore::striped_relocation;

  // The whole mapping state as bytes (an aged drive saved and restored by `ssdlab serve
  // --image`), in checksummed sections (ftl_image.h); load() throws ImageFormatError (a
  // std::runtime_error) naming the section on a damaged stream or one made for another
  // geometry, and then leaves the FTL as it was (a drive that mapped nothing maps nothing; its
  // unconsulted P2L entries are emptied). Implemented in ftl_image.cpp.
  void save(std::ostream& out) const;
  void load(std::istream& in, const FtlLoadOptions& options = {});

  // ---- fast aging by replication (controller/ftl/ftl_replicate.cpp, used by precondition.h) ----
  // A drive of `group_dies` of this drive's dies and `user_units` mapping units: the same blocks,
  // pages, mapping units and GC configuration, page mapping. Used to age one die group.
  Ftl die_group(std::uint32_t group_dies, std::uint64_t user_units) const;
  // The FTL is told of every relocation and erase (a drive that keeps data).
  bool has_listener() const { return m_listener != nullptr; }
  // Replaces this drive's state (it must hold nothing: every block free) by `replicas` copies of a
  // die group's state: group_at(r) returns the group drive whose state replica r takes (it may
  // age one group further between calls). Group die g becomes die g * replicas + r, its blocks and
  // pages keep their numbers within the die; group LPN q (in chunks of one page's units, c =
  // q / units_per_page) becomes LPN (c * replicas + r) * units_per_page + q % units_per_page, so
  // that a sequential fill of the group replicates to exactly the layout of a sequential fill of
  // the drive. The group must be a die_group(dies / replicas, ...) of this drive with
  // user_units * replicas <= this drive's. Statistics, erase counts and the write sequence add up
  // over the replicas; block ages keep their distance from the sequence, scaled by `replicas`.
  void replicate(std::uint32_t replicas, const std::function<const Ftl&(std::uint32_t)>& group_at);

  // Checks every structural invariant: each mapped LPN's unit points back to it, per-block
  // valid counts equal a recount, free/open/closed accounting and the victim index agree.
  // Returns an empty string when all hold, else a description of the first violation.
  std::string check_invariants() const;

 private:
  // Room for a host page on `die` without GC, and a victim there whose collection gains space.
  bool host_room(std::uint32_t die) const;
  bool victim_gains(std::uint32_t die) const;
  // fill_fresh_pages(): place() of a host page on `die` would program it at once (ftl_fill.cpp).
  bool places_without_gc(std::uint32_t die) const;
  // load() after deciding whether the big tables are read in place (ftl_image.cpp).
  void load_checked(std::istream& in, const FtlLoadOptions& options, bool in_place);
  // What GC and the hybrid map work on: the tables and their steps (ftl_core.h).
  FtlCore& core() { return *this; }
  // check_invariants() of one die: free pool, open blocks, victim policy lists.
  std::string check_die_invariants(std::uint32_t die) const;
  std::string check_slc_invariants(std::uint32_t die) const;  // slc_cache.cpp

  GarbageCollector m_gc;              // victim in progress per die, pay-as-you-go credit, relocation
  std::optional<HybridMap> m_hybrid;  // controller.ftl: hybrid; empty: page mapping
  [[gnu::noinline]] bool place_hybrid(std::uint32_t die, const Lpn* lpns, std::uint32_t count, std::uint32_t cookie,
                                      OpList& ops);
};

}  // namespace ssdlab
