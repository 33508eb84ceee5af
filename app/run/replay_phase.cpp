// ScenarioRunner's replay phase: a block trace through the host driver (kept out of
// scenario_runner.cpp so the phase kinds' owners edit different files).
#include "app/run/scenario_runner.h"
#include "host/workload/trace/replay_setup.h"

#include <memory>
#include <stdexcept>

namespace ssdlab {

void ScenarioRunner::run_replay(const ReplaySpec& spec, std::uint64_t capacity_bytes, PhaseResult& r) {
  std::unique_ptr<TraceSource> source =
      make_trace_source(spec, capacity_bytes / kSectorBytes, m_config.controller.max_transfer_bytes);
  const TraceSource& trace = *source;  // the driver keeps it until the next phase starts
  JobSpec pacing;                      // a trace's own times (issue_at_ps) pace it; only the queue depth is set here
  pacing.iodepth = spec.iodepth;
  // In trace timing each request has an arrival time: its latency from it is kept too.
  std::shared_ptr<ArrivalLatency> arrival;
  if (spec.timing == "trace") arrival = std::make_shared<ArrivalLatency>();
  driver.start_source(std::move(source), pacing, r.io, &r.tally, arrival.get());
  run_host_work();
  r.arrival = arrival;
  r.replay = trace_count_rows(trace);
  if (!trace.error().empty()) throw std::invalid_argument(trace.error());  // bad input: exit 2
}

}  // namespace ssdlab
