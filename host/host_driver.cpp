#include "host/host_driver.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "host/io_record.h"
#include "model/time/timeline.h"

namespace ssdlab {

HostDriver::HostDriver(sc_core::sc_module_name name, Timeline& timeline)
    : sc_core::sc_module(name), m_timeline(timeline) {}

void HostDriver::start(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed, IoStats& stats) {
  auto generator = std::make_unique<JobGenerator>(job, capacity_bytes, seed);
  const std::uint64_t total = generator->total_bytes();
  begin(std::move(generator), job.iodepth, job.runtime_ps, total, stats);
}

void HostDriver::start_trim(std::vector<std::pair<Lba, std::uint64_t>> ranges, IoStats& stats) {
  std::uint64_t sectors = 0;
  for (const auto& range : ranges) sectors += range.second;
  begin(std::make_unique<TrimSource>(std::move(ranges)), 1, 0, sectors * kSectorBytes, stats);
}

double HostDriver::progress() const {
  if (!m_running) return 0;
  double done = m_job_bytes ? double(m_job_done_bytes) / double(m_job_bytes) : 0;
  if (m_job_runtime_ps) done = std::max(done, double(now_picos() - m_job_start_ps) / double(m_job_runtime_ps));
  return std::min(1.0, done);
}

void HostDriver::begin(std::unique_ptr<IoSource> source, std::uint32_t depth, Picos runtime_ps,
                       std::uint64_t total_bytes, IoStats& stats) {
  if (m_running) throw std::logic_error("host driver already runs a job");
  m_job_start_ps = now_picos();
  m_job_runtime_ps = runtime_ps;
  m_job_bytes = total_bytes;
  m_job_done_bytes = 0;
  m_generator = std::move(source);
  m_requests.assign(depth, IoRequest{});
  m_free.clear();
  for (std::uint32_t i = depth; i > 0; --i) {
    m_requests[i - 1].id = i - 1;
    m_free.push_back(i - 1);
  }
  m_stats = &stats;
  m_running = true;
  m_stopping = false;
  m_in_flight = 0;
  stats.first_issue_ps = now_picos();
  stats.last_complete_ps = now_picos();
  m_timeline.cancel(*this, 0);
  if (runtime_ps) m_timeline.after(runtime_ps, *this, 0);
  issue_more();
  finish_if_drained();
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

void HostDriver::issue_more() {
  IoSpec io;
  while (!m_stopping && !m_free.empty()) {
    if (!m_generator->next(io)) {
      m_stopping = true;
      break;
    }
    IoRequest& r = m_requests[m_free.back()];
    m_free.pop_back();
    r.command = io.trim ? AtaCommand::kDataSetManagement : io.write ? AtaCommand::kWriteFpdma : AtaCommand::kReadFpdma;
    r.lba = io.lba;
    r.sectors = io.sectors;
    r.error = false;
    r.issued_ps = now_picos();
    r.seq = ++m_next_seq;
    ++m_in_flight;
    hba->submit(&r);
  }
}

void HostDriver::io_done(IoRequest* r) {
  if (!r->error && r->command != AtaCommand::kDataSetManagement) {
    const std::uint64_t bytes = std::uint64_t(r->sectors) * kSectorBytes;
    if (r->is_write()) {
      if (!m_written.empty()) note_written(*r);
      m_counters.write_bytes += bytes;
    } else {
      m_counters.read_bytes += bytes;
    }
  }
  record_completion(*m_stats, *r, m_last_completed_seq);
  m_interval_latency.record(r->completed_ps - r->issued_ps);
  m_job_done_bytes += std::uint64_t(r->sectors) * kSectorBytes;
  ++m_counters.ios;
  --m_in_flight;
  m_free.push_back(r->id);
  issue_more();
  finish_if_drained();
}

void HostDriver::on_timer(std::uint32_t) {
  m_stopping = true;
  finish_if_drained();
}

void HostDriver::finish_if_drained() {
  if (m_running && m_stopping && m_in_flight == 0) {
    m_running = false;
    m_timeline.cancel(*this, 0);
    Timeline::notify(m_done_event);
  }
}

}  // namespace ssdlab
