// Benchmark helpers shared by the scenario benchmark (ssdlab_bench) and the FTL
// micro-benchmarks (ssdlab_microbench): plain C++, no SystemC.
//
// FtlAger pushes writes straight through the firmware with PageWriter (a buffer slot per
// unit, then one page program on the next die that can take it), throwing away the NAND
// operations it is handed. It brings an FTL to a full or steady state in a fraction of
// the time a timed simulation needs; the timed simulation then starts from that state with
// an empty write buffer and idle dies.
#pragma once

#include <sys/resource.h>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/core/rng.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/precondition.h"

namespace ssdlab::bench {

class FtlAger {
 public:
  explicit FtlAger(Ftl& ftl) : m_ftl(ftl), m_writer(ftl), m_upp(ftl.geometry().units_per_page) {
    m_page.reserve(m_upp);
  }

  // Every LPN once, in order (a sequential fill), units_per_page LPNs per page.
  void fill_sequential() { fill_range(0, m_ftl.user_units()); }
  void fill_range(Lpn first, Lpn end) {
    for (Lpn lpn = first; lpn < end; ++lpn) m_writer.write(lpn);
    m_writer.flush();
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
      m_writer.write_page(m_page.data(), static_cast<std::uint32_t>(m_page.size()));
    }
  }

 private:
  Ftl& m_ftl;
  PageWriter m_writer;
  std::uint32_t m_upp;
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
