// Runs a scenario's phases in order on one drive, in simulated time, collecting a
// PhaseResult per phase and a time series sampled at a fixed simulated interval.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/run/phase_meter.h"
#include "app/run/phase_result.h"
#include "app/run/power_report.h"
#include "base/config/config.h"
#include "base/config/scenario.h"
#include "host/host_driver.h"
#include "model/ssd.h"

namespace ssdlab {

class ScenarioRunner : public sc_core::sc_module {
 public:
  Ssd ssd;
  HostDriver driver;

  SC_HAS_PROCESS(ScenarioRunner);
  ScenarioRunner(sc_core::sc_module_name name, const ScenarioSpec& scenario, const DriveConfig& config);

  const std::vector<PhaseResult>& results() const { return m_results; }
  const std::vector<Sample>& samples() const { return m_samples; }
  bool finished() const { return m_finished; }
  const std::string& error() const { return m_error; }
  // The error is the scenario's (a phase the drive cannot run: bs over max_transfer, trim
  // unused without mark, ...), not the simulation's.
  bool error_is_input() const { return m_error_is_input; }
  // Phases this drive cannot run at all (bs over controller.max_transfer), found before the
  // simulation starts: a ConfigError naming file, line and phase. (The same test in the run
  // stays for runners built directly; an exception unwinding through a SystemC thread is what
  // AddressSanitizer mistakes for a stack overflow.)
  static void check_phases(const ScenarioSpec& scenario, const DriveConfig& config);
  // Called after each phase (progress printing).
  std::function<void(const PhaseResult&)> on_phase_done;
  // Where the run is, passed at every time-series sample (the terminal's progress line).
  struct Progress {
    std::size_t phase = 0, phases = 0;
    const std::string* name = nullptr;
    double fraction = -1;  // of the phase, by requests or simulated time; < 0: unknown
    double sim_s = 0;
  };
  std::function<void(const Progress&)> on_progress;

 private:
  void run();
  void run_phase(const PhaseSpec& phase, std::size_t index);
  void run_job_phase(const PhaseSpec& phase, std::size_t index, PhaseResult& r);
  void run_host_work();
  void run_host_work(const PhaseSpec& phase, PhaseResult& r);                             // fio's steadystate keys
  void run_replay(const ReplaySpec& spec, std::uint64_t capacity_bytes, PhaseResult& r);  // replay_phase.cpp
  std::vector<std::pair<Lba, std::uint64_t>> trim_ranges(const TrimSpec& trim) const;
  void on_sample();
  void leave_out_of_interval(const StatsDelta& untimed);

  ScenarioSpec m_scenario;
  DriveConfig m_config;
  std::vector<PhaseResult> m_results;
  std::vector<Sample> m_samples;
  bool m_finished = false;
  std::string m_error;
  bool m_error_is_input = false;
  // Sampler state.
  sc_core::sc_event m_sample_event;
  bool m_sampling = false;
  std::uint32_t m_current_phase = 0;
  Picos m_phase_start_ps = 0;
  void report_progress();
  StatsSnapshot m_last_sample, m_sample;
  StatsDelta m_interval;  // the last interval, storage reused
  // The time-series columns' statistics by catalogue index, looked up once (by name, at the
  // first sample) so that a sample costs one snapshot and one delta, no name lookups.
  struct SampleColumns {
    std::uint32_t ios, read_bytes, write_bytes, free_blocks, host_units, nand_units, gc_erases, dirty_units, hit_rate;
    std::vector<std::uint32_t> die_busy;
    std::unique_ptr<EnergyMeter> energy;  // power.enabled
  };
  std::unique_ptr<SampleColumns> m_columns;
  const SampleColumns& sample_columns();
  Picos m_stalled_ps = 0;
  std::uint64_t m_phase_rows = 0;  // time-series rows of the running phase (kMaxSamplesPerPhase)
  void stop_with(const std::string& error, bool input);
  static constexpr Picos kStallLimitPs = 3600 * kPicosPerSec;
};

}  // namespace ssdlab
