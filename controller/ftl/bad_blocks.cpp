// Bad blocks (nand.bad_blocks, issue 26): blocks marked bad at shipment, the erase count at which
// each block's erase fails, and its retirement with the die's spare checked. Plain C++.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "base/config/config_loader.h"
#include "controller/ftl/ftl_core.h"
#include "controller/media/bit_errors.h"

namespace ssdlab {

void FtlCore::init_bad_blocks(const DriveConfig& config) {
  if (config.controller.ftl == FtlScheme::kHybrid) throw std::invalid_argument("grown bad blocks need page mapping");
  // A block fails at the erase count N where the share of blocks failed by N, F (N / E)^4, reaches
  // its place u in [0, 1): N = E (u / F)^(1/4). F: nand.bad_blocks.end_of_life (at the rated
  // endurance E); the fourth power (failures late in life) is assumed.
  const double e = m_endurance, f = config.nand.bad_blocks.end_of_life;
  m_fail_at.resize(m_geo.blocks);
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    const double u = page_quantile(config.nand.bad_blocks.seed, b, 0xffffffffu, 0);
    const double n = f > 0 ? e * std::pow(u / f, 0.25) : 1e18;
    m_fail_at[b] = static_cast<std::uint32_t>(std::clamp(std::ceil(n), 1.0, 4294967295.0));
  }
  if (m_die_bad.empty()) m_die_bad.assign(m_geo.dies, 0);  // factory bad blocks counted already
  // Beyond its valid data compacted, a die keeps GC's reserve, the host's and GC's open blocks
  // and its share of the write buffer (still to be programmed when writes stop): below that its
  // GC could not make room (its WAF grows without bound on the way there).
  const std::uint64_t buffer_units = config.controller.write_buffer_bytes / m_geo.unit_bytes;
  const std::uint64_t per_die = (buffer_units + m_geo.dies - 1) / m_geo.dies;
  m_retire_floor = kHostReserveBlocks + 2 +
                   static_cast<std::uint32_t>((per_die + m_geo.units_per_block - 1) / m_geo.units_per_block);
}

void FtlCore::mark_factory_bad(const DriveConfig& config) {
  if (config.controller.ftl == FtlScheme::kHybrid) throw std::invalid_argument("factory bad blocks need page mapping");
  // Each block's place v in [0, 1), a hash of the seed and the block (another than its failure
  // point's): below `factory` it was marked bad at shipment.
  const double f = config.nand.bad_blocks.factory;
  m_die_bad.assign(m_geo.dies, 0);
  m_factory_bad.assign(m_geo.blocks, 0);
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) {
    if (page_quantile(config.nand.bad_blocks.seed, b, 0xfffffffeu, 0) >= f) continue;
    m_state[b] = BlockState::kBad;
    m_factory_bad[b] = 1;
    ++m_die_bad[m_geo.die_of_block(b)];
    ++m_stats.factory_bad_blocks;
  }
  // Each die still holds its share of the user data and GC's reserve (the spare check of the
  // config, die by die: where the blocks fell is known only now).
  const std::uint64_t user_units = (config.controller.user_bytes + m_geo.unit_bytes - 1) / m_geo.unit_bytes;
  const std::uint64_t share = (user_units + m_geo.dies - 1) / m_geo.dies;
  const std::uint64_t needed =
      (share + m_geo.units_per_block - 1) / m_geo.units_per_block + config.controller.gc.free_blocks_high + 2;
  for (std::uint32_t die = 0; die < m_geo.dies; ++die) {
    const std::uint64_t good = m_geo.blocks_per_die - m_die_bad[die];
    if (good >= needed) continue;
    // A config problem (exit 2), found only now that the blocks are placed.
    throw ConfigError(config.source_path + ": nand.bad_blocks.factory: die " + std::to_string(die) + " has " +
                      std::to_string(good) + " good blocks of " + std::to_string(m_geo.blocks_per_die) +
                      ", fewer than its share of the user data and GC's reserve (" + std::to_string(needed) +
                      " blocks): lower nand.bad_blocks.factory or raise controller.op");
  }
}

void FtlCore::retire(std::uint32_t die, std::uint32_t block) {
  m_state[block] = BlockState::kBad;
  ++m_die_bad[die];
  ++m_stats.bad_blocks;
  // The die must still hold its valid data, compacted, and its floor (a pass over its blocks:
  // only when a block fails, a few times in a block's life).
  std::uint64_t valid = 0;
  for (std::uint32_t i = 0; i < m_geo.blocks_per_die; ++i) valid += m_valid[m_geo.first_block_of_die(die) + i];
  const std::uint64_t needed = (valid + m_geo.units_per_block - 1) / m_geo.units_per_block + m_retire_floor;
  if (m_geo.blocks_per_die - m_die_bad[die] < needed) m_read_only = true;
  // GC's reserve lost its backing: the victim whose erase failed gave no block back for the one
  // its copies may have taken. No new victim may start (GarbageCollector::start_victim), or its
  // copies could find no free block.
  if (m_dies[die].free_count < kHostReserveBlocks) m_read_only = true;
}

}  // namespace ssdlab
