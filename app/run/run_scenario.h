// `ssdlab run`: load a scenario and its drive, simulate, write the results.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/instruments/instrument_options.h"
#include "app/run/phase_result.h"
#include "app/run/run_image.h"
#include "base/config/config.h"
#include "base/config/scenario.h"
#include "base/core/probe.h"

namespace ssdlab {

struct RunOptions {
  std::string scenario_path;
  std::string out_dir;                 // empty = results/<scenario name>
  std::vector<std::string> overrides;  // applied after the scenario's own
  bool has_seed = false;
  std::uint64_t seed = 0;
  std::string sample_interval;  // --sample-interval DURATION: the scenario's sample_interval replaced
  bool quiet = false;
  double scale = 1.0;  // < 1: a scaled-down drive and scenario (app/run/scale.h)
  // Terminal progress line while a phase runs (only when not quiet and stdout is a TTY).
  bool progress = true;
  // --latency-log FILE: one line per request (app/run/latency_log.h), completions in the
  // window [start, end] of simulated time; format "fio" or "anatomy".
  std::string latency_log;
  std::string latency_log_format = "fio";
  std::string latency_window_text;  // --latency-window as given (it needs --latency-log)
  Picos latency_window_start = 0, latency_window_end = ~Picos(0);
  // --no-plots: skip the plot script (app/run/plots.h); report.html is still written.
  bool no_plots = false;
  InstrumentOptions instruments;  // --vcd, --trace, --trace-window (app/instruments/)
  // `ssdlab run --fio JOB.fio --drive CONFIG`: the jobs of a fio job file instead of a scenario.
  std::string fio_path;
  std::string drive_path;    // also with a scenario: replaces the scenario's drive
  bool fio_lenient = false;  // unsupported fio keys become warnings (listed in fio-notes.txt)
  // --output-format json: fio's JSON on stdout (app/run/fio_output.h); a --fio run writes
  // DIR/fio.json either way.
  std::string output_format = "normal";
  RunImageOptions images;  // --load-image, --save-image (app/run/run_image.h)
};

struct RunOutcome {
  ScenarioSpec scenario;
  DriveConfig config;
  std::vector<PhaseResult> results;
  std::vector<Sample> samples;
  std::string out_dir;
  double wall_seconds = 0;
};

// Elaborates and runs the simulation (once per process: SystemC elaborates only once).
// Throws ConfigError for bad input (a phase the drive cannot run included) and
// std::runtime_error when the simulation fails.
RunOutcome run_scenario(const RunOptions& options);
// Same for a scenario and drive already prepared (`ssdlab replay`): simulates, writes the results.
RunOutcome run_prepared(const RunOptions& options, const ScenarioSpec& scenario, const DriveConfig& config);
// The scenario and drive `run_scenario` would simulate (overrides and scale applied).
void prepare_run(const RunOptions& options, ScenarioSpec& scenario, DriveConfig& config);
// --seed and --sample-interval into `scenario`, then its time-series rows checked
// (check_sample_rows); ConfigError for a bad --sample-interval.
void apply_scenario_options(const RunOptions& options, ScenarioSpec& scenario);
// Same, for a scenario already in memory (tests); writes nothing.
// `probe` (optional) is attached to the drive for the whole run (base/core/probe.h).
RunOutcome simulate(const ScenarioSpec& scenario, const DriveConfig& config, bool quiet = true, Probe* probe = nullptr);
// Same with the run's terminal and instrument options (quiet, progress, latency log).
RunOutcome simulate(const ScenarioSpec& scenario, const DriveConfig& config, const RunOptions& options,
                    Probe* probe = nullptr);
// Several independent drives side by side in one simulation (tests that compare drives).
std::vector<RunOutcome> simulate_all(const std::vector<std::pair<ScenarioSpec, DriveConfig>>& runs);

}  // namespace ssdlab
