// YAML -> validated plain structs. The only place that reads drive configs and scenarios.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "base/config/scenario.h"

namespace ssdlab {

// Every configuration problem: the message always starts "FILE:LINE: key.path: " (LINE is
// 1-based; for a `-p` override the location reads "override 'key=value'").
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The largest drive config, scenario or fio job file read (they are kilobytes of text); larger
// files, and anything but a regular file, are refused naming the path before being read.
constexpr std::uint64_t kMaxConfigFileBytes = 1 << 20;

// Loads and validates a drive config. `overrides` are "key.path=value" strings (the CLI's -p),
// applied before validation; an override naming an unknown key is an error.
DriveConfig load_drive_config(const std::string& path, const std::vector<std::string>& overrides = {});
// Same from text already in memory; `source_name` stands for the file name in messages.
DriveConfig parse_drive_config(const std::string& yaml_text, const std::string& source_name,
                               const std::vector<std::string>& overrides = {});

// The config as YAML that loads back to an identical DriveConfig (written beside every run).
std::string effective_config_yaml(const DriveConfig& config);

// Loads a scenario; the drive path inside it is resolved relative to the scenario file.
// Does not load the drive itself.
ScenarioSpec load_scenario(const std::string& path);
ScenarioSpec parse_scenario(const std::string& yaml_text, const std::string& source_name);

// ConfigError "FILE:LINE: sample_interval: ..." when a phase that is sure to last longer than
// kMaxSamplesPerPhase sample intervals (an idle phase, a time_based job) would write more
// time-series rows than that. Phases of unknown length are checked while they run.
void check_sample_rows(const ScenarioSpec& scenario);
// How the scenario's sample interval was set, for messages: "10ms (the default)", "1ps",
// "--sample-interval 1ps".
std::string sample_interval_text(const ScenarioSpec& scenario);

}  // namespace ssdlab
