#include "controller/gc/garbage_collector.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ssdlab {

GarbageCollector::GarbageCollector(const Geometry& geometry, const GcConfig& config)
    : m_config(config), m_striped(config.relocation == GcRelocation::kStriped), m_dies(geometry.dies) {
  for (Die& d : m_dies) d.pending.reserve(2 * std::size_t(geometry.units_per_page));
}

void GarbageCollector::clear() {
  for (Die& d : m_dies) {
    d.victim = -1;
    d.pending.clear();
    d.wear = d.after_wear = d.fold = false;
  }
}

void GarbageCollector::begin(FtlCore& ftl, Die& d, std::uint32_t victim, std::uint32_t valid) {
  const std::uint32_t units_per_block = ftl.geometry().units_per_block;
  d.victim = victim;
  d.victim_page = 0;
  d.victim_valid_at_start = valid;
  d.victim_invalid_at_start = units_per_block - valid;
  d.credit = 0;
  d.fold = ftl.is_slc(victim);
}

bool GarbageCollector::start_fold_victim(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops) {
  // Its copies may need a new GC block: only with a free one (a die a failed erase emptied waits).
  if (ftl.free_blocks(die) == 0) return false;
  const std::int64_t block = ftl.fold_candidate(die);
  if (block < 0) return false;
  const auto victim = static_cast<std::uint32_t>(block);
  const std::uint32_t valid = ftl.valid_units(victim);
  ftl.victims().take(victim, valid);
  ftl.start_collecting(victim);
  if (valid == 0) {
    ftl.erase_victim(die, victim, ops);
    return true;
  }
  begin(ftl, m_dies[die], victim, valid);
  return true;
}

bool GarbageCollector::start_wear_victim(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops) {
  Die& d = m_dies[die];
  const std::int64_t cold = ftl.lagging_block(die);
  if (cold < 0) return false;
  const auto victim = static_cast<std::uint32_t>(cold);
  const std::uint32_t valid = ftl.valid_units(victim);
  const std::uint32_t units_per_block = ftl.geometry().units_per_block;
  ftl.victims().take(victim, valid);
  ftl.start_collecting(victim);
  ftl.wear_levelling_victim();
  d.after_wear = true;
  if (valid == 0) {  // nothing to move: erased at once, and the policy's victim comes next
    ftl.erase_victim(die, victim, ops);
    return false;
  }
  d.victim = victim;
  d.wear = true;
  d.fold = ftl.is_slc(victim);
  d.victim_page = 0;
  // The pace of its copies per host unit (valid / invalid at start, which add up to a block as
  // for any victim: the drive image checks it). A fully valid cold block (the usual case) gains
  // no space: paced as if one unit were invalid, its copies are made with the next host pages
  // (a block swap, as firmware does it).
  d.victim_invalid_at_start = std::max(units_per_block - valid, 1u);
  d.victim_valid_at_start = units_per_block - d.victim_invalid_at_start;
  d.credit = 0;
  return true;
}

bool GarbageCollector::start_victim(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops) {
  // Grown bad blocks: a read-only drive still collects to place what its write buffer holds, but
  // not on a die whose free pool a failed erase emptied (a victim's copies could find no block).
  if (__builtin_expect(ftl.read_only(), 0) && ftl.free_blocks(die) == 0) return false;
  Die& d = m_dies[die];
  const std::uint32_t units_per_block = ftl.geometry().units_per_block;
  // A fully valid cold block's copies may need a new GC block: only with one beyond the host's
  // reserve (FtlCore::kHostReserveBlocks, 1) free, so the reserve stays GC's.
  if (ftl.static_wear_levelling()) {
    if (!d.after_wear && ftl.free_blocks(die) >= 2 && start_wear_victim(ftl, die, ops)) return true;
    d.after_wear = false;
  }
  for (;;) {
    const std::int64_t victim_id =
        ftl.victims().peek(die, ftl.sequence(), [&ftl](std::uint32_t b) { return ftl.valid_units(b); });
    if (victim_id < 0) return false;
    const auto victim = static_cast<std::uint32_t>(victim_id);
    const std::uint32_t valid = ftl.valid_units(victim);
    if (valid >= units_per_block) return false;  // nothing to gain anywhere
    ftl.victims().take(victim, valid);
    ftl.start_collecting(victim);
    if (valid == 0) {  // fully invalid: erase at once, no copies
      ftl.erase_victim(die, victim, ops);
      if (ftl.free_blocks(die) >= m_config.free_blocks_high) return true;
      continue;
    }
    begin(ftl, d, victim, valid);
    return true;
  }
}

template <bool Striped>
void GarbageCollector::program_gc_page(FtlCore& ftl, std::uint32_t die, std::uint32_t count, std::vector<NandOp>& ops) {
  Die& d = m_dies[die];
  if constexpr (Striped) {
    ftl.program_copies_striped(die, d.pending.data(), count, ops);
  } else {
    ftl.program_copies(die, d.pending.data(), count, ops);
  }
  // What pending.erase(begin, begin + count) does, written out: with two instantiations GCC
  // stopped inlining vector::_M_erase here (+1 % instructions on steady-state random writes).
  const std::size_t rest = d.pending.size() - count;
  if (rest) std::memmove(d.pending.data(), d.pending.data() + count, rest * sizeof(Lpn));
  d.pending.resize(rest);
}

template <bool Striped>
void GarbageCollector::copy_from_victim(FtlCore& ftl, std::uint32_t die, std::uint64_t max_units,
                                        std::vector<NandOp>& ops) {
  Die& d = m_dies[die];
  const Geometry& geo = ftl.geometry();
  const P2lTable& p2l = ftl.p2l();
  const auto victim = static_cast<std::uint32_t>(d.victim);
  std::uint64_t copied = 0;
  // Units read by an earlier call and still waiting for a full GC page (several units per
  // page) may have been overwritten or trimmed by the host since: the newer data wins, so they
  // are dropped, not copied.
  drop_stale_pending(ftl, d, victim);
  // Each unit's validity check is a random L2P access: prefetch kAhead units ahead (past this
  // call's share too, for the next one), so that the misses overlap.
  constexpr std::uint32_t kAhead = 16;
  const Pua block_base = geo.first_unit_of_page(victim, 0);
  const std::uint32_t units_per_block = geo.units_per_block;
  std::uint32_t ahead = d.victim_page * geo.units_per_page;
  const auto prefetch_to = [&](std::uint32_t end) {
    for (end = std::min(end, units_per_block); ahead < end; ++ahead) {
      const Lpn lpn = p2l.get(block_base + ahead);
      if (lpn != FtlCore::kNoLpn) ftl.prefetch(lpn);
    }
  };
  prefetch_to(ahead + kAhead);
  while (d.victim_page < geo.pages_per_block && copied < max_units) {
    const std::uint32_t page = d.victim_page++;
    const Pua base = geo.first_unit_of_page(victim, page);
    prefetch_to((page + 1) * geo.units_per_page + kAhead);
    const std::size_t first = d.pending.size();
    for (std::uint32_t i = 0; i < geo.units_per_page; ++i) {
      const Lpn lpn = p2l.get(base + i);
      if (lpn != FtlCore::kNoLpn && ftl.lookup(lpn) == base + i) d.pending.push_back(lpn);
    }
    const auto read_units = static_cast<std::uint32_t>(d.pending.size() - first);
    if (read_units == 0) continue;
    append_op(ops, NandOpKind::kRead, OpOrigin::kGc, die, victim, page, read_units * geo.unit_bytes, 0);
    copied += read_units;
    while (d.pending.size() >= geo.units_per_page) program_gc_page<Striped>(ftl, die, geo.units_per_page, ops);
  }
  if (d.wear) ftl.wear_levelling_copies(copied);
  if (d.fold) ftl.fold_copies(copied);
  if (d.victim_page < geo.pages_per_block) return;
  // The last part-filled GC page of this victim (a unit read but invalidated meanwhile, by a
  // host overwrite or a trim, is simply dropped).
  drop_stale_pending(ftl, d, victim);
  if (!d.pending.empty()) program_gc_page<Striped>(ftl, die, static_cast<std::uint32_t>(d.pending.size()), ops);
  if (ftl.valid_units(victim) != 0) throw std::logic_error("GC victim still holds valid units");
  ftl.erase_victim(die, victim, ops);
  d.victim = -1;
  d.wear = d.fold = false;
  if (ftl.free_blocks(die) < m_config.free_blocks_high) start_victim(ftl, die, ops);
}
template void GarbageCollector::copy_from_victim<false>(FtlCore&, std::uint32_t, std::uint64_t, std::vector<NandOp>&);
template void GarbageCollector::copy_from_victim<true>(FtlCore&, std::uint32_t, std::uint64_t, std::vector<NandOp>&);

void GarbageCollector::drop_stale_pending(const FtlCore& ftl, Die& d, std::uint32_t victim) {
  // Still valid: mapped to flash, in the victim (its GC copy is not made yet).
  const Geometry& geo = ftl.geometry();
  std::size_t kept = 0;
  for (Lpn lpn : d.pending) {
    const std::uint32_t e = ftl.lookup(lpn);
    if (e != kUnmapped && !(e & FtlCore::kBufferedBit) && geo.block_of_unit(e) == victim) d.pending[kept++] = lpn;
  }
  d.pending.resize(kept);
}

bool GarbageCollector::collect_one(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops) {
  Die& d = m_dies[die];
  if (d.victim < 0 && !start_victim(ftl, die, ops)) return false;
  if (d.victim >= 0) {
    const std::int64_t current = d.victim;
    while (d.victim == current) copy_share(ftl, die, ~std::uint64_t(0), ops);
  }
  return true;
}

bool GarbageCollector::background_collect(FtlCore& ftl, std::uint32_t die, std::uint32_t target_free,
                                          std::uint32_t max_units, std::vector<NandOp>& ops) {
  Die& d = m_dies[die];
  const std::size_t before = ops.size();
  // The SLC cache folds first (its blocks are what the host will want again when it returns).
  if (d.victim < 0 && ftl.idle_fold() && start_fold_victim(ftl, die, ops) && d.victim < 0) return true;
  if (d.victim < 0) {
    if (ftl.free_blocks(die) >= target_free) return false;
    // Only a victim whose valid units fit in fewer pages than a block frees space: with several
    // units per page, one holding less than a page of invalid data gives it all back as the
    // padding of its last GC page, and idle time would go on erasing for nothing.
    const std::int64_t valid = ftl.next_victim(die);
    const std::uint64_t upp = ftl.geometry().units_per_page;
    if (valid < 0 || (std::uint64_t(valid) + upp - 1) / upp * upp >= ftl.geometry().units_per_block) return false;
    if (!start_victim(ftl, die, ops)) return ops.size() != before;
  }
  if (d.victim >= 0) copy_share(ftl, die, max_units, ops);
  return ops.size() != before;
}

}  // namespace ssdlab
