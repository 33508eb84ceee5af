// Preconditioning without timing: the writes a sequential fill and a random overwrite would
// make, pushed straight through the FTL (buffer slot, then a page on the next die in
// round-robin order), their NAND operations dropped. The mapping, valid counts, free blocks and
// erase counts end as the timed path leaves them when that path makes the same placement
// decisions (one page at a time, dies in order) - test/timing/test_precondition.cpp checks it
// against a simulated run. On a drive, call DeviceController::precondition(), which also
// keeps the controller's mapping cache. Plain C++.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/ftl/ftl.h"

namespace ssdlab {

// Told of each host page PageWriter has placed, after the FTL's GC work for it (the
// controller keeps its mapping cache as its own flush does).
struct PagePlacedListener {
  virtual void page_placed(const Lpn* lpns, std::uint32_t count) = 0;

 protected:
  ~PagePlacedListener() = default;
};

// Writes through the FTL as the controller does, without timing: each LPN takes a buffer slot,
// and a page of units_per_page LPNs goes to the next die in round-robin order that can take
// it. The NAND operations of the last page (GC work first, then its program) stay readable in
// last_ops(); nothing executes them. Used by precondition(), the FTL unit tests and the
// benchmarks.
class PageWriter {
 public:
  explicit PageWriter(Ftl& ftl, PagePlacedListener* listener = nullptr);
  // Buffers one LPN; a full page is placed at once.
  void write(Lpn lpn);
  // Places the LPNs buffered so far as a (part-filled) page.
  void flush();
  // Places `count` (1..units_per_page) distinct LPNs as one page.
  void write_page(const Lpn* lpns, std::uint32_t count);
  const OpList& last_ops() const { return m_ops; }
  std::uint64_t units_written() const { return m_written; }

 private:
  Ftl& m_ftl;
  PagePlacedListener* m_listener;
  std::uint32_t m_upp;
  std::vector<Lpn> m_page;
  OpList m_ops;
  std::uint32_t m_next_die = 0;
  std::uint64_t m_written = 0;
};

struct PreconditionSpec {
  double fill_percent = 100.0;    // sequential write of this share of the drive, from LBA 0
  double random_percent = 200.0;  // then random unit writes: this share of the drive
  // How the random writes draw their LPNs. false (default): each independently, with
  // replacement, as a randwrite job with fio's norandommap (the state a drive reaches under
  // uniform random writes). true: fio's random map, every LPN once per pass in a random order;
  // at the end of whole passes about an OP's worth of blocks hold no valid data, which a drive
  // written at random never shows.
  bool random_map = false;
  std::uint64_t seed = 1;  // the draws' seed (as a randwrite job's randseed)
};

struct PreconditionResult {
  std::uint64_t units_written = 0;
};

// The drive must hold nothing in its write buffer (the FTL has no buffered entries).
// `listener` hears of every page placed (DeviceController::precondition() passes itself).
PreconditionResult precondition(Ftl& ftl, const PreconditionSpec& spec, PagePlacedListener* listener = nullptr);

}  // namespace ssdlab
