// `ssdlab run`: load a scenario and its drive, simulate, write the results.
#pragma once

#include <string>
#include <vector>

#include "model/core/config.h"
#include "model/core/scenario.h"
#include "model/sim/phase_result.h"

namespace ssdlab {

struct RunOptions {
  std::string scenario_path;
  std::string out_dir;                 // empty = results/<scenario name>
  std::vector<std::string> overrides;  // applied after the scenario's own
  bool has_seed = false;
  std::uint64_t seed = 0;
  bool quiet = false;
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
// Throws ConfigError for bad input and std::runtime_error when the simulation fails.
RunOutcome run_scenario(const RunOptions& options);
// Same, for a scenario already in memory (tests); writes nothing.
RunOutcome simulate(const ScenarioSpec& scenario, const DriveConfig& config, bool quiet = true);

}  // namespace ssdlab
