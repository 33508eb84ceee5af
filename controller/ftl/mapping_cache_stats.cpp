// The mapping cache's statistics in the drive's statistics tree.
#include "base/stats/stats_tree.h"
#include "controller/ftl/mapping_cache.h"

namespace ssdlab {

void MappingCache::register_stats(const StatGroup& g) const {
  g.counter("hits", m_hits, "accesses", "mapping-table accesses whose translation page was cached");
  g.counter("misses", m_misses, "accesses", "mapping-table accesses whose translation page was not cached");
  g.counter("write_backs", m_write_backs, "pages", "dirty translation pages evicted (each a flash program)");
  g.level(
      "whole_table", [this] { return m_unlimited ? 1.0 : 0.0; }, "flag",
      "1 when the whole mapping table fits in DRAM (accesses are then not counted: all hit)");
  if (m_unlimited) {
    g.level(
        "hit_rate", [] { return 1.0; }, "ratio", "share of mapping-table accesses that hit the cache (whole table: 1)");
    return;
  }
  g.ratio("hit_rate", {"hits"}, {"hits", "misses"}, "share of mapping-table accesses that hit the cache");
  g.level(
      "cached_pages", [this] { return double(m_cached); }, "pages", "translation pages held in controller DRAM");
}

}  // namespace ssdlab
