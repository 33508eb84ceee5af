// Runs a fio-like job against the HBA: keeps `iodepth` requests in flight, records each
// completion in IoStats, stops at io_size or runtime and then waits for the stragglers.
#pragma once

#include <memory>
#include <vector>

#include "host/sata/ahci_hba.h"
#include "host/workload/job_generator.h"
#include "model/stats/io_stats.h"
#include "model/time/timeline.h"

namespace ssdlab {

// Running totals since construction, read by the time-series sampler.
struct HostCounters {
  std::uint64_t ios = 0, read_bytes = 0, write_bytes = 0;
};

class HostDriver : public sc_core::sc_module, public IoCompletionIf, private TimerClient {
 public:
  sc_core::sc_port<HostAdapterIf> hba;

  HostDriver(sc_core::sc_module_name name, Timeline& timeline);

  // Starts `job` now; results accumulate into `stats` until done_event().
  void start(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed, IoStats& stats);
  // Starts requests from `source` (a trace replay), `depth` in flight; `total_bytes` (0 =
  // unknown) is for progress only.
  void start_source(std::unique_ptr<IoSource> source, std::uint32_t depth, std::uint64_t total_bytes, IoStats& stats) {
    begin(std::move(source), depth, 0, total_bytes, stats);
  }
  // Sends TRIM for the given ranges (first LBA, sectors), one command at a time.
  void start_trim(std::vector<std::pair<Lba, std::uint64_t>> ranges, IoStats& stats);
  // From now on, remember which 4 KiB chunks of the drive get written (trim: unused).
  void mark(std::uint64_t capacity_bytes);
  bool marked() const { return !m_written.empty(); }
  // Ranges (first LBA, sectors) of 4 KiB chunks not written since mark().
  std::vector<std::pair<Lba, std::uint64_t>> unwritten_ranges(std::uint64_t capacity_bytes) const;
  bool running() const { return m_running; }
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
  void on_timer(std::uint32_t what) override;  // the job's runtime is over
  void issue_more();
  void finish_if_drained();

  void begin(std::unique_ptr<IoSource> source, std::uint32_t depth, Picos runtime_ps, std::uint64_t total_bytes,
             IoStats& stats);
  void note_written(const IoRequest& r);

  std::unique_ptr<IoSource> m_generator;
  std::vector<std::uint64_t> m_written;  // bitmap of 4 KiB chunks written since mark()
  std::vector<IoRequest> m_requests;
  std::vector<std::uint32_t> m_free;
  std::uint32_t m_in_flight = 0;
  std::uint64_t m_next_seq = 0, m_last_completed_seq = 0;
  bool m_running = false;
  bool m_stopping = false;
  IoStats* m_stats = nullptr;
  Timeline& m_timeline;
  sc_core::sc_event m_done_event;
  HostCounters m_counters;
  Histogram m_interval_latency;
  // Progress of the running job.
  Picos m_job_start_ps = 0, m_job_runtime_ps = 0;
  std::uint64_t m_job_bytes = 0, m_job_done_bytes = 0;
};

}  // namespace ssdlab
