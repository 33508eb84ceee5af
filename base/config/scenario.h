// Scenario description: a drive and an ordered list of phases (plain structs).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/config/replay_spec.h"
#include "base/core/types.h"

namespace ssdlab {

// A byte amount given either absolutely ("4GiB") or relative to the drive ("50%").
struct Amount {
  bool is_percent = false;
  double percent = 0.0;     // 0..100 when is_percent
  std::uint64_t bytes = 0;  // when !is_percent
  std::uint64_t resolve(std::uint64_t capacity_bytes) const;
};

// fio's rw modes. kTrimWrite: each block trimmed, then written (trimwrite).
enum class RwMode { kRead, kWrite, kRandRead, kRandWrite, kRandRw, kReadWrite, kTrim, kRandTrim, kTrimWrite };
const char* to_string(RwMode);
bool is_random(RwMode);

// fio's random_distribution. Skewed kinds (zipf, pareto, normal) rank the region's slots by
// popularity and map ranks to slots with a keyed bijection (fio hashes ranks); zoned and
// zoned_abs split the accesses over consecutive zones of the region, uniform inside a zone.
enum class RandomDist { kRandom, kZipf, kPareto, kNormal, kZoned, kZonedAbs };
const char* to_string(RandomDist);

struct AccessZone {
  std::uint32_t access_percent = 0;  // share of the accesses (the zones' shares add up to 100)
  std::uint32_t size_percent = 0;    // zoned: share of the region
  std::uint64_t size_bytes = 0;      // zoned_abs: size of the zone
};

struct RandomDistribution {
  RandomDist kind = RandomDist::kRandom;
  double param = 0;    // zipf: theta (> 0, != 1); pareto: h (0 < h < 1); normal: deviation in % of the region
  double center = -1;  // optional second value, 0..1 (-1 = not given)
  std::vector<AccessZone> zones;  // zoned, zoned_abs (at most 256)
};

// One weighted block size of fio's bssplit.
struct BsWeight {
  std::uint64_t bs = 0;
  std::uint32_t percent = 0;  // the weights add up to 100
};

// fio's steady-state job termination: steadystate=iops|iops_slope|bw|bw_slope:LIMIT[%],
// steadystate_duration, steadystate_ramp_time. After the ramp, the job's IOPS (or bytes/s) is
// measured once per simulated second; when the last `duration` of them meet the criterion the
// job ends (app/run/steady_window.h: fio_steady_check).
struct SteadyStateSpec {
  enum class Kind : std::uint8_t { kNone, kIops, kIopsSlope, kBw, kBwSlope };
  Kind kind = Kind::kNone;
  double limit = 0;
  bool percent = false;   // the limit is a percentage of the window's mean
  Picos duration_ps = 0;  // 0: no detection (fio's default)
  Picos ramp_ps = 0;
  bool enabled() const { return kind != Kind::kNone && duration_ps > 0; }
  bool slope() const { return kind == Kind::kIopsSlope || kind == Kind::kBwSlope; }
  bool iops() const { return kind == Kind::kIops || kind == Kind::kIopsSlope; }
};
bool operator==(const SteadyStateSpec& a, const SteadyStateSpec& b);
// fio's spelling: "iops_slope:0.1%".
std::string to_string(const SteadyStateSpec& s);

// A fio-like job. Names and meanings follow fio:
//   rw, bs, iodepth, size, io_size, offset, blockalign, runtime, time_based,
//   rwmixread, randseed, bsrange, bssplit, random_distribution, percentage_random, ...
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
  // Added for fio job files (the defaults leave a job as it was before them).
  std::uint64_t bs_max_bytes = 0;         // bsrange: sizes in [bs_bytes, bs_max_bytes]; 0 = bs only
  std::vector<BsWeight> bssplit;          // weighted sizes; empty = bs or bsrange
  bool bs_unaligned = false;              // bsrange sizes in 512-byte steps, not multiples of the minimum
  std::uint64_t seq_skip_bytes = 0;       // sequential modes, rw=write:N: a hole of N bytes after each I/O
  std::uint32_t random_run = 1;           // random modes, rw=randread:N: a new random offset every N I/Os
  std::uint32_t percentage_random = 100;  // random modes: share of I/Os at random offsets
  RandomDistribution distribution;
  std::uint64_t number_ios = 0;            // stop after this many I/Os; 0 = no limit
  Amount offset_increment{false, 0.0, 0};  // region start += offset_increment * clone_index
  std::uint32_t clone_index = 0;           // fio's subjob number (numjobs clones; 0 for one job)
  std::uint64_t offset_align_bytes = 0;    // percentage offsets aligned up to this; 0 = bs
  // Concurrency and pacing (issue 13; the host driver acts on them). The defaults are a
  // closed-loop job as before. Times count from the job's start (the phase's start + startdelay).
  std::string name;                    // the job's name in per-job results (fio's jobname); empty: the phase's
  bool group_reporting = false;        // fio.json: reported in one entry with the job before it (reporting only)
  Picos startdelay_ps = 0;             // the job starts this long after the phase
  Picos ramp_ps = 0;                   // ramp_time: completions in [start, start + ramp) are not counted
  Picos thinktime_ps = 0;              // after every thinktime_blocks requests: wait for them, then think
  std::uint32_t thinktime_blocks = 1;  // (thinktime_spin is part of thinktime: no CPU is simulated)
  std::uint64_t rate_bytes = 0;        // bytes/s, each direction (read, write, trim) on its own; 0 = none
  std::uint64_t rate_iops = 0;         // requests/s, each direction on its own; 0 = none
  std::uint32_t flush_every = 0;       // fsync / fdatasync = N: a FLUSH CACHE EXT after every N writes
  SteadyStateSpec steadystate;         // fio's steadystate keys (the runner acts on them)
  // Whether the host driver must pace the job (any of the keys above but name, group_reporting).
  bool paced() const { return startdelay_ps || ramp_ps || thinktime_ps || rate_bytes || rate_iops || flush_every; }
};

// A phase runs at most this many jobs at once (fio 3.33's REAL_MAX_JOBS: what fio itself runs),
// keeping at most kMaxRequestsInFlight requests in flight over all of them (the iodepth of one
// job at most); the loaders refuse more, naming the key and line.
constexpr std::uint32_t kMaxJobsPerPhase = 4096;
constexpr std::uint64_t kMaxRequestsInFlight = 65536;
// A phase writes at most this many time-series rows (sample_interval apart): a phase known to
// last longer is refused at load time, any other stopped when it gets there (about 112 MB).
constexpr std::uint64_t kMaxSamplesPerPhase = 1000000;

bool operator==(const AccessZone& a, const AccessZone& b);
bool operator==(const RandomDistribution& a, const RandomDistribution& b);
bool operator==(const Amount& a, const Amount& b);
bool operator==(const JobSpec& a, const JobSpec& b);
inline bool operator!=(const JobSpec& a, const JobSpec& b) { return !(a == b); }

enum class PhaseKind {
  kSecureErase,   // ATA security erase: every block erased, every LBA unmapped
  kJob,           // a fio-like job (also `fill` and `seqpass`)
  kTrim,          // TRIM over the SATA path
  kIdle,          // simulated time passes with no host I/O
  kMark,          // remember which LBAs are written from now on (for `trim: unused`)
  kPrecondition,  // fill + random overwrite pushed through the FTL without timing (fast)
  kReplay,        // a block trace replayed (base/config/replay_spec.h)
  kWear,          // the aging knob: P/E cycles added to every block, stored data made older
};

// `wear: {pe_cycles: 3000, retention: 1y}`: a worn drive in no time. Every block gets pe_cycles
// more erases (as if cycled evenly before); the data now on flash counts as `retention` older
// (nand.errors). Neither takes simulated time: what it stands for would take months or years.
struct WearPhase {
  std::uint32_t pe_cycles = 0;
  std::uint64_t retention_s = 0;
};

enum class TrimMode { kAll, kRange, kUnused };

struct TrimSpec {
  TrimMode mode = TrimMode::kAll;
  Amount offset{false, 0.0, 0};
  Amount size{true, 100.0, 0};
};

struct PreconditionPhase {
  enum class Method : std::uint8_t { kAuto, kSimulate, kReplicate };  // controller/ftl/precondition.h
  double fill_percent = 100.0;
  double random_percent = 0.0;  // {fill: N%} is a fill only
  bool random_map = false;      // random writes: independent draws (fio norandommap) unless set
  std::uint64_t seed = 1;
  bool seed_set = false;  // otherwise derived from the scenario seed
  Method method = Method::kAuto;
  std::uint32_t group_dies = 0;  // replication's die group (0: automatic)
};

// A figure from the source documents, printed beside the simulated one.
struct Expectation {
  std::string metric;  // read_mbps, write_mbps, mbps, iops, seconds, waf, latency_us, power_w
  double value = 0;
};

struct PhaseSpec {
  std::string name;
  PhaseKind kind = PhaseKind::kJob;
  JobSpec job;
  // Jobs that run at the same time as `job` (fio's numjobs and job sections without stonewall,
  // YAML `jobs:` / `numjobs:`), sharing the HBA's NCQ tags; empty: `job` runs alone.
  std::vector<JobSpec> more_jobs;
  TrimSpec trim;
  PreconditionPhase precondition;
  WearPhase wear;
  ReplaySpec replay;
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
  int sample_interval_line = 0;  // of `sample_interval` in the file; 0: the default; -1: --sample-interval
  std::vector<PhaseSpec> phases;
  // Completion-latency percentiles reported per phase and direction (fio's percentile_list
  // and its default), ascending, each in (0, 100].
  std::vector<double> percentile_list = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  std::vector<std::string> notes;  // from a fio job file: ignored keys, lenient-mode warnings
};

}  // namespace ssdlab
