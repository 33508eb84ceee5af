// The FTL's statistics (FtlStats) in the drive's statistics tree.
#include "base/stats/stats_tree.h"
#include "controller/ftl/ftl.h"

namespace ssdlab {

void Ftl::register_stats(const StatGroup& g) const {
  const FtlStats& s = m_stats;
  g.counter("host_units_written", s.host_units_written, "units",
            "mapping units accepted from the host (into the buffer)");
  g.counter("host_units_programmed", s.host_units_programmed, "units", "host mapping units programmed to flash");
  g.counter("gc_units_copied", s.gc_units_copied, "units", "valid mapping units relocated by garbage collection");
  g.counter("pad_units", s.pad_units, "units", "padding slots of partially filled page programs");
  g.counter(
      "nand_units_programmed", [&s] { return s.nand_units_programmed(); }, "units",
      "mapping units programmed to flash: host + GC copies + padding");
  g.counter("pages_programmed", s.pages_programmed, "pages", "user-data page programs planned (host and GC)");
  g.counter("erases", s.erases, "blocks", "blocks erased (GC, idle GC and secure erase)");
  g.counter("gc_erases", s.gc_erases, "blocks", "blocks erased by garbage collection");
  g.counter("gc_victims", s.gc_victims, "blocks", "blocks chosen as garbage-collection victims");
  g.counter("units_trimmed", s.units_trimmed, "units", "mapping units unmapped by TRIM");
  g.ratio("waf", {"nand_units_programmed"}, {"host_units_written"},
          "write amplification: mapping units programmed per unit the host wrote");
  g.level(
      "free_blocks", [this] { return double(free_blocks_total()); }, "blocks", "free blocks over all dies");
  g.level(
      "map_bytes", [this] { return double(map_bytes()); }, "bytes",
      "memory the mapping table needs (page: 4 per unit; hybrid: block map and log-page maps)");
  const StatGroup w = g.group("wear");
  w.level(
      "erase_count_min", [this] { return double(wear().min); }, "P/E cycles", "erase count of the least-erased block");
  w.level(
      "erase_count_mean", [this] { return wear().mean; }, "P/E cycles", "mean erase count over all blocks");
  w.level(
      "erase_count_max", [this] { return double(wear().max); }, "P/E cycles", "erase count of the most-erased block");
  w.level(
      "life_used", [this] { return 100.0 * wear().life_used(); }, "%",
      "mean erase count over the rated endurance (nand.endurance): SMART's wear indicator");
  w.counter(
      "erase_count_max_rises", [this] { return max_erase_rises(); }, "P/E cycles",
      "how much the highest erase count rose (the most-erased block's wear; the mean's is erases / blocks)");
  // Since the drive was new: the counters an image carries with the drive (SMART's totals).
  w.level(
      "host_units_total", [&s] { return double(s.host_units_written); }, "units",
      "mapping units the host has written since the drive was new (images carry it)");
  w.level(
      "nand_units_total", [&s] { return double(s.nand_units_programmed()); }, "units",
      "mapping units programmed to flash since the drive was new (images carry it)");
  w.level(
      "max_life_used", [this] { return 100.0 * wear().max_life_used(); }, "%",
      "the most-erased block's erase count over the rated endurance");
  if (static_wear_levelling()) {  // absent otherwise: results without it keep their keys
    w.counter("wl_victims", s.wl_victims, "blocks", "cold blocks collected by static wear levelling");
    w.counter(
        "wl_units_copied", s.wl_units_copied, "units",
        "valid units read from cold blocks for relocation (GC reads: a unit the host overwrites before its copy is "
        "made is dropped, not copied)");
  }
  if (has_factory_bad_blocks())  // nand.bad_blocks.factory (absent otherwise)
    w.level(
        "factory_bad_blocks", [this] { return double(stats().factory_bad_blocks); }, "blocks",
        "blocks marked bad at shipment, never used");
  if (grows_bad_blocks() || has_factory_bad_blocks()) {
    w.level(
        "good_blocks_min", [this] { return double(min_good_blocks()); }, "blocks",
        "good (not retired, not factory bad) blocks of the die with the fewest");
  }
  if (grows_bad_blocks()) {  // nand.bad_blocks.grown (absent otherwise)
    w.counter("bad_blocks", s.bad_blocks, "blocks", "blocks retired after a failed erase (grown bad blocks)");
    w.level(
        "read_only", [this] { return read_only() ? 1.0 : 0.0; }, "flag",
        "1 once a die's spare is used up: the drive takes no more writes");
  }
  if (slc_cache()) {  // controller.slc_cache (absent otherwise)
    const StatGroup c = g.group("slc");
    c.counter("units_written", s.slc_units_written, "units", "host mapping units programmed into SLC-mode blocks");
    c.counter("blocks_opened", s.slc_blocks_opened, "blocks", "host blocks opened in SLC mode");
    c.counter("folds", s.slc_folds, "blocks", "SLC-mode blocks collected (folded into full blocks: by GC or idle)");
    c.counter("fold_units", s.slc_fold_units, "units",
              "valid units read from SLC-mode blocks to fold them (part of gc_units_copied)");
    c.level(
        "blocks", [this] { return double(slc_blocks_total()); }, "blocks", "SLC-mode blocks holding data now");
    c.level(
        "capacity_blocks", [this] { return double(slc_limit()) * geometry().dies; }, "blocks",
        "SLC-mode blocks the cache may hold (controller.slc_cache.size)");
  }
  if (m_hybrid) m_hybrid->register_stats(g.group("hybrid"));
  if (m_striped) {  // controller.gc.relocation: striped (absent otherwise: in_die results stay as they were)
    const StatGroup r = g.group("relocation");
    r.counter("cross_die_units", m_relocation.cross_die_units, "units",
              "relocated units written to a die other than their victim's");
    r.counter("own_die_fallbacks", m_relocation.own_die_fallbacks, "pages",
              "GC pages kept on the victim's die because the cursor's die was at its floor of free blocks");
  }
}

}  // namespace ssdlab
