// How a host read command's flash page reads spread over the dies: how many dies it needs and
// how many page reads its busiest die must serve one after the other. A sequential read is as
// fast as the layout the writes left: 32 pages of a 128 KiB read on 32 dies run side by side,
// the same pages with two on one die wait a tR and a transfer for the second. Summed per
// command (ControllerStats), these say why one sequential read pass is slower than another
// (docs/seed-scenarios.md: D2, D3, D7). With mapping units of several pages (virtual pages) a
// "die" is the FTL's die group and a page read one virtual page's. Plain C++; no allocation
// per command.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/core/nand_op.h"

namespace ssdlab {

struct ReadSpreadTotals {
  std::uint64_t commands = 0;       // read commands with at least one flash page read
  std::uint64_t pages = 0;          // their flash page reads
  std::uint64_t dies = 0;           // summed over those commands: dies read
  std::uint64_t busiest_pages = 0;  // summed over those commands: page reads of the busiest die
};

class ReadSpread {
 public:
  explicit ReadSpread(std::uint32_t dies) : m_per_die(dies, 0) {}

  // Counts the page reads of one command (`ops`: its reads, each on op.die), into `totals`.
  void count(const std::vector<NandOp>& ops, ReadSpreadTotals& totals) {
    if (ops.empty()) return;
    ++totals.commands;
    totals.pages += ops.size();
    if (ops.size() == 1) {  // a one-page read (4 KiB random reads): nothing to count per die
      ++totals.dies;
      ++totals.busiest_pages;
      return;
    }
    std::uint32_t dies = 0, busiest = 0;
    for (const NandOp& op : ops) {
      const std::uint32_t n = ++m_per_die[op.die];
      dies += n == 1;
      busiest = std::max(busiest, n);
    }
    for (const NandOp& op : ops) m_per_die[op.die] = 0;
    totals.dies += dies;
    totals.busiest_pages += busiest;
  }

 private:
  std::vector<std::uint32_t> m_per_die;  // zero between commands
};

}  // namespace ssdlab
