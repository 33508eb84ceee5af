// YAML -> validated plain structs. The only place that reads drive configs and scenarios.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/config/scenario.h"

namespace ssdlab {

// Every configuration problem: the message always starts "FILE:LINE: key.path: " (LINE is
// 1-based; for a `-p` override the location reads "override 'key=value'").
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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

}  // namespace ssdlab
