#include "nand/flash_array.h"

namespace ssdlab {

FlashArray::FlashArray(sc_core::sc_module_name name, const NandConfig& config, Timeline& timeline)
    : sc_core::sc_module(name),
      m_config(config),
      m_channels(m_config.channels),
      m_die_count(m_config.dies()),
      m_dies(new Die[m_die_count]) {
  for (std::uint32_t d = 0; d < m_die_count; ++d) {
    m_dies[d].init(m_config, timeline, m_channels[d % m_config.channels], *this, d, d % m_config.channels);
  }
}

void FlashArray::set_probe(Probe* probe) {
  for (std::uint32_t d = 0; d < m_die_count; ++d) m_dies[d].set_probe(probe);
}

void FlashArray::set_batch_depth(std::uint32_t depth) {
  for (std::uint32_t d = 0; d < m_die_count; ++d) m_dies[d].set_batch_depth(depth);
}

bool FlashArray::idle() const {
  for (std::uint32_t d = 0; d < m_die_count; ++d) {
    if (!m_dies[d].idle()) return false;
  }
  return true;
}

void FlashArray::register_stats(const StatGroup& nand) const {
  const std::uint32_t channels = m_config.channels;
  for (std::uint32_t d = 0; d < m_die_count; ++d) {
    const Die& die = m_dies[d];
    const StatGroup g = nand.group("channel", d % channels).group("die", d / channels);
    g.counter("reads", die.stats().reads, "operations", "page reads executed (host, GC, RMW and mapping-table reads)");
    g.counter("programs", die.stats().programs, "operations",
              "page programs executed (host, GC and mapping-table pages)");
    g.counter("erases", die.stats().erases, "operations", "block erases executed");
    g.busy(
        "busy", [&die] { return die.busy_until_now(); },
        "time the die had an operation in progress (waiting for its bus included)");
    g.busy(
        "busy_gc", [&die] { return die.busy_until_now(OpOrigin::kGc); },
        "of the busy time, garbage-collection operations (copies and erases)");
    g.busy(
        "busy_map", [&die] { return die.busy_until_now(OpOrigin::kMap); },
        "of the busy time, mapping-table operations (translation-page reads and writes)");
    if (m_config.suspend.enabled())  // nand.suspend (absent otherwise)
      g.counter("suspends", die.stats().suspends, "operations",
                "erases and programs suspended for a host read (each suspension counted)");
    if (m_config.array_times) {  // power.enabled: what the energy of reads, programs and erases comes from
      g.busy(
          "array_read", [&die] { return die.stats().array_ps[std::size_t(NandOpKind::kRead)]; },
          "array time of finished reads, each retry's tR included");
      g.busy(
          "array_program", [&die] { return die.stats().array_ps[std::size_t(NandOpKind::kProgram)]; },
          "array time of finished programs (tPROG)");
      g.busy(
          "array_erase", [&die] { return die.stats().array_ps[std::size_t(NandOpKind::kErase)]; },
          "array time of finished erases (tBERS)");
    }
  }
  for (std::uint32_t c = 0; c < channels; ++c) {
    const Channel& ch = m_channels[c];
    nand.group("channel", c)
        .busy(
            "busy", [&ch] { return ch.busy_until(now_picos()); }, "time the channel bus carried commands or data");
  }
}

}  // namespace ssdlab
