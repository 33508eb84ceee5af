#include "host/host_driver.h"

#include <stdexcept>

#include "nand/flash_if.h"

namespace ssdlab {

HostDriver::HostDriver(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(on_deadline);
  sensitive << m_deadline_event;
  dont_initialize();
}

void HostDriver::start(const JobSpec& job, std::uint64_t capacity_bytes, std::uint64_t seed,
                       IoStats& stats) {
  if (m_running) throw std::logic_error("host driver already runs a job");
  m_generator = std::make_unique<JobGenerator>(job, capacity_bytes, seed);
  m_requests.assign(job.iodepth, IoRequest{});
  m_free.clear();
  for (std::uint32_t i = job.iodepth; i > 0; --i) {
    m_requests[i - 1].id = i - 1;
    m_free.push_back(i - 1);
  }
  m_stats = &stats;
  m_running = true;
  m_stopping = false;
  m_in_flight = 0;
  stats.first_issue_ps = now_picos();
  stats.last_complete_ps = now_picos();
  m_deadline_event.cancel();
  if (job.runtime_ps) m_deadline_event.notify(to_sc_time(job.runtime_ps));
  issue_more();
  finish_if_drained();
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
    r.command = io.write ? AtaCommand::kWriteFpdma : AtaCommand::kReadFpdma;
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
  IoStats& s = *m_stats;
  const Picos latency = r->completed_ps - r->issued_ps;
  const std::uint64_t bytes = std::uint64_t(r->sectors) * kSectorBytes;
  if (r->error) {
    ++s.errors;
  } else if (r->is_write()) {
    ++s.writes;
    s.write_bytes += bytes;
    m_counters.write_bytes += bytes;
    s.write_latency_ps.record(latency);
  } else {
    ++s.reads;
    s.read_bytes += bytes;
    m_counters.read_bytes += bytes;
    s.read_latency_ps.record(latency);
  }
  ++m_counters.ios;
  if (r->seq < m_last_completed_seq) ++s.reordered;
  if (r->seq > m_last_completed_seq) m_last_completed_seq = r->seq;
  s.latency_ps.record(latency);
  s.wait_tag_ps += r->tagged_ps - r->issued_ps;
  s.in_drive_ps += r->completed_ps - r->tagged_ps;
  s.last_complete_ps = r->completed_ps;
  --m_in_flight;
  m_free.push_back(r->id);
  issue_more();
  finish_if_drained();
}

void HostDriver::on_deadline() {
  m_stopping = true;
  finish_if_drained();
}

void HostDriver::finish_if_drained() {
  if (m_running && m_stopping && m_in_flight == 0) {
    m_running = false;
    m_deadline_event.cancel();
    m_done_event.notify(sc_core::SC_ZERO_TIME);
  }
}

}  // namespace ssdlab
