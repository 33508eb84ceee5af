// The controller's statistics in the drive's statistics tree: its own counters (ControllerStats),
// the write buffer's fill, and the firmware parts' own groups (ftl, mapping_cache). Uses only the
// controller's public accessors.
#include "base/stats/stats_tree.h"
#include "base/time/timeline.h"
#include "controller/sc/device_controller.h"

namespace ssdlab {

void DeviceController::register_stats(const StatGroup& g) const {
  const ControllerStats& s = stats();
  g.counter("commands", s.commands, "commands", "ATA commands received");
  g.counter("rejected", s.rejected, "commands", "commands completed with an error");
  g.counter("trims", s.trims, "commands", "DATA SET MANAGEMENT (TRIM) commands");
  g.counter("flushes", s.flushes, "commands", "FLUSH CACHE commands");
  g.counter("rmw_reads", s.rmw_reads, "reads", "flash reads for partially written mapping units (read-modify-write)");
  g.counter("buffer_waits", s.buffer_waits, "commands", "writes that waited for write-buffer space");
  g.counter("background_gc_ops", s.background_gc_ops, "operations", "flash operations issued by idle-time GC");
  g.counter("map_reads", s.map_reads, "pages", "translation pages read from flash on a mapping-cache miss");
  g.counter("map_writes", s.map_writes, "pages", "translation pages written back to flash");
  const FirmwareCpu& fw = cpu();
  g.group("firmware_cpu")
      .busy(
          "busy", [&fw] { return fw.busy_until(now_picos()); },
          "time the firmware CPU spent on commands and on GC bookkeeping (firmware_cost, firmware_write_cost, "
          "firmware_gc_cost)");
  const StatGroup reads = g.group("read_units");
  reads.counter("from_buffer", s.read_units_from_buffer, "units", "mapping units read from the write buffer");
  reads.counter("unmapped", s.read_units_unmapped, "units", "mapping units read never written or trimmed (zeros)");
  reads.counter("from_nand", s.read_units_from_nand, "units", "mapping units read from flash");
  if (m_read_ahead.enabled()) {
    reads.counter("from_read_ahead", s.read_units_from_read_ahead, "units",
                  "mapping units served from the read-ahead window (in DRAM, or read ahead and in flight)");
    g.counter("read_ahead_units", s.read_ahead_units, "units",
              "mapping units the firmware read from flash ahead of a sequential stream (controller.read_ahead)");
  }
  const StatGroup spread = g.group("read_spread");
  spread.counter("commands", s.read_spread.commands, "commands", "host read commands that read flash");
  spread.counter("pages", s.read_spread.pages, "reads", "their flash page reads");
  spread.counter("dies", s.read_spread.dies, "dies", "summed over those commands: dies each read");
  spread.counter("busiest_die_pages", s.read_spread.busiest_pages, "reads",
                 "summed over those commands: page reads of each one's busiest die (read one after another)");
  const WriteBuffer& b = buffer();
  const StatGroup buf = g.group("buffer");
  buf.level(
      "dirty_units", [&b] { return double(b.dirty()); }, "units", "buffered units not yet handed to flash");
  buf.level(
      "free_units", [&b] { return double(b.free_slots()); }, "units", "free write-buffer slots");
  buf.level(
      "capacity_units", [&b] { return double(b.capacity()); }, "units", "write-buffer slots");
  if (const MediaHealth* media = m_media.get()) {  // bit errors (nand.errors.enabled)
    const MediaStats& m = media->stats();
    const StatGroup e = g.group("media");
    e.counter("reads", m.reads, "reads", "flash reads decoded (host, GC, mapping table)");
    e.counter("retried_reads", m.retried_reads, "reads", "reads that needed at least one read retry");
    e.counter("retries", m.retries, "attempts", "read-retry attempts (each a further tR, data-out and decode)");
    e.counter("uncorrectable_host", m.uncorrectable[0], "reads", "host reads no attempt decoded");
    e.counter("uncorrectable_gc", m.uncorrectable[1], "reads",
              "GC reads no attempt decoded (the firmware moves what it has: not modelled further)");
    e.counter("uncorrectable_map", m.uncorrectable[2], "reads", "translation-page reads no attempt decoded");
    e.counter("media_errors", s.media_errors, "commands",
              "commands completed with an uncorrectable-data error (UNC; EIO over NBD)");
    e.counter("rber_sum_e12", m.rber_sum_e12, "1e-12", "first-attempt raw bit error rates of the reads, summed");
    e.ratio("rber_mean_e12", {"rber_sum_e12"}, {"reads"}, "mean first-attempt raw bit error rate, in 1e-12");
    e.level(
        "rber_max", [media] { return media->stats().rber_max; }, "fraction",
        "highest first-attempt raw bit error rate of any read so far");
    const StatGroup by = e.group("by_retries");
    for (std::size_t k = 0; k < MediaStats::kRetryBuckets; ++k) {
      // Two digits, so that the keys sort as numbers do.
      const std::string name =
          (k < 10 ? "0" : "") + std::to_string(k) + (k + 1 < MediaStats::kRetryBuckets ? "" : "_or_more");
      by.counter(name, m.by_retries[k], "reads",
                 "reads decoded after this many retries (uncorrectable: the last level)");
    }
  }
  if (ftl().grows_bad_blocks())
    g.counter("read_only_rejections", s.read_only_rejections, "commands",
              "writes and TRIMs aborted because grown bad blocks used up a die's spare (read-only drive)");
  ftl().register_stats(g.group("ftl"));
  mapping_cache().register_stats(g.group("mapping_cache"));
}

}  // namespace ssdlab
