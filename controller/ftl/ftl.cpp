#include "controller/ftl/ftl.h"

#include "controller/sched/op_ticket.h"

#include "base/core/huge_pages.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ssdlab {

// ---- the tables and their steps (ftl_core.h) -------------------------------------------------

FtlCore::FtlCore(const DriveConfig& config, std::uint64_t p2l_memory_budget, std::uint32_t p2l_cache_blocks)
    : m_geo(Geometry::from(config)),
      m_p2l(m_geo.total_units, m_geo.units_per_block, p2l_memory_budget, p2l_cache_blocks),
      m_policy(empty_victims(m_geo, config.controller.gc)),
      m_host_floor(config.controller.gc.destination == GcDestination::kShared ? kHostReserveBlocks : 0),
      m_striped(config.controller.gc.relocation == GcRelocation::kStriped),
      m_foreign_floor(kHostReserveBlocks + 1),
      m_dynamic_wl(config.controller.wear.mode != WearLeveling::kNone),
      m_cold(config.controller.wear.mode == WearLeveling::kStatic, m_geo.dies, m_geo.blocks_per_die,
             config.controller.wear.threshold) {
  if (m_cold.on() &&
      (config.controller.ftl == FtlScheme::kHybrid || config.controller.gc.policy == GcPolicyKind::kFifo))
    throw std::invalid_argument("static wear levelling needs page mapping and a GC policy other than FIFO");
  if (m_geo.total_units > kMaxPhysicalUnits) {
    throw std::invalid_argument("geometry has more mapping units than the FTL can address");
  }
  const std::uint64_t unit = m_geo.unit_bytes;
  const std::uint64_t user_units = (config.controller.user_bytes + unit - 1) / unit;
  // The two big tables are touched at random: huge pages spare most TLB misses.
  m_l2p.reserve(user_units);
  advise_huge_pages(m_l2p.data(), user_units * sizeof(std::uint32_t));
  m_l2p.assign(user_units, kUnmapped);
  m_valid.assign(m_geo.blocks, 0);
  m_erase_count.assign(m_geo.blocks, 0);
  m_state.assign(m_geo.blocks, BlockState::kFree);
  m_dies.resize(m_geo.dies);
  for (DieState& d : m_dies) d.free_ring.resize(m_geo.blocks_per_die);
  if (config.nand.bad_blocks.factory > 0) mark_factory_bad(config);
  erase_tables();
  std::fill(m_erase_count.begin(), m_erase_count.end(), 0);
  m_endurance = config.nand.rated_endurance();
  if (config.nand.bad_blocks.grown) init_bad_blocks(config);
  if (config.controller.slc_cache.mode != SlcCacheMode::kOff) init_slc_cache(config);
}

void FtlCore::erase_tables() {
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    m_valid[b] = 0;
    if (m_state[b] == BlockState::kBad) continue;  // retired for good
    if (m_state[b] != BlockState::kFree) {         // used: erased now, an erase that may fail
      ++m_erase_count[b];
      if (!m_fail_at.empty() && m_erase_count[b] >= m_fail_at[b]) {
        m_state[b] = BlockState::kBad;
        ++m_die_bad[m_geo.die_of_block(b)];
        ++m_stats.bad_blocks;
        continue;
      }
    }
    m_state[b] = BlockState::kFree;
  }
  // A die whose good blocks are fewer than its floor takes no more writes (nothing is valid now).
  for (std::uint32_t die = 0; die < m_die_bad.size(); ++die) {
    if (m_geo.blocks_per_die - m_die_bad[die] < m_retire_floor) m_read_only = true;
  }
  std::fill(m_l2p.begin(), m_l2p.end(), kUnmapped);
  m_policy.clear();
  clear_slc();
  m_relocation.cursor = 0;
  for (std::uint32_t die = 0; die < m_geo.dies; ++die) {
    DieState& d = m_dies[die];
    d.host = OpenBlock{};
    d.gc = OpenBlock{};
    d.free_head = 0;
    d.free_count = 0;
    for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) {  // the good blocks, then the retired ones
      const std::uint32_t b = m_geo.first_block_of_die(die) + i;
      if (m_state[b] != BlockState::kBad) d.free_ring[d.free_count++] = b;
    }
    for (std::uint32_t i = 0, k = d.free_count; i < m_geo.blocks_per_die; ++i) {
      const std::uint32_t b = m_geo.first_block_of_die(die) + i;
      if (m_state[b] == BlockState::kBad) d.free_ring[k++] = b;
    }
  }
  rebuild_wear();
}

void FtlCore::add_wear(std::uint32_t pe_cycles) {
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    if (!m_factory_bad.empty() && m_factory_bad[b]) continue;  // never cycled
    m_erase_count[b] = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(std::uint64_t(m_erase_count[b]) + pe_cycles, kMaxEraseCount));
  }
  rebuild_wear();
}

void FtlCore::rebuild_wear() {
  // The distribution of the new counts. The highest count's rise counts, a drop (a fresher
  // image) does not.
  // Factory bad blocks are left out: never erased, they would hold the minimum at 0.
  const auto counted = [this](std::uint32_t b) { return m_factory_bad.empty() || !m_factory_bad[b]; };
  std::uint32_t hi = 0, lo = ~0u;
  m_ec_sum = 0;
  m_wear_blocks = 0;
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    if (!counted(b)) continue;
    const std::uint32_t e = m_erase_count[b];
    hi = std::max(hi, e);
    lo = std::min(lo, e);
    m_ec_sum += e;
    ++m_wear_blocks;
  }
  m_ec_blocks.assign(std::size_t(hi) + 1, 0);
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b)
    if (counted(b)) ++m_ec_blocks[m_erase_count[b]];
  m_ec_min = m_wear_blocks == 0 ? 0 : lo;
  if (hi > m_max_erases) m_max_rises += hi - m_max_erases;
  m_max_erases = hi;
  if (!m_dynamic_wl) return;
  const auto later = [this](std::uint32_t a, std::uint32_t b) { return later_erased(a, b); };
  for (std::uint32_t die = 0; die < m_geo.dies; ++die) {
    DieState& d = m_dies[die];
    // The ring from its head to index 0, then sorted, most erased first.
    std::rotate(d.free_ring.begin(), d.free_ring.begin() + d.free_head, d.free_ring.end());
    d.free_head = 0;
    std::sort(d.free_ring.begin(), d.free_ring.begin() + d.free_count, later);
  }
  if (!m_cold.on()) return;
  m_cold.clear();
  const auto current = [this](std::uint32_t b, std::uint32_t erases) { return is_current(b, erases); };
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    const std::uint32_t die = m_geo.die_of_block(b);
    m_cold.erased(die, m_erase_count[b]);
    if (m_state[b] == BlockState::kClosed) m_cold.closed(die, b, m_erase_count[b], current);
  }
}

std::uint32_t FtlCore::take_block(std::uint32_t die) {
  if (m_dies[die].free_count == 0) throw std::logic_error("no free block on die " + std::to_string(die));
  const std::uint32_t block = take_free(die);
  m_state[block] = BlockState::kOpen;  // in no victim list: the hybrid map keeps its data and log blocks
  return block;
}

void FtlCore::program_unit(std::uint32_t die, std::uint32_t block, std::uint32_t page, Lpn lpn, OpOrigin origin,
                           std::uint32_t cookie, OpList& ops) {
  const Pua unit = m_geo.first_unit_of_page(block, page);
  const std::uint32_t old = m_l2p[lpn];
  if (on_flash(old)) {
    invalidate(old);
    if (m_listener) m_listener->relocated(lpn, old, unit);
  }
  m_l2p[lpn] = unit;
  m_p2l.set(unit, lpn);
  ++m_valid[block];
  if (origin == OpOrigin::kHost) {
    ++m_stats.host_units_programmed;
  } else {
    ++m_stats.gc_units_copied;
  }
  ++m_stats.pages_programmed;
  append_op(ops, NandOpKind::kProgram, origin, die, block, page, m_geo.page_bytes, cookie);
}

// ---- the Ftl -----------------------------------------------------------------------------------

Ftl::Ftl(const DriveConfig& config, std::uint64_t p2l_memory_budget, std::uint32_t p2l_cache_blocks)
    : FtlCore(config, p2l_memory_budget, p2l_cache_blocks), m_gc(m_geo, config.controller.gc) {
  if (config.controller.ftl == FtlScheme::kHybrid) {
    m_hybrid.emplace(m_geo, user_units(), config.controller.hybrid);
  }
}

void Ftl::secure_erase() {
  erase_tables();
  m_gc.clear();
  if (m_hybrid) m_hybrid->clear();
}

std::uint64_t Ftl::map_bytes() const { return m_hybrid ? m_hybrid->map_bytes() : 4 * std::uint64_t(m_l2p.size()); }

bool Ftl::place_hybrid(std::uint32_t die, const Lpn* lpns, std::uint32_t count, std::uint32_t cookie, OpList& ops) {
  for (std::uint32_t i = 0; i < count; ++i) m_hybrid->place(core(), die, lpns[i], cookie, ops);
  return true;
}

std::uint64_t Ftl::free_blocks_total() const {
  std::uint64_t total = 0;
  for (const DieState& d : m_dies) total += d.free_count;
  return total;
}

void FtlCore::invalidate(Pua unit) {
  const std::uint32_t block = m_geo.block_of_unit(unit);
  --m_valid[block];
  m_policy.invalidated(block, m_valid[block], m_state[block] == BlockState::kClosed, m_sequence);
}

void Ftl::write_to_buffer(Lpn lpn, std::uint32_t slot) {
  const std::uint32_t old = m_l2p[lpn];
  if (old != kUnmapped && !(old & kBufferedBit)) invalidate(old);
  m_l2p[lpn] = kBufferedBit | slot;
  ++m_sequence;
  ++m_stats.host_units_written;
}

void Ftl::trim(Lpn lpn) {
  const std::uint32_t old = m_l2p[lpn];
  if (old == kUnmapped) return;
  if (!(old & kBufferedBit)) invalidate(old);
  m_l2p[lpn] = kUnmapped;
  ++m_stats.units_trimmed;
}

std::uint32_t FtlCore::take_free(std::uint32_t die, bool most_erased) {
  DieState& d = m_dies[die];
  if (m_dynamic_wl) {  // sorted, most erased first: the least erased at the end (free_head is 0)
    std::uint32_t* ring = d.free_ring.data();
    const std::uint32_t n = --d.free_count;
    if (!most_erased) return ring[n];
    const std::uint32_t block = ring[0];
    std::memmove(ring, ring + 1, n * sizeof(std::uint32_t));
    return block;
  }
  const std::uint32_t block = d.free_ring[d.free_head];
  d.free_head = (d.free_head + 1) % m_geo.blocks_per_die;
  --d.free_count;
  return block;
}

void FtlCore::push_free(std::uint32_t die, std::uint32_t block) {
  DieState& d = m_dies[die];
  if (m_dynamic_wl) {
    std::uint32_t* ring = d.free_ring.data();
    std::uint32_t* at = std::lower_bound(ring, ring + d.free_count, block,
                                         [this](std::uint32_t a, std::uint32_t b) { return later_erased(a, b); });
    std::memmove(at + 1, at, std::size_t(ring + d.free_count - at) * sizeof(std::uint32_t));
    *at = block;
    ++d.free_count;
    return;
  }
  d.free_ring[(d.free_head + d.free_count) % m_geo.blocks_per_die] = block;
  ++d.free_count;
}

bool FtlCore::open_block(std::uint32_t die, OpenBlock& open, std::uint32_t reserve, bool most_erased) {
  if (m_dies[die].free_count <= reserve) return false;
  const std::uint32_t block = take_free(die, most_erased);
  m_state[block] = BlockState::kOpen;
  open.block = block;
  open.next_page = 0;
  open.step = 1;  // Ftl::place may make it an SLC-mode block (enter_slc)
  return true;
}

void FtlCore::close_block(std::uint32_t block) {
  m_state[block] = BlockState::kClosed;
  m_policy.closed(block, m_valid[block], m_sequence);
  if (m_cold.on()) {
    m_cold.closed(m_geo.die_of_block(block), block, m_erase_count[block],
                  [this](std::uint32_t b, std::uint32_t erases) { return is_current(b, erases); });
  }
}

void FtlCore::start_collecting(std::uint32_t block) {
  m_state[block] = BlockState::kOpen;  // being collected: out of the policy's lists
  ++m_stats.gc_victims;
  if (is_slc(block)) ++m_stats.slc_folds;
}

std::int64_t FtlCore::next_victim(std::uint32_t die) const {
  const std::int64_t b = m_policy.peek(die, m_sequence, [this](std::uint32_t block) { return m_valid[block]; });
  return b < 0 ? -1 : std::int64_t(m_valid[b]);
}

void FtlCore::program_page(std::uint32_t die, OpenBlock& open, const Lpn* lpns, std::uint32_t count, OpOrigin origin,
                           std::uint32_t cookie, OpList& ops) {
  const auto block = static_cast<std::uint32_t>(open.block);
  const std::uint32_t page = open.next_page;
  open.next_page += open.step;  // 1; an SLC-mode block's LSB pages only
  const Pua base = m_geo.first_unit_of_page(block, page);
  for (std::uint32_t i = 0; i < m_geo.units_per_page; ++i) {
    if (i >= count) {
      m_p2l.set(base + i, kNoLpn);
      ++m_stats.pad_units;
      continue;
    }
    const Lpn lpn = lpns[i];
    const std::uint32_t old = m_l2p[lpn];
    if (old != kUnmapped && !(old & kBufferedBit)) {
      invalidate(old);
      if (m_listener) m_listener->relocated(lpn, old, base + i);
    }
    m_l2p[lpn] = base + i;
    m_p2l.set(base + i, lpn);
    ++m_valid[block];
  }
  if (origin == OpOrigin::kHost) {
    m_stats.host_units_programmed += count;
    if (open.step != 1) m_stats.slc_units_written += count;
  } else {
    m_stats.gc_units_copied += count;
  }
  ++m_stats.pages_programmed;
  append_op(ops, NandOpKind::kProgram, origin, die, block, page, m_geo.page_bytes, cookie);
  if (open.next_page >= m_geo.pages_per_block) {
    close_block(block);
    open.block = -1;
  }
}

void FtlCore::erase_victim(std::uint32_t die, std::uint32_t block, OpList& ops) {
  if (__builtin_expect(!m_slc_pos.empty(), 0) && m_slc_pos[block] != 0) leave_slc(die, block);
  count_erase(++m_erase_count[block]);
  m_cold.erased(die, m_erase_count[block]);
  ++m_stats.erases;
  ++m_stats.gc_erases;
  if (__builtin_expect(!m_fail_at.empty(), 0) && m_erase_count[block] >= m_fail_at[block]) {
    retire(die, block);  // the erase failed: the block leaves service
  } else {
    m_state[block] = BlockState::kFree;
    push_free(die, block);
  }
  if (m_listener) m_listener->erased(block);
  append_op(ops, NandOpKind::kErase, OpOrigin::kGc, die, block, 0, 0, 0);
}

void FtlCore::open_gc_block(std::uint32_t die, OpenBlock& open) {
  // Dynamic wear levelling: GC's own block is the die's most-erased free block; the host's block
  // (destination: shared, opened by GC's copies) the least-erased, as the host would open it.
  if (!open_block(die, open, 0, &open == &m_dies[die].gc)) {
    throw std::logic_error("GC has no free block for its copies on die " + std::to_string(die));
  }
}

void FtlCore::program_copies_striped(std::uint32_t die, const Lpn* lpns, std::uint32_t count, OpList& ops) {
  std::uint32_t dest = m_relocation.cursor;
  m_relocation.cursor = dest + 1 == m_geo.dies ? 0 : dest + 1;
  // Another die takes the page only above its floor: opening a block there leaves it at least
  // m_foreign_floor free blocks. Otherwise the victim's own die, which GC may always write to.
  if (dest != die && m_dies[dest].free_count <= m_foreign_floor) {
    const DieState& d = m_dies[dest];
    const OpenBlock& open = m_host_floor != 0 && d.gc.block < 0 ? d.host : d.gc;
    if (open.block < 0 || m_dies[dest].free_count < m_foreign_floor) {
      ++m_relocation.own_die_fallbacks;
      dest = die;
    }
  }
  if (dest != die) m_relocation.cross_die_units += count;
  program_page(dest, gc_write_point(dest), lpns, count, OpOrigin::kGc, dest == die ? 0 : relocation_cookie(die), ops);
}

bool Ftl::host_room(std::uint32_t die) const {
  const DieState& d = m_dies[die];
  return d.free_count >= m_host_floor && (d.host.block >= 0 || d.free_count > kHostReserveBlocks);
}

bool Ftl::victim_gains(std::uint32_t die) const {
  const std::int64_t v = next_victim(die);
  return v >= 0 && v < std::int64_t(m_geo.units_per_block);
}

bool Ftl::can_place(std::uint32_t die) const {
  if (host_room(die) || m_gc.active_victim(die) >= 0) return true;
  if (m_hybrid) return true;  // a merge always has its free block (the config check keeps one per die)
  return victim_gains(die);
}

bool Ftl::stuck(std::uint32_t die) const {
  if (host_room(die) || m_gc.active_victim(die) >= 0) return false;
  if (read_only() && m_dies[die].free_count == 0) return true;  // no victim may start
  return !victim_gains(die);
}

bool Ftl::place(std::uint32_t die, const Lpn* lpns, std::uint32_t count, std::uint32_t cookie, OpList& ops) {
  if (__builtin_expect(m_hybrid.has_value(), 0)) return place_hybrid(die, lpns, count, cookie, ops);
  // GC owes work only while a victim is in progress or the die is below its low mark: tested
  // here first, so that the common page program skips the inlined accounting.
  if (m_gc.active_victim(die) >= 0 || needs_gc(die)) m_gc.pay_for_host_page(core(), die, count, ops);
  DieState& d = m_dies[die];
  // The reserve: GC may take the last free block of a die, the host may not. With separate GC
  // blocks the host opens no block at the reserve (GC's copies of one victim fit in the block
  // it takes). With a shared block GC may open the last free block as the host's block, so the
  // host also writes nothing while the die has no free block (m_host_floor): the victim whose
  // copies opened it finishes first, in that fresh block, and GC always has somewhere to write.
  const std::uint32_t floor = m_host_floor;  // 0 with separate GC blocks: the test is only the first
  if (d.host.block < 0 || d.free_count < floor) {
    // Down to the reserve: the host waits for whole victims.
    for (std::uint32_t i = 0; i <= m_geo.blocks_per_die; ++i) {
      const bool waits = (d.host.block < 0 && d.free_count <= kHostReserveBlocks) || d.free_count < floor;
      if (!waits || !m_gc.collect_one(core(), die, ops)) break;
    }
    if (d.host.block < 0) {
      if (!open_block(die, d.host, kHostReserveBlocks)) return false;
      if (m_slc_limit) enter_slc(die, d.host);
    }
    if (d.free_count < floor) return false;
  }
  program_page(die, d.host, lpns, count, OpOrigin::kHost, cookie, ops);
  return true;
}

std::string Ftl::check_invariants() const {
  std::ostringstream err;
  const auto is_closed = [this](std::uint32_t b) { return m_state[b] == BlockState::kClosed; };
  const auto valid = [this](std::uint32_t b) { return m_valid[b]; };
  std::vector<std::uint32_t> recount(m_geo.blocks, 0);
  std::uint64_t mapped = 0;
  // The LPNs in order: in range (which block they map into is checked from the blocks' side).
  for (Lpn lpn = 0; lpn < m_l2p.size(); ++lpn) {
    const std::uint32_t e = m_l2p[lpn];
    if (e == kUnmapped || (e & kBufferedBit)) continue;
    if (e >= m_geo.total_units) {
      err << "LPN " << lpn << " maps outside the array (" << e << ")";
      return err.str();
    }
    ++mapped;
  }
  // Each mapped LPN's unit points back to it. Checked from the units' side, a block at a time
  // (a spilled P2L table is read in order, not once per LPN at random): every unit whose LPN maps
  // back to it is one mapped LPN that holds; they are all there when the counts agree.
  std::uint64_t paired = 0;
  std::vector<Lpn> entries(m_geo.units_per_block);
  const auto read_block = [&](std::uint32_t b) {
    const Pua first = static_cast<Pua>(std::uint64_t(b) * m_geo.units_per_block);
    m_p2l.read(first, entries.size(), entries.data());
    return first;
  };
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    const Pua first = read_block(b);
    for (std::uint32_t i = 0; i < entries.size(); ++i) {
      const Lpn lpn = entries[i];
      if (lpn < m_l2p.size() && m_l2p[lpn] == first + i) ++recount[b];
    }
    paired += recount[b];
  }
  if (paired != mapped) {  // find the first LPN that does not (the slow way: only on a broken state)
    for (Lpn lpn = 0; lpn < m_l2p.size(); ++lpn) {
      const std::uint32_t e = m_l2p[lpn];
      if (e == kUnmapped || (e & kBufferedBit) || m_p2l.get(e) == lpn) continue;
      err << "LPN " << lpn << " maps to unit " << e << " which holds LPN " << m_p2l.get(e);
      return err.str();
    }
  }
  // Every mapped LPN is paired with a unit, so a free block holds none exactly when no unit of it
  // is paired.
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    if (recount[b] == 0 || m_state[b] != BlockState::kFree) continue;
    const Pua first = read_block(b);
    for (std::uint32_t i = 0; i < entries.size(); ++i) {
      if (entries[i] < m_l2p.size() && m_l2p[entries[i]] == first + i) {
        err << "LPN " << entries[i] << " maps into free block " << b;
        return err.str();
      }
    }
  }
  std::uint64_t valid_total = 0;
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    if (recount[b] != 0 && m_state[b] == BlockState::kBad) {
      err << "block " << b << " is retired but holds " << recount[b] << " mapped units";
      return err.str();
    }
    if (recount[b] != m_valid[b]) {
      err << "block " << b << " counts " << m_valid[b] << " valid units, recount " << recount[b];
      return err.str();
    }
    valid_total += m_valid[b];
  }
  if (valid_total != mapped) {
    err << "valid units " << valid_total << " != mapped LPNs " << mapped;
    return err.str();
  }
  for (std::uint32_t die = 0; die < m_geo.dies; ++die) {
    const std::string broken = check_die_invariants(die);
    if (!broken.empty()) return broken;
  }
  if (m_hybrid) {  // its data and log blocks, their pages and its lists (hybrid_check.cpp)
    std::string broken = m_hybrid->check(*this);
    if (!broken.empty()) return broken;
  }
  return m_policy.check_index(is_closed, valid);
}

std::string Ftl::check_die_invariants(std::uint32_t die) const {
  std::ostringstream err;
  const auto is_closed = [this](std::uint32_t b) { return m_state[b] == BlockState::kClosed; };
  const auto valid = [this](std::uint32_t b) { return m_valid[b]; };
  std::uint32_t free_blocks = 0, closed = 0;
  for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) {
    const std::uint32_t b = m_geo.first_block_of_die(die) + i;
    free_blocks += m_state[b] == BlockState::kFree;
    closed += m_state[b] == BlockState::kClosed;
  }
  const DieState& d = m_dies[die];
  if (!m_die_bad.empty()) {  // grown bad blocks: the retired ones are the die's count of them
    std::uint32_t bad = 0;
    for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) bad += is_bad(m_geo.first_block_of_die(die) + i);
    if (bad != m_die_bad[die]) {
      err << "die " << die << " has " << bad << " retired blocks, counts " << m_die_bad[die];
      return err.str();
    }
  }
  if (free_blocks != d.free_count) {
    err << "die " << die << " has " << free_blocks << " free blocks, pool says " << d.free_count;
    return err.str();
  }
  std::vector<bool> pooled(m_geo.blocks_per_die, false);
  for (std::uint32_t i = 0; i < d.free_count; ++i) {
    const std::uint32_t b = d.free_ring[(d.free_head + i) % m_geo.blocks_per_die];
    if (m_state[b] != BlockState::kFree || m_geo.die_of_block(b) != die) {
      err << "free pool of die " << die << " holds block " << b << " which is not free there";
      return err.str();
    }
    if (pooled[b - m_geo.first_block_of_die(die)]) {
      err << "free pool of die " << die << " holds block " << b << " twice";
      return err.str();
    }
    pooled[b - m_geo.first_block_of_die(die)] = true;
  }
  if (m_hybrid) {  // its blocks are data or log blocks (HybridMap::check): no page-mapped write point or GC
    if (d.host.block >= 0 || d.gc.block >= 0 || m_gc.active_victim(die) >= 0 || !m_gc.die(die).pending.empty()) {
      err << "die " << die << " of a hybrid FTL names a page-mapped write point or a GC victim";
      return err.str();
    }
    return m_policy.check_die(die, closed, is_closed, valid);
  }
  if (m_slc_limit) {  // the SLC cache (slc_cache.cpp)
    std::string broken = check_slc_invariants(die);
    if (!broken.empty()) return broken;
  }
  // Open blocks: exactly the host block, the GC block and the victim being collected.
  std::uint32_t open_blocks = 0;
  for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) {
    open_blocks += m_state[m_geo.first_block_of_die(die) + i] == BlockState::kOpen;
  }
  std::uint32_t named = 0;
  const std::int64_t victim = m_gc.active_victim(die);
  for (const std::int64_t b : {d.host.block, d.gc.block, victim}) {
    if (b < 0) continue;
    ++named;
    if (m_state[b] != BlockState::kOpen || m_geo.die_of_block(static_cast<std::uint32_t>(b)) != die) {
      err << "die " << die << " writes to or collects block " << b << ", which is not open there";
      return err.str();
    }
  }
  if ((d.host.block >= 0 && (d.host.block == d.gc.block || d.host.block == victim)) ||
      (d.gc.block >= 0 && d.gc.block == victim) || named != open_blocks) {
    err << "die " << die << " has " << open_blocks << " open blocks, but names " << named
        << " distinct ones (host, GC, victim)";
    return err.str();
  }
  return m_policy.check_die(die, closed, is_closed, valid);
}

}  // namespace ssdlab
