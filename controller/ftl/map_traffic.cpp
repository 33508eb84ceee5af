#include "controller/ftl/map_traffic.h"

#include "controller/ftl/virtual_page.h"

namespace ssdlab {

MapTraffic::MapTraffic(const Ftl& ftl, const DriveConfig& config, ControllerStats& stats)
    : m_geo(ftl.geometry()),
      m_cache(ftl.user_units(), config.nand.page_size_bytes / 4,
              config.controller.mapping_cache_bytes
                  ? config.controller.mapping_cache_bytes / config.nand.page_size_bytes
                  : ~std::uint64_t(0)),
      m_stats(stats) {}

NandOp MapTraffic::map_op(NandOpKind kind, std::uint64_t translation_page, std::uint32_t cookie) const {
  // Translation pages are spread over the dies; the blocks that hold them are not modelled
  // (they take no user blocks and are never collected).
  const auto die = static_cast<std::uint32_t>(translation_page % m_geo.dies);
  if (m_geo.pages_per_unit > 1) {  // one flash page of a die group (virtual_page.h): the next die of it each time
    const auto sub = static_cast<std::uint32_t>(translation_page / m_geo.dies % m_geo.pages_per_unit);
    return NandOp{kind,
                  OpOrigin::kMap,
                  die,
                  m_geo.first_block_of_die(die),
                  vpage::with_mask(0, 1u << sub),
                  m_geo.page_bytes / m_geo.pages_per_unit,
                  cookie};
  }
  // One flash page (of one plane, with multi-plane operations).
  return NandOp{kind, OpOrigin::kMap, die, m_geo.first_block_of_die(die), 0, m_geo.plane_page_bytes, cookie};
}

bool MapTraffic::access(Lpn lpn, bool update, OpTicket read_ticket, OpList& ops) {
  const MappingCache::Effect effect = m_cache.access(lpn, update);
  if (effect.write_back != MappingCache::kNone) {
    ++m_stats.map_writes;
    ops.push_back(map_op(NandOpKind::kProgram, static_cast<std::uint64_t>(effect.write_back), 0));
  }
  if (effect.read == MappingCache::kNone) return false;
  ++m_stats.map_reads;
  ops.push_back(map_op(NandOpKind::kRead, static_cast<std::uint64_t>(effect.read), read_ticket.cookie()));
  return true;
}

std::uint32_t MapTraffic::lookup_range(Lpn first, std::uint32_t units, OpTicket read_ticket, OpList& ops) {
  std::uint32_t reads = 0;
  std::uint64_t last_page = ~std::uint64_t(0);
  for (std::uint32_t i = 0; i < units; ++i) {
    const std::uint64_t page = m_cache.translation_page(first + i);
    if (page == last_page) continue;
    last_page = page;
    reads += access(first + i, false, read_ticket, ops);
  }
  return reads;
}

void MapTraffic::update_range(std::uint64_t first, std::uint64_t end, OpList& ops) {
  std::uint64_t last_page = ~std::uint64_t(0);
  for (std::uint64_t lpn = first; lpn < end; ++lpn) {
    if (m_cache.translation_page(lpn) == last_page) continue;
    last_page = m_cache.translation_page(lpn);
    access(static_cast<Lpn>(lpn), true, OpTicket::none(), ops);
  }
}

void MapTraffic::mapping_loaded(const Ftl& ftl) {
  if (m_cache.unlimited()) return;
  const std::uint64_t units = ftl.user_units();
  for (std::uint64_t lpn = 0; lpn < units; ++lpn) {
    if (!ftl.plan_read(static_cast<Lpn>(lpn)).on_flash()) continue;
    const std::uint64_t page = m_cache.translation_page(lpn);
    m_cache.set_on_flash(page);
    lpn = (page + 1) * m_cache.entries_per_page() - 1;  // on to the next translation page
  }
}

}  // namespace ssdlab
