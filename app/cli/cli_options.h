// The command-line options `ssdlab run` and `ssdlab replay` share (issue 23: replay has run's
// instruments): --seed, --sample-interval, --latency-log with its format and window, --vcd,
// --trace, --trace-window, --no-progress.
#pragma once

#include "app/run/run_scenario.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace ssdlab {

// Adds the shared options to `cmd`, bound to `run`; returns --seed (its count tells whether it
// was given: RunOptions::has_seed).
CLI::Option* add_shared_run_options(CLI::App& cmd, RunOptions& run);
// "" when the shared options agree with one another, else what is wrong (a usage error).
std::string shared_run_options_error(const RunOptions& run);

}  // namespace ssdlab
