// Hybrid log-block FTL: placement and merges (hybrid_map.h). Works on the Ftl's tables through
// FtlCore (controller/ftl/ftl_core.h), as GarbageCollector does: lookups, free pools, taking a
// block, programming a unit at a page, erasing a block.
#include "controller/ftl/hybrid/hybrid_map.h"

#include "controller/ftl/ftl_core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdlab {

namespace {
bool on_flash(std::uint32_t entry) { return FtlCore::on_flash(entry); }
}  // namespace

HybridMap::HybridMap(const Geometry& geo, std::uint32_t user_units, const HybridConfig& config)
    : m_geo(geo),
      m_config(config),
      m_upb(geo.units_per_block),
      m_dies(geo.dies),
      m_user_units(user_units),
      m_logs_per_die(0) {
  if (geo.units_per_page != 1) throw std::invalid_argument("hybrid FTL needs one mapping unit per page");
  const std::uint32_t data_per_die = ((user_units + m_dies - 1) / m_dies + m_upb - 1) / m_upb;
  const std::uint32_t lbns = data_per_die * m_dies;
  const std::uint32_t room = geo.blocks_per_die > data_per_die + 1 ? geo.blocks_per_die - data_per_die - 1 : 0;
  m_logs_per_die = config.log_blocks == 0 ? room : config.log_blocks / m_dies;
  const std::uint32_t min_logs = config.scheme == HybridScheme::kFast ? 2 : 1;
  if (m_logs_per_die > room || m_logs_per_die < min_logs) {
    throw std::invalid_argument("hybrid FTL: controller.hybrid.log_blocks does not fit the spare blocks");
  }
  m_role.assign(geo.blocks, Role::kFree);
  m_owner.assign(geo.blocks, kNone);
  m_next.assign(geo.blocks, 0);
  m_in_order.assign(geo.blocks, 0);
  m_data.assign(lbns, kNone);
  if (config.scheme == HybridScheme::kBast) m_log_of.assign(lbns, kNone);
  m_die_state.resize(m_dies);
  for (Die& d : m_die_state) d.logs.reserve(m_logs_per_die);
}

void HybridMap::clear() {
  std::fill(m_role.begin(), m_role.end(), Role::kFree);
  std::fill(m_owner.begin(), m_owner.end(), kNone);
  std::fill(m_data.begin(), m_data.end(), kNone);
  std::fill(m_log_of.begin(), m_log_of.end(), kNone);
  for (Die& d : m_die_state) {
    d.logs.clear();
    d.sw = kNone;
  }
}

std::uint64_t HybridMap::map_bytes() const {
  const std::uint64_t per_page = m_config.scheme == HybridScheme::kFast ? 4 : 2;
  return 4 * std::uint64_t(m_data.size()) + std::uint64_t(m_logs_per_die) * m_dies * (8 + per_page * m_upb);
}

std::uint32_t HybridMap::log_blocks_in_use(std::uint32_t die) const { return logs_in_use(m_die_state[die]); }

void HybridMap::place(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t cookie, std::vector<NandOp>& ops) {
  if (home_die(lpn) != die) throw std::logic_error("hybrid FTL: a unit placed off its home die");
  if (m_config.scheme == HybridScheme::kFast) {
    place_fast(ftl, die, lpn, cookie, ops);
  } else {
    place_bast(ftl, die, lpn, cookie, ops);
  }
}

void HybridMap::place_fast(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t cookie, std::vector<NandOp>& ops) {
  Die& d = m_die_state[die];
  const std::uint32_t lbn = lbn_of(lpn), offset = offset_of(lpn);
  if (d.sw != kNone && m_owner[d.sw] == lbn && m_next[d.sw] == offset) {  // extends the sequential log
    append_log(ftl, die, d.sw, lpn, cookie, ops);
    if (m_next[d.sw] == m_upb) switch_log(ftl, die, d.sw, ops);
    return;
  }
  if (offset == 0) {  // a new sequential stream: the sequential log is merged and restarted
    if (d.sw != kNone) merge_log(ftl, die, d.sw, ops);
    while (logs_in_use(d) >= m_logs_per_die) evict_random_log(ftl, die, ops);
    d.sw = take_block(ftl, die, Role::kLog, lbn);
    append_log(ftl, die, d.sw, lpn, cookie, ops);
    return;
  }
  if (d.logs.empty() || m_next[d.logs.back()] == m_upb) {
    while (logs_in_use(d) >= m_logs_per_die) evict_random_log(ftl, die, ops);
    d.logs.push_back(take_block(ftl, die, Role::kLog, kNone));
  }
  append_log(ftl, die, d.logs.back(), lpn, cookie, ops);
}

void HybridMap::place_bast(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t cookie, std::vector<NandOp>& ops) {
  Die& d = m_die_state[die];
  const std::uint32_t lbn = lbn_of(lpn);
  std::uint32_t log = m_log_of[lbn];
  if (log != kNone && m_next[log] == m_upb) {  // its log is full: merged first
    merge_log(ftl, die, log, ops);
    log = kNone;
  }
  if (log == kNone) {
    if (logs_in_use(d) >= m_logs_per_die) merge_log(ftl, die, d.logs.front(), ops);  // the oldest log
    log = take_block(ftl, die, Role::kLog, lbn);
    m_log_of[lbn] = log;
    d.logs.push_back(log);
  }
  append_log(ftl, die, log, lpn, cookie, ops);
  if (m_next[log] == m_upb && m_in_order[log]) switch_log(ftl, die, log, ops);
}

void HybridMap::append_log(FtlCore& ftl, std::uint32_t die, std::uint32_t block, Lpn lpn, std::uint32_t cookie,
                           std::vector<NandOp>& ops) {
  const std::uint32_t page = m_next[block]++;
  if (m_owner[block] == kNone || lbn_of(lpn) != m_owner[block] || offset_of(lpn) != page) m_in_order[block] = 0;
  program_unit(ftl, die, block, page, lpn, OpOrigin::kHost, cookie, ops);
}

std::uint32_t HybridMap::take_block(FtlCore& ftl, std::uint32_t die, Role role, std::uint32_t owner) {
  if (ftl.free_blocks(die) == 0) throw std::logic_error("hybrid FTL: no free block on die " + std::to_string(die));
  const std::uint32_t block = ftl.take_block(die);  // data and log blocks are in no GC policy list
  m_role[block] = role;
  m_owner[block] = owner;
  m_next[block] = 0;
  m_in_order[block] = 1;
  if (role == Role::kLog) ++m_stats.logs_opened;
  return block;
}

void HybridMap::erase_block(FtlCore& ftl, std::uint32_t die, std::uint32_t block, std::vector<NandOp>& ops) {
  if (ftl.valid_units(block) != 0) throw std::logic_error("hybrid FTL: erasing a block that holds valid units");
  ++m_stats.merge_erases;
  m_role[block] = Role::kFree;
  m_owner[block] = kNone;
  ftl.erase_victim(die, block, ops);  // counted as a GC erase, back to the die's free pool
}

void HybridMap::program_unit(FtlCore& ftl, std::uint32_t die, std::uint32_t block, std::uint32_t page, Lpn lpn,
                             OpOrigin origin, std::uint32_t cookie, std::vector<NandOp>& ops) {
  ftl.program_unit(die, block, page, lpn, origin, cookie, ops);
}

void HybridMap::copy_unit(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t block, std::uint32_t page,
                          std::vector<NandOp>& ops) {
  const Pua from = ftl.lookup(lpn);
  const std::uint32_t from_block = m_geo.block_of_unit(from);
  append_op(ops, NandOpKind::kRead, OpOrigin::kGc, die, from_block, m_geo.page_of_unit(from), m_geo.unit_bytes, 0);
  ++m_stats.merge_reads;
  program_unit(ftl, die, block, page, lpn, OpOrigin::kGc, 0, ops);
}

void HybridMap::merge_log(FtlCore& ftl, std::uint32_t die, std::uint32_t log, std::vector<NandOp>& ops) {
  const bool in_order = m_in_order[log] && m_owner[log] != kNone;
  if (in_order && (m_next[log] == m_upb || m_config.partial_merge)) {
    switch_log(ftl, die, log, ops);
  } else {
    full_merge(ftl, die, m_owner[log], ops);  // erases the log too
  }
}

void HybridMap::switch_log(FtlCore& ftl, std::uint32_t die, std::uint32_t log, std::vector<NandOp>& ops) {
  const std::uint32_t lbn = m_owner[log];
  if (m_next[log] < m_upb) {  // partial: the rest comes from wherever it is valid now
    ++m_stats.partial_merges;
    for (std::uint32_t offset = m_next[log]; offset < m_upb; ++offset) {
      const std::uint64_t lpn = unit_of(lbn, offset);
      if (lpn >= m_user_units) break;
      if (on_flash(ftl.lookup(lpn))) copy_unit(ftl, die, static_cast<Lpn>(lpn), log, offset, ops);
    }
    m_next[log] = m_upb;
  } else {
    ++m_stats.switch_merges;
  }
  forget_log(die, log);
  const std::uint32_t old = m_data[lbn];
  m_role[log] = Role::kData;
  m_data[lbn] = log;
  if (old != kNone) erase_block(ftl, die, old, ops);
}

void HybridMap::full_merge(FtlCore& ftl, std::uint32_t die, std::uint32_t lbn, std::vector<NandOp>& ops) {
  ++m_stats.full_merges;
  const std::uint32_t old = m_data[lbn];
  std::uint32_t dest = kNone;
  for (std::uint32_t offset = 0; offset < m_upb; ++offset) {
    const std::uint64_t lpn = unit_of(lbn, offset);
    if (lpn >= m_user_units) break;
    if (!on_flash(ftl.lookup(lpn))) continue;  // unmapped, or newer data waits in the buffer
    if (dest == kNone) dest = take_block(ftl, die, Role::kData, lbn);
    copy_unit(ftl, die, static_cast<Lpn>(lpn), dest, offset, ops);
  }
  m_data[lbn] = dest;
  if (old != kNone) erase_block(ftl, die, old, ops);
  // The logs only this logical block used are empty now.
  Die& d = m_die_state[die];
  std::uint32_t own = kNone;
  if (m_config.scheme == HybridScheme::kBast) {
    own = m_log_of[lbn];
  } else if (d.sw != kNone && m_owner[d.sw] == lbn) {
    own = d.sw;
  }
  if (own != kNone) {
    forget_log(die, own);
    erase_block(ftl, die, own, ops);
  }
}

void HybridMap::evict_random_log(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops) {
  Die& d = m_die_state[die];
  const std::uint32_t victim = d.logs.front();
  d.logs.erase(d.logs.begin());
  for (std::uint32_t page = 0; page < m_next[victim]; ++page) {
    const Pua unit = m_geo.first_unit_of_page(victim, page);
    const Lpn lpn = ftl.p2l().get(unit);
    if (lpn != FtlCore::kNoLpn && ftl.lookup(lpn) == unit) full_merge(ftl, die, lbn_of(lpn), ops);
  }
  erase_block(ftl, die, victim, ops);
}

void HybridMap::forget_log(std::uint32_t die, std::uint32_t log) {
  Die& d = m_die_state[die];
  if (d.sw == log) {
    d.sw = kNone;
  } else {
    const auto it = std::find(d.logs.begin(), d.logs.end(), log);  // bounded by the die's log pool
    if (it != d.logs.end()) d.logs.erase(it);
  }
  if (!m_log_of.empty() && m_owner[log] != kNone && m_log_of[m_owner[log]] == log) m_log_of[m_owner[log]] = kNone;
}

}  // namespace ssdlab
