// Hybrid log-block FTL: invariant checks and statistics (hybrid_map.h).
#include <algorithm>
#include <sstream>

#include "base/stats/stats_tree.h"
#include "controller/ftl/ftl_core.h"
#include "controller/ftl/hybrid/hybrid_map.h"

namespace ssdlab {

void HybridMap::register_stats(const StatGroup& g) const {
  const HybridStats& s = m_stats;
  g.counter("switch_merges", s.switch_merges, "merges", "logs written in order over a whole block made data blocks");
  g.counter("partial_merges", s.partial_merges, "merges",
            "logs written in order from their first page, completed from the data block and switched");
  g.counter("full_merges", s.full_merges, "merges", "logical blocks gathered into a free block");
  g.counter("merge_reads", s.merge_reads, "units", "units read and programmed again by merges");
  g.counter("merge_erases", s.merge_erases, "blocks", "blocks erased by merges");
  g.counter("logs_opened", s.logs_opened, "blocks", "log blocks taken from the free pool");
  g.level(
      "log_blocks",
      [this] {
        std::uint64_t n = 0;
        for (std::uint32_t die = 0; die < m_dies; ++die) n += log_blocks_in_use(die);
        return double(n);
      },
      "blocks", "log blocks in use over all dies");
}

std::string HybridMap::check_block(const FtlCore& ftl, std::uint32_t block) const {
  std::ostringstream err;
  const bool free = ftl.is_free(block);
  if (free != (m_role[block] == Role::kFree) || ftl.is_closed(block)) {
    err << "block " << block << " has FTL state "
        << (free                   ? "free"
            : ftl.is_closed(block) ? "closed"
                                   : "open")
        << " but hybrid role " << int(m_role[block]);
    return err.str();
  }
  if (m_role[block] == Role::kFree) return {};
  const std::uint32_t die = m_geo.die_of_block(block), owner = m_owner[block];
  if (owner != kNone && (owner >= m_data.size() || owner % m_dies != die)) {
    err << "block " << block << " belongs to logical block " << owner << ", which does not live on die " << die;
    return err.str();
  }
  // The LPN whose valid copy is at `page` of block `b`, or kNoLpn.
  const auto valid_lpn = [&ftl, this](std::uint32_t b, std::uint32_t page) {
    const Pua unit = m_geo.first_unit_of_page(b, page);
    const Lpn lpn = ftl.p2l().get(unit);
    return lpn < ftl.user_units() && ftl.lookup(lpn) == unit ? lpn : FtlCore::kNoLpn;
  };
  if (m_role[block] == Role::kData) {
    if (owner == kNone || m_data[owner] != block) {
      err << "data block " << block << " is not the data block of its logical block " << owner;
      return err.str();
    }
    for (std::uint32_t page = 0; page < m_upb; ++page) {
      const Lpn lpn = valid_lpn(block, page);
      if (lpn != FtlCore::kNoLpn && lpn != unit_of(owner, page)) {
        err << "data block " << block << " holds LPN " << lpn << " at page " << page << " (offset not fixed)";
        return err.str();
      }
    }
    return {};
  }
  // A log: FAST's sequential log and BAST's logs belong to one logical block, FAST's random
  // logs to none; merges erase a log once its owner's units are gathered, so it holds no other.
  const Die& d = m_die_state[die];
  const bool sequential = d.sw == block;
  const bool listed = sequential || std::find(d.logs.begin(), d.logs.end(), block) != d.logs.end();
  const bool owner_ok = m_config.scheme == HybridScheme::kBast
                            ? owner != kNone && m_log_of[owner] == block && !sequential
                            : sequential == (owner != kNone);
  const std::uint32_t next = m_next[block];
  if (!listed || !owner_ok || next > m_upb) {
    err << "log block " << block << " of logical block " << owner << " is not kept right (listed " << listed
        << ", owner " << (owner_ok ? "right" : "wrong") << ", " << next << " pages written)";
    return err.str();
  }
  const std::uint32_t data = owner == kNone ? kNone : m_data[owner];
  const bool in_order = m_in_order[block] && owner != kNone;
  for (std::uint32_t page = 0; page < m_upb; ++page) {
    const Lpn lpn = valid_lpn(block, page);
    if (lpn != FtlCore::kNoLpn && (page >= next || home_die(lpn) != die || (owner != kNone && lbn_of(lpn) != owner))) {
      err << "log block " << block << " (logical block " << owner << ", " << next << " pages written) holds LPN " << lpn
          << " of logical block " << lbn_of(lpn) << " at page " << page;
      return err.str();
    }
    if (!in_order || page >= next) continue;
    // Written in order: page p holds unit p of the owner (a switch makes the log the data
    // block), newer than the data block's copy (which the switch erases).
    const Lpn written = ftl.p2l().get(m_geo.first_unit_of_page(block, page));
    if (written != unit_of(owner, page) || (data != kNone && valid_lpn(data, page) != FtlCore::kNoLpn)) {
      err << "log block " << block << " is marked as written in order for logical block " << owner << ", but page "
          << page << " holds LPN " << written
          << (data != kNone ? " or its data block still holds that offset's valid copy" : "");
      return err.str();
    }
  }
  return {};
}

std::string HybridMap::check(const FtlCore& ftl) const {
  std::ostringstream err;
  const auto is_role = [this](std::uint32_t b, Role r) { return b < m_geo.blocks && m_role[b] == r; };
  for (std::uint32_t lbn = 0; lbn < m_data.size(); ++lbn) {
    const bool data_ok = m_data[lbn] == kNone || (is_role(m_data[lbn], Role::kData) && m_owner[m_data[lbn]] == lbn);
    const bool log_ok = m_log_of.empty() || m_log_of[lbn] == kNone ||
                        (is_role(m_log_of[lbn], Role::kLog) && m_owner[m_log_of[lbn]] == lbn);
    if (!data_ok || !log_ok) {
      err << "logical block " << lbn << " names data block " << m_data[lbn] << " or log "
          << (m_log_of.empty() ? kNone : m_log_of[lbn]) << ", which is not its own";
      return err.str();
    }
  }
  for (std::uint32_t die = 0; die < m_dies; ++die) {
    const Die& d = m_die_state[die];
    bool lists_ok = d.sw == kNone || (m_config.scheme == HybridScheme::kFast && is_role(d.sw, Role::kLog) &&
                                      m_geo.die_of_block(d.sw) == die);
    for (const std::uint32_t b : d.logs) {
      lists_ok = lists_ok && b != d.sw && is_role(b, Role::kLog) && m_geo.die_of_block(b) == die;
    }
    if (!lists_ok) {
      err << "die " << die << ": its log lists name a block that is not one of its logs";
      return err.str();
    }
  }
  for (std::uint32_t block = 0; block < m_geo.blocks; ++block) {
    std::string broken = check_block(ftl, block);
    if (!broken.empty()) return broken;
  }
  for (std::uint32_t die = 0; die < m_dies; ++die) {
    const Die& d = m_die_state[die];
    std::uint32_t free_blocks = 0, data = 0, logs = 0;
    for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) {
      const Role r = m_role[m_geo.first_block_of_die(die) + i];
      free_blocks += r == Role::kFree;
      data += r == Role::kData;
      logs += r == Role::kLog;
    }
    // Every log on the die listed once (a log listed twice, or not at all, counts wrong), and
    // a free block left for a merge.
    if (free_blocks != ftl.free_blocks(die) || logs != logs_in_use(d) || logs > m_logs_per_die ||
        free_blocks + data + logs != m_geo.blocks_per_die || free_blocks == 0) {
      err << "die " << die << ": " << free_blocks << " free (pool says " << ftl.free_blocks(die) << "), " << data
          << " data, " << logs << " log blocks (listed " << logs_in_use(d) << ", limit " << m_logs_per_die << ")";
      return err.str();
    }
  }
  return {};
}

}  // namespace ssdlab
