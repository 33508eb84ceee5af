// A parsed fio job -> the simulator's JobSpec (what fio's keys mean for the generator).
#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "base/config/config_loader.h"
#include "base/config/fio_job.h"

namespace ssdlab {
namespace {

class Mapper {
 public:
  Mapper(const FioJob& job, const std::string& src) : m_job(job), m_src(src) {}
  FioPhase map();

 private:
  template <class T>
  [[noreturn]] void fail(const FioField<T>& f, const std::string& key, const std::string& what) const {
    throw ConfigError(m_src + ":" + std::to_string(f.given() ? f.line : m_job.line) + ": " + key + ": " + what);
  }
  void sizes(JobSpec& s) const;
  void region(JobSpec& s) const;
  void randomness(JobSpec& s) const;
  void pacing(JobSpec& s) const;

  const FioJob& m_job;
  const std::string& m_src;
};

void Mapper::sizes(JobSpec& s) const {
  const FioJob& j = m_job;
  if (j.bs.given()) s.bs_bytes = j.bs.value;  // fio's default is 4k, as JobSpec's
  if (j.bsrange.given()) {
    s.bs_bytes = j.bsrange.value.first;
    s.bs_max_bytes = j.bsrange.value.second == j.bsrange.value.first ? 0 : j.bsrange.value.second;
  }
  if (j.bssplit.given()) {
    s.bssplit = j.bssplit.value;
    s.bs_bytes = s.bssplit.front().bs;
    for (const BsWeight& w : s.bssplit) s.bs_bytes = std::min(s.bs_bytes, w.bs);
  }
  s.bs_unaligned = j.blocksize_unaligned.value;
  const auto sectors = [&](std::uint64_t v, const auto& f, const char* key) {
    if (v == 0 || v % kSectorBytes != 0)
      fail(f, key, "must be a non-zero multiple of 512 bytes (the drive's sector), got " + std::to_string(v));
  };
  if (j.bssplit.given()) {
    for (const BsWeight& w : s.bssplit) sectors(w.bs, j.bssplit, "bssplit");
  } else if (j.bsrange.given()) {
    sectors(j.bsrange.value.first, j.bsrange, "bsrange");
    sectors(j.bsrange.value.second, j.bsrange, "bsrange");
  } else {
    sectors(s.bs_bytes, j.bs, "bs");
  }
  if (j.blockalign.given()) {
    if (j.blockalign.value % kSectorBytes != 0) fail(j.blockalign, "blockalign", "must be a multiple of 512 bytes");
    s.blockalign_bytes = j.blockalign.value;
  }
  if (j.offset_align.given()) s.offset_align_bytes = j.offset_align.value;
}

// fio: filesize sets the region and size becomes the default amount of I/O.
void Mapper::region(JobSpec& s) const {
  const FioJob& j = m_job;
  const auto positive = [&](const FioField<Amount>& f, const char* key) {
    if (f.given() && (f.value.is_percent ? f.value.percent <= 0 : f.value.bytes == 0)) fail(f, key, "must be > 0");
  };
  positive(j.size, "size");
  positive(j.filesize, "filesize");
  positive(j.io_size, "io_size");
  if (j.filesize.given()) {
    s.size = j.filesize.value;
    if (j.size.given()) {
      s.io_size = j.size.value;
      s.io_size_set = true;
    }
  } else if (j.size.given()) {
    s.size = j.size.value;
  }
  if (j.io_size.given()) {
    s.io_size = j.io_size.value;
    s.io_size_set = true;
  }
  if (j.offset.given()) {
    if (j.offset.value.is_percent && j.offset.value.percent >= 100) fail(j.offset, "offset", "must be below 100%");
    s.offset = j.offset.value;
  }
  if (j.offset_increment.given()) s.offset_increment = j.offset_increment.value;
  s.number_ios = j.number_ios.value;
}

void Mapper::randomness(JobSpec& s) const {
  const FioJob& j = m_job;
  s.norandommap = j.norandommap.value;
  if (j.randseed.given()) {
    s.randseed = j.randseed.value;
    s.randseed_set = true;
  }
  if (j.percentage_random.given()) s.percentage_random = static_cast<std::uint32_t>(j.percentage_random.value);
  if (j.random_distribution.given()) s.distribution = j.random_distribution.value;
  // fio: when both are given and disagree, the later one wins.
  if (j.rwmixread.given()) s.rwmixread = static_cast<std::uint32_t>(j.rwmixread.value);
  if (j.rwmixwrite.given() && (!j.rwmixread.given() || j.rwmixwrite.line > j.rwmixread.line))
    s.rwmixread = 100 - static_cast<std::uint32_t>(j.rwmixwrite.value);
}

FioPhase Mapper::map() {
  const FioJob& j = m_job;
  if (j.startdelay.given() && j.startdelay.value.first != j.startdelay.value.second)
    fail(j.startdelay, "startdelay", "a random delay range is not supported; give one time");
  FioPhase p;
  p.name = j.name;
  p.line = j.line;
  p.startdelay_ps = j.startdelay.value.first;
  p.stonewall = j.stonewall.value;
  JobSpec& s = p.job;
  if (j.rw.given()) s.rw = j.rw.value;
  if (j.rw_suffix.given()) {
    if (is_random(s.rw))
      s.random_run = static_cast<std::uint32_t>(j.rw_suffix.value);
    else
      s.seq_skip_bytes = j.rw_suffix.value;
  }
  sizes(s);
  if (j.iodepth.given()) s.iodepth = static_cast<std::uint32_t>(j.iodepth.value);
  region(s);
  s.runtime_ps = j.runtime.value;
  s.time_based = j.time_based.value;
  if (s.time_based && s.runtime_ps == 0) fail(j.time_based, "time_based", "needs a runtime");
  randomness(s);
  pacing(s);
  s.name = j.name;
  s.group_reporting = j.group_reporting.value;
  return p;
}

// fio: ramp_time and runtime follow the startdelay; thinktime_spin is part of thinktime (the
// simulated host has no CPU to spin); fsync and fdatasync both become FLUSH CACHE EXT.
void Mapper::pacing(JobSpec& s) const {
  const FioJob& j = m_job;
  s.startdelay_ps = j.startdelay.value.first;
  s.ramp_ps = j.ramp_time.value;
  s.thinktime_ps = j.thinktime.value;
  if (j.thinktime_spin.value > j.thinktime.value)
    fail(j.thinktime_spin, "thinktime_spin", "must not exceed thinktime (the spin is part of it)");
  if (j.thinktime_blocks.given()) s.thinktime_blocks = static_cast<std::uint32_t>(j.thinktime_blocks.value);
  s.rate_bytes = j.rate.value;
  s.rate_iops = j.rate_iops.value;
  const FioField<std::uint64_t>& sync = j.fsync.value ? j.fsync : j.fdatasync;
  if (sync.value > 0xffffffffULL) fail(sync, j.fsync.value ? "fsync" : "fdatasync", "must be below 2^32");
  s.flush_every = static_cast<std::uint32_t>(sync.value);
  if (j.steadystate.given()) s.steadystate = j.steadystate.value;
  s.steadystate.duration_ps = j.ss_dur.value;
  s.steadystate.ramp_ps = j.ss_ramp.value;
  if (j.ss_dur.value % kPicosPerSec != 0)
    fail(j.ss_dur, "steadystate_duration", "must be a whole number of seconds (fio measures once per second)");
}

}  // namespace

FioPhase fio_job_to_phase(const FioJob& job, const std::string& source_name) { return Mapper(job, source_name).map(); }

namespace {

// The jobs and requests in flight of the phase being built, checked as each job joins it.
struct PhaseLoad {
  std::uint64_t jobs = 0, in_flight = 0;
  const FioJob* first = nullptr;
};

void check_load(PhaseLoad& load, std::uint64_t& file_jobs, const FioJob& job, const std::string& src,
                std::uint64_t clones) {
  const bool numjobs = job.numjobs.given() && job.numjobs.value > 1;
  const int line = numjobs ? job.numjobs.line : job.line;
  const std::string key = numjobs ? "numjobs" : "[" + job.name + "]";
  // fio counts every job, clones included, against one limit (REAL_MAX_JOBS, 4096).
  file_jobs += clones;
  if (file_jobs > kMaxJobsPerPhase)
    throw ConfigError(src + ":" + std::to_string(line) + ": " + key + ": " + std::to_string(file_jobs) +
                      " jobs in the file; fio runs at most " + std::to_string(kMaxJobsPerPhase) +
                      " jobs in all, clones included (fio's own limit)");
  const auto fail = [&](int line, const std::string& key, const std::string& what, const std::string& limit) {
    throw ConfigError(src + ":" + std::to_string(line) + ": " + key + ": " + what + " in the phase of [" +
                      load.first->name + "] (line " + std::to_string(load.first->line) + "); " + limit +
                      " (a stonewall starts a new phase)");
  };
  load.jobs += clones;
  load.in_flight += clones * (job.iodepth.given() ? job.iodepth.value : 1);
  if (load.in_flight > kMaxRequestsInFlight)
    fail(job.iodepth.given() ? job.iodepth.line : job.line, job.iodepth.given() ? "iodepth" : "[" + job.name + "]",
         std::to_string(load.in_flight) + " requests in flight over " + std::to_string(load.jobs) + " jobs",
         "a phase keeps at most " + std::to_string(kMaxRequestsInFlight));
}

}  // namespace

std::vector<PhaseSpec> fio_phases(const FioJobFile& file) {
  std::vector<PhaseSpec> phases;
  PhaseLoad load;
  std::uint64_t file_jobs = 0;
  for (std::size_t i = 0; i < file.jobs.size(); ++i) {
    const FioPhase p = fio_job_to_phase(file.jobs[i], file.path);
    const std::uint64_t clones = file.jobs[i].numjobs.given() ? file.jobs[i].numjobs.value : 1;
    if (phases.empty() || p.stonewall) load = PhaseLoad{0, 0, &file.jobs[i]};
    check_load(load, file_jobs, file.jobs[i], file.path, clones);
    for (std::uint64_t c = 0; c < clones; ++c) {
      JobSpec job = p.job;
      job.clone_index = static_cast<std::uint32_t>(c);
      if (phases.empty() || (p.stonewall && c == 0)) {
        PhaseSpec phase;
        phase.name = p.name;
        phase.kind = PhaseKind::kJob;
        phase.job = job;
        phase.line = p.line;
        phases.push_back(phase);
      } else {
        phases.back().more_jobs.push_back(job);
      }
    }
  }
  return phases;
}

ScenarioSpec fio_scenario(const FioJobFile& file, const std::string& drive_path) {
  ScenarioSpec spec;
  spec.path = file.path;
  spec.name = std::filesystem::path(file.path).stem().string();
  spec.description = "fio job file " + file.path;
  spec.drive_path = drive_path;
  spec.notes = file.notes;
  spec.notes.insert(spec.notes.end(), file.warnings.begin(), file.warnings.end());
  spec.phases = fio_phases(file);
  return spec;
}

}  // namespace ssdlab
