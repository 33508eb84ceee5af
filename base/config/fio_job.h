// fio job files (fio's own INI syntax) -> typed jobs -> JobSpec. Plain C++, load time only.
//
// Lives in model/config, beside the YAML scenario loader, because a scenario phase
// `fio: path/to/job.fio` (issue 13) is read by that loader and model/ includes nothing above it.
//
// Syntax as fio reads it: `[global]` and job sections; `key=value` or a bare `key` (a flag);
// `#` and `;` start comments (whole lines or the rest of a line); `${VAR}` expands an
// environment variable (an unset one is an error naming it and the line). A `[global]`
// section sets defaults for the jobs after it. Sizes take fio's suffixes with fio's meaning
// (kb_base=1024, the default: 4k = 4096 and 4ki = 4000; kb_base=1000 the other way round);
// times take us/ms/s/m/h/d with the default unit of each key (seconds; thinktime: us).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/config/scenario.h"

namespace ssdlab {

// A value from the file and the line it came from (0 = not given).
template <class T>
struct FioField {
  T value{};
  int line = 0;
  bool given() const { return line > 0; }
};

// One job of a file, [global] defaults applied. Every supported key, typed.
struct FioJob {
  std::string name;  // section name, or name=
  int line = 0;      // the section header
  FioField<RwMode> rw;
  FioField<std::uint64_t> rw_suffix;  // rw=MODE:N (sequential: bytes skipped; random: I/Os per offset)
  FioField<std::uint64_t> bs;
  FioField<std::pair<std::uint64_t, std::uint64_t>> bsrange;
  FioField<std::vector<BsWeight>> bssplit;
  FioField<bool> blocksize_unaligned;
  FioField<std::uint64_t> iodepth;
  FioField<Amount> size, filesize, io_size, offset, offset_increment;
  FioField<std::uint64_t> number_ios, blockalign, offset_align;
  FioField<Picos> runtime, ramp_time, thinktime, thinktime_spin, ss_dur, ss_ramp;
  FioField<SteadyStateSpec> steadystate;
  FioField<std::pair<Picos, Picos>> startdelay;
  FioField<bool> time_based, norandommap, randrepeat, stonewall, group_reporting;
  FioField<std::uint64_t> rwmixread, rwmixwrite, percentage_random;
  FioField<RandomDistribution> random_distribution;
  FioField<std::uint64_t> randseed, numjobs, thinktime_blocks, rate, rate_iops, fsync, fdatasync, kb_base;
};

struct FioJobFile {
  std::string path;
  std::vector<FioJob> jobs;           // in file order
  std::vector<std::string> notes;     // "FILE:LINE: ioengine=libaio accepted and ignored: ..."
  std::vector<std::string> warnings;  // lenient mode: the unsupported keys, located
};

struct FioParseOptions {
  bool lenient = false;  // unsupported keys become warnings instead of errors
  // Environment lookup for ${VAR}: true and the value if set. Default: the process environment.
  std::function<bool(const std::string& name, std::string& value)> getenv;
};

// Throws ConfigError "FILE:LINE: KEY: ..." for any problem.
FioJobFile parse_fio_job_file(const std::string& text, const std::string& source_name,
                              const FioParseOptions& options = {});
FioJobFile load_fio_job_file(const std::string& path, const FioParseOptions& options = {});

// The supported keys (canonical names), for messages and docs.
const std::vector<std::string>& fio_supported_keys();

// fio value syntax; each throws std::invalid_argument with a message (no location).
std::uint64_t fio_parse_size(const std::string& text, std::uint64_t kb_base);
// A number with fio's time suffixes; a bare number is in `default_unit` picoseconds.
Picos fio_parse_time(const std::string& text, Picos default_unit);
RandomDistribution fio_parse_distribution(const std::string& text, std::uint64_t kb_base);
std::vector<BsWeight> fio_parse_bssplit(const std::string& text, std::uint64_t kb_base);
// "4k-64k" or "4k:64k" (swapped when the first is larger, as fio does).
std::pair<std::uint64_t, std::uint64_t> fio_parse_size_range(const std::string& text, std::uint64_t kb_base);
// "iops_slope:0.1%" (steadystate); duration and ramp are left 0.
SteadyStateSpec fio_parse_steadystate(const std::string& text);

// A job ready to run: its JobSpec, the delay before it and its name.
struct FioPhase {
  std::string name;
  int line = 0;
  JobSpec job;
  Picos startdelay_ps = 0;
  bool stonewall = false;
};

// The JobSpec of a job (its pacing keys included; numjobs is left to fio_phases); ConfigError
// for values that cannot run: a startdelay range, per-direction lists...
FioPhase fio_job_to_phase(const FioJob& job, const std::string& source_name);

// The phases of a job file: a job with stonewall (wait_for_previous) starts a new phase, the
// jobs of a phase run at the same time (PhaseSpec::more_jobs); numjobs=N makes N clones of a
// job (clone_index 0..N-1, the same name), as fio does. More than kMaxJobsPerPhase jobs in
// the file (clones included: fio's own limit), or more than kMaxRequestsInFlight requests in
// flight over a phase's jobs, is an error at the line that passes the limit.
std::vector<PhaseSpec> fio_phases(const FioJobFile& file);

// `ssdlab run --fio`: the phases of fio_phases. Notes and warnings go to ScenarioSpec::notes.
ScenarioSpec fio_scenario(const FioJobFile& file, const std::string& drive_path);

}  // namespace ssdlab
