// Two runs of one scenario that must agree exactly, phase by phase (timing tests that change how
// the simulation runs but not what it computes). `b` may start with `skip` extra phases.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "app/run/scenario_runner.h"

namespace ssdlab::test {

// Checks every phase of `a` against the phase of `b` `skip` places later; returns the GC units
// copied in `a` (what there was to compare).
inline std::uint64_t check_same_phases(const std::vector<PhaseResult>& a, const std::vector<PhaseResult>& b,
                                       std::size_t skip) {
  REQUIRE(b.size() == a.size() + skip);
  std::uint64_t copied = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const PhaseResult& x = a[i];
    const PhaseResult& y = b[i + skip];
    CAPTURE(x.name);
    CHECK(x.sim_end_ps - x.sim_start_ps == y.sim_end_ps - y.sim_start_ps);
    CHECK(x.io.ios() == y.io.ios());
    if (x.io.ios() > 0) {
      CHECK(x.io.latency()->mean() == y.io.latency()->mean());
      CHECK(x.io.latency()->max() == y.io.latency()->max());
      CHECK(x.io.latency()->quantile(0.99) == y.io.latency()->quantile(0.99));
    }
    CHECK(x.nand_units_programmed() == y.nand_units_programmed());
    CHECK(x.gc_units_copied() == y.gc_units_copied());
    CHECK(x.erases() == y.erases());
    CHECK(x.background_gc_ops() == y.background_gc_ops());
    CHECK(x.free_blocks_end() == y.free_blocks_end());
    copied += x.gc_units_copied();
  }
  return copied;
}

}  // namespace ssdlab::test
