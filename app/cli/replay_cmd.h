// `ssdlab replay TRACE --drive CONFIG`: a block trace replayed as one phase on a fresh drive,
// with the same result files as `ssdlab run` (summary.json with a "replay" object per phase).
#pragma once

#include <string>
#include <vector>

#include "app/run/run_scenario.h"
#include "base/config/replay_spec.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace ssdlab {

struct ReplayOptions {
  ReplaySpec spec;
  std::string drive_path;
  RunOptions run;                     // --out, -p, --quiet, --no-plots and run's instruments (scenario_path unused)
  const CLI::Option* seed = nullptr;  // --seed, once add_replay_command ran (given: run.seed replaces 1)
};

// The subcommand's options, bound to `options` (main.cpp).
CLI::App* add_replay_command(CLI::App& app, ReplayOptions& options);
// Throws ConfigError for bad input (exit 2), std::runtime_error for a failed simulation.
RunOutcome run_replay(const ReplayOptions& options);
// The one-phase scenario `ssdlab replay` runs.
ScenarioSpec replay_scenario(const ReplaySpec& spec, const std::string& drive_path);

}  // namespace ssdlab
