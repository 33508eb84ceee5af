// Runs fio-like jobs against the HBA: each keeps `iodepth` requests in flight, records each
// completion in its IoStats, stops at io_size or runtime and then waits for the stragglers.
// Several jobs may run at once (fio's numjobs and job sections without stonewall): they share
// the HBA's NCQ tags, a request without a tag waiting in the HBA's FIFO as fio's requests wait
// in the block layer. A paced job (startdelay, ramp_time, thinktime, rate, fsync, or a source
// with issue times) takes the slower path; a lone closed-loop job costs what it always did.
#pragma once

#include <memory>
#include <vector>

#include "base/stats/io_stats.h"
#include "base/time/timeline.h"
#include "host/job_tally.h"
#include "host/sata/ahci_hba.h"
#include "host/workload/job_generator.h"

namespace ssdlab {

// One job of a group started at once. `source` null: a JobGenerator for `*job` and `seed`.
// Its completions go to `stats`, or for one of a group's jobs (start_group with a total) to
// the compact `job_stats` and the total (exactly one of stats and job_stats is set).
struct JobRun {
  const JobSpec* job = nullptr;
  std::uint64_t seed = 0;
  IoStats* stats = nullptr;
  JobIoStats* job_stats = nullptr;
  JobTally* tally = nullptr;          // null: not kept
  std::unique_ptr<IoSource> source;   // a trace, or null
  ArrivalLatency* arrival = nullptr;  // latency from each request's issue time too (a trace's)
};

// Running totals since construction, read by the time-series sampler.
struct HostCounters {
  std::uint64_t ios = 0, read_bytes = 0, write_bytes = 0;
};

class HostDriver : public sc_core::sc_module, public IoCompletionIf, private TimerClient {
 public:
  sc_core::sc_port<HostAdapterIf> hba;

  HostDriver(sc_core::sc_module_name name, Timeline& timeline);

  // Starts `job` now; results accumulate into `stats` until done_event().
  void start(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed, IoStats& stats,
             JobTally* tally = nullptr);
  // Starts every job of `jobs` now, at the same time; done_event() when all are done. Each
  // completion goes to its job's stats or, when `total` is given (the phase's figures), to its
  // job_stats and to `total`.
  void start_group(std::vector<JobRun> jobs, std::uint64_t capacity_bytes, IoStats* total = nullptr);
  // A job whose requests come from `source` (a trace): `pacing` gives iodepth, runtime and the
  // pacing keys (its access keys are unused); issue_at_ps and flush are honoured.
  // `arrival`: also record each request's latency from its issue time (trace timing).
  void start_source(std::unique_ptr<IoSource> source, const JobSpec& pacing, IoStats& stats, JobTally* tally = nullptr,
                    ArrivalLatency* arrival = nullptr);
  // Sends TRIM for the given ranges (first LBA, sectors), one command at a time.
  void start_trim(std::vector<std::pair<Lba, std::uint64_t>> ranges, IoStats& stats);
  // From now on, remember which 4 KiB chunks of the drive get written (trim: unused).
  void mark(std::uint64_t capacity_bytes);
  bool marked() const { return !m_written.empty(); }
  // Ranges (first LBA, sectors) of 4 KiB chunks not written since mark().
  std::vector<std::pair<Lba, std::uint64_t>> unwritten_ranges(std::uint64_t capacity_bytes) const;
  // Ends every running job now, as its runtime ending would: nothing more is issued, the
  // requests in flight complete, then done_event() (fio's steady state reached).
  void stop();
  bool running() const { return m_running; }
  // Requests issued to the HBA and not completed yet (all jobs; trims and flushes too).
  std::uint64_t in_flight() const { return m_next_seq - m_counters.ios; }
  const sc_core::sc_event& done_event() const { return m_done_event; }
  const HostCounters& counters() const { return m_counters; }
  // Latency of every request completed since the last reset_interval_latency() (the time
  // series' per-interval percentiles).
  const Histogram& interval_latency() const { return m_interval_latency; }
  void reset_interval_latency() { m_interval_latency.clear(); }
  // How far the running job is, in [0, 1]: the larger of bytes (or trim ranges) done over the
  // job's total and simulated time over its runtime; 0 when nothing runs.
  double progress() const;

  void io_done(IoRequest* request) override;

 private:
  struct Job {
    std::unique_ptr<IoSource> source;
    JobGenerator* generator = nullptr;  // = source when it is one (the closed-loop path calls it directly)
    IoStats* stats = nullptr;
    JobIoStats* job_stats = nullptr;    // instead of stats: one of several jobs (paced only)
    ArrivalLatency* arrival = nullptr;  // paced only
    std::uint32_t index = 0;            // in m_jobs
    IoStats* total = nullptr;           // paced only
    JobTally* tally = nullptr;          // the caller's, or own_tally
    JobTally own_tally;
    std::vector<std::uint32_t> free;  // its request slots not in flight
    std::uint32_t in_flight = 0;
    bool stopping = false, finished = false;
    bool paced = false;  // the slow path: pacing, a group total, a source with issue times
    // Pacing state (paced jobs only).
    JobSpec spec;  // iodepth and the pacing keys
    Picos start_ps = 0, count_from_ps = 0, ready_ps = 0, wake_ps = 0;
    bool wake_set = false, quiesce = false, flush_due = false, has_pending = false;
    IoSpec pending;
    std::uint32_t since_think = 0, writes_since_flush = 0;
    std::uint64_t issued_bytes[3] = {0, 0, 0}, issued_ios[3] = {0, 0, 0};
  };
  // Timer `what`: 2 * job index (its runtime is over), + 1 (a paced job may issue again).
  void on_timer(std::uint32_t what) override;
  void issue_more(Job& job);
  void issue_paced(Job& job);
  void issue(Job& job, const IoSpec& io, AtaCommand command);
  void after_paced_issue(Job& job, const IoSpec& io);
  Picos ready_at(const Job& job) const;
  void wake_at(Job& job, Picos when);
  void count_paced(Job& job, const IoRequest& r);
  void count_group_job(Job& job, const IoRequest& r);
  void count_arrival(Job& job, const IoRequest& r);
  void finish_if_drained(Job& job);

  void begin(std::vector<JobRun>& jobs, std::uint64_t capacity_bytes, IoStats* total);
  void setup_job(std::uint32_t k, JobRun& run, std::uint64_t capacity_bytes, IoStats* total, std::uint32_t& next_slot);
  void note_written(const IoRequest& r);

  std::vector<Job> m_jobs;
  std::vector<Job*> m_owner;             // request slot -> its job
  std::vector<Picos> m_arrival;          // request slot -> its arrival time (jobs with `arrival` only)
  HostAdapterIf* m_hba = nullptr;        // hba's interface, looked up once per start
  std::uint32_t m_active = 0;            // jobs not finished
  std::vector<std::uint64_t> m_written;  // bitmap of 4 KiB chunks written since mark()
  std::vector<IoRequest> m_requests;
  std::uint64_t m_next_seq = 0, m_last_completed_seq = 0, m_total_completed_seq = 0;
  bool m_running = false;
  Timeline& m_timeline;
  sc_core::sc_event m_done_event;
  HostCounters m_counters;
  Histogram m_interval_latency;
  // Progress of the running job.
  Picos m_job_start_ps = 0, m_job_runtime_ps = 0;
  std::uint64_t m_job_bytes = 0, m_job_done_bytes = 0;
};

}  // namespace ssdlab
