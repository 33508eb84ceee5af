// Preconditioning without timing: the writes a sequential fill and a random overwrite would
// make, pushed straight through the FTL (buffer slot, then a page on the next die in
// round-robin order), their NAND operations dropped. The mapping, valid counts, free blocks and
// erase counts end as the timed path leaves them when that path makes the same placement
// decisions (one page at a time, dies in order) - test/timing/test_precondition.cpp checks it
// against a simulated run. On a drive, call DeviceController::precondition(), which also
// keeps the controller's mapping cache. Plain C++.
#pragma once

#include <cstdint>
#include <string>
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
  // write() of first, first + 1, ... first + count - 1: whole pages of LPNs never written
  // before go through Ftl::fill_fresh_pages() (no listener to tell), the rest one at a time.
  // Pages placed that way list no operations: last_ops() is then empty or a later page's.
  void write_sequential(Lpn first, std::uint64_t count);
  // Places the LPNs buffered so far as a (part-filled) page.
  void flush();
  // Places `count` (1..units_per_page) distinct LPNs as one page.
  void write_page(const Lpn* lpns, std::uint32_t count);
  const OpList& last_ops() const { return m_ops; }
  // The next page goes to `die` (or the next one in turn that can take it).
  void start_at(std::uint32_t die) { m_next_die = die % m_ftl.geometry().dies; }
  // No LPN is waiting for the rest of its page.
  bool page_empty() const { return m_page.empty(); }
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

// How the random overwrite is carried out.
enum class PreconditionMethod : std::uint8_t {
  kAuto,       // replicate where it applies and the drive is large enough to gain, else simulate
  kSimulate,   // every write through the whole drive's FTL
  kReplicate,  // age one die group and copy its state (an error where it does not apply)
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
  PreconditionMethod method = PreconditionMethod::kAuto;
  // Replication: dies in the group that is aged (0: automatic, 1). Must divide the FTL's dies.
  std::uint32_t group_dies = 0;
};

struct PreconditionResult {
  std::uint64_t units_written = 0;
  // Replication: copies of the aged group (1: the writes were simulated on the whole drive) and
  // the group's dies; `simulated_because` says why replication was not used (empty when it was,
  // or when simulation was asked for).
  std::uint32_t replicas = 1;
  std::uint32_t group_dies = 0;
  std::string simulated_because;
  // At the end: closed blocks by valid units (index 0 .. units_per_block), and free blocks. What
  // bench/age_check.sh compares between the two methods.
  std::vector<std::uint64_t> valid_histogram;
  std::uint64_t free_blocks = 0;
};

// Drives with fewer mapping units than this are aged by simulation under kAuto: it takes a few
// seconds at most, and every figure stays as simulated write by write. 2^24 units: 64 GiB of
// 4 KiB units.
constexpr std::uint64_t kReplicateMinUnits = std::uint64_t(1) << 24;
// PreconditionResult::simulated_because for that case (not worth saying on the console).
constexpr const char* kReplicateTooSmall =
    "the drive has fewer than 2^24 mapping units (aged by simulation in seconds)";
// The same under kAuto for a fill with no random overwrite: the untimed sequential fill writes the
// mapping tables about as fast as replication would copy them (Ftl::fill_fresh_pages).
constexpr const char* kReplicateFillOnly = "a fill alone (simulated about as fast as it could be copied)";
// Whether `simulated_because` is one of the two reasons above (not worth saying on the console).
inline bool replication_not_worth_it(const std::string& simulated_because) {
  return simulated_because == kReplicateTooSmall || simulated_because == kReplicateFillOnly;
}

// Why `ftl` cannot be aged by replication with `spec` (empty when it can). `mapping_cache`:
// the controller's mapping cache is limited (its contents follow every write, simulated).
std::string replication_blocker(const Ftl& ftl, const PreconditionSpec& spec, bool mapping_cache);

// The drive must hold nothing in its write buffer (the FTL has no buffered entries).
// `listener` hears of every page placed (DeviceController::precondition() passes itself when its
// mapping cache is limited; such a drive is always simulated).
//
// Replication (PreconditionMethod): the drive's dies are R groups of `group_dies`; one group
// with 1/R of the LPNs (in page-sized chunks, interleaved) is filled and overwritten at random as
// the whole drive would be, then copied R times (Ftl::replicate). Under uniform random writes,
// page mapping and GC within each die, every die sees statistically the same work, so the state
// is the same in distribution: bench/age_check.sh compares it with simulated aging (valid-count
// histogram, free blocks, and the WAF, IOPS and p99 latency of the next 1 M writes, within 2 %).
// The copies are taken at staggered points of the group's random writes, centred on the
// writes asked for (copy r after (r - R/2) blocks per die more or fewer), so that the dies' GC
// progress is not in lock step while their host write points sit where a simulated drive's
// would. A sequential fill replicates to
// exactly the layout a sequential fill of the drive gives. The last < R pages' worth of LPNs that
// do not divide into the groups are filled by simulation afterwards (they take no part in the
// random overwrite). Not used with: a hybrid FTL (logical blocks bound to dies), striped GC
// relocation (copies move between dies), a drive that keeps data or has a limited mapping cache
// (every write must reach them), a drive that already holds data, or a single die.
PreconditionResult precondition(Ftl& ftl, const PreconditionSpec& spec, PagePlacedListener* listener = nullptr);

}  // namespace ssdlab
