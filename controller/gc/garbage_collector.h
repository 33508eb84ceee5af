// Garbage collection of the page-mapped FTL: per die, the victim being collected, how far it has
// been scanned, the pay-as-you-go copy credit and the units read from it that wait to fill a GC
// page; the relocation of its valid units, the GC page programs and the erase. Which victim comes
// next is VictimPolicy's answer (victim_policy.h), kept with the FTL's tables and fed by them.
//
// Static wear levelling (controller.wear_leveling.mode: static) chooses every other victim at most:
// a closed block whose erase count lags the die's highest by more than the threshold
// (FtlCore::lagging_block), whatever it holds; its valid units are relocated like any victim's.
//
// GC is incremental: a die below `free_blocks_low` free blocks starts a victim and, for every
// host page then placed on it, relocates that page's share of the victim's valid units
// (valid/invalid of the victim at its start), so GC work is spread over host writes; it moves on
// to further victims until the die has `free_blocks_high` free blocks. collect_one() collects a
// whole victim at once (the host waits: its die is down to the reserve), background_collect() a
// bounded step on an idle die.
//
// The SLC cache (controller.slc_cache): its blocks are ordinary victims (one holding a block's
// worth of LSB pages counts its other pages as invalid, which is what collecting it gains);
// GC's copies go to its own full (MLC/TLC) block, so collecting one folds it. In idle time
// (slc_cache.idle_fold) each die folds its closed SLC-mode blocks, fewest valid units first.
//
// How it reaches the FTL: it keeps no pointer to it (an Ftl is copied and moved by value: an
// image load that fails restores the copy), so each operation is given the FTL's tables it works
// on, FtlCore (controller/ftl/ftl_core.h): their read-only queries (geometry, lookup, p2l,
// valid_units, free_blocks, next_victim, sequence, prefetch), the victim policy they keep, and
// four steps: start_collecting(block), program_copies(die, lpns, count, ops) (or
// program_copies_striped with controller.gc.relocation: striped) and erase_victim(die, block,
// ops). The mapping tables, open blocks and free pools stay the FTL's to change; nothing here
// sees the Ftl itself.
//
// Plain C++, no SystemC; no allocation per operation (the per-die queues are reserved up front).
#pragma once

#include <cstdint>
#include <vector>

#include "base/config/config.h"
#include "base/config/geometry.h"
#include "base/core/nand_op.h"
#include "base/core/types.h"
#include "controller/ftl/ftl_core.h"
#include "controller/gc/victim_policy.h"

namespace ssdlab {

class GarbageCollector {
 public:
  // One die's victim in progress. The fields after `victim` keep their last values once it is
  // done (the drive image stores them as they are).
  struct Die {
    std::int64_t victim = -1;       // block being collected, or -1
    std::uint32_t victim_page = 0;  // its next page to scan
    // Static wear levelling: the victim is a cold block collected for its wear; the last victim
    // started was one (the next is chosen by the policy: wear levelling takes at most every
    // other victim, so that GC always gains space). The image's WEAR section keeps them. Here,
    // in the padding after victim_page: the struct stays one cache line (72 bytes cost 20 %
    // on steady-state random writes).
    bool wear = false, after_wear = false;
    bool fold = false;  // the victim is an SLC-mode block (controller.slc_cache): its copies fold it
    std::uint64_t victim_valid_at_start = 0, victim_invalid_at_start = 0, credit = 0;
    std::vector<Lpn> pending;  // units read from the victim, waiting to fill a GC page
  };

  GarbageCollector(const Geometry& geometry, const GcConfig& config);

  const GcConfig& config() const { return m_config; }
  std::int64_t active_victim(std::uint32_t die) const { return m_dies[die].victim; }
  const Die& die(std::uint32_t die) const { return m_dies[die]; }
  Die& die(std::uint32_t die) { return m_dies[die]; }  // restoring an image

  // Secure erase: no victim anywhere (the victim lists are the tables', FtlCore's).
  void clear();

  // Before the FTL places a host page of `units` units on `die`: starts a victim if the die is
  // below `free_blocks_low`, then relocates the page's share of the victim in progress.
  // Inline: called for every host page program while a victim is in progress.
  void pay_for_host_page(FtlCore& ftl, std::uint32_t die, std::uint32_t units, std::vector<NandOp>& ops) {
    Die& d = m_dies[die];
    if (d.victim < 0 && ftl.free_blocks(die) < m_config.free_blocks_low) start_victim(ftl, die, ops);
    if (d.victim < 0) return;
    // Pay-as-you-go: valid/invalid copies of the victim for every host unit.
    d.credit += std::uint64_t(units) * d.victim_valid_at_start;
    const std::uint64_t copies = d.credit / d.victim_invalid_at_start;
    d.credit -= copies * d.victim_invalid_at_start;
    if (copies) copy_share(ftl, die, copies, ops);
  }
  // Collects one whole victim now (finishing the one in progress first). False if no victim
  // frees space.
  bool collect_one(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops);
  // A step on an idle die: continues the victim in progress, or starts one while the die has
  // fewer than `target_free` free blocks, relocating at most about `max_units`. False
  // (appending nothing) when there is nothing worth doing.
  bool background_collect(FtlCore& ftl, std::uint32_t die, std::uint32_t target_free, std::uint32_t max_units,
                          std::vector<NandOp>& ops);

 private:
  bool start_victim(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops);
  // The SLC cache: starts folding the die's closed SLC-mode block with the fewest valid units
  // (idle time), if it has one.
  bool start_fold_victim(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops);
  // The victim in progress is `victim` (already taken and start_collecting'd) with `valid` units.
  void begin(FtlCore& ftl, Die& d, std::uint32_t victim, std::uint32_t valid);
  // Static wear levelling: starts collecting the die's lagging cold block, if it has one.
  bool start_wear_victim(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops);
  // Relocates up to `max_units` valid units of the victim in progress; erases it when empty.
  // `Striped`: controller.gc.relocation: striped (FtlCore::program_copies_striped), chosen once per
  // share by copy_share() so that in_die's page loop tests nothing more than before.
  void copy_share(FtlCore& ftl, std::uint32_t die, std::uint64_t max_units, std::vector<NandOp>& ops) {
    if (__builtin_expect(m_striped, 0)) {
      copy_from_victim<true>(ftl, die, max_units, ops);
    } else {
      copy_from_victim<false>(ftl, die, max_units, ops);
    }
  }
  template <bool Striped>
  void copy_from_victim(FtlCore& ftl, std::uint32_t die, std::uint64_t max_units, std::vector<NandOp>& ops);
  template <bool Striped>
  void program_gc_page(FtlCore& ftl, std::uint32_t die, std::uint32_t count, std::vector<NandOp>& ops);
  static void drop_stale_pending(const FtlCore& ftl, Die& d, std::uint32_t victim);

  GcConfig m_config;
  bool m_striped;  // m_config.relocation is striped
  std::vector<Die> m_dies;
};

}  // namespace ssdlab
