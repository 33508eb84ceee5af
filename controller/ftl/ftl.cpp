#include "controller/ftl/ftl.h"

#include "model/core/huge_pages.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ssdlab {

namespace {
constexpr std::uint32_t kHostReserveBlocks = 1;  // free blocks per die kept for GC destinations
}

Ftl::Ftl(const DriveConfig& config, std::uint64_t p2l_memory_budget, std::uint32_t p2l_cache_blocks)
    : m_geo(Geometry::from(config)),
      m_gc(config.controller.gc),
      m_p2l(m_geo.total_units, m_geo.units_per_block, p2l_memory_budget, p2l_cache_blocks),
      m_index(m_geo.dies, m_geo.blocks_per_die, m_geo.units_per_block) {
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
  m_modified.assign(m_geo.blocks, 0);
  m_state.assign(m_geo.blocks, BlockState::kFree);
  m_dies.resize(m_geo.dies);
  if (m_gc.policy == GcPolicyKind::kFifo) m_fifo = FifoOrder(m_geo.dies, m_geo.blocks_per_die);
  for (DieState& d : m_dies) {
    d.free_ring.resize(m_geo.blocks_per_die);
    d.gc_pending.reserve(2 * std::size_t(m_geo.units_per_page));
  }
  secure_erase();
  std::fill(m_erase_count.begin(), m_erase_count.end(), 0);
}

void Ftl::secure_erase() {
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    if (m_state[b] != BlockState::kFree) ++m_erase_count[b];
    m_state[b] = BlockState::kFree;
    m_valid[b] = 0;
  }
  std::fill(m_l2p.begin(), m_l2p.end(), kUnmapped);
  m_index.clear();
  m_fifo.clear();
  for (std::uint32_t die = 0; die < m_geo.dies; ++die) {
    DieState& d = m_dies[die];
    d.host = OpenBlock{};
    d.gc = OpenBlock{};
    d.free_head = 0;
    d.free_count = m_geo.blocks_per_die;
    for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) {
      d.free_ring[i] = m_geo.first_block_of_die(die) + i;
    }
    d.victim = -1;
    d.gc_pending.clear();
  }
}

std::uint64_t Ftl::free_blocks_total() const {
  std::uint64_t total = 0;
  for (const DieState& d : m_dies) total += d.free_count;
  return total;
}

void Ftl::invalidate(Pua unit) {
  const std::uint32_t block = m_geo.block_of_unit(unit);
  --m_valid[block];
  m_modified[block] = m_sequence;
  if (m_state[block] == BlockState::kClosed) {
    m_index.demote(block, m_valid[block]);
    if (m_gc.policy == GcPolicyKind::kFifo && m_valid[block] + 1 == m_geo.units_per_block) {
      m_fifo.first_invalid(m_geo.die_of_block(block), block);
    }
  }
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

std::uint32_t Ftl::take_free(std::uint32_t die) {
  DieState& d = m_dies[die];
  const std::uint32_t block = d.free_ring[d.free_head];
  d.free_head = (d.free_head + 1) % m_geo.blocks_per_die;
  --d.free_count;
  return block;
}

void Ftl::push_free(std::uint32_t die, std::uint32_t block) {
  DieState& d = m_dies[die];
  d.free_ring[(d.free_head + d.free_count) % m_geo.blocks_per_die] = block;
  ++d.free_count;
}

bool Ftl::open_block(std::uint32_t die, OpenBlock& open, std::uint32_t reserve) {
  if (m_dies[die].free_count <= reserve) return false;
  const std::uint32_t block = take_free(die);
  m_state[block] = BlockState::kOpen;
  open.block = block;
  open.next_page = 0;
  return true;
}

void Ftl::close_block(std::uint32_t die, std::uint32_t block) {
  m_state[block] = BlockState::kClosed;
  m_modified[block] = m_sequence;
  m_index.insert(block, m_valid[block]);
  if (m_gc.policy == GcPolicyKind::kFifo) m_fifo.closed(die, block, m_valid[block] < m_geo.units_per_block);
}

void Ftl::remove_closed(std::uint32_t die, std::uint32_t block) {
  m_index.remove(block, m_valid[block]);
  // FIFO victims are the oldest closed block with invalid data (fully valid blocks before it
  // keep their place), else the oldest.
  if (m_gc.policy == GcPolicyKind::kFifo) m_fifo.remove(die, block);
  m_state[block] = BlockState::kOpen;  // being collected: out of the index
}

std::int64_t Ftl::pick_victim(std::uint32_t die) const {
  switch (m_gc.policy) {
    case GcPolicyKind::kGreedy:
      return m_index.fewest_valid(die);
    case GcPolicyKind::kFifo:
      // The oldest closed block that holds anything invalid (a fully valid one frees nothing).
      return m_fifo.victim(die);
    case GcPolicyKind::kCostBenefit: {
      // LFS cost-benefit: maximise age * (1 - u) / (1 + u). The oldest block of each
      // valid-count bucket is that bucket's best candidate.
      const std::uint32_t upb = m_geo.units_per_block;
      std::int64_t best = -1;
      double best_score = -1.0;
      for (std::uint32_t v = 0; v < upb; ++v) {
        const std::int32_t b = m_index.oldest_with(die, v);
        if (b == VictimIndex::kNone) continue;
        if (v == 0) return b;
        const double age = double(m_sequence - m_modified[b]) + 1.0;
        const double score = age * double(upb - v) / double(upb + v);
        if (score > best_score) {
          best_score = score;
          best = b;
        }
      }
      return best;
    }
  }
  return -1;
}

std::int64_t Ftl::next_victim(std::uint32_t die) const {
  const std::int64_t b = pick_victim(die);
  return b < 0 ? -1 : std::int64_t(m_valid[b]);
}

void Ftl::program_page(std::uint32_t die, OpenBlock& open, const Lpn* lpns, std::uint32_t count, OpOrigin origin,
                       std::uint32_t cookie, OpList& ops) {
  const auto block = static_cast<std::uint32_t>(open.block);
  const std::uint32_t page = open.next_page++;
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
  } else {
    m_stats.gc_units_copied += count;
  }
  ++m_stats.pages_programmed;
  append_op(ops, NandOpKind::kProgram, origin, die, block, page, m_geo.page_bytes, cookie);
  if (open.next_page == m_geo.pages_per_block) {
    close_block(die, block);
    open.block = -1;
  }
}

void Ftl::erase_block(std::uint32_t die, std::uint32_t block, OpList& ops) {
  ++m_erase_count[block];
  ++m_stats.erases;
  m_state[block] = BlockState::kFree;
  push_free(die, block);
  if (m_listener) m_listener->erased(block);
  append_op(ops, NandOpKind::kErase, OpOrigin::kGc, die, block, 0, 0, 0);
}

bool Ftl::start_victim(std::uint32_t die, OpList& ops) {
  DieState& d = m_dies[die];
  for (;;) {
    const std::int64_t victim_id = pick_victim(die);
    if (victim_id < 0) return false;
    const auto victim = static_cast<std::uint32_t>(victim_id);
    if (m_valid[victim] >= m_geo.units_per_block) return false;  // nothing to gain anywhere
    remove_closed(die, victim);
    ++m_stats.gc_victims;
    if (m_valid[victim] == 0) {  // fully invalid: erase at once, no copies
      ++m_stats.gc_erases;
      erase_block(die, victim, ops);
      if (d.free_count >= m_gc.free_blocks_high) return true;
      continue;
    }
    d.victim = victim;
    d.victim_page = 0;
    d.victim_valid_at_start = m_valid[victim];
    d.victim_invalid_at_start = m_geo.units_per_block - m_valid[victim];
    d.credit = 0;
    return true;
  }
}

void Ftl::program_gc_page(std::uint32_t die, std::uint32_t count, OpList& ops) {
  DieState& d = m_dies[die];
  if (d.gc.block < 0 && !open_block(die, d.gc, 0)) {
    throw std::logic_error("GC has no free block for its copies on die " + std::to_string(die));
  }
  program_page(die, d.gc, d.gc_pending.data(), count, OpOrigin::kGc, 0, ops);
  d.gc_pending.erase(d.gc_pending.begin(), d.gc_pending.begin() + count);
}

void Ftl::copy_from_victim(std::uint32_t die, std::uint64_t max_units, OpList& ops) {
  DieState& d = m_dies[die];
  const auto victim = static_cast<std::uint32_t>(d.victim);
  std::uint64_t copied = 0;
  // Units read by an earlier call and still waiting for a full GC page (several units per
  // page) may have been overwritten or trimmed by the host since: the newer data wins, so they
  // are dropped, not copied.
  drop_stale_pending(d, victim);
  // Each unit's validity check is a random L2P access: prefetch kAhead units ahead (past this
  // call's share too, for the next one), so that the misses overlap.
  constexpr std::uint32_t kAhead = 16;
  const Pua block_base = m_geo.first_unit_of_page(victim, 0);
  const std::uint32_t units_per_block = m_geo.units_per_block;
  std::uint32_t ahead = d.victim_page * m_geo.units_per_page;
  const auto prefetch_to = [&](std::uint32_t end) {
    for (end = std::min(end, units_per_block); ahead < end; ++ahead) {
      const Lpn lpn = m_p2l.get(block_base + ahead);
      if (lpn != kNoLpn) prefetch(lpn);
    }
  };
  prefetch_to(ahead + kAhead);
  while (d.victim_page < m_geo.pages_per_block && copied < max_units) {
    const std::uint32_t page = d.victim_page++;
    const Pua base = m_geo.first_unit_of_page(victim, page);
    prefetch_to((page + 1) * m_geo.units_per_page + kAhead);
    const std::size_t first = d.gc_pending.size();
    for (std::uint32_t i = 0; i < m_geo.units_per_page; ++i) {
      const Lpn lpn = m_p2l.get(base + i);
      if (lpn != kNoLpn && m_l2p[lpn] == base + i) d.gc_pending.push_back(lpn);
    }
    const auto read_units = static_cast<std::uint32_t>(d.gc_pending.size() - first);
    if (read_units == 0) continue;
    append_op(ops, NandOpKind::kRead, OpOrigin::kGc, die, victim, page, read_units * m_geo.unit_bytes, 0);
    copied += read_units;
    while (d.gc_pending.size() >= m_geo.units_per_page) program_gc_page(die, m_geo.units_per_page, ops);
  }
  if (d.victim_page < m_geo.pages_per_block) return;
  // The last part-filled GC page of this victim (a unit read but invalidated meanwhile, by a
  // host overwrite or a trim, is simply dropped).
  drop_stale_pending(d, victim);
  if (!d.gc_pending.empty()) program_gc_page(die, static_cast<std::uint32_t>(d.gc_pending.size()), ops);
  if (m_valid[victim] != 0) throw std::logic_error("GC victim still holds valid units");
  ++m_stats.gc_erases;
  erase_block(die, victim, ops);
  d.victim = -1;
  if (d.free_count < m_gc.free_blocks_high) start_victim(die, ops);
}

void Ftl::drop_stale_pending(DieState& d, std::uint32_t victim) {
  // Still valid: mapped to flash, in the victim (its GC copy is not made yet).
  std::size_t kept = 0;
  for (Lpn lpn : d.gc_pending) {
    const std::uint32_t e = m_l2p[lpn];
    if (e != kUnmapped && !(e & kBufferedBit) && m_geo.block_of_unit(e) == victim) d.gc_pending[kept++] = lpn;
  }
  d.gc_pending.resize(kept);
}

bool Ftl::collect_one(std::uint32_t die, OpList& ops) {
  DieState& d = m_dies[die];
  if (d.victim < 0 && !start_victim(die, ops)) return false;
  if (d.victim >= 0) {
    const std::int64_t current = d.victim;
    while (d.victim == current) copy_from_victim(die, ~std::uint64_t(0), ops);
  }
  return true;
}

bool Ftl::background_collect(std::uint32_t die, std::uint32_t target_free, std::uint32_t max_units, OpList& ops) {
  DieState& d = m_dies[die];
  const std::size_t before = ops.size();
  if (d.victim < 0) {
    if (d.free_count >= target_free) return false;
    // Only a victim whose valid units fit in fewer pages than a block frees space: with several
    // units per page, one holding less than a page of invalid data gives it all back as the
    // padding of its last GC page, and idle time would go on erasing for nothing.
    const std::int64_t valid = next_victim(die);
    const std::uint64_t upp = m_geo.units_per_page;
    if (valid < 0 || (std::uint64_t(valid) + upp - 1) / upp * upp >= m_geo.units_per_block) return false;
    if (!start_victim(die, ops)) return ops.size() != before;
  }
  if (d.victim >= 0) copy_from_victim(die, max_units, ops);
  return ops.size() != before;
}

bool Ftl::can_place(std::uint32_t die) const {
  const DieState& d = m_dies[die];
  if (d.host.block >= 0 || d.free_count > kHostReserveBlocks || d.victim >= 0) return true;
  const std::int64_t v = next_victim(die);
  return v >= 0 && v < std::int64_t(m_geo.units_per_block);
}

bool Ftl::place(std::uint32_t die, const Lpn* lpns, std::uint32_t count, std::uint32_t cookie, OpList& ops) {
  DieState& d = m_dies[die];
  if (d.victim < 0 && d.free_count < m_gc.free_blocks_low) start_victim(die, ops);
  if (d.victim >= 0) {
    // Pay-as-you-go: valid/invalid copies of the victim for every host unit.
    d.credit += std::uint64_t(count) * d.victim_valid_at_start;
    const std::uint64_t units = d.credit / d.victim_invalid_at_start;
    d.credit -= units * d.victim_invalid_at_start;
    if (units) copy_from_victim(die, units, ops);
  }
  if (d.host.block < 0) {
    // Down to the reserve: the host waits for whole victims.
    for (std::uint32_t i = 0; d.free_count <= kHostReserveBlocks && i <= m_geo.blocks_per_die; ++i) {
      if (!collect_one(die, ops)) break;
    }
    if (!open_block(die, d.host, kHostReserveBlocks)) return false;
  }
  program_page(die, d.host, lpns, count, OpOrigin::kHost, cookie, ops);
  return true;
}

std::string Ftl::check_invariants() const {
  std::ostringstream err;
  std::vector<std::uint32_t> recount(m_geo.blocks, 0);
  std::uint64_t mapped = 0;
  for (Lpn lpn = 0; lpn < m_l2p.size(); ++lpn) {
    const std::uint32_t e = m_l2p[lpn];
    if (e == kUnmapped || (e & kBufferedBit)) continue;
    if (e >= m_geo.total_units) {
      err << "LPN " << lpn << " maps outside the array (" << e << ")";
      return err.str();
    }
    if (m_p2l.get(e) != lpn) {
      err << "LPN " << lpn << " maps to unit " << e << " which holds LPN " << m_p2l.get(e);
      return err.str();
    }
    const std::uint32_t block = m_geo.block_of_unit(e);
    if (m_state[block] == BlockState::kFree) {
      err << "LPN " << lpn << " maps into free block " << block;
      return err.str();
    }
    ++recount[block];
    ++mapped;
  }
  std::uint64_t valid_total = 0;
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
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
    std::uint32_t free_blocks = 0, closed = 0;
    for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) {
      const std::uint32_t b = m_geo.first_block_of_die(die) + i;
      free_blocks += m_state[b] == BlockState::kFree;
      closed += m_state[b] == BlockState::kClosed;
    }
    const DieState& d = m_dies[die];
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
    // Open blocks: exactly the host block, the GC block and the victim being collected.
    std::uint32_t open_blocks = 0;
    for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) {
      open_blocks += m_state[m_geo.first_block_of_die(die) + i] == BlockState::kOpen;
    }
    std::uint32_t named = 0;
    for (const std::int64_t b : {d.host.block, d.gc.block, d.victim}) {
      if (b < 0) continue;
      ++named;
      if (m_state[b] != BlockState::kOpen || m_geo.die_of_block(static_cast<std::uint32_t>(b)) != die) {
        err << "die " << die << " writes to or collects block " << b << ", which is not open there";
        return err.str();
      }
    }
    if ((d.host.block >= 0 && (d.host.block == d.gc.block || d.host.block == d.victim)) ||
        (d.gc.block >= 0 && d.gc.block == d.victim) || named != open_blocks) {
      err << "die " << die << " has " << open_blocks << " open blocks, but names " << named
          << " distinct ones (host, GC, victim)";
      return err.str();
    }
    if (closed != m_index.closed_blocks(die)) {
      err << "die " << die << " has " << closed << " closed blocks, victim index " << m_index.closed_blocks(die);
      return err.str();
    }
    if (m_gc.policy == GcPolicyKind::kFifo) {
      if (closed != m_fifo.closed_count(die)) {
        err << "die " << die << " has " << closed << " closed blocks, FIFO order " << m_fifo.closed_count(die);
        return err.str();
      }
      const std::string broken = m_fifo.check(die, [&](std::uint32_t b) { return m_valid[b] < m_geo.units_per_block; });
      if (!broken.empty()) return broken;
      for (std::uint32_t b : m_fifo.order(die)) {
        if (m_state[b] != BlockState::kClosed || m_geo.die_of_block(b) != die) {
          err << "FIFO order of die " << die << " holds block " << b << " which is not closed there";
          return err.str();
        }
      }
    }
  }
  for (std::uint32_t die = 0; die < m_geo.dies; ++die) {
    for (std::uint32_t v = 0; v <= m_geo.units_per_block; ++v) {
      for (std::int32_t b = m_index.oldest_with(die, v); b != VictimIndex::kNone;) {
        if (m_valid[b] != v || m_state[b] != BlockState::kClosed) {
          err << "victim index lists block " << b << " under " << v << " valid units";
          return err.str();
        }
        b = m_index.next_in_bucket(b);
      }
    }
  }
  return {};
}

}  // namespace ssdlab
