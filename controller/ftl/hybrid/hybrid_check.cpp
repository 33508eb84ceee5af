// Hybrid log-block FTL: invariant checks and statistics (hybrid_map.h).
#include <algorithm>
#include <sstream>

#include "controller/ftl/ftl.h"
#include "controller/ftl/hybrid/hybrid_map.h"
#include "model/stats/stats_tree.h"

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

std::string HybridMap::check_block(const Ftl& ftl, std::uint32_t block) const {
  std::ostringstream err;
  const bool free = ftl.m_state[block] == Ftl::BlockState::kFree;
  if (free != (m_role[block] == Role::kFree) || ftl.m_state[block] == Ftl::BlockState::kClosed) {
    err << "block " << block << " has FTL state " << int(ftl.m_state[block]) << " but hybrid role "
        << int(m_role[block]);
    return err.str();
  }
  if (m_role[block] == Role::kFree) return {};
  const std::uint32_t die = m_geo.die_of_block(block), owner = m_owner[block];
  const Die& d = m_die_state[die];
  if (m_role[block] == Role::kData) {
    if (owner == kNone || m_data[owner] != block || owner % m_dies != die) {
      err << "data block " << block << " is not the data block of its logical block " << owner << " on its home die";
      return err.str();
    }
    for (std::uint32_t page = 0; page < m_upb; ++page) {
      const Pua unit = m_geo.first_unit_of_page(block, page);
      const Lpn lpn = ftl.m_p2l.get(unit);
      if (ftl.m_l2p.size() > lpn && ftl.m_l2p[lpn] == unit && lpn != unit_of(owner, page)) {
        err << "data block " << block << " holds LPN " << lpn << " at page " << page << " (offset not fixed)";
        return err.str();
      }
    }
    return {};
  }
  const bool listed = d.sw == block || std::find(d.logs.begin(), d.logs.end(), block) != d.logs.end();
  const bool bast_ok = m_log_of.empty() || (owner != kNone && m_log_of[owner] == block);
  if (!listed || !bast_ok || ftl.m_valid[block] > m_next[block] || (owner != kNone && m_data[owner] == block)) {
    err << "log block " << block << " of logical block " << owner << " is not kept right (listed " << listed
        << ", valid " << ftl.m_valid[block] << " of " << m_next[block] << " written)";
    return err.str();
  }
  return {};
}

std::string HybridMap::check(const Ftl& ftl) const {
  std::ostringstream err;
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
    if (free_blocks != ftl.m_dies[die].free_count || logs != logs_in_use(d) || logs > m_logs_per_die ||
        free_blocks + data + logs != m_geo.blocks_per_die || free_blocks == 0) {
      err << "die " << die << ": " << free_blocks << " free (pool says " << ftl.m_dies[die].free_count << "), " << data
          << " data, " << logs << " log blocks (listed " << logs_in_use(d) << ", limit " << m_logs_per_die << ")";
      return err.str();
    }
  }
  return {};
}

}  // namespace ssdlab
