#include "app/run/scenario_runner.h"

#include "app/run/steady_window.h"
#include "base/config/config_loader.h"
#include "base/core/units.h"
#include "controller/ftl/precondition.h"
#include "host/workload/trace/replay_setup.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

namespace ssdlab {

ScenarioRunner::ScenarioRunner(sc_core::sc_module_name name, const ScenarioSpec& scenario, const DriveConfig& config)
    : sc_core::sc_module(name),
      ssd("ssd", config),
      driver("host", ssd.timeline),
      m_scenario(scenario),
      m_config(config) {
  driver.hba(ssd.hba);
  ssd.hba.completion(driver);
  const HostCounters& c = driver.counters();
  const StatGroup host = ssd.stats.group("host");
  host.counter("ios", c.ios, "requests", "host requests completed (reads, writes, trims, flushes)");
  host.counter("read_bytes", c.read_bytes, "bytes", "bytes the host read");
  host.counter("write_bytes", c.write_bytes, "bytes", "bytes the host wrote");
  SC_THREAD(run);
  // The phases run on this thread's stack: room for a job's set-up under AddressSanitizer too
  // (a zipf job's set-up overflowed SystemC's default there).
  set_stack_size(1 << 20);
  SC_METHOD(on_sample);
  sensitive << m_sample_event;
  dont_initialize();
}

namespace {

std::string bs_too_large(std::uint64_t bs, const DriveConfig& config) {
  return "bs " + std::to_string(bs) + " exceeds the drive's controller.max_transfer (" +
         std::to_string(config.controller.max_transfer_bytes) + " bytes)";
}

std::uint64_t largest_bs(const PhaseSpec& p) {
  std::uint64_t bs = p.job.bs_bytes;
  for (const JobSpec& j : p.more_jobs) bs = std::max(bs, j.bs_bytes);
  return bs;
}

std::uint64_t job_seed(std::uint64_t base, std::size_t k) {
  // The k-th job of a phase: a stream of its own, as fio derives each job's seeds from randseed
  // and the job's number; the first job keeps the seed a lone job always had.
  return base + std::uint64_t(k) * 0x9E3779B97F4A7C15ULL;
}

}  // namespace

void ScenarioRunner::check_phases(const ScenarioSpec& scenario, const DriveConfig& config) {
  for (const PhaseSpec& p : scenario.phases) {
    if (p.kind == PhaseKind::kJob && largest_bs(p) > config.controller.max_transfer_bytes) {
      throw ConfigError(scenario.path + ":" + std::to_string(p.line) + ": phase '" + p.name +
                        "': " + bs_too_large(largest_bs(p), config));
    }
    if (p.kind == PhaseKind::kReplay) {
      try {
        check_replay_spec(p.replay);
      } catch (const std::invalid_argument& e) {
        throw ConfigError(scenario.path + ":" + std::to_string(p.line) + ": phase '" + p.name + "': " + e.what());
      }
    }
  }
}

void ScenarioRunner::run_job_phase(const PhaseSpec& phase, std::size_t index, PhaseResult& r) {
  if (largest_bs(phase) > m_config.controller.max_transfer_bytes)
    throw std::invalid_argument(bs_too_large(largest_bs(phase), m_config));
  const std::uint64_t capacity = ssd.controller.user_sectors() * kSectorBytes;
  const std::uint64_t derived = m_scenario.seed * 1000003ULL + index;
  if (phase.more_jobs.empty()) {
    const std::uint64_t seed = phase.job.randseed_set ? phase.job.randseed : derived;
    driver.start(phase.job, capacity, seed, r.io, &r.tally);
    run_host_work(phase, r);
    return;
  }
  std::vector<const JobSpec*> specs = {&phase.job};
  for (const JobSpec& j : phase.more_jobs) specs.push_back(&j);
  r.jobs.resize(specs.size());
  std::vector<JobRun> runs(specs.size());
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const JobSpec& spec = *specs[k];
    r.jobs[k].name = spec.name.empty() ? phase.name : spec.name;
    runs[k].job = &spec;
    runs[k].seed = job_seed(spec.randseed_set ? spec.randseed : derived, k);
    runs[k].job_stats = &r.jobs[k].io;
    runs[k].tally = &r.jobs[k].tally;
    r.jobs[k].group_reporting = spec.group_reporting;
  }
  driver.start_group(std::move(runs), capacity, &r.io);
  run_host_work(phase, r);
  for (const JobResult& j : r.jobs) r.tally.add(j.tally);
}

namespace {

const char* kind_name(PhaseKind kind) {
  switch (kind) {
    case PhaseKind::kSecureErase:
      return "secure_erase";
    case PhaseKind::kJob:
      return "job";
    case PhaseKind::kTrim:
      return "trim";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kMark:
      return "mark";
    case PhaseKind::kPrecondition:
      return "precondition";
    case PhaseKind::kReplay:
      return "replay";
    case PhaseKind::kWear:
      return "wear";
  }
  return "?";
}

}  // namespace

std::vector<std::pair<Lba, std::uint64_t>> ScenarioRunner::trim_ranges(const TrimSpec& trim) const {
  const std::uint64_t capacity = ssd.controller.user_sectors() * kSectorBytes;
  switch (trim.mode) {
    case TrimMode::kAll:
      return {{0, capacity / kSectorBytes}};
    case TrimMode::kUnused:
      if (!driver.marked()) throw std::invalid_argument("trim: unused needs a mark phase before it");
      return driver.unwritten_ranges(capacity);
    case TrimMode::kRange: {
      const std::uint64_t offset = trim.offset.resolve(capacity) / kSectorBytes;
      const std::uint64_t size = trim.size.resolve(capacity) / kSectorBytes;
      if (offset >= capacity / kSectorBytes) throw std::invalid_argument("trim offset is past the end of the drive");
      return {{offset, std::min(size, capacity / kSectorBytes - offset)}};
    }
  }
  return {};
}

void ScenarioRunner::run_host_work() {
  while (driver.running()) sc_core::wait(driver.done_event());
  // The host is idle now: let the drive put its buffer on flash, so that the phase's
  // flash work (WAF, GC) is all counted here. Throughput is over the I/O window only.
  ssd.control().drain();
}

// A job phase: with fio's steadystate keys on one of its jobs, measured once per simulated
// second after steadystate_ramp_time (the phase's IOPS and bytes/s, all jobs: fio's
// group_reporting view); when the last steadystate_duration of figures meet the criterion,
// every job stops, as fio ends a job in steady state.
void ScenarioRunner::run_host_work(const PhaseSpec& phase, PhaseResult& r) {
  const SteadyStateSpec* ss = phase.job.steadystate.enabled() ? &phase.job.steadystate : nullptr;
  for (const JobSpec& j : phase.more_jobs)
    if (!ss && j.steadystate.enabled()) ss = &j.steadystate;
  if (!ss) return run_host_work();
  FioSteadyState& out = r.fio_steady;
  out.enabled = true;
  out.spec = *ss;
  const std::size_t window = static_cast<std::size_t>(ss->duration_ps / kPicosPerSec);
  if (ss->ramp_ps && driver.running()) sc_core::wait(to_sc_time(ss->ramp_ps), driver.done_event());
  HostCounters last = driver.counters();
  while (driver.running()) {
    sc_core::wait(to_sc_time(kPicosPerSec), driver.done_event());
    if (!driver.running()) break;
    const HostCounters& c = driver.counters();
    out.iops.push_back(double(c.ios - last.ios));
    out.bw.push_back(double(c.read_bytes + c.write_bytes - last.read_bytes - last.write_bytes));
    last = c;
    if (out.iops.size() > window) {
      out.iops.erase(out.iops.begin());
      out.bw.erase(out.bw.begin());
    }
    if (out.iops.size() < window) continue;
    const std::vector<double>& y = ss->iops() ? out.iops : out.bw;
    const FioSteadyCheck check = fio_steady_check(*ss, y.data(), y.size());
    out.criterion = check.criterion;
    out.max_deviation = check.max_deviation;
    out.slope = check.slope;
    if (check.holds) {
      out.attained = true;
      driver.stop();
    }
  }
  run_host_work();
}

void ScenarioRunner::run_phase(const PhaseSpec& phase, std::size_t index) {
  // On the heap: its histograms (a few hundred KiB) would fill this SystemC thread's stack.
  const auto result = std::make_unique<PhaseResult>();
  PhaseResult& r = *result;
  r.name = phase.name;
  r.kind = kind_name(phase.kind);
  r.expect = phase.expect;
  const auto wall_start = std::chrono::steady_clock::now();
  m_current_phase = static_cast<std::uint32_t>(index);
  m_phase_start_ps = now_picos();
  m_phase_rows = 0;
  const std::size_t first_row = m_samples.size();
  const std::uint64_t capacity = ssd.controller.user_sectors() * kSectorBytes;
  PhaseMeter meter;
  if (phase.kind == PhaseKind::kSecureErase || phase.kind == PhaseKind::kPrecondition ||
      phase.kind == PhaseKind::kWear) {
    ssd.control().drain();
    ssd.control().quiesce();
  }
  meter.begin(ssd);
  switch (phase.kind) {
    case PhaseKind::kSecureErase:
      ssd.control().secure_erase();
      break;
    case PhaseKind::kMark:
      driver.mark(capacity);
      break;
    case PhaseKind::kPrecondition: {
      PreconditionSpec spec;
      spec.fill_percent = phase.precondition.fill_percent;
      spec.random_percent = phase.precondition.random_percent;
      spec.random_map = phase.precondition.random_map;
      spec.seed = phase.precondition.seed_set ? phase.precondition.seed : m_scenario.seed * 1000003ULL + index;
      using M = PreconditionPhase::Method;
      spec.method = phase.precondition.method == M::kSimulate    ? PreconditionMethod::kSimulate
                    : phase.precondition.method == M::kReplicate ? PreconditionMethod::kReplicate
                                                                 : PreconditionMethod::kAuto;
      spec.group_dies = phase.precondition.group_dies;
      r.precondition = ssd.control().precondition(spec);
      break;
    }
    case PhaseKind::kIdle:
      sc_core::wait(to_sc_time(phase.idle_ps));
      break;
    case PhaseKind::kWear:
      ssd.controller.age_media(phase.wear.pe_cycles, double(phase.wear.retention_s));
      break;
    case PhaseKind::kTrim:
      driver.start_trim(trim_ranges(phase.trim), r.io);
      run_host_work();
      break;
    case PhaseKind::kJob:
      run_job_phase(phase, index, r);
      break;
    case PhaseKind::kReplay:
      run_replay(phase.replay, capacity, r);
      break;
  }
  meter.end(ssd, r);
  if (r.sim_end_ps == r.sim_start_ps && !r.stats.empty()) leave_out_of_interval(r.stats);
  if ((phase.kind == PhaseKind::kJob || phase.kind == PhaseKind::kReplay) && r.io.ios() > 0) {
    const double ps = double(kPicosPerSec);
    r.steady = steady_window(m_samples, first_row, m_samples.size(), double(r.io.first_issue_ps) / ps,
                             double(r.io.last_complete_ps) / ps, r.iops());
  }
  if (ssd.config().power.enabled && !r.stats.empty() && r.sim_end_ps > r.sim_start_ps) {
    const EnergyMeter energy(r.stats.catalogue(), ssd.config());
    r.power_average_w = energy.energy(r.stats).total() / r.seconds();
  }
  // Peak power: over the intervals wholly within the phase (the first one mostly holds the
  // phase before's tail).
  const double phase_start_s = double(r.sim_start_ps) / double(kPicosPerSec);
  for (std::size_t row = first_row; row < m_samples.size(); ++row)
    if (m_samples[row].start_s >= phase_start_s) r.power_peak_w = std::max(r.power_peak_w, m_samples[row].power_w);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  m_results.push_back(std::move(r));
  if (on_phase_done) on_phase_done(m_results.back());
}

// A phase that took no simulated time (a secure erase, a precondition) did its work between
// two samples: move the interval's start past it, so that the next row measures only the
// timed work around it (its GC erases and WAF are the phase's, in summary.json).
void ScenarioRunner::leave_out_of_interval(const StatsDelta& untimed) {
  const std::vector<StatDef>& defs = untimed.catalogue().defs();
  if (m_last_sample.values.size() != defs.size()) return;
  for (std::uint32_t i = 0; i < defs.size(); ++i) {
    if (defs[i].kind == StatKind::kCounter || defs[i].kind == StatKind::kBusy)
      m_last_sample.values[i].count += untimed.count_at(i);
  }
}

void ScenarioRunner::run() {
  // A power figure to compare needs power reported (else it would read NaN, silently).
  for (const PhaseSpec& p : m_scenario.phases) {
    for (const Expectation& e : p.expect) {
      if (e.metric != "power_w" || ssd.config().power.enabled) continue;
      m_error = m_scenario.path + ":" + std::to_string(p.line) + ": phase '" + p.name +
                "': expect.power_w needs power.enabled (in the drive config, or overrides: {power.enabled: true})";
      m_error_is_input = true;
      return;
    }
  }
  m_sampling = true;
  m_last_sample = ssd.stats.snapshot(now_picos());
  m_sample_event.notify(to_sc_time(m_scenario.sample_interval_ps));
  try {
    for (std::size_t i = 0; i < m_scenario.phases.size(); ++i) run_phase(m_scenario.phases[i], i);
    m_finished = true;
  } catch (const std::exception& e) {
    const PhaseSpec& p = m_scenario.phases[m_results.size()];
    m_error = m_scenario.path + ":" + std::to_string(p.line) + ": phase '" + p.name + "': " + e.what();
    m_error_is_input = dynamic_cast<const std::invalid_argument*>(&e) != nullptr;
  }
  // No sc_stop(): with the sampler cancelled and the drive drained nothing is left to do,
  // so sc_start() returns by itself, and several runners can share one simulation.
  m_sampling = false;
  m_sample_event.cancel();
}

void ScenarioRunner::report_progress() {
  if (m_current_phase >= m_scenario.phases.size()) return;
  const PhaseSpec& phase = m_scenario.phases[m_current_phase];
  Progress p;
  p.phase = m_current_phase;
  p.phases = m_scenario.phases.size();
  p.name = &phase.name;
  p.sim_s = double(now_picos()) / double(kPicosPerSec);
  if (driver.running()) {
    p.fraction = driver.progress();
  } else if (phase.kind == PhaseKind::kIdle && phase.idle_ps) {
    p.fraction = std::min(1.0, double(now_picos() - m_phase_start_ps) / double(phase.idle_ps));
  }
  on_progress(p);
}

const ScenarioRunner::SampleColumns& ScenarioRunner::sample_columns() {
  if (m_columns) return *m_columns;
  const StatCatalogue& cat = *ssd.stats.catalogue();
  auto at = [&cat](const std::string& name) {
    const std::int64_t i = cat.find(name);
    if (i < 0) throw std::logic_error("time series: no statistic named " + name);
    return static_cast<std::uint32_t>(i);
  };
  auto c = std::make_unique<SampleColumns>();
  c->ios = at("host.ios");
  c->read_bytes = at("host.read_bytes");
  c->write_bytes = at("host.write_bytes");
  c->free_blocks = at(stat_path::kFtl + "free_blocks");
  c->host_units = at(stat_path::kFtl + "host_units_written");
  c->nand_units = at(stat_path::kFtl + "nand_units_programmed");
  c->gc_erases = at(stat_path::kFtl + "gc_erases");
  c->dirty_units = at("drive.controller.buffer.dirty_units");
  c->hit_rate = at("drive.controller.mapping_cache.hit_rate");
  c->die_busy = cat.matching(stat_path::kDieBusy);
  if (ssd.config().power.enabled) c->energy = std::make_unique<EnergyMeter>(cat, ssd.config());
  m_columns = std::move(c);
  return *m_columns;
}

// Ends the simulation from the sampler with `error` (an input error: exit 2).
void ScenarioRunner::stop_with(const std::string& error, bool input) {
  m_error = error;
  m_error_is_input = input;
  m_sampling = false;
  sc_core::sc_stop();
}

void ScenarioRunner::on_sample() {
  if (!m_sampling) return;
  if (m_phase_rows >= kMaxSamplesPerPhase) {  // bounded memory whatever the interval and the phase
    const PhaseSpec& p = m_scenario.phases[m_current_phase];
    const int line = m_scenario.sample_interval_line > 0 ? m_scenario.sample_interval_line : p.line;
    stop_with(m_scenario.path + ":" + std::to_string(line) + ": sample_interval: phase '" + p.name + "' reached " +
                  std::to_string(kMaxSamplesPerPhase) + " time-series rows at " + sample_interval_text(m_scenario) +
                  " (" + format_duration(now_picos() - m_phase_start_ps) +
                  " simulated); a phase writes at most that many: raise sample_interval (or --sample-interval)",
              true);
    return;
  }
  ++m_phase_rows;
  const SampleColumns& col = sample_columns();
  ssd.stats.snapshot_into(now_picos(), m_sample);
  if (m_interval.empty())
    m_interval = ssd.stats.diff(m_last_sample, m_sample);
  else
    m_interval.assign(m_last_sample, m_sample);
  const StatsDelta& d = m_interval;
  const Picos span = d.span_ps();
  const double dt = double(span) / double(kPicosPerSec);
  const std::uint64_t ios = d.count_at(col.ios);
  Sample s;
  s.time_s = double(m_sample.time_ps) / double(kPicosPerSec);
  s.start_s = double(m_last_sample.time_ps) / double(kPicosPerSec);
  s.phase = m_current_phase;
  if (dt > 0) {
    s.read_mbps = double(d.count_at(col.read_bytes)) / dt / 1e6;
    s.write_mbps = double(d.count_at(col.write_bytes)) / dt / 1e6;
    s.iops = double(ios) / dt;
  }
  s.free_blocks = static_cast<std::uint64_t>(d.level_at(col.free_blocks));
  const std::uint64_t host = d.count_at(col.host_units);
  s.host_units = host;
  s.nand_units = d.count_at(col.nand_units);
  if (host) s.waf = double(s.nand_units) / double(host);
  s.gc_erases = d.count_at(col.gc_erases);
  const double hit_rate = d.value_at(col.hit_rate);
  if (hit_rate >= 0) s.map_hit_rate = hit_rate;  // NaN: no access
  s.buffer_dirty_units = static_cast<std::uint64_t>(d.level_at(col.dirty_units));
  s.die_busy = d.mean_busy_fraction_at(col.die_busy);
  if (col.energy && dt > 0) s.power_w = col.energy->energy(d).total() / dt;
  const Histogram& latency = driver.interval_latency();
  s.latency_count = latency.count();
  if (s.latency_count) {
    s.p50_ps = latency.quantile(0.50);
    s.p99_ps = latency.quantile(0.99);
    driver.reset_interval_latency();
  }
  m_samples.push_back(s);
  if (on_progress) report_progress();
  // Requests in the drive that stop completing for a long simulated time mean a stalled drive
  // (a firmware bug): report it instead of sampling forever. Time with nothing in flight is the
  // workload's own (a trace's idle gap, thinktime, a rate, a startdelay), never a stall.
  if (driver.running() && ios == 0 && driver.in_flight() > 0) {
    m_stalled_ps += span;
    if (m_stalled_ps > kStallLimitPs) {
      stop_with(m_scenario.path + ": phase '" + m_scenario.phases[m_current_phase].name +
                    "': the drive completed no request for " + std::to_string(kStallLimitPs / kPicosPerSec) +
                    " simulated seconds (stalled)",
                false);
      return;
    }
  } else {
    m_stalled_ps = 0;
  }
  std::swap(m_last_sample, m_sample);
  m_sample_event.notify(to_sc_time(m_scenario.sample_interval_ps));
}

}  // namespace ssdlab
