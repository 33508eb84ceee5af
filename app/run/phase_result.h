// What one phase of a scenario measured: the host's I/O figures and the drive's statistics
// tree over the phase. The drive figures summary.json has always carried per phase are read
// from the tree by name (stat_path below); every other statistic needs no code here.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/config/scenario.h"

#include "base/core/types.h"
#include "base/stats/io_stats.h"
#include "base/stats/stats_tree.h"
#include "controller/ftl/precondition.h"
#include "host/job_tally.h"

namespace ssdlab {

// Where the long-standing phase figures live in the tree.
namespace stat_path {
inline const std::string kFtl = "drive.controller.ftl.";
inline const std::string kController = "drive.controller.";
inline const std::string kDieBusy = "drive.nand.channel[].die[].busy";  // a pattern: every die
inline const std::string kLinkBusy = "drive.link.busy";
}  // namespace stat_path

// One of several jobs a phase ran at the same time (fio's jobs[]): compact figures (a phase
// runs up to 4096 jobs); io.expand() gives them as an IoStats for the reports.
struct JobResult {
  std::string name;
  JobIoStats io;
  JobTally tally;
  bool group_reporting = false;  // fio's group_reporting: reported with the job before it (fio_output.h)
};

// A timed phase's steady state, judged on its time-series intervals (app/run/steady_window.h).
struct SteadyWindow {
  bool judged = false;                // enough whole intervals in the phase's I/O window to judge
  bool steady = false;                // IOPS over the last third drifted by at most kDriftLimit
  double drift = 0;                   // that drift: least-squares slope x window length / window mean
  std::uint32_t intervals_total = 0;  // whole intervals in the I/O window
  // The steady window (the last third when not steady): its span and figures.
  std::uint32_t intervals = 0;
  double start_s = 0, end_s = 0;
  double iops = 0, read_mbps = 0, write_mbps = 0;
  double waf = -1;             // < 0: the host wrote nothing in it
  bool mixes_regimes = false;  // not steady, or the phase's mean IOPS is off the window's by > kMixLimit
};

// fio's steadystate keys on a job phase: what fio's JSON "steadystate" reports.
struct FioSteadyState {
  bool enabled = false;
  SteadyStateSpec spec;
  bool attained = false;  // the criterion held: the phase ended there
  double criterion = 0, max_deviation = 0, slope = 0;
  std::vector<double> iops, bw;  // the last window's per-second figures (bw in bytes/s)
};

struct PhaseResult {
  std::string name;
  std::string kind;
  Picos sim_start_ps = 0, sim_end_ps = 0;
  double wall_seconds = 0;
  IoStats io;
  StatsDelta stats;                 // the drive's statistics over the phase (empty: none measured)
  std::vector<Expectation> expect;  // the documents' figures for this phase
  // A replay phase: what the trace held and what was done with it (summary.json "replay").
  std::vector<std::pair<std::string, std::uint64_t>> replay;
  // Job phases: flushes, ramp completions and open-loop lateness (all jobs); and, when the
  // phase ran several jobs at once, each job's own figures (`io` is then their sum).
  JobTally tally;
  std::vector<JobResult> jobs;
  // A trace-timed replay: latency from each request's arrival (its time in the trace), beside
  // `io`'s latency from issue; null otherwise. Shared: results are copied, never changed.
  std::shared_ptr<const ArrivalLatency> arrival;
  SteadyWindow steady;  // job and replay phases with I/O
  // A precondition phase: how it aged the drive (replicated or simulated, and why).
  std::optional<PreconditionResult> precondition;
  FioSteadyState fio_steady;
  // power.enabled: the highest average power of the phase's time-series intervals; < 0: none.
  double power_peak_w = -1;
  double power_average_w = std::numeric_limits<double>::quiet_NaN();  // power.enabled, a timed phase

  // Firmware and flash activity during the phase, from the tree.
  std::uint64_t ftl(const char* name) const { return stats.count(stat_path::kFtl + name); }
  std::uint64_t controller(const char* name) const { return stats.count(stat_path::kController + name); }
  std::uint64_t host_units_written() const { return ftl("host_units_written"); }
  std::uint64_t nand_units_programmed() const { return ftl("nand_units_programmed"); }
  std::uint64_t gc_erases() const { return ftl("gc_erases"); }
  std::uint64_t gc_units_copied() const { return ftl("gc_units_copied"); }
  std::uint64_t erases() const { return ftl("erases"); }
  std::uint64_t rmw_reads() const { return controller("rmw_reads"); }
  std::uint64_t buffer_waits() const { return controller("buffer_waits"); }
  std::uint64_t map_reads() const { return controller("map_reads"); }                  // translation pages
  std::uint64_t map_writes() const { return controller("map_writes"); }                // (controller.mapping_cache)
  std::uint64_t background_gc_ops() const { return controller("background_gc_ops"); }  // idle-time GC
  std::uint64_t free_blocks_end() const {
    return static_cast<std::uint64_t>(stats.level(stat_path::kFtl + "free_blocks"));
  }
  // Mean over dies of busy time / phase time.
  double die_utilisation() const { return stats.mean_busy_fraction(stat_path::kDieBusy); }
  double link_utilisation() const;

  double seconds() const { return double(sim_end_ps - sim_start_ps) / double(kPicosPerSec); }
  double io_seconds() const { return double(io.elapsed_ps()) / double(kPicosPerSec); }
  double read_mbps() const { return io_seconds() > 0 ? double(io.read_bytes) / io_seconds() / 1e6 : 0; }
  double write_mbps() const { return io_seconds() > 0 ? double(io.write_bytes) / io_seconds() / 1e6 : 0; }
  double iops() const { return io_seconds() > 0 ? double(io.ios()) / io_seconds() : 0; }
  // A figure by name (the metrics an `expect` can name); NaN for an unknown name.
  double metric(const std::string& name) const;
  // NAND unit programs per host unit written; < 0 when the host wrote nothing.
  double waf() const {
    const std::uint64_t host = host_units_written();
    return host ? double(nand_units_programmed()) / double(host) : -1.0;
  }
};

// One time-series interval, from two snapshots of the statistics tree.
struct Sample {
  double time_s = 0;
  double start_s = 0;  // the interval's start (the row before's time_s)
  std::uint32_t phase = 0;
  double read_mbps = 0, write_mbps = 0, iops = 0;
  std::uint64_t free_blocks = 0;
  double waf = -1;  // over the interval; < 0 when the host wrote nothing in it
  // Appended columns (after waf).
  std::uint64_t gc_erases = 0;
  double map_hit_rate = -1;  // < 0 when the mapping table was not accessed
  std::uint64_t buffer_dirty_units = 0;
  double die_busy = 0;  // mean over dies of the busy fraction
  // Requests completed in the interval and their latency quantiles (columns p50_us, p99_us).
  std::uint64_t latency_count = 0;
  Picos p50_ps = 0, p99_ps = 0;
  double power_w = -1;  // the interval's average power (column power_w with power.enabled); < 0: off
  // Not in timeseries.csv: the interval's host units written and NAND units programmed.
  std::uint64_t host_units = 0, nand_units = 0;
};

}  // namespace ssdlab
