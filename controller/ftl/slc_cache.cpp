// The SLC cache (controller.slc_cache, docs/slc-cache.md): which host blocks open in SLC mode
// (their LSB pages only), the per-die lists of such blocks, the fold's choice of victim and the
// cache's invariants. The hot paths' parts (a block's page step, the erase's and the victim's
// test) stay in ftl.cpp beside the code they are part of. Plain C++.
#include <algorithm>
#include <sstream>
#include <string>

#include "controller/ftl/ftl.h"

namespace ssdlab {

void FtlCore::init_slc_cache(const DriveConfig& config) {
  const SlcCacheConfig& slc = config.controller.slc_cache;
  if (slc.size_bytes == 0 || config.nand.page_types() < 2) return;  // the loader refuses both
  m_slc_step = config.nand.page_types();
  m_slc_limit =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(slc_cache_blocks_per_die(config), m_geo.blocks_per_die));
  m_slc_dynamic = slc.mode == SlcCacheMode::kDynamic;
  m_slc_floor = config.controller.gc.free_blocks_high;
  m_slc_idle_fold = slc.idle_fold;
  m_slc_pos.assign(m_geo.blocks, 0);
  m_slc_dies.resize(m_geo.dies);
  for (auto& blocks : m_slc_dies) blocks.reserve(m_slc_limit);
}

void FtlCore::enter_slc(std::uint32_t die, OpenBlock& open) {
  std::vector<std::uint32_t>& blocks = m_slc_dies[die];
  if (blocks.size() >= m_slc_limit) return;                           // full: the host writes MLC
  if (m_slc_dynamic && m_dies[die].free_count < m_slc_floor) return;  // no free block to spare
  const auto block = static_cast<std::uint32_t>(open.block);
  blocks.push_back(block);
  m_slc_pos[block] = static_cast<std::uint32_t>(blocks.size());
  open.step = m_slc_step;
  ++m_stats.slc_blocks_opened;
}

void FtlCore::leave_slc(std::uint32_t die, std::uint32_t block) {
  std::vector<std::uint32_t>& blocks = m_slc_dies[die];
  const std::uint32_t pos = m_slc_pos[block] - 1;
  blocks[pos] = blocks.back();
  m_slc_pos[blocks[pos]] = pos + 1;
  blocks.pop_back();
  m_slc_pos[block] = 0;
}

void FtlCore::clear_slc() {
  for (DieState& d : m_dies) d.host.step = d.gc.step = 1;
  if (!m_slc_limit) return;
  std::fill(m_slc_pos.begin(), m_slc_pos.end(), 0);
  for (auto& blocks : m_slc_dies) blocks.clear();
}

std::uint64_t FtlCore::slc_blocks_total() const {
  std::uint64_t total = 0;
  for (const auto& blocks : m_slc_dies) total += blocks.size();
  return total;
}

std::int64_t FtlCore::fold_candidate(std::uint32_t die) const {
  if (!m_slc_limit) return -1;
  std::int64_t best = -1;
  for (const std::uint32_t b : m_slc_dies[die]) {
    if (m_state[b] != BlockState::kClosed) continue;  // the host's open block, or a victim already
    if (best < 0 || m_valid[b] < m_valid[best]) best = b;
  }
  return best;
}

std::string Ftl::check_slc_invariants(std::uint32_t die) const {
  // Its blocks are this die's, in use, within the limit, with data on LSB pages only.
  std::ostringstream err;
  const DieState& d = m_dies[die];
  const std::vector<std::uint32_t>& blocks = m_slc_dies[die];
  if (blocks.size() > m_slc_limit) {
    err << "die " << die << " holds " << blocks.size() << " SLC-mode blocks, more than " << m_slc_limit;
    return err.str();
  }
  for (std::uint32_t i = 0; i < blocks.size(); ++i) {
    const std::uint32_t b = blocks[i];
    if (m_geo.die_of_block(b) != die || m_slc_pos[b] != i + 1 || m_state[b] == BlockState::kFree ||
        m_state[b] == BlockState::kBad) {
      err << "SLC cache of die " << die << " lists block " << b << " which is not an SLC-mode block in use there";
      return err.str();
    }
    for (std::uint32_t page = 0; page < m_geo.pages_per_block; ++page) {
      if (page % m_slc_step == 0) continue;
      const Pua first = m_geo.first_unit_of_page(b, page);
      for (std::uint32_t u = 0; u < m_geo.units_per_page; ++u) {
        const Lpn lpn = m_p2l.get(first + u);
        if (lpn < m_l2p.size() && m_l2p[lpn] == first + u) {
          err << "SLC-mode block " << b << " holds LPN " << lpn << " on page " << page << ", not an LSB page";
          return err.str();
        }
      }
    }
  }
  std::uint32_t listed = 0;
  for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) listed += m_slc_pos[m_geo.first_block_of_die(die) + i] != 0;
  if (listed != blocks.size()) {
    err << "die " << die << " has " << listed << " blocks in SLC mode, its cache lists " << blocks.size();
    return err.str();
  }
  for (const OpenBlock* open : {&d.host, &d.gc}) {
    const bool slc = open->block >= 0 && m_slc_pos[open->block] != 0;
    if (open->block >= 0 && open->step != (slc ? m_slc_step : 1u)) {
      err << "die " << die << " writes block " << open->block << " in steps of " << open->step;
      return err.str();
    }
  }
  if (d.gc.block >= 0 && m_slc_pos[d.gc.block] != 0) {
    err << "die " << die << " folds into SLC-mode block " << d.gc.block;
    return err.str();
  }
  return {};
}

}  // namespace ssdlab
