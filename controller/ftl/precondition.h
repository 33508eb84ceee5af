// Preconditioning without timing: the writes a sequential fill and a random overwrite would
// make, pushed straight through the FTL (buffer slot, then a page on the next die in
// round-robin order), their NAND operations dropped. The mapping, valid counts, free blocks and
// erase counts end as the timed path leaves them when that path makes the same placement
// decisions (one page at a time, dies in order) - test/unit/test_precondition.cpp checks it
// against a simulated run. Plain C++.
#pragma once

#include <cstdint>

#include "controller/ftl/ftl.h"

namespace ssdlab {

struct PreconditionSpec {
  double fill_percent = 100.0;    // sequential write of this share of the drive, from LBA 0
  double random_percent = 200.0;  // then random unit writes: this share of the drive, fio random map
  std::uint64_t seed = 1;         // the random map's seed (as a randwrite job's randseed)
};

struct PreconditionResult {
  std::uint64_t units_written = 0;
};

// The drive must hold nothing in its write buffer (the FTL has no buffered entries).
PreconditionResult precondition(Ftl& ftl, const PreconditionSpec& spec);

}  // namespace ssdlab
