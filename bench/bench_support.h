// Benchmark helpers shared by the scenario benchmark (ssdlab_bench) and the FTL
// micro-benchmarks (ssdlab_microbench): plain C++, no SystemC.
//
// FtlAger pushes writes straight through the firmware the way the controller does (a buffer
// slot per unit, then one page program on the next die that can take it), throwing away the
// NAND operations it is handed. It brings an FTL to a full or steady state in a fraction of
// the time a timed simulation needs; the timed simulation then starts from that state with
// an empty write buffer and idle dies.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "controller/ftl/ftl.h"
#include "model/core/rng.h"

namespace ssdlab::bench {

class FtlAger {
 public:
  explicit FtlAger(Ftl& ftl) : m_ftl(ftl), m_upp(ftl.geometry().units_per_page) {
    m_ops.reserve(4 * std::size_t(ftl.geometry().pages_per_block) + 4);
    m_page.reserve(m_upp);
  }

  // Writes `count` (1..units_per_page) distinct LPNs as one page program.
  void write_page(const Lpn* lpns, std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) m_ftl.write_to_buffer(lpns[i], i);
    const std::uint32_t dies = m_ftl.geometry().dies;
    for (std::uint32_t tries = 0; tries < dies; ++tries) {
      const std::uint32_t die = m_next_die;
      m_next_die = m_next_die + 1 == dies ? 0 : m_next_die + 1;
      if (!m_ftl.can_place(die)) continue;
      m_ops.clear();
      if (m_ftl.place(die, lpns, count, 0, m_ops)) {
        ops_generated += m_ops.size();
        units_written += count;
        return;
      }
    }
    throw std::runtime_error("FtlAger: no die could take a page");
  }

  // Every LPN once, in order (a sequential fill), units_per_page LPNs per page.
  void fill_sequential() { fill_range(0, m_ftl.user_units()); }
  void fill_range(Lpn first, Lpn end) {
    Lpn lpn = first;
    while (lpn < end) {
      m_page.clear();
      while (m_page.size() < m_upp && lpn < end) m_page.push_back(lpn++);
      write_page(m_page.data(), static_cast<std::uint32_t>(m_page.size()));
    }
  }

  // `units` uniformly random LPNs (with replacement), packed units_per_page to a page the
  // way the controller's write combining packs 4 KiB writes (no LPN twice in one page).
  void overwrite_random(std::uint64_t units, Rng& rng) {
    const std::uint32_t n = m_ftl.user_units();
    std::uint64_t done = 0;
    while (done < units) {
      m_page.clear();
      while (m_page.size() < m_upp && done < units) {
        const auto lpn = static_cast<Lpn>(rng.below(n));
        bool dup = false;
        for (Lpn l : m_page) dup |= l == lpn;
        if (dup) continue;
        m_page.push_back(lpn);
        ++done;
      }
      write_page(m_page.data(), static_cast<std::uint32_t>(m_page.size()));
    }
  }

  std::uint64_t ops_generated = 0;
  std::uint64_t units_written = 0;

 private:
  Ftl& m_ftl;
  std::uint32_t m_upp;
  std::uint32_t m_next_die = 0;
  OpList m_ops;
  std::vector<Lpn> m_page;
};

// Peak resident set size of this process in KiB: VmHWM from /proc/self/status, else
// getrusage's ru_maxrss (also KiB on Linux).
inline std::uint64_t peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6));
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss);
}

// Current resident set size in KiB (VmRSS), 0 if unavailable.
inline std::uint64_t current_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
  }
  return 0;
}

inline std::string loadavg() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

}  // namespace ssdlab::bench
