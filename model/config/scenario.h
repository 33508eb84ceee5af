// Scenario description: a drive and an ordered list of phases (plain structs).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/core/types.h"

namespace ssdlab {

// A byte amount given either absolutely ("4GiB") or relative to the drive ("50%").
struct Amount {
  bool is_percent = false;
  double percent = 0.0;     // 0..100 when is_percent
  std::uint64_t bytes = 0;  // when !is_percent
  std::uint64_t resolve(std::uint64_t capacity_bytes) const;
};

enum class RwMode { kRead, kWrite, kRandRead, kRandWrite, kRandRw, kReadWrite };
const char* to_string(RwMode);

// A fio-like job. Names and meanings follow fio:
//   rw, bs, iodepth, size, io_size, offset, blockalign, runtime, time_based,
//   rwmixread, randseed.
struct JobSpec {
  RwMode rw = RwMode::kRead;
  std::uint64_t bs_bytes = 4096;
  std::uint32_t iodepth = 1;
  Amount size{true, 100.0, 0};   // region [offset, offset + size)
  Amount io_size{true, 0.0, 0};  // total bytes to transfer; 0% / unset = size
  bool io_size_set = false;
  Amount offset{false, 0.0, 0};
  std::uint64_t blockalign_bytes = 0;  // 0 = bs
  Picos runtime_ps = 0;                // 0 = no limit
  bool time_based = false;             // loop over the region until runtime
  std::uint32_t rwmixread = 50;        // percent reads for randrw / readwrite
  std::uint64_t randseed = 0;
  bool randseed_set = false;  // otherwise derived from the scenario seed
  // fio's default: random offsets visit every block of the region once per pass (a random
  // permutation). norandommap: draw each offset independently (blocks may repeat).
  bool norandommap = false;
};

enum class PhaseKind {
  kSecureErase,   // ATA security erase: every block erased, every LBA unmapped
  kJob,           // a fio-like job (also `fill` and `seqpass`)
  kTrim,          // TRIM over the SATA path
  kIdle,          // simulated time passes with no host I/O
  kMark,          // remember which LBAs are written from now on (for `trim: unused`)
  kPrecondition,  // fill + random overwrite pushed through the FTL without timing (fast)
};

enum class TrimMode { kAll, kRange, kUnused };

struct TrimSpec {
  TrimMode mode = TrimMode::kAll;
  Amount offset{false, 0.0, 0};
  Amount size{true, 100.0, 0};
};

struct PreconditionPhase {
  double fill_percent = 100.0;
  double random_percent = 200.0;
  std::uint64_t seed = 1;
  bool seed_set = false;  // otherwise derived from the scenario seed
};

// A figure from the source documents, printed beside the simulated one.
struct Expectation {
  std::string metric;  // read_mbps, write_mbps, mbps, iops, seconds, waf, latency_us
  double value = 0;
};

struct PhaseSpec {
  std::string name;
  PhaseKind kind = PhaseKind::kJob;
  JobSpec job;
  TrimSpec trim;
  PreconditionPhase precondition;
  Picos idle_ps = 0;
  std::vector<Expectation> expect;
  std::string note;  // free text shown with the phase (e.g. the document's wording)
  int line = 0;      // 1-based line in the scenario file
};

// A job phase built in code (tests, benchmarks); the loader builds them from YAML. Its region
// is the whole drive unless changed.
inline PhaseSpec make_job_phase(std::string name, RwMode rw, std::uint64_t bs, std::uint32_t iodepth) {
  PhaseSpec p;
  p.name = std::move(name);
  p.kind = PhaseKind::kJob;
  p.job.rw = rw;
  p.job.bs_bytes = bs;
  p.job.iodepth = iodepth;
  return p;
}

struct ScenarioSpec {
  std::string path;  // scenario file
  std::string name;
  std::string description;
  std::string drive_path;              // resolved relative to the scenario file
  std::vector<std::string> overrides;  // "key.path=value", applied to the drive config
  std::uint64_t seed = 1;
  Picos sample_interval_ps = 10 * kPicosPerMs;
  std::vector<PhaseSpec> phases;
  // Completion-latency percentiles reported per phase and direction (fio's percentile_list
  // and its default), ascending, each in (0, 100].
  std::vector<double> percentile_list = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
};

}  // namespace ssdlab
