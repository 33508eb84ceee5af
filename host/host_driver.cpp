#include "host/host_driver.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/time/timeline.h"
#include "host/io_record.h"

namespace ssdlab {

HostDriver::HostDriver(sc_core::sc_module_name name, Timeline& timeline)
    : sc_core::sc_module(name), m_timeline(timeline) {}

void HostDriver::start(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed, IoStats& stats,
                       JobTally* tally) {
  std::vector<JobRun> jobs(1);
  jobs[0].job = &job;
  jobs[0].seed = seed;
  jobs[0].stats = &stats;
  jobs[0].tally = tally;
  begin(jobs, capacity_bytes, nullptr);
}

void HostDriver::start_group(std::vector<JobRun> jobs, std::uint64_t capacity_bytes, IoStats* total) {
  begin(jobs, capacity_bytes, total);
}

void HostDriver::start_source(std::unique_ptr<IoSource> source, const JobSpec& pacing, IoStats& stats, JobTally* tally,
                              ArrivalLatency* arrival) {
  std::vector<JobRun> jobs(1);
  jobs[0].job = &pacing;
  jobs[0].stats = &stats;
  jobs[0].tally = tally;
  jobs[0].source = std::move(source);
  jobs[0].arrival = arrival;
  begin(jobs, 0, nullptr);
}

void HostDriver::start_trim(std::vector<std::pair<Lba, std::uint64_t>> ranges, IoStats& stats) {
  std::uint64_t sectors = 0;
  for (const auto& range : ranges) sectors += range.second;
  const JobSpec one;  // iodepth 1, no runtime
  std::vector<JobRun> jobs(1);
  jobs[0].job = &one;
  jobs[0].stats = &stats;
  jobs[0].source = std::make_unique<TrimSource>(std::move(ranges));
  begin(jobs, 0, nullptr);
  m_job_bytes = sectors * kSectorBytes;
}

double HostDriver::progress() const {
  if (!m_running) return 0;
  double done = m_job_bytes ? double(m_job_done_bytes) / double(m_job_bytes) : 0;
  if (m_job_runtime_ps) done = std::max(done, double(now_picos() - m_job_start_ps) / double(m_job_runtime_ps));
  return std::min(1.0, done);
}

// Job k of a start: its source, stats, pacing state and request slots [next_slot, + iodepth).
void HostDriver::setup_job(std::uint32_t k, JobRun& run, std::uint64_t capacity_bytes, IoStats* total,
                           std::uint32_t& next_slot) {
  Job& j = m_jobs[k];
  j.index = k;
  const JobSpec& spec = *run.job;
  const bool trace = run.source != nullptr;
  if (trace) {
    j.source = std::move(run.source);
  } else {
    auto generator = std::make_unique<JobGenerator>(spec, capacity_bytes, run.seed);
    m_job_bytes += generator->total_bytes();
    j.generator = generator.get();
    j.source = std::move(generator);
  }
  j.stats = run.stats;
  j.job_stats = run.job_stats;
  j.arrival = run.arrival;
  j.tally = run.tally ? run.tally : &j.own_tally;
  // A trace may carry issue times and flushes, a group adds to `total`: the paced path.
  // A group's jobs keep compact figures and add to the group's (count_group_job): both or neither.
  if ((total != nullptr) != (run.job_stats != nullptr) || (run.job_stats != nullptr) == (run.stats != nullptr))
    throw std::logic_error("host driver: a group's job has job_stats and a total, any other job stats");
  j.paced = trace || spec.paced() || total != nullptr;
  j.total = total;
  j.spec = spec;
  const Picos now = now_picos();
  j.start_ps = now + spec.startdelay_ps;
  j.count_from_ps = j.start_ps + spec.ramp_ps;
  j.ready_ps = j.start_ps;
  const std::uint32_t first = next_slot;
  for (std::uint32_t i = 0; i < spec.iodepth; ++i, ++next_slot) {
    m_requests[next_slot].id = next_slot;
    m_owner[next_slot] = &j;
  }
  for (std::uint32_t i = spec.iodepth; i > 0; --i) j.free.push_back(first + i - 1);  // lowest slot first
  IoCounts& counts = run.job_stats ? static_cast<IoCounts&>(*run.job_stats) : *run.stats;
  counts.first_issue_ps = j.count_from_ps;
  counts.last_complete_ps = j.count_from_ps;
  if (spec.runtime_ps)
    m_job_runtime_ps = std::max(m_job_runtime_ps, spec.startdelay_ps + spec.ramp_ps + spec.runtime_ps);
}

void HostDriver::begin(std::vector<JobRun>& runs, std::uint64_t capacity_bytes, IoStats* total) {
  if (m_running) throw std::logic_error("host driver already runs a job");
  m_job_start_ps = now_picos();
  m_hba = hba.operator->();
  m_job_runtime_ps = 0;
  m_job_bytes = 0;
  m_job_done_bytes = 0;
  std::uint32_t slots = 0;
  bool arrival = false;
  for (const JobRun& run : runs) {
    slots += run.job->iodepth;
    arrival = arrival || run.arrival != nullptr;
  }
  m_requests.assign(slots, IoRequest{});
  m_owner.assign(slots, nullptr);
  m_arrival.assign(arrival ? slots : 0, 0);
  m_jobs.clear();
  m_jobs.resize(runs.size());
  std::uint32_t next_slot = 0;
  for (std::uint32_t k = 0; k < runs.size(); ++k) setup_job(k, runs[k], capacity_bytes, total, next_slot);
  if (total) {
    Picos first = ~Picos(0);
    for (const Job& j : m_jobs) first = std::min(first, j.count_from_ps);
    total->first_issue_ps = total->last_complete_ps = first;
    m_total_completed_seq = 0;
  }
  m_running = true;
  m_active = static_cast<std::uint32_t>(m_jobs.size());
  for (std::uint32_t k = 0; k < m_jobs.size(); ++k) {
    const JobSpec& spec = m_jobs[k].spec;
    m_timeline.cancel(*this, 2 * k);
    if (spec.runtime_ps) m_timeline.after(spec.startdelay_ps + spec.ramp_ps + spec.runtime_ps, *this, 2 * k);
  }
  for (std::uint32_t k = 0; k < m_jobs.size() && m_running; ++k) {
    Job& j = m_jobs[k];
    if (j.paced)
      issue_paced(j);
    else
      issue_more(j);
  }
}

namespace {
constexpr std::uint64_t kChunkSectors = 4096 / kSectorBytes;
}

void HostDriver::mark(std::uint64_t capacity_bytes) {
  const std::uint64_t chunks = (capacity_bytes / kSectorBytes + kChunkSectors - 1) / kChunkSectors;
  m_written.assign((chunks + 63) / 64, 0);
}

void HostDriver::note_written(const IoRequest& r) {
  const std::uint64_t first = r.lba / kChunkSectors;
  const std::uint64_t last = (r.lba + r.sectors - 1) / kChunkSectors;
  for (std::uint64_t c = first; c <= last; ++c) m_written[c / 64] |= std::uint64_t(1) << (c % 64);
}

std::vector<std::pair<Lba, std::uint64_t>> HostDriver::unwritten_ranges(std::uint64_t capacity_bytes) const {
  std::vector<std::pair<Lba, std::uint64_t>> ranges;
  const std::uint64_t sectors = capacity_bytes / kSectorBytes;
  const std::uint64_t chunks = (sectors + kChunkSectors - 1) / kChunkSectors;
  std::uint64_t c = 0;
  while (c < chunks) {
    if (m_written[c / 64] >> (c % 64) & 1) {
      ++c;
      continue;
    }
    const std::uint64_t start = c;
    while (c < chunks && !(m_written[c / 64] >> (c % 64) & 1)) ++c;
    const Lba lba = start * kChunkSectors;
    ranges.emplace_back(lba, std::min(c * kChunkSectors, sectors) - lba);
  }
  return ranges;
}

// Inlined into both issue loops (the closed-loop one is on every request's path).
inline __attribute__((always_inline)) void HostDriver::issue(Job& j, const IoSpec& io, AtaCommand command) {
  IoRequest& r = m_requests[j.free.back()];
  j.free.pop_back();
  r.command = command;
  r.lba = io.lba;
  r.sectors = io.sectors;
  r.error = false;
  r.issued_ps = now_picos();
  r.seq = ++m_next_seq;
  ++j.in_flight;
  m_hba->submit(&r);
}

// The closed-loop path: a free slot is a request issued now.
void HostDriver::issue_more(Job& j) {
  IoSpec io;
  while (!j.stopping && !j.free.empty()) {
    if (!j.generator->next(io)) {
      j.stopping = true;
      break;
    }
    issue(j, io,
          io.trim    ? AtaCommand::kDataSetManagement
          : io.write ? AtaCommand::kWriteFpdma
                     : AtaCommand::kReadFpdma);
  }
  if (j.stopping && j.in_flight == 0) finish_if_drained(j);
}

void HostDriver::io_done(IoRequest* r) {
  Job& job = *m_owner[r->id];
  if (!r->error && r->command != AtaCommand::kDataSetManagement) {
    const std::uint64_t bytes = std::uint64_t(r->sectors) * kSectorBytes;
    if (r->is_write()) {
      if (!m_written.empty()) note_written(*r);
      m_counters.write_bytes += bytes;
    } else {
      m_counters.read_bytes += bytes;
    }
  }
  if (job.paced)
    count_paced(job, *r);
  else
    record_completion(*job.stats, *r, m_last_completed_seq);
  m_interval_latency.record(r->completed_ps - r->issued_ps);
  m_job_done_bytes += std::uint64_t(r->sectors) * kSectorBytes;
  ++m_counters.ios;
  --job.in_flight;
  job.free.push_back(r->id);
  if (job.paced)
    issue_paced(job);
  else
    issue_more(job);
}

// The paced path (kept out of io_done, whose closed-loop path it would slow). A request is issued at the latest of: the
// job's start (startdelay) or the end of its thinktime; its issue time (start + issue_at_ps); and, per direction, fio's
// rate (rate_process=linear): the k-th request of a direction goes at start + (bytes, or requests, of that direction
// issued before it) / rate, so a drive that fell behind is caught up with requests back to back. thinktime: after every
// thinktime_blocks requests the job waits until they completed, then thinks. fsync/fdatasync=N: a FLUSH CACHE EXT right
// after every N-th write.
__attribute__((noinline)) void HostDriver::issue_paced(Job& j) {
  const Picos now = now_picos();
  while (!j.stopping && !j.free.empty()) {
    if (j.quiesce && !j.flush_due) {
      if (j.in_flight) return;
      j.quiesce = false;
      j.ready_ps = std::max(j.ready_ps, now + j.spec.thinktime_ps);
    }
    if (!j.has_pending) {
      j.pending = IoSpec{};  // a source sets what it knows (the generator: not flush, not issue_at_ps)
      if (j.flush_due) {
        j.pending.flush = true;
        j.flush_due = false;
      } else if (!j.source->next(j.pending)) {
        j.stopping = true;
        break;
      }
      j.has_pending = true;
    }
    const Picos at = ready_at(j);
    if (at > now) {
      wake_at(j, at);
      return;
    }
    j.has_pending = false;
    const IoSpec& io = j.pending;
    if (j.arrival) m_arrival[j.free.back()] = j.start_ps + io.issue_at_ps;
    issue(j, io,
          io.trim    ? AtaCommand::kDataSetManagement
          : io.write ? AtaCommand::kWriteFpdma
          : io.flush ? AtaCommand::kFlushCache
                     : AtaCommand::kReadFpdma);
    after_paced_issue(j, j.pending);
  }
  if (j.stopping && j.in_flight == 0) finish_if_drained(j);
}

namespace {
int direction(const IoSpec& io) { return io.trim ? 2 : io.write ? 1 : 0; }
Picos per_rate(std::uint64_t done, std::uint64_t rate) {
  return static_cast<Picos>(static_cast<unsigned __int128>(done) * kPicosPerSec / rate);
}
}  // namespace

Picos HostDriver::ready_at(const Job& j) const {
  const IoSpec& io = j.pending;
  Picos at = j.ready_ps;
  if (io.issue_at_ps) at = std::max(at, j.start_ps + io.issue_at_ps);
  if (!io.flush && (j.spec.rate_bytes || j.spec.rate_iops)) {
    const int d = direction(io);
    if (j.spec.rate_bytes) at = std::max(at, j.start_ps + per_rate(j.issued_bytes[d], j.spec.rate_bytes));
    if (j.spec.rate_iops) at = std::max(at, j.start_ps + per_rate(j.issued_ios[d], j.spec.rate_iops));
  }
  return at;
}

void HostDriver::after_paced_issue(Job& j, const IoSpec& io) {
  if (io.issue_at_ps) {
    const Picos late = now_picos() - (j.start_ps + io.issue_at_ps);
    JobTally& t = *j.tally;
    ++t.timed;
    if (late) ++t.late;
    t.late_max_ps = std::max(t.late_max_ps, late);
    t.late_sum_ps += double(late);
  }
  if (io.flush) return;
  const int d = direction(io);
  j.issued_bytes[d] += std::uint64_t(io.sectors) * kSectorBytes;
  ++j.issued_ios[d];
  if (io.write && j.spec.flush_every && ++j.writes_since_flush == j.spec.flush_every) {
    j.writes_since_flush = 0;
    j.flush_due = true;
  }
  if (j.spec.thinktime_ps && ++j.since_think >= j.spec.thinktime_blocks) {
    j.since_think = 0;
    j.quiesce = true;
  }
}

void HostDriver::wake_at(Job& j, Picos when) {
  const std::uint32_t index = j.index;
  if (j.wake_set && j.wake_ps == when) return;
  if (j.wake_set) m_timeline.cancel(*this, 2 * index + 1);
  j.wake_set = true;
  j.wake_ps = when;
  m_timeline.at(when, *this, 2 * index + 1);
}

// Flushes are counted apart (IoStats has no place for them); ramp completions are not counted.
__attribute__((noinline)) void HostDriver::count_paced(Job& j, const IoRequest& r) {
  if (r.command == AtaCommand::kFlushCache) {
    ++j.tally->flushes;
    return;
  }
  if (r.completed_ps < j.count_from_ps) {
    ++j.tally->ramp_ios;
    return;
  }
  if (j.job_stats) {  // one of a group's jobs (kept apart: the lone job's path stays as it was)
    count_group_job(j, r);
    return;
  }
  record_completion(*j.stats, r, m_last_completed_seq);
  if (j.arrival) count_arrival(j, r);
}

// A group's job: its own compact figures and the group's (the phase's).
__attribute__((noinline)) void HostDriver::count_group_job(Job& j, const IoRequest& r) {
  record_completion(*j.job_stats, r, m_last_completed_seq);
  record_completion(*j.total, r, m_total_completed_seq);
}

// Latency from the request's arrival (its issue time: a trace's time stamp) to its completion.
__attribute__((noinline)) void HostDriver::count_arrival(Job& j, const IoRequest& r) {
  const bool data = !r.error && r.command != AtaCommand::kDataSetManagement;
  (data ? (r.is_write() ? j.arrival->write : j.arrival->read) : j.arrival->other)
      .record(r.completed_ps - m_arrival[r.id]);
}

void HostDriver::stop() {
  for (Job& j : m_jobs) {
    if (j.finished) continue;
    j.stopping = true;
    finish_if_drained(j);
  }
}

void HostDriver::on_timer(std::uint32_t what) {
  const std::uint32_t index = what / 2;
  if (index >= m_jobs.size()) return;
  Job& j = m_jobs[index];
  if (what % 2 == 0) {
    j.stopping = true;  // its runtime is over
  } else {
    j.wake_set = false;
    issue_paced(j);
    return;
  }
  finish_if_drained(j);
}

__attribute__((noinline)) void HostDriver::finish_if_drained(Job& j) {
  const std::uint32_t index = j.index;
  if (m_running && j.stopping && j.in_flight == 0 && !j.finished) {
    j.finished = true;
    m_timeline.cancel(*this, 2 * index);
    if (j.wake_set) m_timeline.cancel(*this, 2 * index + 1);
    j.wake_set = false;
    if (--m_active == 0) {
      m_running = false;
      Timeline::notify(m_done_event);
    }
  }
}

}  // namespace ssdlab
